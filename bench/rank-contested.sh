#!/bin/sh
# rank-contested.sh - how much of the GPU users' GPU service in a GPU mix
# of doc/results.md §6 runs while another user has a GPU job pending
# (bench/rank-eval.md, "Memorylessness per resource").  DRFQ's
# memorylessness, taken per resource, would forgive only the lead a user
# takes on a resource no other user is waiting for; the lead accrues only
# while the user is served, so the uncontested share of its service
# bounds what such a rule could forgive.
#
# Counted while two GPU users or more still have work (up to the second
# latest end of a user's GPU jobs): after that the last GPU user is alone,
# and its lead is uncontested by construction.  Per seed: the share of
# the GPU-seconds of GPU users inside that window, and the contested
# share of those.
#
# usage: bench/rank-contested.sh "SEEDS" [ostrich-sim options...]
#   environment: SIM, GEN (ostrich-sim, ostrich-gen), OUT (scratch
#   directory, default rank-contested-out); the mix as sim/gpu-mix.sh
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${GEN:?}" "${OUT:=rank-contested-out}"
# shellcheck source=sim/gpu-mix.sh
. "$(dirname "$0")/../sim/gpu-mix.sh"
[ $# -ge 1 ] || { echo "usage: $0 \"SEEDS\" [options]" >&2; exit 2; }
seeds=$1
shift
LC_ALL=C; export LC_ALL
mkdir -p "$OUT"
for s in $seeds; do
	w=$OUT/w$s.cwl
	gpu_mix_gen "$s" "$w"
	rm -f "$OUT/j.csv"
	"$SIM" --quiet --charge billing --charge-weights "$WEIGHTS" \
		"$@" --jobs-out "$OUT/j.csv" "$w"
	# jobs: job,user,campaign,submit,start,end,procs,runtime,estimate,
	# gpus,width.  Events of GPU jobs: time, kind (1 submit, 2 start,
	# 3 end: a job submitted and started at once never pends), user,
	# GPUs; sorted by time, then kind.
	awk -F, 'FNR > 1 && $10 > 0 {
		print $4, 1, $2, $10; print $5, 2, $2, $10
		print $6, 3, $2, $10 }' "$OUT/j.csv" | sort -k1,1g -k2,2n |
	awk -v s="$s" '
	{ T[NR] = $1; K[NR] = $2; U[NR] = $3; G[NR] = $4
	  if ($2 == 3 && $1 > last[$3]) last[$3] = $1 }
	END {
		# the second latest last end of a GPU user
		for (u in last)
			if (last[u] > a) { b = a; a = last[u] }
			else if (last[u] > b) b = last[u]
		cut = b
		for (i = 1; i <= NR; i++) {
			dt = T[i] - prev
			wd = (T[i] < cut ? T[i] : cut) - (prev < cut ? prev : cut)
			if (dt > 0) for (u in run) if (run[u] > 0) {
				all += dt * run[u]
				if (wd > 0) { win += wd * run[u]
					if (npend - pend[u] > 0)
						con += wd * run[u] }
			}
			prev = T[i]; u = U[i]
			if (K[i] == 1) { pend[u]++; npend++ }
			else if (K[i] == 2) { pend[u]--; npend--; run[u] += G[i] }
			else run[u] -= G[i]
		}
		if (win == 0) {
			printf "seed %s: fewer than two GPU users with GPU work\n", s
			exit }
		printf "seed %s window %.2f%% contested %.2f%%\n", s,
			100 * win / all, 100 * con / win }'
done
