#!/bin/sh
# feedback.sh - conformance of --feedback (doc/semantics.md §16):
#  1. no dependent campaign (threshold 0, or every trace gap above the
#     threshold): the replay is byte for byte the open-loop one, on the
#     golden workloads and on generated ones, under every policy;
#  2. every campaign but a user's first dependent, jobs of a campaign
#     submitted together: the replay is byte for byte the one of the
#     closed-loop file written from the same campaigns (think time = the
#     trace gap, the first campaign at its trace time);
#  3. with gaps on both sides of the threshold, a dependent campaign is
#     submitted exactly its trace gap after its predecessor completes;
#  4. closed-loop files, online grouping and bad thresholds are refused.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${DATA:=data}" "${srcdir:=.}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
LC_ALL=C; export LC_ALL
fail=0 n=0
policies="ostrich faircamp fcfs fairshare"

ok() { n=$((n + 1)); echo "ok $n $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# gen SEED GAPLO GAPHI: 6 users x 25 campaigns of 1-4 jobs submitted
# together (recorded wait 0), the gap from the end of a user's campaign
# to its next one uniform in [GAPLO, GAPHI] s.  Writes $tmp/w.swf (jobs
# numbered in replay order) and $tmp/w.cwl (the same campaigns, in the
# same order, think time = gap).
gen() {
	awk -v seed="$1" -v lo="$2" -v hi="$3" -v swf="$tmp/w.swf" \
	    -v cwl="$tmp/w.cwl" 'function rnd() {   # LCG, same on every awk
			seed = (seed * 1103515245 + 12345) % 2147483648
			return seed / 2147483648 }
		BEGIN { m = 16
			for (u = 1; u <= 6; u++) {
				t = 1000 * u + rnd() * 5000
				for (c = 1; c <= 25; c++) {
					k++; ct[k] = t; cu[k] = u
					cg[k] = c > 1 ? gap : -1
					cn[k] = 1 + int(rnd() * 4); e = t
					for (i = 1; i <= cn[k]; i++) {
						q[k, i] = 1 + int(rnd() * 8)
						p[k, i] = 10 + int(rnd() * 3000)
						r[k, i] = p[k, i] * (1 + int(rnd() * 3))
						if (t + p[k, i] > e) e = t + p[k, i]
					}
					gap = lo + rnd() * (hi - lo)
					t = e + gap
				}
			}
			# campaigns in trace order (ties never happen: random reals)
			for (a = 1; a <= k; a++) o[a] = a
			for (a = 2; a <= k; a++) for (b = a; b > 1 && ct[o[b]] < ct[o[b - 1]]; b--) {
				x = o[b]; o[b] = o[b - 1]; o[b - 1] = x }
			print "; MaxProcs: " m >swf
			print "%ostrich-campaigns 1\nprocs " m >cwl
			for (a = 1; a <= k; a++) if (cg[o[a]] < 0)
				printf "user %d start %.17g\n", cu[o[a]], ct[o[a]] >cwl
			for (a = 1; a <= k; a++) {
				x = o[a]
				if (cg[x] < 0) print "campaign " cu[x] >cwl
				else printf "campaign %d think %.17g\n", cu[x], cg[x] >cwl
				for (i = 1; i <= cn[x]; i++) {
					printf "%d %.17g 0 %d %d -1 -1 %d %d -1 1 %d 1 -1 -1 -1 -1 -1\n", \
						++j, ct[x], p[x, i], q[x, i], q[x, i], r[x, i], cu[x] >swf
					print "job " q[x, i] " " p[x, i] " " r[x, i] >cwl
				}
			}
		}'
}

# 1. Golden workloads (trace grouping), threshold 0: the golden schedules.
grep -v '^#' "$srcdir/golden.cases" | grep -v -e online -e '\.cwl' | {
	while read -r file expected opts; do
		[ -n "$file" ] || continue
		# shellcheck disable=SC2086
		"$SIM" --quiet --jobs-out "$tmp/g.csv" --feedback \
			--feedback-threshold 0 $opts "$DATA/$file" &&
			cmp -s "$DATA/$expected" "$tmp/g.csv" ||
			{ echo "FAIL: $file $opts --feedback-threshold 0"; exit 1; }
	done
} && ok "golden workloads, --feedback --feedback-threshold 0" ||
	fail=1

