#!/usr/bin/env bash
# s2-faircamp.sh - live scenario 2: scenario 1's workload with
# Mode=faircamp.  Deadlines D = t_c + k*L: alice (alone, k=1, L=120 s) is
# due first, then bob (k=2, L=60 s), then carol (k=3), so the queue must
# follow alice > bob > carol and alice's remaining jobs start first.
# Both plugins configured: exactly one engine must run.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Mode=faircamp
Interval=1"

[ "$(grep -c 'ostrich: engine configured' "$WORK/log/slurmctld.log")" = 1 ] ||
	fail "expected exactly one engine with both plugins"
grep -q 'sched/ostrich.*embedded backfill loaded' "$WORK/log/slurmctld.log" || fail "backfill not embedded"

for i in $(seq 16); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for i in 1 2 3 4; do sub bob -n 4 -t 1 --wrap 'sleep 4' >/dev/null; done
next_second
for i in 1 2 3 4; do sub carol -n 4 -t 1 --wrap 'sleep 4' >/dev/null; done
wait_passes
snapshot
check_user_order "alice bob carol " "FairCamp, deadline order"
check_ranks
check_comments
alice_pending=$(printf '%s\n' "$PEND" | awk '$3 == "alice" { print $1 }' | tr '\n' ' ')

open_gate alice
wait_queue_empty 120
wait_passes
jobs_table > "$WORK/jobs.txt"
note "start order (job user start):"
sort -k4,4n -k1,1n "$WORK/jobs.txt" | awk '{ printf "#   %s %s %s\n", $1, $2, strftime("%T", $4, 1) }'
# in slurmctld's log order: alice's released jobs end at once, so her
# remaining jobs and bob's may start within one second
small=$(awk '$2 != "alice" { printf "%s ", $1 }' "$WORK/jobs.txt")
started_before "$alice_pending" "$small" ||
	fail "bob or carol started before alice's remaining jobs (earlier deadline); start order: $(start_order)"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 24 ] || fail "not all 24 jobs completed"
check_event_times
echo "PASS: FairCamp deadline order alice > bob > carol, one engine for both plugins"
