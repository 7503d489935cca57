#!/usr/bin/env bash
# s14-billing.sh - live scenario 14: billing units (semantics.md §19) from
# the site's TRESBillingWeights=CPU=1.0,GRES/gpu=4.0, with slurmdbd and
# MariaDB of the harness (tools/cluster.sh ACCT=1: GRES in the weights
# need AccountingStorageTRES=gres/gpu).  A GPU user against a CPU user: alice's
# jobs of 1 CPU + 4 GPUs rank below bob's 4-CPU jobs under Charge=billing
# (17 units against 4) and above them under Charge=cpu
# (billing_scenario, live-lib.sh); sacct bills alice's jobs 17, the width
# the engine started them at.  SKIPs (77) as s12 when accounting is
# missing.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

live_start_gpu_accounting

billing_scenario ""

# what the engine charged alice's jobs at is what Slurm bills them
row() { sacct -a -n --parsable2 -X -j "$(echo $ALICE_JOBS | tr ' ' ,)" \
	--format=JobIDRaw,AllocTRES,State; }
wait_for 300 '[ "$(row 2>/dev/null | grep -c "|COMPLETED$")" = 2 ]' ||
	{ row; fail "sacct does not show alice's jobs COMPLETED"; }
row | sed 's/^/#   /'
row | awk -F'|' '{ if (!index($2, "billing=17,") && $2 !~ /billing=17$/) bad = 1 } END { exit bad }' ||
	fail "sacct does not bill alice's jobs 17"
echo "PASS: TRESBillingWeights=CPU=1.0,GRES/gpu=4.0: alice's 1 CPU + 4 GPUs jobs (17 billing units, as sacct bills them) rank below bob's 4-CPU jobs under Charge=billing, above under Charge=cpu; SystemComment width=17 unit=billing"
