#!/bin/sh
# gpu-experiments.sh - doc/results.md section 6: a machine of CPUs and
# GPUs shared by CPU-only users and GPU users (doc/semantics.md §20),
# closed-loop campaigns from ostrich-gen; per class of user, the campaign
# stretch under ostrich and fairshare for each --charge mode.
#
# usage: gpu-experiments.sh   (environment:)
#   SIM, GEN   ostrich-sim and ostrich-gen
#   OUT        output directory (default gpu-out): gpu-exp.md, raw/
#   SEEDS      instances, seeds 1..SEEDS (default 20)
#   JOBS USERS GPU_FRAC PROCS GPUS MAX_GPUS CPUS_PER_GPU THINK WEIGHTS
#              the mix (sim/gpu-mix.sh, with its defaults)
#   CHARGES    the --charge modes to run (default "cpu billing dominant")
#   OSTRICH_OPTS  extra ostrich-sim options for every run, e.g. "--gate
#              none --lead cap" (doc/semantics.md §24; default none); the
#              ostrich rows are then named with them
#
# Per instance and run it keeps, for each class (cpu: users whose class is
# short/long, gpu: gpu-short/gpu-long), the mean and the max campaign
# stretch, and the CPU and GPU utilizations; the table gives their mean
# over instances with a 95% CI, and the largest max.
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:=gpu-out}" "${SEEDS:=20}"
: "${CHARGES:=cpu billing dominant}" "${OSTRICH_OPTS:=}"
# shellcheck source=sim/gpu-mix.sh
. "$(dirname "$0")/gpu-mix.sh"
LC_ALL=C; export LC_ALL
mkdir -p "$OUT/raw"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw=$OUT/raw/runs.txt
: >"$raw"

# shellcheck source=sim/ci.sh
. "$(dirname "$0")/ci.sh"

# stats RUN: one line "RUN cpu_mean cpu_max gpu_mean gpu_max cpu_util
# gpu_util" from the workload's classes, the campaigns and the jobs.
stats() {
	awk -F, -v run="$1" -v m="$PROCS" -v G="$GPUS" '
		FILENAME ~ /w\.cwl$/ { split($0, a, " ")
			if (a[1] == "user") cls[a[2]] = a[4] ~ /^gpu/ ? "gpu" : "cpu"
			next }
		FILENAME ~ /c-/ && FNR > 1 { k = cls[$1]; n[k]++; s[k] += $9
			if ($9 > mx[k]) mx[k] = $9; next }
		FILENAME ~ /j-/ && FNR > 1 { if (!t0set || $4 < t0) { t0 = $4; t0set = 1 }
			if ($6 > t1) t1 = $6; cw += $7 * $8; gw += $10 * $8 }
		END { span = t1 - t0
			printf "%s %.10g %.10g %.10g %.10g %.10g %.10g\n", run,
				s["cpu"] / n["cpu"], mx["cpu"], s["gpu"] / n["gpu"],
				mx["gpu"], cw / (m * span), gw / (G * span) }' \
		"$tmp/w.cwl" "$tmp/c-$2.csv" "$tmp/j-$2.csv"
}

seed=1
while [ "$seed" -le "$SEEDS" ]; do
	gpu_mix_gen "$seed" "$tmp/w.cwl"
	for charge in $CHARGES; do
		# shellcheck disable=SC2086
		"$SIM" --quiet --compare ostrich,fairshare --charge "$charge" \
			--charge-weights "$WEIGHTS" $OSTRICH_OPTS \
			--campaigns-out "$tmp/c.csv" --jobs-out "$tmp/j.csv" \
			"$tmp/w.cwl"
		for p in ostrich fairshare; do
			stats "$p/$charge" "$p" >>"$raw"
		done
	done
	seed=$((seed + 1))
done

{
echo "| policy / charge | CPU users: mean stretch | CPU users: max stretch (mean, largest) | GPU users: mean stretch | GPU users: max stretch (mean, largest) | CPU util. | GPU util. |"
echo "|---|---|---|---|---|---|---|"
for run in ostrich/cpu ostrich/billing ostrich/dominant fairshare/billing \
	   fairshare/cpu fairshare/dominant; do
	case " $CHARGES " in *" ${run#*/} "*) ;; *) continue ;; esac
	name=$run
	case $run in ostrich/*) [ -z "$OSTRICH_OPTS" ] ||
		name="$run $OSTRICH_OPTS" ;; esac
	awk -v run="$run" -v name="$name" "$ci_awk"'$1 == run { n++
		for (i = 2; i <= 7; i++) { s[i] += $i; s2[i] += $i * $i
			if ($i > top[i]) top[i] = $i } }
		END { printf "| %s | %.2f ± %.2f | %.1f ± %.1f, %.1f | %.2f ± %.2f | %.1f ± %.1f, %.1f | %.1f%% | %.1f%% |\n",
			name, s[2] / n, ci(s[2], s2[2], n), s[3] / n,
			ci(s[3], s2[3], n), top[3], s[4] / n,
			ci(s[4], s2[4], n), s[5] / n, ci(s[5], s2[5], n),
			top[5], 100 * s[6] / n, 100 * s[7] / n }' "$raw"
done
} >"$OUT/gpu-exp.md"
cat "$OUT/gpu-exp.md"
