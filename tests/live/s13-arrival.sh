#!/usr/bin/env bash
# s13-arrival.sh - live scenario 13: when a job arrives (doc/semantics.md,
# 9.12 and 9.13), under Mode=faircamp with k fixed (FairCampUsers=2), so
# that deadlines are D = max(t_c, D_prev) + 2 L and L = 60 s for one job.
# Interval=600: no regular pass comes while the scenario looks, so what it
# sees is what the submissions themselves wrote.
#   0. grace's first job, of an owner whose name no pass has looked up,
#      gets its line from the catch-up on the engine thread, which resolves
#      the name off the locks, and wakes no pass.
#   1. bob's 40-task array, submitted while alice's campaign (16 jobs) is
#      pending, ranks below all of alice's jobs from the start: as one job
#      (D = t + 120) it would rank above them (D = t_a + 240) until a pass.
#   2. carol's job held at submission and released after dave submitted
#      his ranks after dave's (its deadline is counted from the release).
#   3. erin's job whose dependency can never be satisfied is left out: a
#      later job of erin's opens a campaign of its own, so that it ranks
#      after frank's job submitted before it (joined to the first job's
#      campaign it would take its older deadline and rank first).
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol dave erin frank grace"
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
# partition warm: a job of each user there first, so that every user's
# name is known (a submission never looks one up: the line of a user met
# for the first time waits for the catch-up, part 0) without a campaign in
# partition debug
live_start "Mode=faircamp
FairCampUsers=2
ThinkTime=1
Interval=600" "PartitionName=warm Nodes=ALL MaxTime=INFINITE State=UP"

prio() { squeue -h -j "$1" -o %Q | sort -n | head -1; }
# the job's priority is one the engine wrote, not the placeholder of a
# deferred submission (OSL_PRIO_LO - 1) or a held job's 0
ranked() { local p; p=$(prio "$1"); [ -n "$p" ] && [ "$p" -ge $PRIO_LO ] && [ "$p" -lt $TOP ]; }

for u in bob carol dave erin frank; do
	w=$(sub $u -p warm -n 1 -t 1 --wrap 'sleep 1')
	wait_for 60 "grep -q 'ostrich campaign=$u/' <<<\"\$(comment_of $w)\"" ||
		fail "job $w of $u in partition warm got no line"
done
wait_for 60 '[ "$(n_queued)" = 0 ]' || fail "the jobs in partition warm did not end"

# a job of alice's that fails, for erin's dependency (part 3)
bad=$(sub alice -n 1 -t 1 --wrap 'exit 1')
wait_for 60 "grep -q 'JobState=FAILED' <<<\"\$(scontrol -o show job $bad)\"" ||
	fail "job $bad did not fail"

for i in $(seq 8); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"

# ---- 0. a new owner's line without a pass --------------------------------
# every CPU busy: grace's job stays pending.  The catch-up logs before it
# lets go of the job lock, so its line is in the log once the job has one.
want_line="ostrich: 1 jobs without a line for want of their owner's name: 1 lines written once it was resolved, 0 left to the next pass"
before=$(n_logged)
g=$(sub grace -n 4 -t 1 --wrap 'sleep 1')
wait_for 60 "grep -q 'ostrich campaign=grace/' <<<\"\$(comment_of $g)\"" ||
	fail "grace's first job $g got no line: '$(comment_of $g)'"
got=$(grep "for want of their owner's name" "$WORK/log/slurmctld.log" | tail -1)
case $got in *"$want_line") ;; *) fail "catch-up: want '$want_line', got '$got'" ;; esac
[ "$(n_logged)" = "$before" ] ||
	fail "grace's first job woke $(( $(n_logged) - before )) passes (Interval=600): its line is the catch-up's"
note "grace's first job $g: $(comment_of $g), no pass"
scancel "$g"

for i in $(seq 8); do sub alice -n 4 -t 1 --wrap 'sleep 1' >/dev/null; done
passes0=$(n_logged)

