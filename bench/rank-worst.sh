#!/bin/sh
# rank-worst.sh - who a GPU mix's worst campaigns waited behind
# (doc/semantics.md §27; bench/rank-eval.md, "Overdue").  For each seed,
# the GPU users' campaign of largest stretch in the default mix of
# doc/results.md §6, the stretch of its user's previous campaign, and
# every other user's campaign that took more than 10% of the GPU-seconds
# started during its wait (submit to end).
#
# usage: bench/rank-worst.sh "SEEDS" [ostrich-sim options...]
#   environment: SIM, GEN (ostrich-sim, ostrich-gen), OUT (scratch
#   directory, default rank-worst-out); the mix as sim/gpu-mix.sh (its
#   defaults: the default mix)
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:=rank-worst-out}"
# shellcheck source=sim/gpu-mix.sh
. "$(dirname "$0")/../sim/gpu-mix.sh"
[ $# -ge 1 ] || { echo "usage: $0 \"SEEDS\" [options]" >&2; exit 2; }
seeds=$1
shift
LC_ALL=C; export LC_ALL
mkdir -p "$OUT"
for s in $seeds; do
	w=$OUT/w$s.cwl
	[ -f "$w" ] || gpu_mix_gen "$s" "$w"
	"$SIM" --quiet --charge billing --charge-weights "$WEIGHTS" \
		"$@" --campaigns-out "$OUT/c.csv" --jobs-out "$OUT/j.csv" "$w"
	# campaigns: user,campaign,submit,end,jobs,work,lower_bound,flow,
	# stretch; jobs: job,user,campaign,submit,start,end,procs,runtime,
	# estimate,gpus,width; even users are the GPU users
	awk -F, -v s="$s" '
	FNR == 1 { next }
	FILENAME ~ /c\.csv$/ { C[$1 " " $2] = $0
		if ($1 % 2 == 0 && $9 > mx) {
			mx = $9; u = $1; c = $2; t0 = $3; t1 = $4; nj = $5
			lb = $7 }
		next }
	{ J[++n] = $0 }
	END {
		split(C[u " " (c - 1)], p, ",")
		printf "seed %d: user %d campaign %d (%d jobs) stretch %.1f, " \
			"waited %d s for a bound of %d s; previous campaign " \
			"stretch %s\n", s, u, c, nj, mx, t1 - t0, lb,
			(c > 1 ? sprintf("%.2f", p[9]) : "-")
		for (i = 1; i <= n; i++) {
			split(J[i], a, ",")
			if (a[2] != u && a[5] >= t0 && a[5] < t1) {
				k = a[2] " " a[3]; g[k] += a[10] * a[8]
				sb[k] = a[4] }
		}
		for (k in g)
			if (g[k] > 0.1 * 16 * (t1 - t0)) {
				split(k, q, " "); split(C[k], cc, ",")
				printf "    user %d campaign %d (opened at " \
					"%d s): %.0f%% of the GPU-seconds\n",
					q[1], q[2], cc[3],
					100 * g[k] / (16 * (t1 - t0))
			}
	}' "$OUT/c.csv" "$OUT/j.csv"
done
