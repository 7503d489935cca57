#!/usr/bin/env bash
# s6-special.sh - live scenario 6: a job array (one pending record for
# all its tasks, one campaign), a cancelled pending job (leaves the engine),
# a held job (left alone, joins when released), an admin-set priority (never
# overwritten), a requeued job (back to pending in its campaign) and a
# heterogeneous job (each component ranked and charged as a job).
# Run with SchedulerType=sched/backfill + PriorityType=priority/ostrich, the
# setup that accepts heterogeneous jobs.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/backfill PRIO=priority/ostrich
live_start "Interval=1"

for i in $(seq 8); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's 8 jobs did not start"
arr=$(sub bob --array=1-4 -n 4 -t 1 --wrap 'sleep 2')
norm=$(sub carol -n 4 -t 1 --wrap 'sleep 2')
held=$(sub carol --hold -n 4 -t 1 --wrap 'sleep 2')
admin=$(sub carol -n 4 -t 1 --wrap 'sleep 2')
canc=$(sub carol -n 4 -t 1 --wrap 'sleep 2')
scontrol update jobid=$admin priority=5
scancel $canc
snapshot
note "pending (job priority user): array $arr, normal $norm, held $held, admin-set $admin, cancelled $canc"
printf '%s\n' "$PEND" | sed 's/^/#   /'

[ "$(squeue -h -j $held -o %Q)" = 0 ] || fail "held job $held does not keep priority 0"
grep -q JobHeldUser <<<"$(squeue -h -j $held -o %r)" || fail "job $held is not held"
[ "$(squeue -h -j $admin -o %Q)" = 5 ] || fail "admin-set priority of $admin was overwritten"
[ -z "$(squeue -h -j $canc 2>/dev/null)" ] || fail "cancelled job $canc still queued"
grep -q "^debug cancel $canc " "$WORK/events.log" || fail "the engine did not drop cancelled job $canc"
check_ranks "$admin $held"
ntasks=$(grep -c "^rank debug [0-9]* ${arr}_" "$WORK/replay.out" || true)
nsub=$(awk -v a=$arr '$2 == "submit" && int($3 / 4294967296) == a { k[$3] = 1 } END { print length(k) }' "$WORK/events.log")
[ "$nsub" = 4 ] || fail "the engine was given $nsub tasks of array $arr, want 4"
ncamp=$(awk -v a="${arr}_" '$1 == "rank" && index($4, a) == 1 { print $6 }' "$WORK/replay.out" | sort -u | wc -l)
[ "$ncamp" = 1 ] || fail "the tasks of array $arr are in $ncamp campaigns"
note "array $arr: 4 tasks given to the engine, the $ntasks still pending ranked in one campaign"

scontrol release $held
snapshot
p=$(squeue -h -j $held -o %Q)
[ "$p" -gt 5 ] || fail "released job $held got priority $p"
check_ranks "$admin"
note "released job $held now has priority $p"

scontrol requeue 1
wait_passes
grep -q "^debug requeue 1 " "$WORK/events.log" || fail "the engine did not see the requeue of job 1"
p=$(squeue -h -j 1 -t PD -o %Q)
[ -n "$p" ] && [ "$p" -gt 5 ] || fail "requeued job 1 is not pending with an ostrich priority ($p)"
note "requeued job 1 is pending again with priority $p"
scancel 1

# a heterogeneous job: each component ranked and charged as a job (§1);
# slurmctld calls priority_p_set before it makes them components
het=$(sub carol -n 4 -t 1 : -n 4 -t 1 --wrap 'sleep 2')
het=${het%%[+;]*}
comps=$(squeue -h -j "$het" -o %A | sort -n | tr '\n' ' ')
[ "$(echo $comps | wc -w)" = 2 ] || fail "het job $het: components '$comps', want 2"
wait_passes
for c in $comps; do
	grep -q "^debug submit $c " "$WORK/events.log" || fail "het component $c not given to the engine"
	! grep -q "^debug cancel $c " "$WORK/events.log" || fail "het component $c dropped by a pass"
	p=$(squeue -h -j "$c" -o %Q | head -1)
	[ "$p" -ge $PRIO_LO ] && [ "$p" -lt $TOP ] || fail "het component $c has priority $p, not an ostrich one"
done
note "het job $het: components $comps ranked"
open_gate alice
wait_queue_empty 120
for c in $comps; do
	grep -q "^debug finish $c " "$WORK/events.log" || fail "het component $c was never charged"
done
jobs_table > "$WORK/jobs.txt"
note "start order: $(start_order)"
[ "$(awk '$6 == "COMPLETED"' "$WORK/jobs.txt" | wc -l)" = 16 ] ||
	{ cat "$WORK/jobs.txt"; fail "want 16 completed records (7 alice, 4 tasks, 3 carol, 2 het components)"; }
[ "$(awk '$1 == 1 { print $6 }' "$WORK/jobs.txt")" = CANCELLED ] || fail "job 1 not cancelled"
started_before "$norm ${arr}_1 ${arr}_2 ${arr}_3 ${arr}_4" "$admin" ||
	fail "the admin-set priority 5 job started before jobs ranked by ostrich"
echo "PASS: array, cancelled, held, admin-set, requeued and heterogeneous jobs handled"
