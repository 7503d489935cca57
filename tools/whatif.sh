#!/usr/bin/env bash
# whatif.sh - what ostrich would have changed on this cluster: replay the
# site's own accounting under ostrich, fairshare (with the site's
# PriorityDecayHalfLife) and fcfs, and show per user and per account the
# mean and max campaign stretch, the mean wait and the share of campaigns
# with stretch > 20, beside what the site's own scheduler delivered (the
# "actual" column: the recorded start times, ostrich-sim --policy actual)
# (doc/admin-guide.md, "Evaluating before switching"; the reading rules
# are doc/semantics.md §17).  On a login node:
#
#   ostrich-whatif --days 30 [--partition NAME] [--out DIR]
#
# (installed as ostrich-whatif; tools/whatif.sh in the source tree.)
#
# Options:
#   --days N              the last N days (default 30)
#   --start DATE --end DATE   instead of --days (sacct's -S/-E forms)
#   --partition NAME      only that partition's jobs (and its size)
#   --out DIR             where the dump, tables and plots go
#                         (default ./whatif-YYYYMMDD-HHMMSS)
#   --sacct-file FILE     replay that dump (sacct --parsable2 output with
#                         its header) instead of running sacct
#   --partition-info FILE `scontrol show partition -o` output (default: run
#                         it); --procs M instead gives the machine size
#   --half-life SEC       fairshare's half-life (default: the site's
#                         PriorityDecayHalfLife from scontrol show config)
#   --shares assoc|FILE   fairshare with the site's association shares
#                         instead of equal ones: assoc runs sshare -a -P
#                         (saved in the output directory), FILE is such
#                         a capture or sacctmgr -P show assoc output
#                         (Account, User, RawShares or Share columns)
#   --age-weight site|R   fairshare plus multifactor's age factor, weighed
#                         R against the fair-share factor: site reads
#                         PriorityWeightAge / PriorityWeightFairshare and
#                         PriorityMaxAge from scontrol show config
#                         (default: fair-share alone)
#   --max-age SEC         the age factor's PriorityMaxAge with a number R
#                         (default 604800, Slurm's 7 days)
#   --conf FILE           replay ostrich as an ostrich.conf configures it
#                         (its engine keys: Gate, Lead, Overdue, ...;
#                         judged as the plugins judge the file; copied to
#                         the output directory).  Default: ostrich.conf's
#                         defaults
#   -h, --help            this help (on standard output)
# The simulator is $OSTRICH_SIM, else the ostrich-sim installed beside
# this script, else ostrich-sim on PATH.  Plots (PNG)
# need gnuplot; without it the tables are still written.  A plot gnuplot
# fails on is named, not written, and the exit status is 1 (tables and
# the other plots are kept).
# SPDX-License-Identifier: GPL-2.0-or-later

set -euo pipefail

FORMAT=JobIDRaw,User,Account,Partition,Submit,Start,End,Timelimit,ReqTRES,AllocTRES,State
# the three replays, then what the site's scheduler did (no replay)
POLICIES=ostrich,fairshare,fcfs,actual
days=30 start= end= partition= out= dump= partinfo= procs= half_life= shares=
age_weight= max_age= conf=

die() { echo "whatif: $*" >&2; exit 1; }
# usage [STATUS]: the Options block above; --help (0) on stdout, a usage
# error (2) on stderr
usage() {
	local st=${1:-2}
	sed -n '/^# Options:/,/^# SPDX/p' "$0" | sed '$d; s/^# \{0,1\}//' >&$((st ? 2 : 1))
	exit "$st"
}
# value OPTION ARG...: the option's value, or a usage error when it has
# none (the end of the line, or the next option)
value() {
	case ${2-} in
	'' | -*) echo "whatif: $1 wants a value" >&2; usage 2 ;;
	esac
	printf '%s' "$2"
}

while [ $# -gt 0 ]; do
	case $1 in
	--days | --start | --end | --partition | --out | --sacct-file | \
	--partition-info | --procs | --half-life | --shares | --age-weight | \
	--max-age | --conf)
		v=$(value "$@") || exit 2
		case $1 in
		--days) days=$v ;;
		--start) start=$v ;;
		--end) end=$v ;;
		--partition) partition=$v ;;
		--out) out=$v ;;
		--sacct-file) dump=$v ;;
		--partition-info) partinfo=$v ;;
		--procs) procs=$v ;;
		--half-life) half_life=$v ;;
		--shares) shares=$v ;;
		--age-weight) age_weight=$v ;;
		--max-age) max_age=$v ;;
		--conf) conf=$v ;;
		esac
		shift ;;
	-h | --help) usage 0 ;;
	*) echo "whatif: unknown option $1" >&2; usage 2 ;;
	esac
	shift
