#!/usr/bin/env bash
# s18-top.sh - live scenario 18: users order their own jobs (semantics.md
# §22) through Slurm's own verbs.  SchedulerParameters has
# enable_user_top.  The partition is DOWN while alice submits 4 jobs of 1
# CPU (one campaign), bob and carol 3 each.  Then alice, as herself:
#   1. scontrol top of her 4th, 2nd, 4th and 1st job in turn: each time
#      that job is the first of hers (highest priority, lowest rank=), and
#      every job of bob's and carol's keeps its place in the priority order
#      (the sequence that leaves the nice values Slurm computes out of
#      order: the last top must still win);
#   2. slurmctld restarts (TERM): the state is version 3 (the lowering),
#      her order and everyone's places are the same after it;
#   3. scontrol update nice=100 of her first job: it ends its lowering,
#      and, as the last top raised all her others, her jobs then go in the
#      order of their nice values; the others again unmoved; a negative
#      nice is refused to her.
# After each step the priorities match the ranks that ost-replay computes
# from the event log (the nice events are logged and replayed).
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol"
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich

# Pending jobs in priority order (highest first), one "JOB USER" a line,
# from PEND (snapshot).
by_prio() { printf '%s\n' "$PEND" | sort -k2,2nr -k1,1n | awk '{ print $1, $3 }'; }

# The others' places: "POSITION JOB" of every job not alice's.
others() { by_prio | awk '$2 != "alice" { print NR, $1 }'; }

# alice's jobs in priority order, on one line.
alice_order() { by_prio | awk '$2 == "alice" { printf "%s ", $1 }'; }

# step LABEL WANT_FIRST: after two passes, alice's first job is
# WANT_FIRST, the others' places are those of the start, and the
# priorities match the replayed ranks.
step() {
	local label=$1 first=$2 order c
	snapshot
	order=$(alice_order)
	note "$label: alice's jobs by priority: $order(nice: $(squeue -h -u alice -o '%i:%y' | sort -n | tr '\n' ' '))"
	[ "${order%% *}" = "$first" ] ||
		{ printf '%s\n' "$PEND" | sed 's/^/#   /'; fail "$label: alice's first job is ${order%% *}, want $first"; }
	[ "$(others)" = "$OTHERS" ] ||
		{ diff <(printf '%s\n' "$OTHERS") <(others) | sed 's/^/#   /'; fail "$label: another user's job moved"; }
	c=$(comment_of "$first")
	[ "$(sed -n 's/.* rank=\([0-9]*\)\/.*/\1/p' <<<"$c")" = "$(by_prio | awk -v j="$first" '$1 == j { print NR }')" ] ||
		fail "$label: SystemComment of $first ('$c') does not give its place"
	check_ranks
}

top() {
	as alice scontrol top "$1" || fail "scontrol top $1 as alice failed"
}

cluster_init
printf 'Interval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
cluster_conf "SchedulerParameters=bf_interval=1,sched_min_interval=100000,enable_user_top"
cluster_start
note "cluster up, $WORK"
sed -i '/^PartitionName=debug /s/State=UP/State=DOWN/' "$SLURM_CONF"
scontrol update PartitionName=debug State=DOWN

A=$(for i in 1 2 3 4; do sub alice -n 1 -t 2 --wrap 'sleep 1'; done | tr '\n' ' ')
B=$(for u in bob carol; do for i in 1 2 3; do sub "$u" -n 1 -t 3 --wrap 'sleep 1'; done; done | tr '\n' ' ')
read -r A1 A2 A3 A4 <<<"$A"
note "alice's jobs $A; bob's and carol's $B"

snapshot
OTHERS=$(others)
note "alice's jobs by priority at the start: $(alice_order)"
[ "$(alice_order)" = "$A1 $A2 $A3 $A4 " ] || fail "alice's jobs do not start in submission order: $(alice_order)"
check_ranks

# 1. four tops.  After the last, $A1's nice is above others of hers
# (Slurm moved each by priority gaps): only the lowering puts it first.
top "$A4"; step "top $A4" "$A4"
top "$A2"; step "top $A2" "$A2"
top "$A4"; step "top $A4 again" "$A4"
top "$A1"; step "top $A1" "$A1"
least=$(squeue -h -u alice -t PD -o '%y %i' | sort -k1,1n | awk 'NR == 1 { print $2 }')
[ "$least" != "$A1" ] ||
	fail "after the top of $A1 its nice is the least of hers: the sequence no longer tests the lowering"

# 2. across a restart, $A1's lowering (the last top) saved
before=$(alice_order)
ctld_stop TERM
head -1 "$WORK/state/ostrich_state.debug" | grep -q '^ostrich-state 3$' ||
	fail "the state is not version 3: $(head -1 "$WORK/state/ostrich_state.debug")"
grep -q ' lowered=[1-9]' "$WORK/state/ostrich_state.debug" || fail "no lowering saved"
ctld_start || fail "slurmctld did not restart"
scontrol update PartitionName=debug State=DOWN
grep -q 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" ||
	fail "the schedule was not restored"
step "after a restart" "${before%% *}"
[ "$(alice_order)" = "$before" ] || fail "alice's order changed across the restart: $before -> $(alice_order)"

# 3. nice: positive is hers to set, negative is not.  Raising it ends
# $A1's lowering, as the top of $A1 ended the others': none is lowered
# now, so hers go in the order of their nice values.
as alice scontrol update jobid="$A1" nice=100 || fail "alice could not set nice=100 on $A1"
BY_NICE=$(squeue -h -u alice -t PD -o '%y %i' | sort -k1,1n -k2,2n | awk '{ printf "%s ", $2 }')
step "nice=100 on $A1" "${BY_NICE%% *}"
[ "$(alice_order)" = "$BY_NICE" ] ||
	fail "nice=100 on $A1: alice's order $(alice_order)is not that of her nice values, $BY_NICE"
! as alice scontrol update jobid="$A2" nice=-5 2> "$WORK/neg.err" ||
	fail "alice set a negative nice"
note "negative nice refused to alice: $(head -1 "$WORK/neg.err")"

scancel $A $B
echo "PASS: scontrol top as alice put each topped job first of hers (4 tops, the last against the nice values), nice=100 ended a lowering (her jobs by nice after it), bob's and carol's 6 jobs kept their places throughout and across a restart (state version 3)"
