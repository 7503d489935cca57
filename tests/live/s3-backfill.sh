#!/usr/bin/env bash
# s3-backfill.sh - live scenario 3: a rigid parallel job (all 8
# nodes) ranked first waits for alice's 4-node jobs; the embedded stock
# backfill still starts bob's small jobs into the idle nodes, because they
# end before the parallel job's reservation.
# carol has weight 10 (UserWeights), so her 8-node job outranks bob's jobs.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1
UserWeights=carol:10"

# Backfill rounds reservations to bf_resolution (60 s): with alice's limit
# only one minute above bob's, whether bob's 1-minute jobs fit before
# carol's reservation depended on the second of the minute the backfill
# cycle ran in (seen failing in CI).  Five minutes leave room whatever the
# rounding; the jobs still end after 14 s.
for i in 1 2 3 4; do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 4 ]' || fail "alice's 4 jobs did not start"
big=$(sub carol -N 8 -n 32 -t 1 --wrap 'sleep 2')
wait_passes
bobs=
for i in 1 2 3 4; do bobs="$bobs $(sub bob -n 4 -t 1 --wrap "$(gated bob)")"; done
wait_for 60 '[ "$(squeue -h -u bob -t R | wc -l)" = 4 ]' || { squeue; fail "bob's jobs were not backfilled"; }
snapshot
note "pending jobs (job priority user) once bob's jobs were backfilled:"
printf '%s\n' "$PEND" | sed 's/^/#   /'
[ "$(printf '%s\n' "$PEND" | awk '{ print $1 }' | tr -d '\n')" = "$big" ] || fail "only carol's job should be pending"
check_ranks
for j in $bobs; do
	# 26.05 logs it under DebugFlags=HetJob, with that prefix
	grep -Eq "sched/backfill: _start_job: (HETJOB: )?Started JobId=$j " "$WORK/log/slurmctld.log" ||
		fail "bob's job $j was not started by backfill"
done

open_gate bob
open_gate alice
wait_queue_empty 120
jobs_table > "$WORK/jobs.txt"
note "start order (job user start end):"
sort -k4,4n -k1,1n "$WORK/jobs.txt" | awk '{ printf "#   %s %s %s %s\n", $1, $2, strftime("%T", $4, 1), strftime("%T", $5, 1) }'
big_start=$(awk -v j=$big '$1 == j { print $4 }' "$WORK/jobs.txt")
alice_end=$(awk '$2 == "alice" && $5 > m { m = $5 } END { print m }' "$WORK/jobs.txt")
bob_last=$(awk '$2 == "bob" && $4 > m { m = $4 } END { print m }' "$WORK/jobs.txt")
[ "$bob_last" -lt "$big_start" ] || fail "bob's jobs did not start before carol's parallel job"
[ "$big_start" -ge "$alice_end" ] || fail "the 8-node job started before alice's jobs ended?"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 9 ] || fail "not all 9 jobs completed"
check_event_times
echo "PASS: backfill started bob's small jobs in the holes before the top-ranked 8-node job"