done
case $days in '' | *[!0-9]* | 0) echo "whatif: --days wants a whole number of days, at least 1" >&2; usage 2 ;; esac
case $age_weight in
'' | site) ;;
*) awk -v r="$age_weight" 'BEGIN { exit !(r ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) }' ||
	{ echo "whatif: --age-weight wants site or a number >= 0, not '$age_weight'" >&2; usage 2; } ;;
esac
case $max_age in '' ) ;; *[!0-9]* | 0) echo "whatif: --max-age wants a whole number of seconds, at least 1" >&2; usage 2 ;; esac
case $age_weight in
'' | site) [ -z "$max_age" ] || { echo "whatif: --max-age goes with a number for --age-weight (site reads PriorityMaxAge)" >&2; usage 2; } ;;
esac
# installed, the simulator sits beside this script (bindir): no reliance
# on PATH or on a source tree
here=$(cd "$(dirname "$0")" && pwd)
SIM=${OSTRICH_SIM:-}
[ -n "$SIM" ] || { [ -x "$here/ostrich-sim" ] && SIM=$here/ostrich-sim; } ||
	SIM=$(command -v ostrich-sim || true)
[ -x "$SIM" ] || die "no ostrich-sim: install it or set OSTRICH_SIM"
# ostrich as the site's ostrich.conf would run it (ostrich-sim --conf, the
# plugins' own judges); judged first, before the output directory and a
# dump that may take minutes (ostrich-sim reads --conf before --help)
if [ -n "$conf" ]; then
	[ -r "$conf" ] || die "cannot read --conf $conf"
	"$SIM" --conf "$conf" --help > /dev/null || die "--conf $conf refused (see above)"
fi
out=${out:-whatif-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
# the file kept beside the tables (a rerun may name the kept copy itself)
conf_opt=()
if [ -n "$conf" ]; then
	[ "$conf" -ef "$out/ostrich.conf" ] || cp "$conf" "$out/ostrich.conf" ||
		die "cannot copy $conf to $out"
	conf_opt=(--conf "$out/ostrich.conf")
	echo "whatif: ostrich as $conf configures it (kept as $out/ostrich.conf)" >&2
fi
# sacct and the simulator read dates in one zone (§17): the local one
export SLURM_TIME_FORMAT=standard

# D-HH:MM:SS, HH:MM:SS, MM:SS (Slurm's duration forms) to seconds
seconds() {
	awk -v s="$1" 'BEGIN { d = 0
		if (index(s, "-")) { d = substr(s, 1, index(s, "-") - 1); s = substr(s, index(s, "-") + 1) }
		n = split(s, p, ":"); t = 0
		for (i = 1; i <= n; i++) t = t * 60 + p[i]
		print d * 86400 + t }'
}

