#!/bin/sh
# run-experiments.sh - regenerate doc/results.md and doc/plots/*.png:
# the papers' two synthetic experiments (with 95% confidence intervals
# over instances) and every policy x dispatch mode on the real traces;
# section 5, open loop against the users' feedback, from
# fairshare-analysis.sh's fb experiments (feedback-tables.py); section 6, the
# GPU experiment, from gpu-experiments.sh.
#
# usage: run-experiments.sh   (driven by `make results`; environment:)
#   SIM, GEN      ostrich-sim and ostrich-gen binaries
#   OUT           the doc directory to write (results.md, plots/)
#   TRACES        directory of the PWA traces (*.swf.gz)
#   INSTANCES     FairCamp experiment instances per k (default 1000, as the paper)
#   OS_INSTANCES  OStrich experiment instances (default 200; the paper ran 40)
#   SENS_INSTANCES sensitivity instances per point (default 40)
#   VAR_OS_INSTANCES, VAR_FC_INSTANCES  instances of the papers' experiments
#                 per variant in section 4 (default 40 and 100)
#   GPU_SEEDS     instances of the GPU experiment of section 6 (default 20;
#                 the text around its table is in the template)
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:?}" "${TRACES:?}"
: "${INSTANCES:=1000}" "${OS_INSTANCES:=200}" "${SENS_INSTANCES:=40}"
: "${TEMPLATE:=$(dirname "$0")/results-template.md}"
. "$(dirname "$0")/traces.sh"
LC_ALL=C; export LC_ALL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT/plots"
md=$tmp/results.md
POLICIES=ostrich,faircamp,fcfs,fairshare

now() { date +%s.%N; }

# ci_awk: the 95% CI half-width of a mean (Student t, sim/ci.sh).
# shellcheck source=sim/ci.sh
. "$(dirname "$0")/ci.sh"

# --- OStrich paper, section 6 -------------------------------------------

# One instance: per policy "policy short long ncamps gt20 le2" on stdout,
# campaign stretches appended to $tmp/os-<policy>.st when $4 is "keep".
os_instance() {
	seed=$1 users=$2 frac=$3 keep=$4
	"$GEN" --experiment ostrich --seed "$seed" --users "$users" \
		--short-frac "$frac" -o "$tmp/w.cwl"
	"$SIM" --quiet --compare "$POLICIES" --campaigns-out "$tmp/c.csv" \
		"$tmp/w.cwl"
	for p in ostrich faircamp fcfs fairshare; do
		[ "$keep" = keep ] &&
			awk -F, 'NR > 1 { print $9 }' "$tmp/c-$p.csv" \
				>>"$tmp/os-$p.st"
		awk -F, -v p=$p 'FNR == NR { split($0, a, " ")
				if (a[1] == "user") cls[a[2]] = a[4]; next }
			FNR > 1 { if ($9 > mx[$1]) mx[$1] = $9; n++
				gt += $9 > 20; le += $9 <= 2 }
			END { for (u in mx) { s[cls[u]] += mx[u]; c[cls[u]]++ }
				printf "%s %.10g %.10g %d %d %d\n", p,
				c["short"] ? s["short"] / c["short"] : 0,
				c["long"] ? s["long"] / c["long"] : 0, n, gt, le }' \
			"$tmp/w.cwl" "$tmp/c-$p.csv"
	done
}

os_summary() {	# stdin: lines of os_instance; prints one row per policy
	awk "$ci_awk"'
	{ p = $1; n[p]++; s[p] += $2; s2[p] += $2 * $2; l[p] += $3
	  l2[p] += $3 * $3; c[p] += $4; g[p] += $5; e[p] += $6
	  f = $5 / $4; gs[p] += f; gs2[p] += f * f }
	END { for (p in n) printf "%s %.2f %.2f %.2f %.2f %.1f %.1f %.1f %d\n",
		p, s[p] / n[p], ci(s[p], s2[p], n[p]), l[p] / n[p],
		ci(l[p], l2[p], n[p]), 100 * g[p] / c[p],
		100 * ci(gs[p], gs2[p], n[p]), 100 * e[p] / c[p], c[p] }' |
	sort
}

t0=$(now)
: >"$tmp/os.txt"
for seed in $(seq 1 "$OS_INSTANCES"); do
	os_instance "$seed" 10 0.5 keep >>"$tmp/os.txt"
