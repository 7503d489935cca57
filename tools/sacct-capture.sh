#!/usr/bin/env bash
# sacct-capture.sh - capture a real sacct dump from a test cluster's own
# slurmdbd, for the simulator's sacct fixtures (tests/sim/data/cluster.*,
# doc/semantics.md §17).  As root:
#
#   tools/sacct-capture.sh PREFIX
#
# starts a 4-node x 4-CPU cluster with accounting (tools/cluster.sh, ACCT=1:
# MariaDB + slurmdbd of its own; stock sched/backfill + priority/multifactor,
# so that no plugin build is needed), accounts chem, phys and research, and
# runs: an array of 4 tasks (alice, chem), jobs of 8 and 1 CPUs (bob, phys),
# jobs without a time limit and with UNLIMITED (carol, chem), a job cancelled
# while pending and one cancelled while running (dave, research), a job
# requeued while running (bob; Slurm holds it about two minutes before it
# runs again), then, at dump time, a job still running (carol, phys) and
# one pending behind it (dave).  About five minutes.  It writes
#   PREFIX.sacct     sacct --allusers --allocations --duplicates --parsable2
#                    --format=JobIDRaw,User,Account,Partition,Submit,Start,
#                    End,Timelimit,ReqTRES,AllocTRES,State, in UTC
#   PREFIX.partinfo  scontrol show partition -o
# With OSTRICH_SIM=path/to/ostrich-sim it also writes the goldens that
# tests/sim/sacct.sh compares: PREFIX-POLICY.csv (--jobs-out) and
# PREFIX-POLICY-accounts.csv (--by account --groups-out) for ostrich,
# fairshare and fcfs, with --half-life 3600.  With OSTRICH_WHATIF=DIR as
# well, it then runs tools/whatif.sh --days 1 --out DIR on the live cluster
# (its real sacct and scontrol) and checks that its per-account tables are
# the goldens just written: the live dump replays as the fixture does.
# Ports: CTLD_PORT, NODE_PORT_BASE (tools/cluster.sh); the machine-wide lock
# of those ports, or OST_LIVE_LOCK, as the live tests take.
# SPDX-License-Identifier: GPL-2.0-or-later

