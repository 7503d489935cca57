#!/usr/bin/env bash
# s23-rules.sh - live scenario 23: Gate=none, Lead=cap and Overdue=restart
# (doc/semantics.md §24, §27) in a real slurmctld.  The keys are in the
# "engine configured" line and in the event log's config record; the
# priorities follow the core's ranks as replayed from the event log; the
# state file is version 5 and a TERM restart keeps campaigns and ranks;
# a reconfigure with a bad LeadCap is refused and the rules kept;
# back to the defaults, the state is written as version 1 again.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
RULES='Interval=1
Gate=none
Lead=cap
LeadCap=0.5
Overdue=restart'
live_start "$RULES"
STATE=$WORK/state/ostrich_state.debug

wait_for 60 'grep -q "ostrich: engine configured: .* Gate=none Lead=cap LeadCap=0.5 Overdue=restart " "$WORK/log/slurmctld.log"' ||
	fail "the rules are not in the 'engine configured' line"

# alice fills the 32 CPUs and queues 8 more; bob and carol arrive after
for i in $(seq 16); do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for i in 1 2 3; do sub bob -n 4 -t 1 --wrap 'sleep 2' >/dev/null; done
for i in 1 2; do sub carol -n 2 -t 2 --wrap 'sleep 2' >/dev/null; done
wait_for 30 'grep -q " config .* gate=none .* lead=cap lead_cap=0.5 overdue=restart" "$WORK/events.log" ||
	grep -q " create .* gate=none .* lead=cap lead_cap=0.5 overdue=restart" "$WORK/events.log"' ||
	fail "no create or config record with the rules in the event log"
last_submit=$(date +%s)
wait_for 60 '[ "$(stat -c %Y "$WORK/state/job_state")" -gt "$last_submit" ]' ||
	fail "slurmctld did not save its job state"
snapshot
check_ranks
check_comments
before=$PEND
wait_for 60 'head -1 "$STATE" 2>/dev/null | grep -qx "ostrich-state 5"' ||
	fail "the state file is not version 5: $(head -1 "$STATE" 2>/dev/null)"
grep -q '^config .* lead=cap lead_cap=0x1p-1 overdue=restart$' "$STATE" ||
	fail "the state file's config line lacks the rules: $(grep '^config' "$STATE")"
"$OST_REPLAY" --state "$STATE" > "$WORK/state.before" || fail "state file unreadable before the restart"

note "TERM restart of slurmctld"
restart_same TERM
check_ranks
note "after the restart: the same $(printf '%s\n' "$PEND" | wc -l) pending jobs and priorities, version 5 read back"

# a LeadCap out of range: refused at reconfigure, the rules kept
printf '%s\nLeadCap=-1\nEventLog=%s\n' "$RULES" "$WORK/events.log" > "$WORK/ostrich.conf"
if [ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ]; then
	! scontrol reconfigure || fail "scontrol reconfigure succeeded with LeadCap=-1"
else
	scontrol reconfigure || fail "scontrol reconfigure failed"
fi
wait_for 30 'grep -q "ostrich: reconfigure: .*LeadCap=-1: must be a number.*keeping the previous configuration" "$WORK/log/slurmctld.log"' ||
	fail "LeadCap=-1 not refused with its reason"
scontrol ping >/dev/null || fail "slurmctld died at the refused reconfigure"
snapshot
[ "$PEND" = "$before" ] || fail "the refused reconfigure changed the priorities"

# back to the defaults: version 1 again at the next save
n_reconf() { grep -c 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" || true; }
printf 'Interval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for 60 'grep -q "ostrich: reconfigured: .* Gate=soft Lead=keep LeadCap=1 Overdue=rank " "$WORK/log/slurmctld.log"' ||
	fail "the defaults were not applied at reconfigure"
wait_for 60 'head -1 "$STATE" | grep -qx "ostrich-state 1"' ||
	fail "the state file did not go back to version 1: $(head -1 "$STATE")"
snapshot
check_ranks

open_gate alice
wait_queue_empty 120
jobs_table > "$WORK/jobs.txt"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 21 ] || { cat "$WORK/jobs.txt"; fail "jobs were lost: not all 21 completed"; }
echo "PASS: Gate=none Lead=cap Overdue=restart configured, logged, replayed and kept across a TERM restart (state version 5); a bad LeadCap refused at reconfigure; the defaults write version 1 again; all 21 jobs completed"