done
os_summary <"$tmp/os.txt" >"$tmp/os.sum"
: >"$tmp/sens.sum"
for users in 4 10 20; do
	for frac in 0.25 0.5 0.75; do
		: >"$tmp/sens.txt"
		for seed in $(seq 1001 $((1000 + SENS_INSTANCES))); do
			os_instance "$seed" "$users" "$frac" no >>"$tmp/sens.txt"
		done
		os_summary <"$tmp/sens.txt" | grep -E '^(fcfs|ostrich) ' |
			sed "s/^/$users $frac /" >>"$tmp/sens.sum"
	done
done
t_os=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')

# --- FairCamp paper, section VII ----------------------------------------

t0=$(now)
: >"$tmp/fc.sum"
for k in 2 3 5 10 20; do
	: >"$tmp/fc.txt"
	for seed in $(seq 1 "$INSTANCES"); do
		"$GEN" --experiment faircamp --users "$k" --seed "$seed" \
			-o "$tmp/f.cwl"
		"$SIM" --quiet --compare ostrich,faircamp,fcfs \
			--campaigns-out "$tmp/c.csv" "$tmp/f.cwl"
		for p in ostrich faircamp fcfs; do
			awk -F, -v p=$p 'NR > 1 { f[$1] += $8; l[$1] += $7
				if ($9 > mc) mc = $9 }
				END { for (u in f) if (f[u] / l[u] > mu)
					mu = f[u] / l[u]
				printf "%s %.10g %.10g\n", p, mu, mc }' \
				"$tmp/c-$p.csv" >>"$tmp/fc.txt"
		done
	done
	awk -v k=$k "$ci_awk"'{ p = $1; n[p]++; u[p] += $2; u2[p] += $2 * $2
		c[p] += $3; c2[p] += $3 * $3 }
		END { for (p in n) printf "%d %s %.3f %.3f %.2f %.2f\n", k, p,
			u[p] / n[p], ci(u[p], u2[p], n[p]), c[p] / n[p],
			ci(c[p], c2[p], n[p]) }' "$tmp/fc.txt" | sort >>"$tmp/fc.sum"
done
t_fc=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')

# --- real traces --------------------------------------------------------

: >"$tmp/traces.sum"
for spec in $TRACE_SPECS; do
	trace_spec "$spec"
	[ -r "$trace" ] || { echo "missing $trace" >&2; continue; }
	for d in easy list strict; do
		"$SIM" --compare "$POLICIES" --dispatch $d \
			--summary-out "$tmp/s.json" \
			--campaigns-out "$tmp/$name-$d.csv" "$trace" \
			>"$tmp/$name-$d.txt"
		for p in ostrich faircamp fcfs fairshare; do
			wall=$(awk -v p=$p '/^metric/ { for (i = 2; i <= NF; i++)
				if ($i == p) col = i }
				/^wall time/ { print $(col + 2) }' \
				"$tmp/$name-$d.txt")
			worst=$(awk -F, 'NR > 1 { s[$1] += $9; n[$1]++ }
				END { for (u in s) if (s[u] / n[u] > w)
					w = s[u] / n[u]; printf "%.2f", w }' \
				"$tmp/$name-$d-$p.csv")
			awk -v t=$name -v m=$m -v d=$d -v p=$p -v w="$wall" \
			    -v worst="$worst" '
				/"[a-z_0-9]+": [-0-9.e+]+,?$/ {
					gsub(/[",:]/, " "); v[$1] = $2 }
				END { printf "%s %d %s %s %.1f %.3f %.2f %.2f %.2f " \
					"%.4f %s %s %d %d\n", t, m, d, p,
					v["max_stretch"], v["mean_stretch"],
					100 * v["share_stretch_gt_20"],
					100 * v["utilization"], v["mean_bsld"],
					v["jain_user_mean_stretch"], worst, w,
					v["jobs"], v["campaigns"] }' \
				"$tmp/s-$p.json" >>"$tmp/traces.sum"
		done
	done
	# plots: stretch CDF per policy and per-user max stretch (EASY)
	for p in ostrich faircamp fcfs fairshare; do
		awk -F, 'NR > 1 { print $9 }' "$tmp/$name-easy-$p.csv" |
			sort -g | awk '{ v[NR] = $1 } END { for (i = 1; i <= NR;
				i++) if (i == NR || v[i] != v[i + 1])
				print v[i], i / NR }' >"$tmp/$name-$p.cdf"
		awk -F, 'NR > 1 && $9 > mx[$1] { mx[$1] = $9 }
			END { for (u in mx) print mx[u] }' \
			"$tmp/$name-easy-$p.csv" | sort -gr |
			awk '{ print NR, $1 }' >"$tmp/$name-$p.users"
	done
	gnuplot <<PLOT
set terminal pngcairo size 800,500 font ",10"
set output "$OUT/plots/$name-stretch-cdf.png"
set title "$name (m = $m, EASY): CDF of campaign stretch"
set logscale x; set xlabel "campaign stretch"; set ylabel "fraction of campaigns"
set key bottom right; set grid
plot for [p in "ostrich faircamp fcfs fairshare"] "$tmp/$name-".p.".cdf" \
	using (\$1 < 1 ? 1 : \$1):2 with steps lw 2 title p
set output "$OUT/plots/$name-user-max-stretch.png"
set title "$name (m = $m, EASY): per-user max campaign stretch, users sorted"
unset logscale x; set logscale y; set xlabel "users (worst first)"
set ylabel "max stretch"; set key top right
plot for [p in "ostrich faircamp fcfs fairshare"] "$tmp/$name-".p.".users" \
	using 1:(\$2 < 0.1 ? 0.1 : \$2) with linespoints pt 7 ps 0.4 title p
PLOT
done

# --- plots of the synthetic experiments ----------------------------------

for p in ostrich faircamp fcfs fairshare; do
	sort -g "$tmp/os-$p.st" | awk '{ v[NR] = $1 } END { for (i = 1;
		i <= NR; i++) if (i == NR || v[i] != v[i + 1])
		print v[i], i / NR }' >"$tmp/os-$p.cdf"
