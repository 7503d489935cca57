#!/bin/sh
# fairshare-analysis.sh - the experiments of doc/fairshare-analysis.md:
# per-campaign breakdowns of OStrich against fair-share on the real traces,
# the mechanism experiments (one replay per setting), and the plots.
#
# usage: fairshare-analysis.sh   (environment:)
#   SIM     ostrich-sim binary            TRACES  directory of *.swf.gz
#   OUT     directory for rows.txt, breakdowns and data (default fsa-out)
#   PLOTS   directory for the PNG plots (default doc/plots)
#   EXPS    which experiments (default "base mech")
# Every replay: EASY, requested estimates, --grouping trace, think time
# 600 s unless the experiment changes one of them.  Rows: trace label
# mean_stretch max_stretch share_gt20 mean_bsld utilization.
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${TRACES:?}" "${OUT:=fsa-out}" "${PLOTS:=doc/plots}"
: "${EXPS:=base mech}"
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
