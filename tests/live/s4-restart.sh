#!/usr/bin/env bash
# s4-restart.sh - live scenario 4: kill -9 of slurmctld mid-campaign
# and restart: the engine restores its state file, campaigns and ranks are
# the same and no job is lost.  Then a corrupt state file: logged, rebuilt
# from the job records, ranks again equal to the core's, no crash, the
# corrupt file kept aside as .bad.TIME; a newer-format file kept as .vN.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1"
STATE=$WORK/state/ostrich_state.debug

for i in $(seq 16); do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for i in 1 2 3 4; do sub bob -n 4 -t 1 --wrap 'sleep 2' >/dev/null; done
last_submit=$(date +%s)
# slurmctld itself saves job_state at most every 5 s: a kill -9 sooner after
# a submission loses the job in Slurm (not an ostrich matter).
wait_for 60 '[ "$(stat -c %Y "$WORK/state/job_state")" -gt "$last_submit" ]' ||
	fail "slurmctld did not save its job state"
snapshot
check_ranks
before=$PEND
"$OST_REPLAY" --state "$STATE" > "$WORK/state.before" || fail "state file unreadable before the kill"
note "campaigns before the kill (part uid seq pending running done):"
grep '^campaign' "$WORK/state.before" | sed 's/^/#   /'

note "kill -9 slurmctld"
restart_same KILL
note "after restart: same $(printf '%s\n' "$PEND" | wc -l) pending jobs, same priorities, same campaigns and ranks"

note "kill -9 slurmctld, corrupt the state file"
next_second
ctld_stop KILL
printf 'this is not an ostrich state file\n\001\002' > "$STATE"
cp "$STATE" "$WORK/corrupt.copy"
ctld_start || fail "slurmctld did not restart with a corrupt state file"
wait_for 60 'grep -q "ostrich: state file $STATE unusable .*moved to $STATE.bad.[0-9]*; rebuilding partition debug from the job records" "$WORK/log/slurmctld.log"' ||
	fail "corrupt state file not reported"
# the evidence is kept aside, byte for byte, and not overwritten by saves
bad=$(ls "$STATE".bad.* 2>/dev/null) || fail "the corrupt state file was not kept aside"
[ "$(printf '%s\n' "$bad" | wc -l)" = 1 ] || fail "more than one file kept aside: $bad"
cmp -s "$bad" "$WORK/corrupt.copy" || fail "$bad does not hold the corrupt content"
note "corrupt state kept aside as $(basename "$bad")"
snapshot
check_ranks
[ "$PEND" = "$before" ] || { printf 'before:\n%s\nafter:\n%s\n' "$before" "$PEND"; fail "the rebuilt schedule ranks the jobs differently"; }
"$OST_REPLAY" --state "$STATE" > "$WORK/state.rebuilt" || fail "no valid state file after the rebuild"
grep '^campaign' "$WORK/state.rebuilt" | sed 's/^/#   rebuilt: /'

note "kill -9 slurmctld, a state file of a newer format (a downgrade)"
wait_passes 2
ctld_stop KILL
sed '1s/^ostrich-state 1$/ostrich-state 7/' "$STATE" > "$WORK/newer.copy"
cp "$WORK/newer.copy" "$STATE"
ctld_start || fail "slurmctld did not restart with a newer state file"
wait_for 60 'grep -q "ostrich: state file $STATE unusable .*moved to $STATE.v7; rebuilding" "$WORK/log/slurmctld.log"' ||
	fail "newer state file not reported"
cmp -s "$STATE.v7" "$WORK/newer.copy" || fail "the newer state file was not kept as $STATE.v7"
[ "$(ls "$STATE".bad.* | wc -l)" = 1 ] || fail "the earlier corrupt copy was touched"
wait_passes 2
"$OST_REPLAY" --state "$STATE" > /dev/null || fail "no valid state file after the downgrade"
snapshot
check_ranks
note "newer state kept aside as $(basename "$STATE").v7, earlier evidence untouched"

open_gate alice
wait_queue_empty 120
jobs_table > "$WORK/jobs.txt"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 20 ] || { cat "$WORK/jobs.txt"; fail "jobs were lost: not all 20 completed"; }
note "start order: $(start_order)"
started_before "$(awk '$2 == "bob" { printf "%s ", $1 }' "$WORK/jobs.txt")" \
	"$(awk '$2 == "alice" && $1 > 8 { printf "%s ", $1 }' "$WORK/jobs.txt")" ||
	fail "bob's jobs did not start before alice's remaining ones"
echo "PASS: restart keeps campaigns and ranks; corrupt state rebuilt and kept aside; newer state kept as .v7; all 20 jobs completed"
