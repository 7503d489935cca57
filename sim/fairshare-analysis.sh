#!/bin/sh
# fairshare-analysis.sh - the experiments of doc/fairshare-analysis.md:
# per-campaign breakdowns of OStrich against fair-share on the real traces,
# the mechanism experiments (one replay per setting), and the plots.
#
# usage: fairshare-analysis.sh   (environment:)
#   SIM     ostrich-sim binary            TRACES  directory of *.swf.gz
#   OUT     directory for rows.txt, breakdowns and data (default fsa-out)
#   PLOTS   directory for the PNG plots (default doc/plots)
#   EXPS    which experiments (default "base mech fb")
# Every replay: EASY, requested estimates, --grouping trace, think time
# 600 s unless the experiment changes one of them.  Rows: trace label
# mean_stretch max_stretch share_gt20 mean_bsld utilization.
# fb (doc/semantics.md §16): every policy and variant replayed open loop
# (--feedback-threshold 0, the same schedule as without --feedback) and
# with feedback (threshold 3600 s, and 1200 s / 14400 s for a few), rows
# in fb-rows.txt: trace label mode mean_stretch max_stretch share_gt20
# campaigns_per_day mean_user_throughput mean_last_delay max_last_delay
# dependent; breakdowns of OStrich against fair-share under feedback in
# TRACE-fb-p0-breakdown.txt and TRACE-fb-p300-breakdown.txt.
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${TRACES:?}" "${OUT:=fsa-out}" "${PLOTS:=doc/plots}"
: "${EXPS:=base mech fb}"
: "${VARIANTS:=ostrich:;learned:--virtual-area learned;pooled:--virtual-area pooled;memory:--memory on;learned+memory:--virtual-area learned --memory on;pooled+memory:--virtual-area pooled --memory on;evidence:--evidence on;evidence+memory:--evidence on --memory on;served:--rank served;served+evidence:--rank served --evidence on;served+memory:--rank served --memory on;capped:--rank capped;capped+memory:--rank capped --memory on;memory-key:--memory key;capped+memory-key:--rank capped --memory key}"
here=$(dirname "$0")
LC_ALL=C; export LC_ALL
mkdir -p "$OUT" "$PLOTS"
rows=$OUT/rows.txt

# run TRACE LABEL OPTIONS...: one replay, one row.
run() {
	tr=$1 lab=$2; shift 2
	"$SIM" --quiet --think-time 600 --summary-out "$OUT/s.json" "$@" \
		"$TRACES/$tr"*.swf.gz
	python3 - "$tr" "$lab" "$OUT/s.json" >>"$rows" <<'PY'
import json, sys
s = json.load(open(sys.argv[3]))
print(sys.argv[1], sys.argv[2], '%.3f %.1f %.3f %.2f %.3f' % (
    s['mean_stretch'], s['max_stretch'], 100 * s['share_stretch_gt_20'],
    s['mean_bsld'], 100 * s['utilization']))
PY
}

# fbrun TRACE LABEL MODE THRESHOLD OPTIONS...: one replay, one fb row.
fbrun() {
	tr=$1 lab=$2 mode=$3 h=$4; shift 4
	nice "$SIM" --quiet --think-time 600 --feedback --feedback-threshold "$h" \
		--summary-out "$OUT/s.json" "$@" "$TRACES/$tr"*.swf.gz
	python3 - "$tr" "$lab" "$mode" "$OUT/s.json" >>"$OUT/fb-rows.txt" <<'PY'
import json, sys
s = json.load(open(sys.argv[4]))
f = s['feedback']
print(sys.argv[1], sys.argv[2], sys.argv[3], '%.3f %.1f %.3f %.2f %.4f %.0f %.0f %d' % (
    s['mean_stretch'], s['max_stretch'], 100 * s['share_stretch_gt_20'],
    f['campaigns_per_day'], f['mean_user_throughput'], f['mean_last_delay'],
    f['max_last_delay'], f['dependent_campaigns']))
PY
}
case " $EXPS " in *" fb "*) : >"$OUT/fb-rows.txt" ;; esac

