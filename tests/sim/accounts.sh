#!/bin/sh
# accounts.sh - --hierarchy accounts in the simulator (doc/semantics.md
# §21): ostrich-gen writes accounts on the user lines and refuses sizes
# that do not add up; a closed-loop file without accounts reads as before
# (the same replay under both hierarchies); a 1-user account against a
# 10-user account: nested, the solo user's campaigns are served as one
# holding half the machine (its mean stretch falls well below the flat
# replay's, and below the other account's), and so it does under the
# Fair-Tree-like baseline against fair-share; an SWF's group field
# (13) makes the accounts, and a trace with one group replays as flat.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${GEN:=../../sim/ostrich-gen}" "${DATA:=data}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$GEN" --experiment ostrich --users 11 --short-frac 1 --accounts 1,10 \
	--jobs 3000 -o "$tmp/solo.cwl" || fail "gen --accounts"
grep -qx "user 1 class short account 1" "$tmp/solo.cwl" || fail "user 1"
grep -qx "user 11 class short account 2" "$tmp/solo.cwl" || fail "user 11"
for bad in 1,9 1,11 0,11 1,x ,; do
	"$GEN" --experiment ostrich --users 11 --accounts "$bad" \
		>/dev/null 2>&1
	[ $? -eq 2 ] || fail "--accounts $bad accepted"
done

# no account in the file: both hierarchies replay the same
"$GEN" --experiment ostrich --users 5 --jobs 1500 -o "$tmp/plain.cwl" ||
	exit 1
for h in users accounts; do
	"$SIM" --quiet --hierarchy $h --jobs-out "$tmp/plain-$h.csv" \
		"$tmp/plain.cwl" || fail "plain replay ($h)"
done
cmp -s "$tmp/plain-users.csv" "$tmp/plain-accounts.csv" ||
	fail "no account, yet nested differs from flat"

# mean stretch of user 1 and of the others, from --campaigns-out
means() {
	awk -F, 'NR > 1 { if ($1 == 1) { s += $9; n++ } else { b += $9; m++ } }
		END { printf "%.6f %.6f\n", s / n, b / m }' "$1"
}
# favours L1 OPTS1 L2 OPTS2 K: replay solo.cwl both ways; under the
# second the solo user's mean stretch is below K times the first's and
# below the other account's users'
favours() {
	# shellcheck disable=SC2086
	"$SIM" --quiet $2 --campaigns-out "$tmp/solo-$1.csv" \
		"$tmp/solo.cwl" || fail "solo replay ($1)"
	# shellcheck disable=SC2086
	"$SIM" --quiet $4 --campaigns-out "$tmp/solo-$3.csv" \
		"$tmp/solo.cwl" || fail "solo replay ($3)"
	set -- "$1" "$3" "$5" $(means "$tmp/solo-$1.csv") \
		$(means "$tmp/solo-$3.csv")
	echo "solo/big mean stretch: $1 $4 / $5, $2 $6 / $7"
	awk -v f="$4" -v n="$6" -v b="$7" -v k="$3" \
		'BEGIN { exit !(n < k * f && n < b) }' ||
		fail "$2 does not favour the 1-user account"
}
favours flat "--hierarchy users" nested "--hierarchy accounts" 0.5
# the Fair-Tree-like baseline ranks the less used account first
favours fairshare "--policy fairshare" fairtree "--policy fairtree" 0.6

# SWF: group 1 holds user 1, group 2 users 2 and 3; one group is flat
awk 'BEGIN { for (i = 1; i <= 60; i++) { u = 1 + i % 3
	printf "%d %d -1 %d 1 -1 -1 1 %d -1 1 %d %d -1 -1 -1 -1 -1\n",
		i, i, 50 + i % 7, 60, u, u == 1 ? 1 : 2 } }' >"$tmp/g.swf"
sed 's/ [12] -1 -1 -1 -1 -1$/ 5 -1 -1 -1 -1 -1/' "$tmp/g.swf" >"$tmp/one.swf"
for h in users accounts; do
	"$SIM" --quiet --procs 2 --hierarchy $h --jobs-out "$tmp/g-$h.csv" \
		"$tmp/g.swf" || fail "swf replay ($h)"
	"$SIM" --quiet --procs 2 --hierarchy $h --jobs-out "$tmp/one-$h.csv" \
		"$tmp/one.swf" || fail "one-group replay ($h)"
done
cmp -s "$tmp/one-users.csv" "$tmp/one-accounts.csv" ||
	fail "one group, yet nested differs from flat"
cmp -s "$tmp/g-users.csv" "$tmp/g-accounts.csv" &&
	fail "two groups, yet nested is flat"
exit 0
