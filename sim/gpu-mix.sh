# gpu-mix.sh - sourced by the scripts that replay a GPU mix of
# doc/results.md section 6 (sim/gpu-experiments.sh, bench/rank-eval.sh,
# bench/rank-contested.sh, bench/rank-worst.sh), so that the mix is
# written once.  The mix comes from the environment, each variable with
# the default of section 6:
#   JOBS USERS GPU_FRAC PROCS GPUS MAX_GPUS CPUS_PER_GPU
#              ostrich-gen's options (10000 12 0.5 64 16 8 2)
#   THINK      think time between a user's campaigns, s (0)
#   WEIGHTS    --charge-weights of billing (CPU=1,GRES/gpu=4: the 16 GPUs
#              are worth the 64 CPUs)
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh

: "${JOBS:=10000}" "${USERS:=12}" "${GPU_FRAC:=0.5}" "${PROCS:=64}"
: "${GPUS:=16}" "${MAX_GPUS:=8}" "${CPUS_PER_GPU:=2}" "${THINK:=0}"
: "${WEIGHTS:=CPU=1,GRES/gpu=4}"

# gpu_mix_gen SEED FILE: the mix's workload for SEED, written to FILE
# (ostrich-gen is $GEN).
gpu_mix_gen() {
	"$GEN" --experiment ostrich --seed "$1" --jobs "$JOBS" \
		--users "$USERS" --gpu-frac "$GPU_FRAC" --procs "$PROCS" \
		--gpus "$GPUS" --max-gpus "$MAX_GPUS" \
		--cpus-per-gpu "$CPUS_PER_GPU" --think-time "$THINK" -o "$2"
}

# gpu_mix_env NAME: the environment settings of a named mix of
# bench/rank-eval.md, on stdout; status 2 for an unknown name.
gpu_mix_env() {
	case $1 in
	default) echo "" ;;
	gpus8) echo "GPUS=8" ;;
	frac25) echo "GPU_FRAC=0.25" ;;
	think600) echo "THINK=600" ;;
	think3600) echo "THINK=3600" ;;
	wide16) echo "GPUS=16 MAX_GPUS=16" ;;
	maxg4) echo "MAX_GPUS=4" ;;
	*) echo "unknown mix $1" >&2; return 2 ;;
	esac
}
