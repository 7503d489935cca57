#!/bin/sh
# sacct.sh - the sacct reader (doc/semantics.md §17):
#  1. identity: the same jobs as SWF and as sacct output (written by
#     swf2sacct.py, whose output for data/identity.swf is committed as
#     data/identity.sacct) replay to the same schedule, campaigns and
#     summary under every policy, times shifted by the dump's epoch; again
#     with user names instead of uids (summary only: the ids differ); and
#     on the whole public KTH trace when OST_TRACES has it;
#  2. goldens: dumps captured from the test cluster's own slurmdbd
#     (tools/sacct-capture.sh data/cluster, with OSTRICH_SIM set: it
#     writes the goldens too) replay to the committed schedule and
#     per-account tables, byte for byte;
#  3. errors: a dump without its header line, no machine size, an unknown
#     partition, malformed rows.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}" "${srcdir:=.}"
TZ=UTC
export TZ
BASE=1700000000
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
bad() { echo "FAIL $*"; fail=1; }

# shift COLS: subtract BASE from the comma-separated columns COLS of a CSV
shift_csv() {
	awk -F, -v OFS=, -v b="$BASE" -v cols="$1" 'BEGIN { split(cols, c, " ") }
		NR > 1 { for (i in c) $(c[i]) = sprintf("%.15g", $(c[i]) - b) } { print }' "$2"
}

# identity SWF SACCT WHAT SACCT-OPTIONS...: every policy, both inputs
identity() {
	swf=$1 sacct=$2 what=$3
	shift 3
	for p in ostrich fcfs fairshare faircamp; do
		for f in swf sacct; do
			if [ $f = swf ]; then in=$swf; opts=; else in=$sacct; opts="$*"; fi
			# shellcheck disable=SC2086
			"$SIM" --quiet --policy $p --jobs-out "$tmp/j-$f.csv" \
				--campaigns-out "$tmp/c-$f.csv" --summary-out "$tmp/s-$f.json" \
				$opts "$in" 2>"$tmp/err" || { bad "$what $p $f: exit status"; cat "$tmp/err"; continue 2; }
		done
		if [ "$what" = names ]; then
			cmp -s "$tmp/s-swf.json" "$tmp/s-sacct.json" ||
				{ bad "$what $p: summaries differ"; diff "$tmp/s-swf.json" "$tmp/s-sacct.json" | head; continue; }
		else
			shift_csv "4 5 6" "$tmp/j-sacct.csv" > "$tmp/j-shifted.csv"
			shift_csv "3 4" "$tmp/c-sacct.csv" > "$tmp/c-shifted.csv"
			cmp -s "$tmp/j-swf.csv" "$tmp/j-shifted.csv" ||
				{ bad "$what $p: schedules differ"; diff "$tmp/j-swf.csv" "$tmp/j-shifted.csv" | head; continue; }
			cmp -s "$tmp/c-swf.csv" "$tmp/c-shifted.csv" ||
				{ bad "$what $p: campaigns differ"; continue; }
			cmp -s "$tmp/s-swf.json" "$tmp/s-sacct.json" ||
				{ bad "$what $p: summaries differ"; diff "$tmp/s-swf.json" "$tmp/s-sacct.json" | head; continue; }
		fi
		ok "identity $what $p"
	done
}

# 1. identity
if command -v python3 > /dev/null; then
	python3 "$srcdir/swf2sacct.py" "$DATA/identity.swf" "$tmp/identity.sacct" &&
		cmp -s "$tmp/identity.sacct" "$DATA/identity.sacct" &&
		ok "swf2sacct.py writes data/identity.sacct" ||
		bad "swf2sacct.py no longer writes data/identity.sacct"
	python3 "$srcdir/swf2sacct.py" --names "$DATA/identity.swf" "$tmp/names.sacct" ||
		bad "swf2sacct.py --names"
	identity "$DATA/identity.swf" "$tmp/names.sacct" names --procs 100
else
	echo "# no python3: the converter and the names case are not run"
fi
identity "$DATA/identity.swf" "$DATA/identity.sacct" fixture \
	--partition-info "$DATA/identity.partinfo"