done
awk '{ print $1, $2, $3, $4, $5 }' "$tmp/os.sum" >"$tmp/os.prof"
awk '$2 == "fcfs" || $2 == "faircamp" || $2 == "ostrich"' "$tmp/fc.sum" \
	>"$tmp/fc.dat"
gnuplot <<PLOT
set terminal pngcairo size 800,500 font ",10"
set output "$OUT/plots/ostrich-experiment-stretch-cdf.png"
set title "OStrich paper experiment (m = 64, 10 users, $OS_INSTANCES instances): campaign stretch CDF"
set logscale x; set xlabel "campaign stretch"; set ylabel "fraction of campaigns"
set key bottom right; set grid
plot for [p in "ostrich faircamp fcfs fairshare"] "$tmp/os-".p.".cdf" \
	using (\$1 < 1 ? 1 : \$1):2 with steps lw 2 title p
set output "$OUT/plots/ostrich-experiment-profiles.png"
set title "OStrich paper experiment: mean of the users' max stretch per profile (95% CI)"
unset logscale x; set logscale y; set xlabel ""; set ylabel "mean max stretch"
set style data histograms; set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1; set key top right; set yrange [1:*]
plot "$tmp/os.prof" using 2:3:xtic(1) title "short users", \
     "" using 4:5 title "long users"
set output "$OUT/plots/faircamp-experiment.png"
set title "FairCamp paper experiment (m = 10, $INSTANCES instances per k): max user stretch D^u (95% CI)"
set style data linespoints; unset logscale y; set yrange [0:*]
set xlabel "users k"; set ylabel "mean over instances of max_u D^u"; set key top left
plot for [p in "fcfs faircamp ostrich"] "< grep ' ".p." ' $tmp/fc.dat" \
	using 1:3:4 with yerrorlines lw 2 title p, x with lines dt 2 lc rgb "red" title "bound k"
PLOT

# --- the markdown ---------------------------------------------------------

