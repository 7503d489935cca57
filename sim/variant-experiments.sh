#!/bin/sh
# variant-experiments.sh - the tables of doc/fairshare-analysis.md §3 and
# doc/results.md section 4: every trace x {fcfs, fairshare P=0 and 300,
# ostrich, each variant}, and the papers' two experiments for ostrich and
# each variant (95% confidence intervals over instances).
#
# usage: variant-experiments.sh   (environment:)
#   SIM, GEN      ostrich-sim and ostrich-gen     TRACES  *.swf.gz directory
#   OUT           output directory (default var-out)
#   OS_INSTANCES  OStrich experiment instances (default 40, the paper's)
#   FC_INSTANCES  FairCamp experiment instances per k (default 100)
#   VARIANTS      "name:options;..." (default: the variants of §10-§15;
#                 the first is the baseline of the paired ratios)
#   PARTS         which tables: any of traces, os, fc (default all three)
#
# Besides the tables (traces.md, ostrich-exp.md, faircamp-exp.md) it
# writes paired ratios against the first variant (ostrich-exp-paired.md,
# faircamp-exp-paired.md): every variant runs the same instances (same
# seeds), so the ratio of its number to the baseline's is taken instance
# by instance, then averaged with its 95% CI.  Instances differ far more
# from each other than variants do on one instance, so the CI of a paired
# ratio is much narrower than those of the two means it compares.  The
# per-instance numbers are kept in OUT/raw.
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${TRACES:?}" "${OUT:=var-out}"
: "${OS_INSTANCES:=40}" "${FC_INSTANCES:=100}" "${PARTS:=traces os fc}"
: "${VARIANTS:=ostrich:;learned:--virtual-area learned;pooled:--virtual-area pooled;memory:--memory on;learned+memory:--virtual-area learned --memory on;pooled+memory:--virtual-area pooled --memory on;evidence:--evidence on;evidence+memory:--evidence on --memory on;served:--rank served;served+evidence:--rank served --evidence on;served+memory:--rank served --memory on;capped:--rank capped;capped+memory:--rank capped --memory on;memory-key:--memory key;capped+memory-key:--rank capped --memory key}"
LC_ALL=C; export LC_ALL
mkdir -p "$OUT/raw"
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
base=$(echo "$VARIANTS" | tr ';' '\n' | head -1 | cut -d: -f1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=sim/ci.sh
. "$(dirname "$0")/ci.sh"

# row LABEL TRACE OPTIONS...: one replay of a trace, one table row.
row() {
	lab=$1 tr=$2; shift 2
	"$SIM" --quiet --think-time 600 --summary-out "$tmp/s.json" "$@" \
		"$TRACES/$tr"*.swf.gz
	awk -v t="$tr" -v l="$lab" '/"[a-z_0-9]+": [-0-9.e+]+,?$/ {
			gsub(/[",:]/, " "); v[$1] = $2 }
		END { printf "| %s | %s | %.3f | %.1f | %.2f%% | %.2f | %.2f%% |\n",
			t, l, v["mean_stretch"], v["max_stretch"],
			100 * v["share_stretch_gt_20"], v["mean_bsld"],
			100 * v["utilization"] }' "$tmp/s.json"
}

if part traces; then
{
echo "| trace | policy | mean stretch | max stretch | stretch > 20 | mean BSLD | utilization |"
echo "|---|---|---|---|---|---|---|"
for tr in KTH-SP2 HPC2N SDSC-BLUE; do
	row fcfs $tr --policy fcfs
	row "fairshare P=0" $tr --policy fairshare
	row "fairshare P=300" $tr --policy fairshare --fairshare-period 300
	echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
		# shellcheck disable=SC2086
		row "$name" $tr --policy ostrich $opts
	done
done
} >"$OUT/traces.md"
fi

# paired BASEFILE FILE: for each column, the mean over instances of
# FILE's value over BASEFILE's (same line = same instance),
# with its 95% CI, as "r ± ci" cells.
paired() {
	paste -d' ' "$1" "$2" | awk -v nc="$(awk 'NR == 1 { print NF; exit }' "$1")" \
		"$ci_awk"'{ n++; for (i = 1; i <= nc; i++) { b = $i; x = $(i + nc)
			r = (b > 0 ? x / b : 1); s[i] += r; s2[i] += r * r } }
		END { for (i = 1; i <= nc; i++)
			printf "%s%.3f ± %.3f", (i > 1 ? " | " : ""), s[i] / n, ci(s[i], s2[i], n) }'
}

# OStrich experiment: short and long users' max stretch, share above 20.
if part os; then
{
echo "| variant | short users' max stretch | long users' max stretch | stretch > 20 |"
echo "|---|---|---|---|"
echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
	: >"$tmp/os.txt"
	for seed in $(seq 1 "$OS_INSTANCES"); do
		"$GEN" --experiment ostrich --seed "$seed" --users 10 \
			--short-frac 0.5 -o "$tmp/w.cwl"
		# shellcheck disable=SC2086
		"$SIM" --quiet --policy ostrich $opts \
			--campaigns-out "$tmp/c.csv" "$tmp/w.cwl"
		awk -F, 'FNR == NR { split($0, a, " ")
				if (a[1] == "user") cls[a[2]] = a[4]; next }
			FNR > 1 { if ($9 > mx[$1]) mx[$1] = $9; n++; gt += $9 > 20 }
			END { for (u in mx) { s[cls[u]] += mx[u]; c[cls[u]]++ }
				printf "%.10g %.10g %.10g\n", s["short"] / c["short"],
				s["long"] / c["long"], gt / n }' \
			"$tmp/w.cwl" "$tmp/c.csv" >>"$tmp/os.txt"
	done
	cp "$tmp/os.txt" "$OUT/raw/os-$name.txt"
	awk -v v="$name" "$ci_awk"'{ n++; a += $1; a2 += $1 * $1; b += $2
		b2 += $2 * $2; g += $3; g2 += $3 * $3 }
		END { printf "| %s | %.2f ± %.2f | %.2f ± %.2f | %.2f%% ± %.2f |\n",
			v, a / n, ci(a, a2, n), b / n, ci(b, b2, n),
			100 * g / n, 100 * ci(g, g2, n) }' "$tmp/os.txt"