kth=$OST_TRACES/KTH-SP2-1996-2.1-cln.swf.gz
if [ -r "$kth" ] && command -v python3 > /dev/null; then
	python3 "$srcdir/swf2sacct.py" "$kth" "$tmp/kth.sacct" || bad "swf2sacct.py on $kth"
	identity "$kth" "$tmp/kth.sacct" KTH --procs 100
else
	echo "# no $kth (or no python3): the identity on the public trace is not run"
fi

# 2. goldens: data/G.sacct and data/G.partinfo replay to data/G-POLICY.csv
# (schedule) and data/G-POLICY-accounts.csv (per account)
GOLDENS=cluster
for g in $GOLDENS; do
	for p in ostrich fairshare fcfs; do
		"$SIM" --quiet --policy $p --half-life 3600 \
			--partition-info "$DATA/$g.partinfo" --by account \
			--jobs-out "$tmp/j.csv" --groups-out "$tmp/g.csv" \
			"$DATA/$g.sacct" 2>"$tmp/err" || { bad "golden $g $p: exit status"; cat "$tmp/err"; continue; }
		diff -u "$DATA/$g-$p.csv" "$tmp/j.csv" || { bad "golden $g $p: schedule differs"; continue; }
		diff -u "$DATA/$g-$p-accounts.csv" "$tmp/g.csv" || { bad "golden $g $p: accounts differ"; continue; }
		ok "golden $g $p"
	done
done

# 3. errors
tail -n +2 "$DATA/identity.sacct" > "$tmp/noheader.sacct"
if "$SIM" --quiet --procs 100 "$tmp/noheader.sacct" 2>"$tmp/err"; then
	bad "a dump without header is accepted"
elif grep -q 'noheader.sacct:1: not a sacct header line' "$tmp/err"; then
	ok "a dump without header: $(cat "$tmp/err")"
else
	bad "a dump without header: $(cat "$tmp/err")"
fi
if "$SIM" --quiet "$DATA/identity.sacct" 2>"$tmp/err"; then
	bad "a dump without machine size is accepted"
elif grep -q 'give --procs or --partition-info' "$tmp/err"; then
	ok "no machine size: $(cat "$tmp/err")"
else
	bad "no machine size: $(cat "$tmp/err")"
fi
sed 's/^PartitionName=batch/PartitionName=other/' "$DATA/identity.partinfo" > "$tmp/other.partinfo"
if "$SIM" --quiet --partition-info "$tmp/other.partinfo" "$DATA/identity.sacct" 2>"$tmp/err"; then
	bad "a partition missing from --partition-info is accepted"
elif grep -q "partition 'batch' is not in the --partition-info file" "$tmp/err"; then
	ok "unknown partition"
else
	bad "unknown partition: $(cat "$tmp/err")"
fi
# one row of each kind the reader leaves out or finds malformed
{
	echo 'JobIDRaw|User|Account|Partition|Submit|Start|End|Timelimit|AllocTRES|State'
	echo '1|alice|chem|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|00:05:00|billing=2,cpu=2|COMPLETED'
	echo '1.batch|alice|chem|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10||cpu=2|COMPLETED'
	echo '2|bob|phys|batch|2026-01-01T00:00:00|Unknown|Unknown|00:05:00||PENDING'
	echo '3|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|Unknown|00:05:00|cpu=2|RUNNING'
	echo '4|bob|phys|batch|2026-01-01T00:00:00|None|2026-01-01T00:00:05|00:05:00||CANCELLED by 0'
	echo '5|bob|phys|other|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|UNLIMITED|cpu=2|COMPLETED'
	echo '6|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|soon|cpu=2|COMPLETED'
	echo '7|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:10'
	echo '8|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|1-00:00:00|billing=3,cpu=2|TIMEOUT'
} > "$tmp/kinds.sacct"
"$SIM" --procs 4 --partition batch --by account "$tmp/kinds.sacct" > "$tmp/out" 2>"$tmp/err" ||
	{ bad "kinds: exit status"; cat "$tmp/err"; }
