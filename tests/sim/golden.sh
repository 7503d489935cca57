#!/bin/sh
# golden.sh - replay the hand-made workloads of data/ and compare the job
# schedule with the one worked out by hand (each data file's comment says
# why).  Cases are listed in golden.cases: FILE EXPECTED OPTIONS...
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}" "${srcdir:=.}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
grep -v '^#' "$srcdir/golden.cases" | {
	while read -r file expected opts; do
		[ -n "$file" ] || continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		if ! "$SIM" --quiet --jobs-out "$tmp/out.csv" $opts \
			"$DATA/$file" 2>"$tmp/err"; then
			echo "FAIL $file $opts: exit status"; cat "$tmp/err"
			fail=1; continue
		fi
		if ! diff -u "$DATA/$expected" "$tmp/out.csv"; then
			echo "FAIL $file $opts: schedule differs"
			fail=1; continue
		fi
		echo "ok $n $file $opts"
	done
	exit $fail
}
