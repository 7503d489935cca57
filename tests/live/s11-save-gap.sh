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
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

command -v gdb >/dev/null || skip "gdb is not installed (holding a save needs it)"
# the line where osl_save_all serializes a core, no lock held
SAVE_LINE=$(grep -n 'int rc = ost_sched_save_with(' "$OST_SRCDIR/plugins/slurm/osl_state.c" | cut -d: -f1)
[ "$(printf '%s\n' "$SAVE_LINE" | wc -l)" = 1 ] && [ -n "$SAVE_LINE" ] ||
	fail "cannot find the serialization in osl_save_all() in plugins/slurm/osl_state.c"

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
	gdb_hold "$CTLD_PID" "osl_state.c:$SAVE_LINE" osl_save_all
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
