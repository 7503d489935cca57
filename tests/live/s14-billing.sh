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

if [ -n "${SLURM_PREFIX:-}" ]; then
	for f in sbin/slurmdbd bin/sacctmgr bin/sacct; do
		[ -x "$SLURM_PREFIX/$f" ] ||
			skip "no $f in $SLURM_PREFIX (tools/build-slurm.sh builds it when libmariadb-dev is installed)"
	done
else
	for c in slurmdbd sacctmgr sacct; do
		command -v "$c" > /dev/null || skip "no $c (tools/install-deps.sh installs slurmdbd)"
	done
fi
[ -f "$STOCK_PLUGINDIR/accounting_storage_mysql.so" ] ||
	skip "no accounting_storage_mysql.so in $STOCK_PLUGINDIR (Slurm built without libmariadb-dev)"
[ -f "$STOCK_PLUGINDIR/gres_gpu.so" ] || skip "no gres_gpu.so in $STOCK_PLUGINDIR"
for c in mariadbd mariadb-install-db mariadb mariadb-admin; do
	command -v "$c" > /dev/null || skip "no $c (tools/install-deps.sh installs mariadb-server)"
done

NNODES=4 GPUS_PER_NODE=4 ACCT=1
PART_EXTRA="TRESBillingWeights=CPU=1.0,GRES/gpu=4.0"
SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1"
note "$(( $(date +%s) - T_START )) s to start; slurmdbd on port $DBD_PORT"

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
