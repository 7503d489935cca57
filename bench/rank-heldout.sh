#!/bin/sh
# rank-heldout.sh - the candidate rules of doc/semantics.md §24 on the two
# CPU-only synthetic experiments of doc/results.md §1-§2 (the OStrich
# paper's, 10 users, half short; the FairCamp paper's, k = 5, 10, 20),
# which took no part in choosing the rules: per setting the mean campaign
# stretch, the mean over instances of the largest campaign stretch, the
# share of campaigns with stretch > 20 and the largest user's mean stretch
# (FairCamp's measure), each with a 95% CI over instances.
#
# usage: bench/rank-heldout.sh   (environment: SIM, GEN; OUT (default
#   rank-heldout-out); SEEDS (default 200))
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:=rank-heldout-out}" "${SEEDS:=200}"
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=sim/ci.sh
. "$here/sim/ci.sh"
LC_ALL=C; export LC_ALL
mkdir -p "$OUT"
raw=$OUT/raw.txt
: >"$raw"

: "${SETTINGS:=shipped:
gate-none:--gate none
forgive:--lead forgive
cap:--lead cap
cap+gate-none:--lead cap --gate none}"

# one line per setting: "EXP SETTING mean max gt20 worst_user_mean"
stats() {	# EXP SETTING CSV
	awk -F, -v e="$1" -v st="$2" 'NR > 1 { n++; s += $9; if ($9 > mx) mx = $9
		gt += $9 > 20; us[$1] += $9; uc[$1]++ }
		END { for (u in us) if (us[u] / uc[u] > wu) wu = us[u] / uc[u]
		printf "%s %s %.10g %.10g %.10g %.10g\n", e, st, s / n, mx,
			100 * gt / n, wu }' "$3"
}

seed=1
while [ "$seed" -le "$SEEDS" ]; do
	for exp in os fc5 fc10 fc20; do
		case $exp in
		os) "$GEN" --experiment ostrich --seed "$seed" --users 10 \
			--short-frac 0.5 -o "$OUT/w.cwl"; base=fairshare ;;
		fc*) "$GEN" --experiment faircamp --users "${exp#fc}" \
			--seed "$seed" -o "$OUT/w.cwl"; base=faircamp ;;
		esac
		"$SIM" --quiet --policy "$base" --campaigns-out "$OUT/c.csv" \
			"$OUT/w.cwl"
		stats "$exp" "$base" "$OUT/c.csv" >>"$raw"
		echo "$SETTINGS" | while IFS=: read -r lab opts; do
			# shellcheck disable=SC2086
			"$SIM" --quiet --policy ostrich $opts \
				--campaigns-out "$OUT/c.csv" "$OUT/w.cwl"
			stats "$exp" "$lab" "$OUT/c.csv" >>"$raw"
		done
	done
	seed=$((seed + 1))
done

{
echo "| experiment | setting | mean stretch | max stretch (mean over instances) | > 20 (%) | worst user's mean stretch |"
echo "|---|---|---|---|---|---|"
for exp in os fc5 fc10 fc20; do
	for st in fairshare faircamp $(echo "$SETTINGS" | cut -d: -f1); do
		awk -v e="$exp" -v st="$st" "$ci_awk"'
		$1 == e && $2 == st { n++; for (i = 3; i <= 6; i++) {
			s[i] += $i; s2[i] += $i * $i } }
		END { if (n) printf "| %s | %s | %.3f ± %.3f | %.1f ± %.1f | %.2f ± %.2f | %.2f ± %.2f |\n",
			e, st, s[3] / n, ci(s[3], s2[3], n), s[4] / n,
			ci(s[4], s2[4], n), s[5] / n, ci(s[5], s2[5], n),
			s[6] / n, ci(s[6], s2[6], n) }' "$raw"
	done
done
} >"$OUT/rank-heldout.md"
cat "$OUT/rank-heldout.md"
