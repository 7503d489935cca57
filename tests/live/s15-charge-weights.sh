#!/usr/bin/env bash
# s15-charge-weights.sh - live scenario 15: billing units without
# slurmdbd (semantics.md §19).  Slurm takes no GRES in TRESBillingWeights
# there, so ostrich.conf gives ChargeWeights=CPU=1,GRES/gpu=4; gres/gpu is
# no TRES, and the engine counts the GPUs from the jobs' GRES request and
# allocation and the nodes' Gres=.  The same case as s14
# (billing_scenario, live-lib.sh): alice's 1 CPU + 4 GPUs jobs are 17
# units and rank below bob's 4-CPU jobs, above them under Charge=cpu.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

[ -f "$STOCK_PLUGINDIR/gres_gpu.so" ] || skip "no gres_gpu.so in $STOCK_PLUGINDIR"

NNODES=4 GPUS_PER_NODE=4
SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1
ChargeWeights=CPU=1,GRES/gpu=4"
grep -q 'ostrich: .*Charge=billing ChargeWeights=CPU=1,GRES/gpu=4 ' "$WORK/log/slurmctld.log" ||
	fail "the engine did not take ChargeWeights"

billing_scenario "ChargeWeights=CPU=1,GRES/gpu=4"
echo "PASS: no slurmdbd, ChargeWeights=CPU=1,GRES/gpu=4: alice's 1 CPU + 4 GPUs jobs are 17 billing units and rank below bob's 4-CPU jobs under Charge=billing, above under Charge=cpu"
