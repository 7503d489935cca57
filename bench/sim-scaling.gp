# sim-scaling.gp - log-log plot of ostrich-sim replay time
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gnuplot -e "data='sim-data.tsv'; out='sim-scaling.png'; queue=N" sim-scaling.gp
# data: lines "series<TAB>x<TAB>y" written by bench-sim --data; queue: the
# number of "queue" lines in it (0: no trace, the right panel is skipped).

set terminal pngcairo size 1100,450 noenhanced
set output out
set datafile separator "\t"
set datafile missing NaN
set multiplot layout 1,2
set logscale xy
set grid
set key top left

sel(s) = (strcol(1) eq s) ? $3 : NaN

set title "Replay time against jobs (easy dispatch)"
set xlabel "jobs"
set ylabel "sim_run() seconds"
plot data using 2:(sel("sdsc")) with linespoints title "SDSC-BLUE prefixes, ostrich", \
     data using 2:(sel("sdsc-fcfs")) with linespoints title "SDSC-BLUE prefixes, fcfs", \
     data using 2:(sel("synthetic")) with linespoints title "synthetic, ostrich", \
     data using 2:(sel("synthetic-fcfs")) with linespoints title "synthetic, fcfs"

set title "Cost per job against queue length (SDSC-BLUE compressed)"
set xlabel "mean waiting jobs (ostrich)"
set ylabel "microseconds per job"
if (queue > 0) {
	plot data using 2:(sel("queue")) with linespoints title "ostrich + easy", \
	     data using 2:(sel("queue-fcfs")) with linespoints title "fcfs + easy"
} else {
	unset logscale
	set xrange [0:1]
	set yrange [0:1]
	set label 1 "no SDSC-BLUE trace: skipped" at 0.5,0.5 center
	plot 2 notitle
}

unset multiplot
