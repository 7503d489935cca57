#!/usr/bin/env bash
# s12-accounting.sh - live scenario 12: a cluster with accounting and
# GPUs, billed by the site's TRESBillingWeights.  MariaDB and
# slurmdbd run in the scratch directory (tools/cluster.sh, ACCT=1); four
# nodes of 4 CPUs and 4 GPUs (empty files named by gres.conf);
# TRESBillingWeights=CPU=1.0,GRES/gpu=4.0 on the partition; sched/ostrich
# + priority/ostrich.  alice runs a job of 1 CPU + 4 GPUs, bob one of 4
# CPUs; once both ended, sacct bills them 17 and 4, each in the account
# the harness gave them, and the engine saw both jobs start and finish.
# SKIPs (77) and says why when slurmdbd, MariaDB or the Slurm's MySQL
# plugin is missing.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

# The accounting daemons and clients of the Slurm that runs the cluster:
# another release's slurmdbd or sacctmgr would not talk to it.
need_accounting
[ -f "$STOCK_PLUGINDIR/gres_gpu.so" ] || skip "no gres_gpu.so in $STOCK_PLUGINDIR"

NNODES=4 GPUS_PER_NODE=4 ACCT=1
PART_EXTRA="TRESBillingWeights=CPU=1.0,GRES/gpu=4.0"
SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1"
note "$(( $(date +%s) - T_START )) s to start; slurmdbd on port $DBD_PORT, MariaDB on port $DB_PORT (127.0.0.1)"

sinfo -h -N -o '%N %G' | awk '$2 != "gpu:4" { bad = 1 } END { exit bad || NR != 4 }' ||
	{ sinfo -N -o '%N %G %t'; fail "the nodes do not have 4 GPUs each"; }
[ "$(sacctmgr -n -P show assoc cluster=ostrich account="$ACCT_ACCOUNT" format=user | grep -c .)" -ge 2 ] ||
	{ sacctmgr show assoc; fail "alice and bob are not in account $ACCT_ACCOUNT"; }

gpu=$(sub alice -n 1 --gres=gpu:4 -t 1 --wrap 'sleep 2')
cpu=$(sub bob -n 4 -t 1 --wrap 'sleep 2')
note "alice's job $gpu (1 CPU + 4 GPUs), bob's job $cpu (4 CPUs)"
wait_queue_empty 120

# slurmctld sends the job's end to slurmdbd on its own time; the rows are
# read once both are there, and checked from that one reading
row() { sacct -a -n --parsable2 -X -j "$gpu,$cpu" \
	--format=JobIDRaw,User,Account,AllocTRES,Elapsed,State; }
wait_for 300 '[ "$(row 2>/dev/null | grep -c "|COMPLETED$")" = 2 ]' ||
	{ row; fail "sacct does not show both jobs COMPLETED"; }
ROWS=$(row) || fail "sacct failed"
note "sacct (JobIDRaw|User|Account|AllocTRES|Elapsed|State), $(( $(date +%s) - T_START )) s in:"
printf '%s\n' "$ROWS" | sed 's/^/#   /'
# billing=N of AllocTRES, by job id
billing() { printf '%s\n' "$ROWS" | awk -F'|' -v j="$1" '$1 == j { n = split($4, t, ",")
	for (i = 1; i <= n; i++) if (t[i] ~ /^billing=/) { sub(/^billing=/, "", t[i]); print t[i] } }'; }
[ "$(billing "$gpu")" = 17 ] || fail "alice's job $gpu billed $(billing "$gpu"), want 17 (1 CPU x 1.0 + 4 GPUs x 4.0)"
[ "$(billing "$cpu")" = 4 ] || fail "bob's job $cpu billed $(billing "$cpu"), want 4 (4 CPUs x 1.0)"
printf '%s\n' "$ROWS" | awk -F'|' -v a="$ACCT_ACCOUNT" '$3 != a { bad = 1 } END { exit bad }' ||
	fail "a job was not charged to account $ACCT_ACCOUNT"
printf '%s\n' "$ROWS" | awk -F'|' -v g="$gpu" '$1 == g { exit !index($4, "gres/gpu=4") }' ||
	fail "alice's job $gpu was not allocated 4 GPUs"

# the engine ran beside accounting and saw both jobs start and finish
for j in "$gpu" "$cpu"; do
	for e in start finish; do
		awk -v e="$e" -v j="$j" '$2 == e && $3 == j { f = 1 } END { exit !f }' "$WORK/events.log" ||
			fail "no $e event of job $j in the engine's event log"
	done
done
echo "PASS: slurmdbd + MariaDB of the harness; sacct bills alice's 1 CPU + 4 GPUs job 17 and bob's 4 CPUs job 4 (TRESBillingWeights=CPU=1.0,GRES/gpu=4.0); the engine saw both"
