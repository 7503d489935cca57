#!/bin/sh
# invariants.sh - check one replay from its output files alone:
#   every job exactly once, none starts before its submit, end = start + p,
#   busy CPUs never above m, and the summary's metrics recomputed from the
#   jobs CSV (§7) equal the JSON within 1e-9 (relative).
# usage: invariants.sh JOBS.csv CAMPAIGNS.csv SUMMARY.json M NJOBS
# SPDX-License-Identifier: GPL-2.0-or-later

jobs=$1 camps=$2 summary=$3 m=$4 njobs=$5
LC_ALL=C; export LC_ALL

# 1. each job once, causality, runtime
awk -F, -v n="$njobs" 'NR == 1 { next }
	{ if (seen[$1]++) { print "job " $1 " twice"; bad = 1 }
	  if ($5 < $4) { print "job " $1 " starts before submit"; bad = 1 }
	  d = $6 - ($5 + $8); if (d < 0) d = -d
	  if (d > 1e-6 * (1 + $6)) { print "job " $1 " end != start + p"; bad = 1 }
	  rows++ }
	END { if (rows != n) { print rows " jobs, expected " n; bad = 1 }
	      exit bad }' "$jobs" || exit 1

# 2. CPU sweep: at equal times, releases before starts
awk -F, 'NR > 1 { print $5, 1, $7; print $6, 0, -$7 }' "$jobs" |
	sort -k1,1g -k2,2n |
	awk -v m="$m" '{ busy += $3; if (busy > m) { print "busy " busy \
		" > m at t=" $1; exit 1 } }' || exit 1

# 3. metrics from the CSV against the summary
awk -F, -v m="$m" -v camps="$camps" -v summary="$summary" '
function abs(x) { return x < 0 ? -x : x }
function check(name, got,   want) {
	want = json[name]
	if (abs(got - want) > 1e-9 * (abs(want) + 1e-300) && abs(got - want) > 1e-12) {
		printf "%s: recomputed %.15g, summary %.15g\n", name, got, want
		bad = 1
	}
}
NR == 1 { next }
{
	k = $2 "," $3
	if (!(k in tc) || $4 < tc[k]) tc[k] = $4
	if (!(k in ce) || $6 > ce[k]) ce[k] = $6
	work[k] += $7 * $8
	nj++; wait += $5 - $4
	p = $8; b = ($5 - $4 + p) / (p > 10 ? p : 10); bsld += b > 1 ? b : 1
	if (nj == 1 || $4 < first) first = $4
	if (nj == 1 || $6 > last) last = $6
	total += $7 * $8
	sub_[NR] = $4; run[NR] = $8; key[NR] = k
}
END {
	for (i in key) { r = sub_[i] - tc[key[i]] + run[i]
		if (r > reach[key[i]]) reach[key[i]] = r }
	while ((getline line < summary) > 0) {
		if (line ~ /^  "[a-z_0-9]+": [-0-9.e+]+,?$/) {
			split(line, kv, /[":, ]+/); json[kv[2]] = kv[3] + 0 }
	}
	for (k in tc) {
		lb = work[k] / m; if (reach[k] > lb) lb = reach[k]; if (lb < 1) lb = 1
		s = (ce[k] - tc[k]) / lb
		nc++; sum += s; if (s > mx) mx = s; gt += s > 20; le += s <= 2
		split(k, uc, ","); us[uc[1]] += s; un[uc[1]]++
	}
	for (u in us) { x = us[u] / un[u]; sx += x; sx2 += x * x; nu++ }
	check("max_stretch", mx); check("mean_stretch", sum / nc)
	check("share_stretch_gt_20", gt / nc); check("share_stretch_le_2", le / nc)
	check("makespan", last - first)
	check("utilization", total / (m * (last - first)))
	check("mean_wait", wait / nj); check("mean_bsld", bsld / nj)
	check("jain_user_mean_stretch", sx2 > 0 ? sx * sx / (nu * sx2) : 1)
	check("jobs", nj); check("campaigns", nc)
	rows = -1; while ((getline line < camps) > 0) rows++
	if (rows != nc) { print "campaigns CSV has " rows " rows, expected " nc; bad = 1 }
	exit bad
}' "$jobs" || exit 1