# the dump: one sacct call per calendar day (local midnights), so that a
# long period shows progress, no call runs for minutes, and each call's
# label is the date it covers (the first and the last day are partial:
# --days 1 at noon is yesterday afternoon and this morning, two calls);
# a job that spans days is listed by each day it ran in, and kept once
dump_sacct() {
	local from to day=0 ndays t0 t1 rows bounds=()
	if [ -n "$start" ]; then
		from=$(date -d "$start" +%s) || die "bad --start $start"
		to=$(date -d "${end:-now}" +%s) || die "bad --end $end"
	else
		to=$(date +%s)
		from=$((to - days * 86400))
	fi
	[ "$from" -lt "$to" ] || die "the period is empty"
	# the boundaries: from, each local midnight after it, to
	for ((t0 = from; t0 < to; t0 = t1)); do
		bounds+=("$t0")
		t1=$(date -d "$(date -d "@$t0" +%F) + 1 day" +%s)
		[ "$t1" -le "$to" ] || t1=$to
	done
	bounds+=("$to")
	ndays=$((${#bounds[@]} - 1))
	dump=$out/sacct.txt
	: > "$dump.part"
	for ((day = 1; day <= ndays; day++)); do
		t0=${bounds[day - 1]} t1=${bounds[day]}
		sacct --allusers --allocations --duplicates --parsable2 \
			$([ $day = 1 ] || echo --noheader) \
			${partition:+--partition "$partition"} \
			-S "$(date -d "@$t0" +%Y-%m-%dT%H:%M:%S)" \
			-E "$(date -d "@$t1" +%Y-%m-%dT%H:%M:%S)" \
			--format="$FORMAT" >> "$dump.part" ||
			die "sacct failed for day $day"
		rows=$(($(wc -l < "$dump.part") - 1))
		if [ -t 2 ]; then
			printf '\rwhatif: sacct day %d/%d (%s), %d rows' "$day" "$ndays" \
				"$(date -d "@$t0" +%F)" "$rows" >&2
		elif [ "$ndays" -gt 1 ]; then
			printf 'whatif: sacct day %d/%d (%s), %d rows\n' "$day" "$ndays" \
				"$(date -d "@$t0" +%F)" "$rows" >&2
		fi
	done
	[ ! -t 2 ] || echo >&2
	awk '!seen[$0]++' "$dump.part" > "$dump"
	rm -f "$dump.part"
}

if [ -n "$dump" ]; then
	[ -r "$dump" ] || die "cannot read $dump"
else
	command -v sacct > /dev/null || die "no sacct: run on a login node, or give --sacct-file"
	dump_sacct
fi
if [ -z "$half_life" ]; then
	hl=$(scontrol show config 2>/dev/null | awk -F' *= *' '$1 == "PriorityDecayHalfLife" { print $2 }') || true
	[ -n "$hl" ] || die "no PriorityDecayHalfLife in scontrol show config: give --half-life SEC"
	half_life=$(seconds "$hl")
	echo "whatif: fairshare half-life $hl ($half_life s), from scontrol show config" >&2
fi
size=()
if [ -n "$procs" ]; then
	size=(--procs "$procs")
else
	if [ -z "$partinfo" ]; then
		partinfo=$out/partitions.txt
		scontrol show partition -o > "$partinfo" ||
			die "scontrol show partition failed: give --partition-info FILE or --procs M"
	fi
	size=(--partition-info "$partinfo")
fi

# the association tree's shares for fairshare (ostrich-sim --shares): the
# site's multifactor weighs usage against them, not equally
share_opt=()
case $shares in
'') ;;
assoc)
	command -v sshare > /dev/null || die "no sshare: give --shares FILE (a capture of sshare -a -P)"
	sshare -a -P -o Account,User,RawShares > "$out/sshare.txt" ||
		die "sshare -a -P failed: give --shares FILE"
	share_opt=(--shares "$out/sshare.txt")
	echo "whatif: fairshare with the association shares of sshare -a -P ($out/sshare.txt)" >&2 ;;
*)
	[ -r "$shares" ] || die "cannot read --shares $shares"
	share_opt=(--shares "$shares")
	echo "whatif: fairshare with the association shares of $shares" >&2 ;;
esac

# multifactor's age factor beside fair-share (ostrich-sim --age-weight):
# its weight over the fair-share weight, and PriorityMaxAge
age_opt=()
case $age_weight in
'') ;;
site)
	cfg=$(scontrol show config 2>/dev/null) || die "scontrol show config failed: give --age-weight R --max-age SEC"
	key() { awk -F' *= *' -v k="$1" '$1 == k { print $2; exit }' <<<"$cfg"; }
	case $(key PriorityType) in *multifactor*) ;; *) die "--age-weight site: PriorityType is $(key PriorityType), not priority/multifactor" ;; esac
	wa=$(key PriorityWeightAge) wf=$(key PriorityWeightFairshare) ma=$(key PriorityMaxAge)
	case $wa$wf in '' | *[!0-9]*) die "--age-weight site: no PriorityWeightAge or PriorityWeightFairshare in scontrol show config" ;; esac
	[ "$wf" -gt 0 ] || die "--age-weight site: PriorityWeightFairshare is 0: the site's multifactor does not weigh fair-share"
	[ -n "$ma" ] || die "--age-weight site: no PriorityMaxAge in scontrol show config"
	age_weight=$(awk -v a="$wa" -v f="$wf" 'BEGIN { printf "%.9g", a / f }')
	max_age=$(seconds "$ma")
	[ "$max_age" -gt 0 ] 2>/dev/null || die "--age-weight site: PriorityMaxAge $ma is not a duration above 0"
	age_opt=(--age-weight "$age_weight" --max-age "$max_age")
	echo "whatif: fairshare + age factor, PriorityWeightAge $wa / PriorityWeightFairshare $wf = $age_weight, PriorityMaxAge $ma ($max_age s), from scontrol show config" >&2 ;;
