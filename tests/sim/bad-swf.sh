#!/bin/sh
# bad-swf.sh - a trace with every kind of bad line: each is skipped,
# counted by reason in the summary and, when malformed, reported with its
# line number; a trace with no good line is an error.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/err" "$tmp/sum.json" 2>/dev/null; exit 1; }

"$SIM" --quiet --summary-out "$tmp/sum.json" --jobs-out "$tmp/jobs.csv" \
	"$DATA/bad.swf" 2>"$tmp/err" || fail "exit status $?"
grep -q '"skipped": {"malformed": 4, "negative_runtime": 1, "no_procs": 1, "procs_above_m": 2}' \
	"$tmp/sum.json" || fail "skip counts"
grep -q '"jobs": 2,' "$tmp/sum.json" || fail "job count"
for line in 5 6 7 12; do
	grep -q "bad.swf:$line: malformed" "$tmp/err" || fail "line $line"
done
[ "$(grep -c malformed "$tmp/err")" -eq 4 ] || fail "extra reports"
# decimals: job 8 (q from field 8 = 3, e = p = 2.25, recorded start 2)
grep -q '^8,2,1,1.5,1.5,3.75,3,2.25,2.25$' "$tmp/jobs.csv" || fail "job 8"

grep -v '^1 ' "$DATA/bad.swf" | grep -v '^8 ' >"$tmp/allbad.swf"
if "$SIM" --quiet "$tmp/allbad.swf" 2>"$tmp/err"; then
	fail "all-bad trace accepted"
fi
grep -q 'no usable job' "$tmp/err" || fail "all-bad message"

# a NUL byte refuses its own line, named, and not the next one (which the
# reader once glued onto the text before the NUL: "2 1 0 10" + "3 ...")
printf '; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n2 1 0 10\000 2\n3 1 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n' \
	> "$tmp/nul.swf"
"$SIM" --quiet --summary-out "$tmp/sum.json" --jobs-out "$tmp/jobs.csv" \
	"$tmp/nul.swf" 2>"$tmp/err" || fail "NUL: exit status $?"
grep -q '"skipped": {"malformed": 1' "$tmp/sum.json" || fail "NUL: skip count"
grep -q 'nul.swf:3: malformed line skipped: NUL byte in the line' "$tmp/err" ||
	fail "NUL: line 3 not named"
[ "$(cut -d, -f1 "$tmp/jobs.csv" | sed 1d | tr '\n' ' ')" = "1 3 " ] ||
	fail "NUL: jobs $(cut -d, -f1 "$tmp/jobs.csv" | tr '\n' ' ')"
echo "ok bad-swf"