# ---- 1. an array is ranked as an array from its submission -------------
arr=$(sub bob --array=1-40 -n 4 -t 1 --wrap 'sleep 1')
wait_for 60 "ranked $arr" || fail "array $arr got no priority from the engine (priority $(prio $arr))"
grep -q 'ostrich: 1 jobs incomplete at submission: 1 submitted once complete' \
	"$WORK/log/slurmctld.log" || fail "array $arr was not submitted once complete"
ntasks=$(awk -v a=$arr '$2 == "submit" && int($3 / 4294967296) == a' "$WORK/events.log" | wc -l)
[ "$ntasks" = 40 ] || fail "the engine was given $ntasks tasks of array $arr, want 40"
alice_min=$(squeue -h -u alice -t PD -o %Q | sort -n | head -1)
bob_max=$(squeue -h -u bob -t PD -o %Q | sort -n | tail -1)
note "alice's pending jobs: lowest priority $alice_min; bob's array $arr: highest $bob_max; $(( $(n_logged) - passes0 )) passes since"
[ "$bob_max" -lt "$alice_min" ] ||
	fail "bob's 40-task array $arr ranks above alice's pending jobs ($bob_max >= $alice_min): ranked as one job"
case $(comment_of $arr) in *"campaign=bob/"*) ;; *) fail "array $arr has no SystemComment line: $(comment_of $arr)" ;; esac

# ---- 2. a held job counts from its release -------------------------------
held=$(sub carol -H -n 4 -t 1 --wrap 'sleep 1')
next_second; next_second
later=$(sub dave -n 4 -t 1 --wrap 'sleep 1')
wait_for 60 "ranked $later" || fail "job $later got no priority"
next_second; next_second
scontrol release "$held"
wait_for 60 "ranked $held" || fail "released job $held got no priority from the engine ($(prio $held))"
note "dave's job $later: $(prio $later); carol's job $held, held before it and released after: $(prio $held)"
[ "$(prio $later)" -gt "$(prio $held)" ] ||
	fail "job $held, released after job $later was submitted, ranks above it: its deadline counts from its submit time"
t_sub=$(awk -v j=$held '$2 == "submit" && $3 == j { print int($8) }' "$WORK/events.log")
t_slurm=$(epoch "$(scontrol -o show job $held | sed 's/.* SubmitTime=\([^ ]*\).*/\1/')")
[ -n "$t_sub" ] && [ "$t_sub" -ge $((t_slurm + 4)) ] ||
	fail "job $held arrived at ${t_sub:-never}, submitted at $t_slurm and released 4 s later"

# ---- 3. a job that can never run keeps no campaign open ------------------
never=$(sub erin --dependency=afterok:$bad -n 4 -t 1 --wrap 'sleep 1')
wait_for 60 "grep -q DependencyNeverSatisfied <<<\"\$(squeue -h -j $never -o %r)\"" ||
	fail "job $never is not DependencyNeverSatisfied: $(squeue -h -j $never -o %r)"
next_second; next_second
other=$(sub frank -n 4 -t 1 --wrap 'sleep 1')
next_second
mine=$(sub erin -n 4 -t 1 --wrap 'sleep 1')
wait_for 60 "ranked $other && ranked $mine" || fail "jobs $other and $mine got no priority"
note "frank's job $other: $(prio $other); erin's later job $mine: $(prio $mine); erin's job $never that cannot run: $(prio $never)"
[ "$(prio $other)" -gt "$(prio $mine)" ] ||
	fail "job $mine ranks above job $other submitted before it: it joined the campaign job $never keeps open"
case $(comment_of $never) in *"ostrich campaign="*)
	fail "job $never, which can never run, has a line: $(comment_of $never)" ;; esac
if grep -q "^debug submit $never " "$WORK/events.log"; then
	grep -q "^debug cancel $never " "$WORK/events.log" ||
		fail "job $never, which can never run, stays in the schedule"
fi

echo "PASS: a new owner's line written without a pass, an array ranked as an array from its submission, a held job counted from its release, a job that cannot run left out"