want="sacct      partitions batch, 2 accounts; 5 rows left out (steps 1) (never_started 1) (running 1) (pending 1) (other_partition 1)"
grep -qxF "$want" "$tmp/out" && ok "rows left out are counted" ||
	{ bad "rows left out: want '$want'"; cat "$tmp/out"; }
grep -q '2 jobs, 2 users, 2 campaigns; 2 lines skipped (malformed 2)' "$tmp/out" &&
	grep -q 'kinds.sacct:8: malformed line skipped: bad Timelimit' "$tmp/err" &&
	grep -q 'kinds.sacct:9: malformed line skipped: not as many fields as the header' "$tmp/err" &&
	ok "malformed rows are skipped and named" ||
	{ bad "malformed rows"; cat "$tmp/out" "$tmp/err"; }
# a NUL byte refuses its own row, named, and no other: the reader once
# glued the next row onto the text before the NUL (job 2 + job 3 = 23)
{
	echo 'JobIDRaw|User|Account|Partition|Submit|Start|End|Timelimit|AllocTRES|State'
	for i in 1 2 3; do
		[ $i = 2 ] && printf '2\000'
		[ $i = 2 ] || printf '%s' $i
		echo '|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:10|2026-01-01T00:01:10|00:05:00|cpu=2|COMPLETED'
	done
} > "$tmp/nul.sacct"
"$SIM" --procs 4 --jobs-out "$tmp/nul.csv" "$tmp/nul.sacct" > "$tmp/out" 2>"$tmp/err" ||
	{ bad "NUL: exit status"; cat "$tmp/err"; }
grep -q '2 jobs, 1 users, 1 campaigns; 1 lines skipped (malformed 1)' "$tmp/out" &&
	grep -qx '.*nul.sacct:3: malformed line skipped: NUL byte in the line' "$tmp/err" &&
	[ "$(cut -d, -f1 "$tmp/nul.csv" | sed 1d | tr '\n' ' ')" = "1 3 " ] &&
	ok "a NUL byte refuses its row only, named" ||
	{ bad "NUL byte"; cat "$tmp/out" "$tmp/err" "$tmp/nul.csv"; }
# a job that failed at once (0 s elapsed) without waiting: stretch 1, as
# the 1 s floor of §7 applies to the flow too; it was 0, which pulled the
# mean and Jain's index down
{
	echo 'JobIDRaw|User|Account|Partition|Submit|Start|End|Timelimit|AllocTRES|State'
	echo '1|alice|chem|batch|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:00:00|00:05:00|cpu=2|FAILED'
	echo '2|bob|phys|batch|2026-01-01T00:00:00|2026-01-01T00:00:00|2026-01-01T00:01:00|00:05:00|cpu=2|COMPLETED'
} > "$tmp/failed.sacct"
"$SIM" --procs 4 --policy fcfs --campaigns-out "$tmp/camps.csv" --summary-out "$tmp/sum.json" \
	"$tmp/failed.sacct" > "$tmp/out" 2>"$tmp/err" || { bad "failed: exit status"; cat "$tmp/err"; }
grep -q '^[0-9]*,1,[0-9]*,[0-9]*,1,0,1,0,1$' "$tmp/camps.csv" &&
	grep -q '"mean_stretch": 1,' "$tmp/sum.json" &&
	grep -q '"jain_user_mean_stretch": 1,' "$tmp/sum.json" &&
	ok "a job failed at 0 s elapsed: stretch 1" ||
	{ bad "0 s elapsed"; cat "$tmp/camps.csv" "$tmp/sum.json"; }
printf 'JobIDRaw|User\000|Submit\n' > "$tmp/nulhead.sacct"
if "$SIM" --procs 4 "$tmp/nulhead.sacct" 2>"$tmp/err"; then
	bad "a NUL byte in the header is accepted"
elif grep -q 'nulhead.sacct:1: NUL byte in the line' "$tmp/err"; then
	ok "a NUL byte in the header is an error naming line 1"
else
	bad "NUL header: $(cat "$tmp/err")"
fi
exit $fail
