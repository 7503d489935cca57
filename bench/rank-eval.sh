#!/bin/sh
# rank-eval.sh - chained campaigns: the candidate rules of doc/semantics.md §24
# (Gate=none, Lead=forgive, Lead=cap) on the GPU mixes of doc/results.md
# §6, one table per mix, through sim/gpu-experiments.sh (--charge billing,
# CPU=1,GRES/gpu=4).  Results: bench/rank-eval.md.
#
# usage: bench/rank-eval.sh   (environment: SIM, GEN as gpu-experiments.sh;
#   OUT (default rank-eval-out), SEEDS (20), JOBS (10000), MIXES (all),
#   SETTINGS (the list below))
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:=rank-eval-out}" "${SEEDS:=20}" "${JOBS:=10000}"
here=$(cd "$(dirname "$0")/.." && pwd)
: "${MIXES:=default gpus8 frac25 think600 think3600 wide16 maxg4}"
export SIM GEN SEEDS JOBS
mkdir -p "$OUT"

# the settings, in the order of the tables ("-" = shipped); SETTINGS in
# the environment replaces them (one a line)
: "${SETTINGS:=-
--gate none
--lead forgive
--lead forgive --gate none
--lead cap
--lead cap --gate none
--lead cap --lead-kappa 0.5 --gate none
--lead cap --lead-kappa 2 --gate none
--gate none --rank capped}"

# shellcheck source=sim/gpu-mix.sh
. "$here/sim/gpu-mix.sh"

for mix in $MIXES; do
	env_mix=$(gpu_mix_env "$mix") || exit 2
	t0=$(date +%s)
	: >"$OUT/$mix.md"
	i=0
	echo "$SETTINGS" | while IFS= read -r set; do
		i=$((i + 1))
		opts=$set
		[ "$opts" = "-" ] && opts=
		# shellcheck disable=SC2086
		env $env_mix OUT="$OUT/$mix/$i" CHARGES=billing \
			OSTRICH_OPTS="$opts" sh "$here/sim/gpu-experiments.sh" \
			>/dev/null
		if [ "$i" -eq 1 ]; then
			sed -n '1,2p;/^| fairshare/p' "$OUT/$mix/$i/gpu-exp.md" \
				>>"$OUT/$mix.md"
		fi
		grep '^| ostrich' "$OUT/$mix/$i/gpu-exp.md" >>"$OUT/$mix.md"
	done
	echo "mix $mix ($env_mix): $(( $(date +%s) - t0 )) s" >>"$OUT/times.txt"
done
