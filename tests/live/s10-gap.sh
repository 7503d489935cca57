#!/usr/bin/env bash
# s10-gap.sh - live scenario 10: the gap between the two halves of a pass.
# A pass observes and ranks under the job read lock, lets every lock go,
# then writes under the job write lock (doc/design.md, "The pass").  gdb
# holds the engine thread in that gap (non-stop mode: only the thread that
# hit the breakpoint stops, slurmctld's other threads run) while an
# operator holds one pending
# job and sets the priority of another, another plugin appends a line to a
# third one's SystemComment, a fourth is cancelled and a new one submitted.
# Asserts: the second half overwrites none of that (the hold, the
# operator's value, the other writer's line) and logs the three records it
# left to the next pass; the job submitted in the gap is ranked and has
# its SystemComment line from the submission itself; at rest
# every other pending priority follows the core's ranks, and the third
# job's field holds both the other writer's line and ours.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

command -v gdb >/dev/null || skip "gdb is not installed (holding a pass in its gap needs it)"
[ -f "${OST_TEST_PLUGIN_BUILD:-}/job_submit_ostrich_test.so" ] ||
	fail "missing ${OST_TEST_PLUGIN_BUILD:-?}/job_submit_ostrich_test.so"
# the line where the second half asks for the job write lock
GAP_LINE=$(awk '/^static void _pass_write\(/ { f = 1 } f && /^}/ { f = 0 }
	f && /^\tlock_slurmctld\(job_write_lock\);/ { print NR }' "$OST_SRCDIR/plugins/slurm/osl_pass.c")
[ "$(printf '%s\n' "$GAP_LINE" | wc -l)" = 1 ] && [ -n "$GAP_LINE" ] ||
	fail "cannot find the gap of osl_pass() (its second half, _pass_write) in plugins/slurm/osl_pass.c"

SCHED=sched/ostrich PRIO=priority/ostrich
cluster_init
cp "$OST_TEST_PLUGIN_BUILD/job_submit_ostrich_test.so" "$WORK/plugins/"
printf 'Interval=2\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
cluster_conf "JobSubmitPlugins=ostrich_test"
cluster_start
note "cluster up: $SCHED + $PRIO, $NNODES nodes x $CPUS_PER_NODE CPUs, $WORK"
CTLD_PID=$(cat "$WORK/run/slurmctld.pid")

for i in $(seq 8); do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's 8 jobs did not start"
held=$(sub bob -n 4 -t 5 --wrap 'sleep 1')
admin=$(sub bob -n 4 -t 5 --wrap 'sleep 1')
comm=$(sub carol -n 4 -t 5 --wrap 'sleep 1')
canc=$(sub carol -n 4 -t 5 --wrap 'sleep 1')
plain=$(sub carol -n 4 -t 5 --wrap 'sleep 1')
snapshot
check_ranks
grep -q 'ostrich campaign=carol/' <<<"$(comment_of "$comm")" ||
	fail "job $comm has no summary line before the gap: $(comment_of "$comm")"
note "pending: held-to-be $held, admin-set-to-be $admin, commented $comm, cancelled-to-be $canc, untouched $plain"

# ------------------------------------------------------------- the gap ---
# gdb stops the engine thread where the second half asks for the write
# lock and keeps it stopped while slurmctld's other threads run
# (gdb_hold), until the test lets it go.
gdb_hold "$CTLD_PID" "osl_pass.c:$GAP_LINE" _pass_write
logged1=$(n_logged)

# every lock is free: slurmctld answers while the pass waits
scontrol hold "$held"
scontrol update jobid="$admin" priority=7
scontrol update jobid="$comm" AdminComment="ostrich-test:syscomment:written in the gap"
scancel "$canc"
new=$(sub bob -n 4 -t 5 --wrap 'sleep 1')
p_new=$(squeue -h -j "$new" -o %Q)
c_new=$(comment_of "$new")
[ "$(n_logged)" = "$logged1" ] || fail "the pass left its gap before the changes were made"
grep -q 'written in the gap' <<<"$(comment_of "$comm")" || fail "the other writer's line is missing: $(comment_of "$comm")"
gdb_release "$CTLD_PID"

# the held pass ends and logs what it left
wait_for 60 "[ \$(n_logged) -gt $logged1 ]" || fail "the pass held in its gap never ended"
line=$(grep 'ostrich: pass [0-9]* took' "$WORK/log/slurmctld.log" | sed -n "$((logged1 + 1))p")
note "the pass of the gap: ${line#*ostrich: }"
lost=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) records changed meanwhile.*/\1/p')
[ "$lost" = 3 ] || fail "the pass left $lost records to the next one, want 3 (held, admin-set, cancelled)"
[ "$(squeue -h -j "$held" -o %Q)" = 0 ] || fail "held job $held lost its hold: priority $(squeue -h -j "$held" -o %Q)"
grep -q JobHeld <<<"$(squeue -h -j "$held" -o %r)" || fail "job $held is no longer held"
[ "$(squeue -h -j "$admin" -o %Q)" = 7 ] || fail "the operator's priority of $admin was overwritten"
grep -q 'written in the gap' <<<"$(comment_of "$comm")" ||
	fail "the pass overwrote the other writer's line of $comm: $(comment_of "$comm")"
[ -n "$p_new" ] && [ "$p_new" -gt 7 ] || fail "job $new submitted in the gap got priority $p_new"
# its summary line too, from the submission itself: no pass ran meanwhile
case $c_new in 'ostrich campaign=bob/'*' rank='*' vct='*) ;;
*) fail "job $new submitted in the gap has no summary line of its own: $c_new" ;; esac
note "after the gap: $held held (0), $admin keeps 7, $comm keeps the other writer's line, $new got $p_new and '$c_new' at submission"

# the next passes merge our line back and rank the rest (a held job and an
# operator-set one keep the SystemComment they had: not ours to follow)
snapshot
check_ranks "$admin $held"
c=$(comment_of "$comm")
case $c in *'written in the gap'*) ;; *) fail "job $comm lost the other writer's line: $c" ;; esac
case $c in *'ostrich campaign=carol/'*) ;; *) fail "job $comm has no summary line: $c" ;; esac
note "at rest: $comm has both lines"
open_gate alice
scontrol release "$held"
wait_queue_empty 180