done
} >"$OUT/ostrich-exp.md"
{
echo "| variant | short users' max stretch / $base's | long users' max stretch / $base's |"
echo "|---|---|---|"
cut -d' ' -f1-2 "$OUT/raw/os-$base.txt" >"$tmp/b.txt"
echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
	cut -d' ' -f1-2 "$OUT/raw/os-$name.txt" >"$tmp/v.txt"
	echo "| $name | $(paired "$tmp/b.txt" "$tmp/v.txt") |"
done
} >"$OUT/ostrich-exp-paired.md"
fi

# FairCamp experiment: max user stretch D^u and max campaign stretch per k.
if part fc; then
{
echo "| variant | k | max D^u | max campaign stretch |"
echo "|---|---|---|---|"
echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
	for k in 2 5 10 20; do
		: >"$tmp/fc.txt"
		for seed in $(seq 1 "$FC_INSTANCES"); do
			"$GEN" --experiment faircamp --users "$k" --seed "$seed" \
				-o "$tmp/f.cwl"
			# shellcheck disable=SC2086
			"$SIM" --quiet --policy ostrich $opts \
				--campaigns-out "$tmp/c.csv" "$tmp/f.cwl"
			awk -F, 'NR > 1 { f[$1] += $8; l[$1] += $7
				if ($9 > mc) mc = $9 }
				END { for (u in f) if (f[u] / l[u] > mu)
					mu = f[u] / l[u]
				printf "%.10g %.10g\n", mu, mc }' \
				"$tmp/c.csv" >>"$tmp/fc.txt"
		done
		cp "$tmp/fc.txt" "$OUT/raw/fc-$name-$k.txt"
		awk -v v="$name" -v k=$k "$ci_awk"'{ n++; u += $1; u2 += $1 * $1
			c += $2; c2 += $2 * $2 }
			END { printf "| %s | %d | %.3f ± %.3f | %.2f ± %.2f |\n",
				v, k, u / n, ci(u, u2, n), c / n, ci(c, c2, n) }' \
			"$tmp/fc.txt"
	done
done
} >"$OUT/faircamp-exp.md"
{
echo "| variant | k | max D^u / $base's | max campaign stretch / $base's |"
echo "|---|---|---|---|"
echo "$VARIANTS" | tr ';' '\n' | while IFS=: read -r name opts; do
	for k in 2 5 10 20; do
		echo "| $name | $k | $(paired "$OUT/raw/fc-$base-$k.txt" "$OUT/raw/fc-$name-$k.txt") |"
	done
done
} >"$OUT/faircamp-exp-paired.md"
fi
