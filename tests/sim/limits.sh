#!/bin/sh
# limits.sh - inputs at and beyond the simulator's limits: each out-of-range
# value gets a clear message (with its line number for file input) instead
# of a silent wrap, an out-of-memory kill or a false "deadlock", and a
# machine of 2^32-1 CPUs costs no more memory than a small one.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/err" 2>/dev/null; exit 1; }

# swf NAME HEADER JOBLINE...: a trace with one header line then job lines
swf() {
	f=$tmp/$1; shift
	printf '%s\n' "$@" > "$f"
}
# 18 fields: number submit wait runtime procs cpu mem req_procs req_time ...
job() { echo "$1 $2 0 $3 $4 -1 -1 $4 $5 -1 1 $6 1 1 1 -1 -1 -1"; }

# A MaxProcs header beyond 32 bits is an error, not m = 1.
swf wrap.swf "; MaxProcs: 4294967297" "$(job 1 0 10 1 10 1)"
"$SIM" --quiet "$tmp/wrap.swf" 2>"$tmp/err" && fail "MaxProcs 2^32+1 accepted"
grep -q "wrap.swf:1: MaxProcs: must be -1 or a whole number of CPUs in \[1, 4294967295\]" \
	"$tmp/err" || fail "MaxProcs message"
swf junk.swf "; MaxNodes: 12abc" "$(job 1 0 10 1 10 1)"
"$SIM" --quiet "$tmp/junk.swf" 2>"$tmp/err" && fail "MaxNodes 12abc accepted"
grep -q "junk.swf:1: MaxNodes: must be" "$tmp/err" || fail "MaxNodes message"
# ... but a comment in parentheses after the number is the archive's
# own (CTC-SP2-1996-3.1-cln), and m is the number before it.
swf note.swf "; MaxNodes: 4 (batch partition; 512 total)" "$(job 1 0 10 3 10 1)" \
	"$(job 2 0 10 1 10 2)" "$(job 3 0 10 1 10 3)"
"$SIM" --quiet --jobs-out "$tmp/note.csv" "$tmp/note.swf" 2>"$tmp/err" ||
	fail "MaxNodes with a comment refused: $(cat "$tmp/err")"
# m = 4 (not 512): of 3 + 1 + 1 CPUs, one job waits for another's end
[ "$(awk -F, 'NR > 1 { print $5 }' "$tmp/note.csv" | sort -n | tr '\n' ' ')" = "0 0 10 " ] ||
	fail "MaxNodes 4 (comment): one job should wait: $(cat "$tmp/note.csv")"
# a comment follows a blank and ends the line with its ")"
for bad in "3(batch)" "3 (" "3 (a) 512" "3 (a) junk"; do
	swf glued.swf "; MaxNodes: $bad" "$(job 1 0 10 1 10 1)"
	"$SIM" --quiet "$tmp/glued.swf" 2>"$tmp/err" && fail "MaxNodes $bad accepted"
	grep -q "glued.swf:1: MaxNodes: must be" "$tmp/err" || fail "MaxNodes $bad message"
done

# The largest machine replays in little memory (the dispatcher once took
# 8 bytes per CPU: 34 GB here).
swf big.swf "; MaxProcs: 4294967295" "$(job 1 0 10 4000000000 10 1)" \
	"$(job 2 1 10 300000000 10 2)" "$(job 3 2 50 1 50 1)"
for p in ostrich fcfs fairshare faircamp; do
	"$SIM" --quiet --policy $p --jobs-out "$tmp/big.csv" "$tmp/big.swf" \
		2>"$tmp/err" || fail "m = 2^32-1 ($p)"
	grep -q '^2,2,.*,300000000,' "$tmp/big.csv" || fail "job 2 ($p)"
done

# Runtimes near the largest double: the line is skipped with a reason,
# the other jobs replay (this was reported as a deadlock).
swf huge.swf "; MaxProcs: 4" "$(job 1 0 1e308 1 10 1)" "$(job 2 0 10 1 1e308 1)" \
	"$(job 3 1e300 10 1 10 1)" "$(job 4 0 10 1 10 2)"
"$SIM" --quiet --summary-out "$tmp/s.json" "$tmp/huge.swf" 2>"$tmp/err" ||
	fail "huge runtimes: exit status"
grep -q "huge.swf:2: malformed line skipped: runtime above 1e12 s" "$tmp/err" ||
	fail "runtime message"
grep -q "huge.swf:3: malformed line skipped: requested time above 1e12 s" "$tmp/err" ||
	fail "estimate message"
grep -q "huge.swf:4: malformed line skipped: submit time out of range" "$tmp/err" ||
	fail "submit message"
grep -q '"jobs": 1,' "$tmp/s.json" || fail "the good job did not replay"

# Closed loop: think times and runtimes out of range, by line.
cat > "$tmp/c.cwl" <<'CWL'
%ostrich-campaigns 1
procs 4
think 1e308
campaign 1 think 1e308
campaign 1
job 1 10
job 1 1e308
job 1 10 1e308
campaign 2
job 1 5
CWL
"$SIM" --quiet --summary-out "$tmp/s.json" "$tmp/c.cwl" 2>"$tmp/err" ||
	fail "closed loop: exit status"
for l in "3: malformed line skipped: usage: think T (0 to 1e12 s)" \
	 "4: malformed line skipped: bad think time (0 to 1e12 s)" \
	 "7: malformed line skipped: runtime above 1e12 s" \
	 "8: malformed line skipped: estimate above 1e12 s"; do
	grep -q "c.cwl:$l" "$tmp/err" || fail "closed loop line $l"
done
printf '%%ostrich-campaigns 1\nprocs 1e10\njob 1 1\n' > "$tmp/p.cwl"
"$SIM" --quiet --procs 4 "$tmp/p.cwl" 2>"$tmp/err"
grep -q "p.cwl:2: malformed line skipped: usage: procs M (a whole number, 1 to 4294967295)" \
	"$tmp/err" || fail "procs line message"

# Valid durations that add up beyond the engine's clock range: a clear
# error, not a deadlock.
{
	echo "%ostrich-campaigns 1"; echo "procs 1"
	i=0; while [ $i -lt 15 ]; do
		echo "campaign 1 think 9e11"; echo "job 1 9e11"; i=$((i + 1))
	done
} > "$tmp/long.cwl"
for p in ostrich fcfs; do
	"$SIM" --quiet --policy $p "$tmp/long.cwl" 2>"$tmp/err" &&
		fail "clock overflow accepted ($p)"
	grep -q "simulated time reached .* beyond the 1e+13 s the engine accepts" \
		"$tmp/err" || fail "clock message ($p)"
	grep -q deadlock "$tmp/err" && fail "reported as a deadlock ($p)"
done

# Command line.
for bad in "--procs 4294967296" "--procs 1.5" "--think-time 1e308"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $bad "$tmp/big.swf" 2>"$tmp/err" && fail "$bad accepted"
done
"$SIM" --quiet --think-time 1e308 "$tmp/big.swf" 2>"$tmp/err"
grep -q "think time must be a number of seconds in \[0, 1e12\]" "$tmp/err" ||
	fail "--think-time message"
echo "ok limits"