# 1. Generated, every gap above the default threshold (3600 s).
for seed in 1 2 3; do
	gen $seed 3700 20000
	for p in $policies; do
		"$SIM" --quiet --policy $p --jobs-out "$tmp/open.csv" \
			--summary-out "$tmp/open.json" "$tmp/w.swf" &&
		"$SIM" --quiet --policy $p --feedback --jobs-out "$tmp/fb.csv" \
			--summary-out "$tmp/fb.json" "$tmp/w.swf" ||
			{ bad "seed $seed $p: exit status"; continue; }
		grep -q '"dependent_campaigns": 0,' "$tmp/fb.json" ||
			bad "seed $seed $p: dependent campaigns"
		cmp -s "$tmp/open.csv" "$tmp/fb.csv" &&
			ok "independent campaigns = open loop, seed $seed $p" ||
			bad "seed $seed $p: feedback differs from open loop"
	done
done

# 2. Generated, every gap below the threshold: = the closed-loop file.
for seed in 4 5 6; do
	gen $seed 700 3500
	for p in $policies; do
		for d in easy list; do
			"$SIM" --quiet --policy $p --dispatch $d --feedback \
				--jobs-out "$tmp/fb.csv" --summary-out "$tmp/fb.json" \
				--campaigns-out "$tmp/fbc.csv" "$tmp/w.swf" &&
			"$SIM" --quiet --policy $p --dispatch $d \
				--jobs-out "$tmp/cl.csv" "$tmp/w.cwl" ||
				{ bad "seed $seed $p $d: exit status"; continue; }
			grep -q '"dependent_campaigns": 144,' "$tmp/fb.json" ||
				bad "seed $seed $p $d: dependent campaigns"
			cmp -s "$tmp/cl.csv" "$tmp/fb.csv" &&
				ok "dependent campaigns = closed loop, seed $seed $p $d" ||
				bad "seed $seed $p $d: feedback differs from the closed loop"
		done
	done
done

# 3. Mixed gaps: dependent campaigns released their trace gap after the
# predecessor's completion in the replay.
gen 7 700 7000
for p in ostrich fairshare; do
	"$SIM" --quiet --policy $p --feedback --campaigns-out "$tmp/c.csv" \
		"$tmp/w.swf" || { bad "mixed $p: exit status"; continue; }
	# trace campaign times and gaps, from the cwl (same order)
	awk 'NR == FNR { if ($1 == "user") st[$2] = $4
			if ($1 == "campaign") { s[$2]++; g[$2, s[$2]] = $4 }
			next }
		FNR == 1 { next }
		{ split($0, f, ",") }
		f[2] > 1 && g[f[1], f[2]] != "" && g[f[1], f[2]] <= 3600 {
			want = end[f[1]] + g[f[1], f[2]]
			d = f[3] - want; if (d < 0) d = -d
			if (d > 1e-6 * want) { print "user " f[1] " campaign " f[2] \
				": submit " f[3] " want " want; bad = 1 } }
		{ end[f[1]] = f[4] }
		END { exit bad }' "$tmp/w.cwl" "$tmp/c.csv" &&
		ok "mixed gaps: dependent campaigns at completion + gap, $p" ||
		bad "mixed $p: dependent releases"
done

# A replay moves submit times: the next one of --compare starts again
# from the trace's.
"$SIM" --quiet --feedback --policy ostrich --jobs-out "$tmp/one.csv" \
	"$tmp/w.swf" &&
"$SIM" --quiet --feedback --compare fairshare,ostrich \
	--jobs-out "$tmp/many.csv" "$tmp/w.swf" &&
	cmp -s "$tmp/one.csv" "$tmp/many-ostrich.csv" &&
	ok "--compare replays each policy from the trace's times" ||
	bad "--compare: the second replay differs from a single one"

# 4. Refusals: closed-loop files and online grouping.
"$SIM" --quiet --feedback "$tmp/w.cwl" 2>/dev/null &&
	bad "--feedback accepted a closed-loop file" || ok "refuses closed loop"
"$SIM" --quiet --feedback --grouping online "$tmp/w.swf" 2>/dev/null &&
	bad "--feedback accepted --grouping online" || ok "refuses online"
"$SIM" --quiet --feedback-threshold -1 "$tmp/w.swf" 2>/dev/null &&
	bad "negative threshold accepted" || ok "refuses a negative threshold"
exit $fail