*)
	age_opt=(--age-weight "$age_weight" --max-age "${max_age:-604800}")
	echo "whatif: fairshare + $age_weight x age factor (max age ${max_age:-604800} s)" >&2 ;;
esac

# one replay per grouping; the per-group CSVs are NAME-POLICY.csv
for by in account user; do
	"$SIM" --compare "$POLICIES" --half-life "$half_life" "${size[@]}" "${share_opt[@]}" "${age_opt[@]}" "${conf_opt[@]}" \
		${partition:+--partition "$partition"} --by "$by" \
		--groups-out "$out/$by.csv" "$dump" > "$out/report-$by.txt" ||
		die "ostrich-sim failed (see above)"
done
sed '/^wall time/d' "$out/report-account.txt"
sed -n '/^per user: /,$p' "$out/report-user.txt"

# what would change, for whom: per group, the four columns side by side
# (name campaigns then mean stretch, max stretch, mean wait, share > 20 of
# ostrich, fairshare, fcfs, actual), and the groups whose mean stretch
# moves most
for by in account user; do
	awk -F, 'FNR == 1 { p++; next }
		{ k[$2] = 1; c[$2] = $3; ms[$2, p] = $5; mx[$2, p] = $6; w[$2, p] = $8; s20[$2, p] = 100 * $7 }
		END { for (g in k) { printf "%s %s", g, c[g]
			for (i = 1; i <= 4; i++) printf " %.6g %.6g %.6g %.6g", ms[g, i], mx[g, i], w[g, i], s20[g, i]
			print "" } }' \
		"$out/$by-ostrich.csv" "$out/$by-fairshare.csv" "$out/$by-fcfs.csv" \
		"$out/$by-actual.csv" |
		LC_ALL=C sort > "$out/$by.dat"
done
echo
echo "largest changes of mean stretch, fairshare -> ostrich (x < 1: better under ostrich):"
awk '$2 > 0 && $7 > 0 && $3 > 0 { r = $3 / $7; k = r < 1 ? 1 / r : r
	printf "%.9g\t  %-24s %5d campaigns  %10.3f -> %10.3f  (x %.2f)\n", k, $1, $2, $7, $3, r }' \
	"$out/user.dat" | sort -t "$(printf '\t')" -k1,1gr -k2 | cut -f2 | head -n 10
echo
echo "largest changes of mean stretch, actual (this site's scheduler) -> ostrich (x < 1: better under ostrich):"
awk '$2 > 0 && $15 > 0 && $3 > 0 { r = $3 / $15; k = r < 1 ? 1 / r : r
	printf "%.9g\t  %-24s %5d campaigns  %10.3f -> %10.3f  (x %.2f)\n", k, $1, $2, $15, $3, r }' \
	"$out/user.dat" | sort -t "$(printf '\t')" -k1,1gr -k2 | cut -f2 | head -n 10

plots_failed=
if command -v gnuplot > /dev/null; then
	for by in account user; do
		for m in stretch wait; do
			col=3 what="mean campaign stretch" logy="set logscale y; set yrange [0.8:*]"
			[ $m = wait ] && col=5 what="mean wait (s)" logy=
			# a failed plot may leave an empty or partial file: remove it
			gnuplot <<EOF || { rm -f "$out/$by-$m.png"; plots_failed="$plots_failed $by-$m.png"; }
set terminal pngcairo size 1000,520
set output "$out/$by-$m.png"
set title "$what per $by: ostrich, fairshare (half-life ${half_life} s), fcfs, actual"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -45
set key top left
set yrange [0:*]
$logy
plot "$out/$by.dat" using $col:xtic(1) title "ostrich", \
     "" using $((col + 4)) title "fairshare", \
     "" using $((col + 8)) title "fcfs", \
     "" using $((col + 12)) title "actual (this site)"
EOF
		done
	done
	if [ -z "$plots_failed" ]; then
		echo "whatif: plots $out/{account,user}-{stretch,wait}.png" >&2
	else
		echo "whatif: gnuplot failed (see above): not written:$plots_failed" >&2
	fi
else
	echo "whatif: no gnuplot: plots skipped (tables in $out)" >&2
fi
echo "whatif: dump $dump, tables $out/{account,user}-POLICY.csv, reports $out/report-*.txt" >&2
[ -z "$plots_failed" ] || exit 1