row() { awk -v p="$1" '$1 == p' "$tmp/os.sum"; }
{
sed -n '1,/^<!-- generated below -->$/p' "$TEMPLATE"
cat <<EOF2

## 1. OStrich paper, section 6 (thesis 5.5): short and long users

Closed-loop workload from \`ostrich-gen --experiment ostrich --users 10
--short-frac 0.5\` (seeds 1..$OS_INSTANCES), m = 64, think time 0, EASY
dispatch (all jobs are sequential, so list, EASY and strict coincide).
"Short" and "long" are the means over instances of the average, over the
users of the profile, of each user's max campaign stretch; ± is the 95%
confidence interval over instances.  Shares are pooled over all campaigns
(± over instances).  Wall time of the whole experiment: ${t_os} s.

| policy | short users' max stretch | long users' max stretch | campaigns stretch > 20 | stretch <= 2 | campaigns |
|---|---|---|---|---|---|
EOF2
for p in fcfs ostrich faircamp fairshare; do
	row $p | awk '{ printf "| %s | %s ± %s | %s ± %s | %s%% ± %s | %s%% | %s |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9 }'
done
cat <<EOF2
| *paper: FCFS* | *> 50* | *6.3* | *42.3%* | | |
| *paper: OStrich* | *12.8* | *6.8* | *1.3% (117)* | *> 2 x FCFS* | |

![campaign stretch CDF](plots/ostrich-experiment-stretch-cdf.png)
![per-profile max stretch](plots/ostrich-experiment-profiles.png)

**Sensitivity** to the two numbers the papers leave out ($SENS_INSTANCES
instances per point, seeds 1001..; FCFS / OStrich):

| users | short share | short max stretch | long max stretch | stretch > 20 |
|---|---|---|---|---|
EOF2
awk '$3 == "fcfs" { f[$1 " " $2] = $0 } $3 == "ostrich" { o[$1 " " $2] = $0 }
	END { for (k in f) { split(f[k], a, " "); split(o[k], b, " ")
		printf "| %s | %s | %s / %s | %s / %s | %s%% / %s%% |\n", a[1],
		a[2], a[4], b[4], a[6], b[6], a[8], b[8] } }' "$tmp/sens.sum" |
	sort -t'|' -k2,2n -k3,3n
cat <<EOF2

## 2. FairCamp paper, section VII (thesis 4.6): max stretch against k

\`ostrich-gen --experiment faircamp --users k\` (seeds 1..$INSTANCES per k),
m = 10, think time 0, k counted at each campaign's submission (§5 of
`doc/semantics.md`).  Two readings of "max stretch": the paper's user stretch
D^u = sum of the user's campaign flows / sum of their lower bounds (the
paper's definition, section VI.A), maximised over users; and the per-campaign
stretch of §7, maximised over campaigns.  Means over instances
± 95% CI.  Wall time: ${t_fc} s.

| k | FCFS max D^u | FairCamp max D^u | OStrich max D^u | FCFS / FairCamp | paper ratio | FCFS max campaign stretch | FairCamp max campaign stretch | ratio |
|---|---|---|---|---|---|---|---|---|
EOF2
awk '{ u[$1, $2] = $3; uc[$1, $2] = $4; c[$1, $2] = $5; cc[$1, $2] = $6; k[$1] = 1 }
	END { paper[5] = "1.35"; paper[10] = "2.24"; paper[20] = "3.4"
	for (x in k) printf "| %d | %.2f ± %.2f | %.2f ± %.2f | %.2f ± %.2f | %.2f | %s | %.1f ± %.1f | %.1f ± %.1f | %.2f |\n",
		x, u[x, "fcfs"], uc[x, "fcfs"], u[x, "faircamp"], uc[x, "faircamp"],
		u[x, "ostrich"], uc[x, "ostrich"], u[x, "fcfs"] / u[x, "faircamp"],
		(x in paper) ? paper[x] : "~1", c[x, "fcfs"], cc[x, "fcfs"],
		c[x, "faircamp"], cc[x, "faircamp"], c[x, "fcfs"] / c[x, "faircamp"] }' \
	"$tmp/fc.sum" | sort -t'|' -k2,2n
cat <<EOF2

![FairCamp experiment](plots/faircamp-experiment.png)

## 3. Real traces: every policy and dispatch mode

Parallel Workloads Archive traces (cleaned versions), m from the header,
\`--grouping trace --think-time 600 --estimates requested\`, defaults
otherwise.  "worst user" is the largest per-user mean campaign stretch;
Jain is Jain's index over the users' mean stretch.  Wall time is the
replay alone (reading the gzip'ed trace adds about 0.1-0.3 s), on the
2-core build box.

| trace | m | dispatch | policy | max stretch | mean stretch | stretch > 20 | utilization | mean BSLD | Jain | worst user | wall (s) | jobs | campaigns |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
EOF2
awk '{ printf "| %s | %s | %s | %s | %s | %s | %s%% | %s%% | %s | %s | %s | %s | %s | %s |\n",
	$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }' \
	"$tmp/traces.sum"
cat <<EOF2

![KTH-SP2 stretch CDF](plots/KTH-SP2-stretch-cdf.png)
![KTH-SP2 per-user max stretch](plots/KTH-SP2-user-max-stretch.png)
![HPC2N stretch CDF](plots/HPC2N-stretch-cdf.png)
![HPC2N per-user max stretch](plots/HPC2N-user-max-stretch.png)
![SDSC-BLUE stretch CDF](plots/SDSC-BLUE-stretch-cdf.png)
![SDSC-BLUE per-user max stretch](plots/SDSC-BLUE-user-max-stretch.png)
EOF2
SIM=$SIM GEN=$GEN TRACES=$TRACES OUT=$tmp/var \
	OS_INSTANCES=${VAR_OS_INSTANCES:-40} FC_INSTANCES=${VAR_FC_INSTANCES:-100} \
	sh "$(dirname "$0")/variant-experiments.sh"
cat <<EOF2

## 4. Fair-share and the variants of OStrich (EASY, requested estimates)

Every trace against fcfs, fair-share recomputed at every event (P=0) and
every 300 s (Slurm's \`PriorityCalcPeriod\`), OStrich and its variants
(\`doc/semantics.md\` §10 learned and pooled areas, §11 memory, §12 areas
from evidence, §13 and §14 the served and capped keys, §15 memory's
credit on the key (\`memory-key\`); the analysis and the verdicts are in
\`doc/fairshare-analysis.md\`).  \`--grouping trace
--think-time 600\`, defaults otherwise.

EOF2
cat "$tmp/var/traces.md"
cat <<EOF2

The papers' experiments for each variant (OStrich experiment:
${VAR_OS_INSTANCES:-40} instances, seeds 1..; FairCamp experiment:
${VAR_FC_INSTANCES:-100} instances per k; means ± 95% CI over
instances).  Their jobs have exact estimates, so \`learned\` and \`pooled\` are
\`ostrich\` there.  In the FairCamp experiment \`evidence\` and \`capped\`
give exactly \`ostrich\`'s numbers: its jobs run at most 100 s, below
\`EvidenceFloor\`, and in these instances no campaign's unstarted work
reaches the cap of §14.

EOF2
cat "$tmp/var/ostrich-exp.md"
cat <<EOF2

Paired against \`ostrich\` (the same instances for every variant: each
variant's number over \`ostrich\`'s on the same instance, averaged, with its
95% CI; instances differ far more from each other than variants on one
instance, so these intervals are much narrower than those of the means):

EOF2
cat "$tmp/var/ostrich-exp-paired.md"
echo
cat "$tmp/var/faircamp-exp.md"
cat <<EOF2

Paired against \`ostrich\`, as above:

EOF2
cat "$tmp/var/faircamp-exp-paired.md"
SIM=$SIM TRACES=$TRACES OUT=$tmp/fb PLOTS=$tmp/fb/plots EXPS=fb \
	sh "$(dirname "$0")/fairshare-analysis.sh" >&2
cat <<EOF2

## 5. Open loop against the users' feedback

The same traces replayed open loop (every job at its recorded time) and
with the users' feedback (\`--feedback\`, \`doc/semantics.md\` §16: a
campaign that began at most H = 3600 s after the end of the user's
previous one is submitted that gap after the previous one completes in
the replay; the others keep their recorded times).  Open-loop rows are
\`--feedback --feedback-threshold 0\` (no campaign depends on another),
the schedule of the rows of section 4.  Last delay: completion of a
user's last campaign minus its recorded end (negative: earlier than on
the real machine).  \`make fairshare-analysis\` regenerates these tables;
the per-class breakdowns are in \`doc/fairshare-analysis.md\` section 5.

<!-- feedback tables begin -->
EOF2
python3 "$(dirname "$0")/feedback-tables.py" "$tmp/fb/fb-rows.txt"
echo "<!-- feedback tables end -->"
SIM=$SIM GEN=$GEN OUT=$tmp/gpu SEEDS=${GPU_SEEDS:-20} \
	sh "$(dirname "$0")/gpu-experiments.sh" >/dev/null
sed -n '/^<!-- gpu head -->$/,/^<!-- gpu table -->$/p' "$TEMPLATE" | sed '1d;$d'
cat "$tmp/gpu/gpu-exp.md"
sed -n '/^<!-- gpu table -->$/,/^<!-- gpu end -->$/p' "$TEMPLATE" | sed '1d;$d'
cat <<'EOF2'

## 7. Accounts (§21): flat against nested

`sim/accounts-experiments.sh` (`doc/semantics.md` §21).

EOF2
SIM=$SIM GEN=$GEN TRACES=$TRACES sh "$(dirname "$0")/accounts-experiments.sh"
sed -n '/^<!-- discussion -->$/,$p' "$TEMPLATE" | sed 1d
} >"$md"
cp "$md" "$OUT/results.md"
echo "wrote $OUT/results.md and $OUT/plots/ (OStrich experiment ${t_os} s, FairCamp ${t_fc} s)"
