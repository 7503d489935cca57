#!/bin/sh
# closed-loop.sh - ostrich-gen writes the papers' two workloads (small
# instances); ostrich-sim replays them under every policy; the replays
# keep the invariants, campaigns are released only after the user's
# previous one completed, and the same seed gives the same file.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${GEN:=../../sim/ostrich-gen}" "${srcdir:=.}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$GEN" --experiment ostrich --seed 7 --jobs 1500 -o "$tmp/a.cwl" || exit 1
"$GEN" --experiment ostrich --seed 7 --jobs 1500 -o "$tmp/b.cwl" || exit 1
cmp -s "$tmp/a.cwl" "$tmp/b.cwl" || { echo "FAIL: not reproducible"; exit 1; }
"$GEN" --experiment faircamp --users 5 --seed 3 --jobs 1500 \
	-o "$tmp/f.cwl" || exit 1
[ "$(grep -c '^job 1 ' "$tmp/f.cwl")" -eq 1500 ] || { echo "FAIL: jobs"; exit 1; }

for w in a:64 f:10; do
	file=$tmp/${w%:*}.cwl m=${w#*:}
	for policy in ostrich faircamp fcfs fairshare; do
		"$SIM" --quiet --policy $policy --jobs-out "$tmp/j.csv" \
			--campaigns-out "$tmp/c.csv" --summary-out "$tmp/s.json" \
			"$file" || { echo "FAIL $file $policy"; exit 1; }
		"$srcdir/invariants.sh" "$tmp/j.csv" "$tmp/c.csv" "$tmp/s.json" \
			"$m" 1500 || { echo "FAIL $file $policy"; exit 1; }
		# closed loop: a user's campaign c+1 is submitted at or after
		# the end of campaign c (think time 0)
		sort -t, -k1,1n -k2,2n "$tmp/c.csv" | awk -F, '
			$1 == u && $3 < e { print "user " $1 " campaign " $2 \
				" released early"; exit 1 }
			{ u = $1; e = $4 }' || exit 1
		echo "ok $file $policy"
	done
done
