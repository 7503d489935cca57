#!/bin/sh
# kth-invariants.sh - end-to-end: replay a slice of the KTH-SP2 trace
# (first 3000 jobs, m = 100) under every policy and dispatch mode and check
# the invariants of invariants.sh.  Skipped when the trace is absent.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${srcdir:=.}"
: "${OST_TRACES:=$srcdir/../../../shared/traces}"
trace=$OST_TRACES/KTH-SP2-1996-2.1-cln.swf.gz
[ -r "$trace" ] || { echo "SKIP: $trace not found"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

gzip -dc "$trace" | awk '/^;/ { print; next } n++ < 3000' >"$tmp/kth.swf"
for policy in ostrich faircamp fcfs fairshare; do
	for dispatch in easy list strict; do
		for grouping in trace online; do
			"$SIM" --quiet --policy $policy --dispatch $dispatch \
				--grouping $grouping \
				--jobs-out "$tmp/j.csv" --campaigns-out "$tmp/c.csv" \
				--summary-out "$tmp/s.json" "$tmp/kth.swf" ||
				{ echo "FAIL $policy $dispatch: exit"; exit 1; }
			"$srcdir/invariants.sh" "$tmp/j.csv" "$tmp/c.csv" \
				"$tmp/s.json" 100 3000 ||
				{ echo "FAIL $policy $dispatch $grouping"; exit 1; }
			echo "ok $policy $dispatch $grouping"
		done
	done
done
# gate=strict and capacity=full keep the invariants too
for opt in "--gate strict" "--capacity full" "--intra spt" "--estimates exact"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $opt --jobs-out "$tmp/j.csv" --campaigns-out "$tmp/c.csv" \
		--summary-out "$tmp/s.json" "$tmp/kth.swf" &&
	"$srcdir/invariants.sh" "$tmp/j.csv" "$tmp/c.csv" "$tmp/s.json" 100 3000 ||
		{ echo "FAIL ostrich $opt"; exit 1; }
	echo "ok ostrich $opt"
done
