#!/usr/bin/env bash
# s24-nested-lead.sh - live scenario 24: Lead=cap under Hierarchy=accounts
# (doc/semantics.md §24 "Under nested accounts", §21) in a real slurmctld.
# The tree, without slurmdbd: grp and c under the root at equal shares, a
# and b under grp at 1:3; alice in a (an eighth of the partition), bob in
# b (three eighths), carol in c (a half).  alice's first campaign holds
# all 32 CPUs while bob's and carol's jobs wait, so the real schedule
# serves her ahead of V; her next campaign (ThinkTime=0: submitted after
# her first one ended, it is a campaign of its own) is chained after that
# lead, in a's virtual time, and LeadCap=0.5 caps what it carries of it
# at half its own length.  With the soft gate it ranks below every other
# pending job (bob's: carol's all run), its SystemComment says when it
# starts in V (vstart=): at the cap, not at the end of her lead, and
# scampaign --explain (when built) says why.  The priorities follow the
# core's ranks as replayed from the event log (which records the tree and
# the lead), the state file is version 5, and a TERM restart keeps
# campaigns and ranks.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start 'Interval=1
ThinkTime=0
Hierarchy=accounts
Weights=config
AccountParents=a:grp,b:grp
AccountWeights=grp:1,c:1,a:1,b:3
UserAccounts=alice:a,bob:b,carol:c
Lead=cap
LeadCap=0.5'
STATE=$WORK/state/ostrich_state.debug

wait_for 60 'grep -q "ostrich: engine configured: .* Lead=cap LeadCap=0.5 .* Hierarchy=accounts " "$WORK/log/slurmctld.log"' ||
	fail "Hierarchy=accounts and Lead=cap are not in the 'engine configured' line"

# alice's first campaign fills the 32 CPUs
for i in $(seq 8); do sub alice -n 4 -t 10 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for u in bob carol; do
	for i in $(seq 6); do sub "$u" -n 4 -t 10 --wrap "$(gated "$u")" >/dev/null; done
done
# From now on V gives alice an eighth of the CPUs (4) while she holds all
# 32: her lead grows by 28 CPU.s per second she keeps them, to 1680 CPU.s
# after 60 s, which V serves her in 420 s.  A slower machine only makes
# the wait, and so the lead, longer (V serves it while she is away, but
# she is back in seconds).
t0=$(date +%s)
wait_for 120 "[ \$(date +%s) -ge $((t0 + 60)) ]" || fail "the clock does not move"
open_gate alice
wait_for 120 '[ -z "$(squeue -h -u alice)" ]' || fail "alice's first campaign did not end"
# the engine learns of job ends at its passes: before one has seen hers,
# a new job would join her first campaign
wait_passes
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "bob's and carol's jobs did not start"

# alice's next campaign: 4 jobs of 4 CPUs for 2 min, 1920 CPU.s, which V
# serves her in 480 s: it carries 0.5 x 480 = 240 s of her lead (S = v +
# 0.5 L_c in a's virtual time), where Lead=keep would carry all of it
# (about 420 s)
next_second
ALICE2=$(for i in $(seq 4); do sub alice -n 4 -t 2 --wrap 'sleep 1'; done | tr '\n' ' ')
note "alice's next campaign: $ALICE2"
snapshot
check_ranks
check_comments

# soft gate: alice's campaign, not started in V, ranks below the others
note "pending jobs (job priority user):"
printf '%s\n' "$PEND" | sed 's/^/#   /'
others=$(printf '%s\n' "$PEND" | awk 'NF && $3 != "alice"' | wc -l)
[ "$others" -gt 0 ] || fail "no job of bob or carol is pending"
low=$(printf '%s\n' "$PEND" | awk 'NF && $3 != "alice" && (m == "" || $2 < m) { m = $2 } END { print m }')
high=$(printf '%s\n' "$PEND" | awk '$3 == "alice" && $2 > m { m = $2 } END { print m + 0 }')
[ "$(printf '%s\n' "$PEND" | awk '$3 == "alice"' | wc -l)" = 4 ] || fail "alice's 4 jobs are not all pending"
[ "$high" -lt "$low" ] ||
	fail "alice's chained campaign ranks above another user's pending job (priority $high, not below $low)"
j=${ALICE2%% *}
c=$(comment_of "$j")
vst=$(sed -n 's/.* vstart=\([^ |]*\).*/\1/p' <<<"$c")
[ -n "$vst" ] || fail "job $j: no vstart= in its SystemComment: $c"
[ "$(date -d "$vst" +%s)" -gt "$(date +%s)" ] ||
	fail "job $j: vstart=$vst is not in the future"
# the cap: 240 s after the campaign opened (to the pass's rounding), far
# from the end of her whole lead (about 420 s)
sub_t=$(epoch "$(scontrol -o show job "$j" | sed -n 's/.* SubmitTime=\([^ ]*\).*/\1/p')")
lag=$(( $(date -d "$vst" +%s) - sub_t ))
[ "$lag" -ge 200 ] && [ "$lag" -le 300 ] ||
	fail "job $j: vstart=$vst is $lag s after its submission, not the cap's 240"
note "alice's job $j: vstart=$vst, $lag s after its submission (the cap: 240)"
why=""
if [ -x "${OST_SCAMPAIGN:-}" ]; then
	e=$("$OST_SCAMPAIGN" --explain "$j") || fail "scampaign --explain $j failed"
	grep -q "^alice's previous campaign was served ahead of its fair share; this one starts in the fair schedule at " <<<"$e" ||
		{ printf '%s\n' "$e"; fail "scampaign --explain $j does not say alice's lead"; }
	why=" and scampaign --explain says why"
else
	note "scampaign not built: --explain not checked"
fi

snapshot
before=$PEND
wait_for 60 'head -1 "$STATE" 2>/dev/null | grep -qx "ostrich-state 5"' ||
	fail "the state file is not version 5: $(head -1 "$STATE" 2>/dev/null)"
grep -q '^config .* lead=cap lead_cap=0x1p-1 ' "$STATE" ||
	fail "the state file's config line lacks the lead: $(grep '^config' "$STATE")"
"$OST_REPLAY" --state "$STATE" > "$WORK/state.before" || fail "state file unreadable before the restart"

note "TERM restart of slurmctld"
restart_same TERM
check_ranks
note "after the restart: the same $(printf '%s\n' "$PEND" | wc -l) pending jobs and priorities"

open_gate all
wait_queue_empty 300
jobs_table > "$WORK/jobs.txt"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 24 ] || { cat "$WORK/jobs.txt"; fail "jobs were lost: not all 24 completed"; }
echo "PASS: Lead=cap under Hierarchy=accounts: alice's chained campaign ranks last, starts in V at the cap ($lag s after it opened)$why; priorities replayed from the event log, kept across a TERM restart (state version 5); all 24 jobs completed"
