#!/bin/sh
# one-ci.sh - every experiment script has one 95% confidence interval:
# bench/shake-table.py takes its Student's t coefficients from sim/ci.sh's
# $ci_t, which the shell scripts' awk reads too, so the two formulas give
# the same half-width for the same samples (here 5.0, 5.5, 6.0 and 4, 9,
# 2, 7, 1, 8, 3, 6, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20: ν = 2
# and 19).  Pure text: never skips.
# SPDX-License-Identifier: GPL-2.0-or-later

top=${srcdir:-.}/../..
command -v python3 >/dev/null || { echo "one-ci: no python3"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=sim/ci.sh
. "$top/sim/ci.sh"
fail=0
for xs in "5.0 5.5 6.0" \
	"4 9 2 7 1 8 3 6 5 10 11 12 13 14 15 16 17 18 19 20"; do
	: >"$tmp/rows"
	i=0
	for x in $xs; do
		i=$((i + 1))
		echo "T open a $i $x 1.0 1" >>"$tmp/rows"
	done
	py=$(python3 "$top/bench/shake-table.py" "$tmp/rows" "$i" 60 "$ci_t" |
		awk -F' [|] ' '$3 == "a" { split($4, a, " ± "); print a[2] }') ||
		{ echo "FAIL: shake-table.py did not run"; exit 1; }
	sh=$(echo "$xs" | awk "$ci_awk"'{ for (i = 1; i <= NF; i++) {
		s += $i; s2 += $i * $i } printf "%.3f\n", ci(s, s2, NF) }')
	if [ -z "$py" ] || [ "$py" != "$sh" ]; then
		echo "FAIL: samples $xs: shake-table.py gives ± $py, sim/ci.sh ± $sh"
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "one-ci: shake-table.py and sim/ci.sh give the same intervals"
exit "$fail"
