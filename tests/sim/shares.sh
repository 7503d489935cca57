#!/bin/sh
# shares.sh - ostrich-sim --shares FILE: the fairshare baseline with a
# site's association shares (sshare -a -P, sacctmgr -P show assoc) instead
# of equal ones.  data/shares.sacct: on 2 CPUs alice (chem) and bob (phys)
# each run one 1-CPU job for 100 s, then each wait with a 2-CPU job, bob's
# submitted first.  Equal usage: with equal shares bob's runs first (the
# earlier submit); with chem's 100 shares against phys's 1, alice's usage
# over her share is the smaller and hers runs first.  A file of equal
# shares gives the equal-shares replay byte for byte; users the file lacks
# get share 1, said; a file without the header, or --shares on an SWF
# trace, is refused as an unreadable workload is (exit 1).
# SPDX-License-Identifier: GPL-2.0-or-later
set -u

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}"
TZ=UTC
export TZ
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
bad() { echo "FAIL $*"; fail=1; }
run() { "$SIM" --quiet --policy fairshare --procs 2 "$@" "$DATA/shares.sacct"; }
# start JOBS.CSV JOB: the start of job JOB
start() { awk -F, -v j="$2" '$1 == j { print $5 }' "$1"; }

run --jobs-out "$tmp/equal.csv" || bad "equal shares: exit status"
run --shares "$DATA/shares-skewed.sshare" --jobs-out "$tmp/skewed.csv" 2> "$tmp/err" ||
	bad "sshare file: exit status $(cat "$tmp/err")"
[ "$(start "$tmp/equal.csv" 3)" -lt "$(start "$tmp/equal.csv" 4)" ] &&
	ok "equal shares: bob's job (the earlier) first" || bad "equal shares: $(cat "$tmp/equal.csv")"
[ "$(start "$tmp/skewed.csv" 4)" -lt "$(start "$tmp/skewed.csv" 3)" ] &&
	ok "chem 100 shares, phys 1 (sshare -a -P): alice's job first" ||
	bad "skewed shares: $(cat "$tmp/skewed.csv")"
[ ! -s "$tmp/err" ] && ok "every user and account in the file: nothing said" || bad "said: $(cat "$tmp/err")"
run --shares "$DATA/shares-equal.sacctmgr" --jobs-out "$tmp/same.csv" &&
	cmp -s "$tmp/equal.csv" "$tmp/same.csv" &&
	ok "equal shares from sacctmgr -P show assoc: the equal-shares replay, byte for byte" ||
	bad "equal shares file differs"
# the other policies do not read shares
"$SIM" --quiet --policy ostrich --procs 2 --jobs-out "$tmp/o1.csv" "$DATA/shares.sacct" &&
	"$SIM" --quiet --policy ostrich --procs 2 --shares "$DATA/shares-skewed.sshare" \
		--jobs-out "$tmp/o2.csv" "$DATA/shares.sacct" && cmp -s "$tmp/o1.csv" "$tmp/o2.csv" &&
	ok "ostrich ignores --shares" || bad "ostrich changed with --shares"
printf 'Account|User|RawShares\nchem||3\nchem|alice|1\n' > "$tmp/part.sshare"
run --shares "$tmp/part.sshare" 2> "$tmp/err" && grep -q -- '--shares: 2 users or accounts of the dump are not in' "$tmp/err" &&
	ok "bob and phys missing: share 1, said" || bad "missing: $(cat "$tmp/err")"
printf 'chem|alice|1\n' > "$tmp/nohdr"
run --shares "$tmp/nohdr" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'must name Account, User and RawShares' "$tmp/err" &&
	ok "no header: exit 1, said" || bad "no header: $(cat "$tmp/err")"
run --shares "$tmp/none" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'No such file' "$tmp/err" && ok "no file: exit 1" || bad "no file: $(cat "$tmp/err")"
"$SIM" --quiet --policy fairshare --shares "$DATA/shares-skewed.sshare" "$DATA/semantics3.swf" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'needs a sacct dump' "$tmp/err" && ok "SWF: exit 1, needs a sacct dump" ||
	bad "SWF: $(cat "$tmp/err")"
exit $fail