for tr in KTH-SP2 HPC2N SDSC-BLUE; do
	m=$(zcat "$TRACES/$tr"*.swf.gz | awk '/^; *MaxProcs/ { print $3; exit }')
	case " $EXPS " in *" base "*)
		run $tr fcfs --policy fcfs
		run $tr fairshare-p0 --policy fairshare
		run $tr fairshare-p300 --policy fairshare --fairshare-period 300
		run $tr ostrich --policy ostrich
		for ref in fairshare fs300; do
			opt=""; [ $ref = fs300 ] && opt="--fairshare-period 300"
			"$SIM" --quiet --policy fairshare $opt \
				--jobs-out "$OUT/$tr-j-$ref.csv" "$TRACES/$tr"*.swf.gz
		done
		"$SIM" --quiet --policy ostrich --jobs-out "$OUT/$tr-j-ostrich.csv" \
			"$TRACES/$tr"*.swf.gz
		python3 "$here/fairshare-analysis.py" "$tr" "$m" \
			"$OUT/$tr-j-ostrich.csv" "$OUT/$tr-j-fairshare.csv" "$OUT"
		mv "$OUT/$tr-breakdown.txt" "$OUT/$tr-p0-breakdown.txt"
		mv "$OUT/$tr-breakdown.dat" "$OUT/$tr-p0-breakdown.dat"
		python3 "$here/fairshare-analysis.py" "$tr" "$m" \
			"$OUT/$tr-j-ostrich.csv" "$OUT/$tr-j-fs300.csv" "$OUT"
		mv "$OUT/$tr-breakdown.txt" "$OUT/$tr-p300-breakdown.txt"
		mv "$OUT/$tr-breakdown.dat" "$OUT/$tr-p300-breakdown.dat"
		for fl in 10 60; do	# the 1-s floor of the lower bound
			for ref in fairshare fs300; do
				python3 "$here/fairshare-analysis.py" "$tr" "$m" \
					"$OUT/$tr-j-ostrich.csv" "$OUT/$tr-j-$ref.csv" \
					"$OUT" $fl
				head -1 "$OUT/$tr-breakdown.txt" | sed "s/^/floor $fl vs $ref: /" \
					>>"$OUT/floor.txt"
			done
		done
		rm -f "$OUT/$tr-breakdown.txt" "$OUT/$tr-breakdown.dat"
	;; esac
	case " $EXPS " in *" mech "*)
		# capacity used (default) against full
		run $tr ostrich-capfull --policy ostrich --capacity full
		# requested estimates against exact ones, both policies
		run $tr ostrich-exact --policy ostrich --estimates exact
		run $tr fairshare-p0-exact --policy fairshare --estimates exact
		run $tr fairshare-p300-exact --policy fairshare --estimates exact \
			--fairshare-period 300
		run $tr fcfs-exact --policy fcfs --estimates exact
		# the oracle: the order sees e = p, EASY the requests
		run $tr ostrich-order-exact --policy ostrich \
			--estimates order-exact
		# intra-campaign order
		for i in spt fifo ljf; do
			run $tr ostrich-intra-$i --policy ostrich --intra $i
		done
		# fair-share's memory: shorter half-lives forget sooner
		for h in 3600 86400; do
			run $tr fairshare-p0-hl$h --policy fairshare --half-life $h
		done
		# think-time grouping: the same replays under other thresholds
		for tt in 60 3600; do
			for p in ostrich fairshare; do
				run $tr $p-tt$tt --policy $p --think-time $tt
			done
			run $tr fairshare-p300-tt$tt --policy fairshare \
				--fairshare-period 300 --think-time $tt
		done
	;; esac
	case " $EXPS " in *" fb "*)
		for mode in open:0 fb:3600; do
			md=${mode%:*} h=${mode#*:}
			fbrun $tr fcfs $md $h --policy fcfs
			fbrun $tr fairshare-p0 $md $h --policy fairshare
			fbrun $tr fairshare-p300 $md $h --policy fairshare \
				--fairshare-period 300
			echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
				# shellcheck disable=SC2086
				fbrun $tr "$name" $md $h --policy ostrich $opts
			done
		done
		# the threshold: 20 min (the classic session break) and 4 h
		for h in 1200 14400; do
			fbrun $tr fairshare-p0 fb$h $h --policy fairshare
			fbrun $tr fairshare-p300 fb$h $h --policy fairshare \
				--fairshare-period 300
			fbrun $tr ostrich fb$h $h --policy ostrich
			fbrun $tr memory fb$h $h --policy ostrich --memory on
			fbrun $tr capped+memory fb$h $h --policy ostrich \
				--rank capped --memory on
		done
		# per-class breakdowns under feedback
		for ref in fairshare fs300; do
			opt=""; [ $ref = fs300 ] && opt="--fairshare-period 300"
			# shellcheck disable=SC2086
			nice "$SIM" --quiet --feedback --policy fairshare $opt \
				--jobs-out "$OUT/$tr-fbj-$ref.csv" "$TRACES/$tr"*.swf.gz
		done
		nice "$SIM" --quiet --feedback --policy ostrich \
			--jobs-out "$OUT/$tr-fbj-ostrich.csv" "$TRACES/$tr"*.swf.gz
		for ref in fairshare:p0 fs300:p300; do
			python3 "$here/fairshare-analysis.py" "$tr" "$m" \
				"$OUT/$tr-fbj-ostrich.csv" "$OUT/$tr-fbj-${ref%:*}.csv" "$OUT"
			mv "$OUT/$tr-breakdown.txt" "$OUT/$tr-fb-${ref#*:}-breakdown.txt"
			rm -f "$OUT/$tr-breakdown.dat"
		done
	;; esac
done

# Plots: per trace, the contribution of each class of campaigns to the gap
# in mean campaign stretch (OStrich minus fair-share, every event and 300 s).
command -v gnuplot >/dev/null || exit 0
for tr in KTH-SP2 HPC2N SDSC-BLUE; do
	[ -f "$OUT/$tr-p0-breakdown.dat" ] || continue
	gnuplot <<GP
set terminal pngcairo size 1400,420 font ",9"
set output "$PLOTS/$tr-fairshare-gap.png"
set multiplot layout 1,5 title "$tr: contribution to mean campaign stretch, OStrich minus fair-share (red: every event, blue: 300 s)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -45 scale 0
set grid ytics
unset key
set termoption noenhanced
array T[5] = ["campaign size (jobs)", "widest job / m", "owner's share of all work", "estimate accuracy", "lower bound (s)"]
do for [i=0:4] {
	set title T[i + 1]
	plot "$OUT/$tr-p0-breakdown.dat" index i using 3:xtic(2) lc rgb "#c0392b", \
	     "$OUT/$tr-p300-breakdown.dat" index i using 3 lc rgb "#2e6da4"
}
unset multiplot
GP
done