set -euo pipefail
PREFIX=${1:?usage: sacct-capture.sh PREFIX}
SRC=$(cd "$(dirname "$0")/.." && pwd)
case $PREFIX in /*) ;; *) PREFIX=$PWD/$PREFIX ;; esac
if [ "${CTLD_PORT:-16817}.${NODE_PORT_BASE:-17001}" = 16817.17001 ]; then
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.lock}
else
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.${CTLD_PORT:-16817}.${NODE_PORT_BASE:-17001}.lock}
fi
exec 9>"$OST_LIVE_LOCK"
flock -w 900 9 || { echo "sacct-capture: $OST_LIVE_LOCK is held" >&2; exit 1; }

export TZ=UTC SLURM_TIME_FORMAT=standard
NNODES=4 CPUS_PER_NODE=4 ACCT=1 OST_PLUGIN_BUILD=
SCHED=sched/backfill PRIO=priority/multifactor
TEST_USERS="alice bob carol dave"
# shellcheck source=tools/cluster.sh
. "$SRC/tools/cluster.sh"
trap cluster_stop EXIT
say() { echo "sacct-capture: $*" >&2; }
die() { say "error: $*"; exit 1; }

# wait_for SECONDS CONDITION
wait_for() {
	local end=$(( $(date +%s) + $1 ))
	while ! eval "$2"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.5
	done
}
state() { squeue -h -j "$1" -o %T 2>/dev/null || true; }
# the accounting row of job $1 has reached state $2
acct_state() { sacct -n -X -P -j "$1" -o State 2>/dev/null | grep -q "^$2"; }

cluster_init
cluster_conf "PriorityDecayHalfLife=01:00:00
MinJobAge=2"
cluster_start
START=$(date -d '-1 minute' +%Y-%m-%dT%H:%M:%S)
sacctmgr -i add account chem,phys cluster=ostrich > /dev/null
sacctmgr -i add user alice,carol account=chem cluster=ostrich > /dev/null
sacctmgr -i add user bob,carol account=phys cluster=ostrich > /dev/null
wait_for 60 '[ "$(as carol sbatch --test-only -D "$WORK/out" -A phys -n 1 --wrap true 2>&1 | grep -c "to start")" = 1 ]' ||
	die "slurmctld does not know carol's account phys"
say "cluster up in $WORK; accounts chem, phys, research"

array=$(sub alice -A chem --array=1-4 -n 2 -t 2 --wrap 'sleep 3')
wide=$(sub bob -A phys -n 8 -t 5 --wrap 'sleep 4')
one=$(sub bob -A phys -n 1 -t 1 --wrap 'sleep 2')
nolimit=$(sub carol -A chem -n 2 --wrap 'sleep 3')
unlimited=$(sub carol -A chem -n 1 -t UNLIMITED --wrap 'sleep 2')
killed=$(sub dave -A research -n 1 -t 5 --wrap 'sleep 120')
never=$(sub dave -A research -n 16 -t 1 --wrap 'sleep 1')
requeued=$(sub bob -A phys --requeue -n 2 -t 5 --wrap 'sleep 8')
say "jobs: array $array, $wide, $one, $nolimit, $unlimited, $never (cancelled pending), $killed (cancelled running), $requeued (requeued)"

# $never waits for all 16 CPUs, which $killed holds: it never starts
wait_for 120 '[ "$(state "$killed")" = RUNNING ] && [ "$(state "$requeued")" = RUNNING ]' ||
	die "jobs $killed and $requeued do not run"
wait_for 60 'acct_state "$never" PENDING' || die "sacct does not show $never pending"
sleep 2
scancel "$never"
wait_for 60 '[ -z "$(state "$never")" ] || [ "$(state "$never")" = CANCELLED ]' || die "job $never not cancelled"
scancel "$killed"
scontrol requeue "$requeued"
say "cancelled $never and $killed, requeued $requeued"
wait_for 300 '[ -z "$(squeue -h -o %i)" ]' || { squeue; die "the jobs do not end"; }
for j in "$array" "$wide" "$one" "$nolimit" "$unlimited" "$requeued"; do
	wait_for 300 "acct_state $j COMPLETED" || die "sacct does not show job $j COMPLETED"
done
for j in "$never" "$killed"; do
	wait_for 300 "acct_state $j CANCELLED" || die "sacct does not show job $j CANCELLED"
done

running=$(sub carol -A phys -n 4 -t 10 --wrap 'sleep 600')
wait_for 60 '[ "$(state "$running")" = RUNNING ]' || die "job $running does not run"
pending=$(sub dave -A research -n 16 -t 1 --wrap 'sleep 1')
wait_for 60 'acct_state "$running" RUNNING && acct_state "$pending" PENDING' ||
	die "sacct does not show $running running and $pending pending"
say "job $running running, $pending pending; dumping"

sacct --allusers --allocations --duplicates --parsable2 -S "$START" -E now \
	--format=JobIDRaw,User,Account,Partition,Submit,Start,End,Timelimit,ReqTRES,AllocTRES,State \
	> "$PREFIX.sacct"
scontrol show partition -o > "$PREFIX.partinfo"
say "wrote $PREFIX.sacct ($(( $(wc -l < "$PREFIX.sacct") - 1 )) rows) and $PREFIX.partinfo"
[ -n "${OSTRICH_SIM:-}" ] || exit 0
for p in ostrich fairshare fcfs; do
	"$OSTRICH_SIM" --quiet --policy $p --half-life 3600 \
		--partition-info "$PREFIX.partinfo" --by account \
		--jobs-out "$PREFIX-$p.csv" --groups-out "$PREFIX-$p-accounts.csv" \
		"$PREFIX.sacct"
done
say "wrote the goldens $PREFIX-{ostrich,fairshare,fcfs}{,-accounts}.csv"
[ -n "${OSTRICH_WHATIF:-}" ] || exit 0
OSTRICH_SIM=$OSTRICH_SIM "$SRC/tools/whatif.sh" --days 1 --out "$OSTRICH_WHATIF" \
	> "$OSTRICH_WHATIF.out" || die "whatif.sh failed on the live cluster"
for p in ostrich fairshare fcfs; do
	cmp -s "$OSTRICH_WHATIF/account-$p.csv" "$PREFIX-$p-accounts.csv" ||
		die "whatif.sh's $p per-account table differs from the dump's replay"
done
say "whatif.sh on the live cluster: same per-account tables; report in $OSTRICH_WHATIF.out"
