#!/usr/bin/env bash
# s11-save-gap.sh - live scenario 11: jobs submitted while a save keeps the
# cores away.  The engine serializes its cores with no lock held
# (osl_save_all); a submission meanwhile may not touch a core, so it gets a
# deferred priority and no line, and right after the save the engine
# submits it as its submission would have (osl_catch_up), instead of by a
# pass over every record (doc/design.md, "Submission storms").  gdb holds
# the engine thread inside the save (non-stop mode, as in s10) while two
# users submit.
# Asserts: while the save is held the new jobs have no summary line and no
# pass runs; after it the catch-up logs both as submitted, they have their
# lines, the next pass was not woken by them ("0 during a save").  Then an
# update of a known job during a save is left to the pass, whose wake
# stands.  At rest every pending priority follows the core's ranks.
# Arrays and saves: every task is charged exactly once, when its owner
# updates the array during a save (its tasks that ended long ago are not
# charged again) and when tasks start and end during the save that
# submitted their array (charged by the pass after the catch-up).
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

command -v gdb >/dev/null || skip "gdb is not installed (holding a save needs it)"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=5"
CTLD_PID=$(cat "$WORK/run/slurmctld.pid")

for i in $(seq 8); do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's 8 jobs did not start"
old=$(sub bob -n 4 -t 5 --wrap 'sleep 1')
sub carol -n 4 -t 5 --wrap 'sleep 1' >/dev/null
snapshot
check_ranks

# catch-up lines and passes logged so far
n_caught() { grep -c 'during the save: ' "$WORK/log/slurmctld.log" || true; }
# hold_save: gdb holds the engine thread in the next save (LOGGED, CAUGHT:
# the counts then)
hold_save() {
	hold_engine_save "$CTLD_PID"
	LOGGED=$(n_logged) CAUGHT=$(n_caught)
}
# after_save WANT: release it; the catch-up's line must contain WANT; then
# LINE is the first pass logged after the save
after_save() {
	local c
	[ "$(n_logged)" = "$LOGGED" ] || fail "a pass ran while the save was held"
	gdb_release "$CTLD_PID"
	wait_for 60 "[ \$(n_caught) -gt $CAUGHT ]" || fail "no catch-up after the save"
	c=$(grep 'during the save: ' "$WORK/log/slurmctld.log" | sed -n "$((CAUGHT + 1))p")
	note "catch-up: ${c#*ostrich: }"
	case $c in *"$1"*) ;; *) fail "catch-up: want '$1', got: $c" ;; esac
	wait_for 60 "[ \$(n_logged) -gt $LOGGED ]" || fail "no pass after the save"
	LINE=$(grep 'ostrich: pass [0-9]* took' "$WORK/log/slurmctld.log" | sed -n "$((LOGGED + 1))p")
	note "the next pass: woken by ${LINE#*woken by }"
}

# ------------------------------------------- submissions during a save ---
hold_save
new1=$(sub bob -n 4 -t 5 --wrap 'sleep 1')
new2=$(sub carol -n 4 -t 5 --wrap 'sleep 1')
c1=$(comment_of "$new1") c2=$(comment_of "$new2")
case $c1$c2 in *'ostrich campaign='*) fail "a job submitted during the save has a line already: '$c1' '$c2'" ;; esac
after_save 'ostrich: 2 jobs submitted or updated during the save: 2 submitted after it, 0 left to the next pass'
for j in "$new1:bob" "$new2:carol"; do
	c=$(comment_of "${j%%:*}")
	case $c in "ostrich campaign=${j#*:}/"*' rank='*) ;;
	*) fail "job ${j%%:*} has no summary line after the catch-up: $c" ;; esac
done
case $LINE in *' 0 during a save,'*) ;;
*) fail "the pass after the catch-up was woken by the jobs it submitted: ${LINE#*woken by}" ;; esac

# ----------------------- an update of a job the engine knows, during a save ---
# not the catch-up's to judge (_known, in the pass): it keeps its wake
hold_save
scontrol update jobid="$old" TimeLimit=3
after_save 'ostrich: 1 jobs submitted or updated during the save: 0 submitted after it, 1 left to the next pass'
case $LINE in *' 0 during a save,'*) fail "the pass after the update did not count its wake: ${LINE#*woken by}" ;; esac

snapshot
check_ranks
open_gate alice
wait_queue_empty 180

# ------------------------- arrays and saves: every task charged once ---
# 28 CPUs busy, 4 free: arrays whose low tasks end at once, whose next
# task runs until its gate opens, and whose last tasks wait
for i in $(seq 7); do sub alice -n 4 -t 5 --wrap "$(gated alice2)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 7 ]' || fail "alice's 7 jobs did not start"
tasks() { printf '[ "$SLURM_ARRAY_TASK_ID" -le %s ] && exit 0; %s' "$1" "$(gated "$2")"; }
state_of() { scontrol -o show job "$1" | sed -n 's/.* JobState=\([A-Z]*\) .*/\1/p' | head -1; }
key() { echo $(( $1 * 4294967296 + $2 )); }
n_finish() { grep -c "^debug finish $(key "$1" "$2") " "$WORK/events.log" || true; }

a1=$(sub bob --array=1-4 -n 4 -t 5 --wrap "$(tasks 2 bob)")
wait_for 60 "[ \"\$(state_of ${a1}_2)\" = COMPLETED ] && [ \"\$(state_of ${a1}_3)\" = RUNNING ]" ||
	fail "array $a1: tasks 1-2 did not end, or task 3 did not start"
wait_for 60 "[ \$(n_finish $a1 1) = 1 ] && [ \$(n_finish $a1 2) = 1 ]" ||
	fail "the engine did not charge the ends of tasks 1-2 of array $a1"
# the owner updates the array's pending task during a save: deferred, the
# pass checks it
hold_save
scontrol update jobid="${a1}_4" TimeLimit=4
after_save 'ostrich: 1 jobs submitted or updated during the save: 0 submitted after it, 1 left to the next pass'
wait_passes
for t in 1 2; do
	[ "$(n_finish $a1 $t)" = 1 ] ||
		fail "task $t of array $a1 charged $(n_finish $a1 $t) times after its owner updated the array during a save"
done

# its tasks 3 and 4 end: the 4 CPUs are free again
open_gate bob
wait_for 60 "[ \"\$(state_of ${a1}_4)\" = COMPLETED ]" || fail "array $a1 did not end"

# an array submitted during a save, whose task 1 ends before the save does
hold_save
a2=$(sub carol --array=1-3 -n 4 -t 5 --wrap "$(tasks 1 carol)")
wait_for 60 "[ \"\$(state_of ${a2}_1)\" = COMPLETED ] && [ \"\$(state_of ${a2}_2)\" = RUNNING ]" ||
	fail "array $a2: task 1 did not end, or task 2 did not start, during the save"
after_save 'ostrich: 1 jobs submitted or updated during the save: 1 submitted after it, 0 left to the next pass'
wait_passes
[ "$(n_finish $a2 1)" = 1 ] ||
	fail "task 1 of array $a2, which ran and ended during the save that submitted it, charged $(n_finish $a2 1) times"
open_gate carol; open_gate alice2
wait_queue_empty 180
for t in 1 2 3 4; do
	[ "$(n_finish $a1 $t)" = 1 ] || fail "task $t of array $a1 charged $(n_finish $a1 $t) times"
done
for t in 1 2 3; do
	[ "$(n_finish $a2 $t)" = 1 ] || fail "task $t of array $a2 charged $(n_finish $a2 $t) times"
done
note "every task of arrays $a1 and $a2 charged once"
