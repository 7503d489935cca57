#!/usr/bin/env bash
# s22-migrate.sh - live scenario 22: the migration path of the admin guide
# ("Migrating from multifactor in three steps"), walked forward and back on
# one live queue, measuring at each step whether `scontrol reconfigure`
# applies it or slurmctld must restart, on the Slurm release under test.
# sched/backfill, accounting (22.05's multifactor updates site factors only
# with slurmdbd), 4 nodes x 4 CPUs, PriorityCalcPeriod=1 (minute),
# multifactor's job size factor alone (its priorities do not move with
# time).  carol's gated job holds every node throughout; alice's 10 jobs
# of 4 CPUs, bob's 3 of 1 and carol's 3 of 2 stay pending.
#
#   0. baseline: multifactor alone; its priorities recorded job by job.
#   1. shadow: PrioritySiteFactorPlugin=site_factor/ostrich, weight=0.
#      [shadow.reconfigure] does `scontrol reconfigure` load the plugin?
#      (22.05: no, slurm.conf's new plugin line is ignored until a
#      restart; 24.11+: yes, the reconfigure's new slurmctld loads it); [shadow.restart] on 22.05 a
#      restart does.  [shadow.order] then, after a site factor update,
#      every priority is the baseline's bit for bit and sprio's SITE 0,
#      while [shadow.ranks] every pending job has the engine's rank and
#      scampaign lists the three campaigns; [shadow.ledger] the usage
#      ledger charges carol's running job.
#   2. blend: weight=4000 by `scontrol reconfigure` on both releases;
#      [blend.reconfigure] site factors follow the ranks with that weight
#      (priority = baseline + floor(W (P - R + 1) / P)) within a
#      PriorityCalcPeriod or two of the reconfigure (the time is printed).
#   3. priority/ostrich (sched/backfill kept), the two site factor lines
#      removed.  [ostrich.reconfigure] 22.05: the reconfigure does not
#      change PriorityType (multifactor goes on; the still loaded
#      site_factor/ostrich reads its now empty parameters: weight 0);
#      24.11+: it does.  [ostrich.restart] 22.05: a restart does.
#      [ostrich.carry] the engine's state file written under site_factor
#      is restored: every pending job keeps its rank and campaign, the
#      ledger keeps its start and carol's charge grows on; priorities are
#      priority/ostrich's, in rank order.
#   3b. + SchedulerType=sched/ostrich: [sched.reconfigure] 22.05 refuses
#      it at reconfigure (scontrol reports the error, sched/backfill goes
#      on); 24.11+ takes it; [sched.restart] 22.05 at a restart.
#   Rollbacks, in the reverse order:
#   R3. back to priority/multifactor + site_factor/ostrich weight=4000 +
#      sched/backfill: [rb3.reconfigure] 22.05: not at reconfigure
#      (priority/ostrich goes on writing its priorities); 24.11+: yes;
#      [rb3.restart] 22.05: a restart.  [rb3.carry] ranks, campaigns and
#      ledger kept again, and the site factors follow the ranks
#      (priority = baseline + site factor) at once: multifactor sums the
#      site factors kept in the job state.
#   R0. [rb.direct] what skipping R2 does: the lines removed straight
#      from the blend (a restart on 22.05, a reconfigure on 24.11+): after
#      a multifactor period without the plugin, every pending job still
#      has the site factor it last had (nothing resets it), its priority
#      the baseline's + that.  Then back to the blend.
#   R2. weight=0 by `scontrol reconfigure` on both releases:
#      [rb2.reconfigure] at the next update every priority is the
#      baseline's bit for bit, sprio's SITE 0.
#   R1. the two site factor lines removed: [rb1.reconfigure] 22.05: the
#      plugin stays loaded (its passes go on) until a restart; 24.11+:
#      gone at the reconfigure.  [rb1.none] without it, priorities are
#      still the baseline's, SITE 0, and no engine runs.
# [jobs] after every step: the same 16 jobs pending, carol's job running
# since the same second; at the end every job completes.
# Each wait is for a condition, never a fixed sleep.  SKIPs (77) and says
# why without slurmdbd, MariaDB or the MySQL plugin.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol"
. "$OST_SRCDIR/tests/live/site-lib.sh"
W_BLEND=4000
# 24.11 and later: `scontrol reconfigure` starts a new slurmctld, which
# reads slurm.conf and loads its plugins as at a start
if [ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ]; then
	NEWPROC=1
else
	NEWPROC=0
fi
RESULTS=()	# what was measured, printed at the end
measured() { note "measured: $*"; RESULTS+=("$*"); }

# conf SCHED PRIO [SITE_LINES]: slurm.conf (multifactor's weights kept in
# every step, as a site keeps them for a rollback)
conf() { SCHED=$1 PRIO=$2 cluster_conf "$MF${3:+
$3}"; }

# the plugin's init() (not a reconfigure's weight change)
n_site_init() { log_count 'ostrich: site_factor/ostrich: weight [0-9]+(: shadow mode, multifactor|$)'; }
# the engine's start (a 24.11+ reconfigure's new slurmctld says
# "reconfigured", as a 22.05 reconfigure of a loaded engine does)
n_engine_init() { log_count 'ostrich: (engine configured|reconfigured): '; }
n_restored() { log_count 'ostrich: partition debug restored from '; }
n_ledger() { log_count 'ostrich: partition debug: usage ledger restored from '; }
# when multifactor's decay thread last ran (it saves its time each
# period), epoch seconds
decay_t() { stat -c %Y "$WORK/state/priority_last_decay_ran" 2>/dev/null || echo 0; }

# reconfigure: scontrol reconfigure, then until slurmctld answers; RC its
# exit status
reconfigure() {
	RC=0
	scontrol reconfigure > "$WORK/reconf.out" 2>&1 || RC=$?
	wait_for 120 'scontrol ping > /dev/null 2>&1' || fail "slurmctld does not answer after scontrol reconfigure"
}
restart() {
	ctld_stop TERM
	ctld_start || { tail -20 "$WORK/log/slurmctld.log"; fail "slurmctld did not restart"; }
}

# "JOBID RANK P CAMPAIGN" of every pending job
ranks() { table | awk '{ print $1, $5, $6, $7 }'; }

# [jobs] the same 16 jobs pending, carol's job running since the same
# second
check_jobs() {
	local pd st
	pd=$(squeue -h -t PD -o %i | sort -n | tr '\n' ' ')
	[ "$pd" = "$PD_IDS" ] || fail "[jobs] $1: pending jobs '$pd', want '$PD_IDS'"
	st=$(scontrol -o show job "$BLOCK" | tr ' ' '\n' | sed -n 's/^JobState=//p; s/^StartTime=//p' | tr '\n' ' ')
	[ "$st" = "$BLOCK_ST" ] || fail "[jobs] $1: carol's job $BLOCK is '$st', want '$BLOCK_ST'"
}

# site_ok W: every pending job has a rank, its site factor is
# floor(W (P - R + 1) / P) and its priority the baseline's + that
site_ok() {
	table | awk -v w="$1" -v base="$BASE" '
		BEGIN { m = split(base, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); b[f[1]] = f[2] } }
		{ n++
		  if ($5 == "-") { bad++; next }
		  if ($4 != int(w * ($6 - $5 + 1) / $6)) bad++
		  if ($3 != b[$1] + $4) bad++ }
		END { exit !(n == 16 && !bad) }'
}
# base_ok: every priority the baseline's bit for bit, every SITE 0
base_ok() {
	table | awk -v base="$BASE" '
		BEGIN { m = split(base, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); b[f[1]] = f[2] } }
		{ n++; if ($3 != b[$1] || $4 != 0) bad++ }
		END { exit !(n == 16 && !bad) }'
}
# ostrich_ok: every priority in priority/ostrich's range, in rank order
ostrich_ok() {
	local t order
	t=$(table)
	printf '%s\n' "$t" | awk -v lo=$PRIO_LO -v top=$TOP '{ n++; if ($3 < lo || $3 >= top || $5 == "-") bad++ }
		END { exit !(n == 16 && !bad) }' || return 1
	order=$(printf '%s\n' "$t" | sort -k3,3nr | awk '{ printf "%s ", $5 }')
	[ "$order" = "$(seq 16 | tr '\n' ' ')" ]
}
# wait_update WHAT TEST LABEL: until a site factor update after now and TEST
wait_update() {
	local u0 t0
	u0=$(n_updates) t0=$(date +%s)
	wait_for 150 "[ \$(n_updates) -gt $u0 ] && $2" ||
		{ show "$3"; grep 'ostrich: site factors: ' "$WORK/log/slurmctld.log" | tail -3; fail "$3: $1"; }
	WAITED=$(( $(date +%s) - t0 ))
}

# carol's charge and the ledger's start from scampaign --usage --json
ledger() {
	"$OST_SCAMPAIGN" --usage --json |
		sed -n 's/.*"user":"carol".*"charged":\([0-9.e+]*\),.*"since":\([0-9]*\)}.*/\1 \2/p'
}
# check_ledger LABEL: the ledger began when it began under shadow, and
# carol's charge did not go down
check_ledger() {
	local c s
	read -r c s <<<"$(ledger)"
	[ "$s" = "$L_SINCE" ] || fail "[$1] the usage ledger restarted: since $s, was $L_SINCE"
	awk -v a="$c" -v b="$L_CHARGED" 'BEGIN { exit !(a + 0 >= b + 0) }' ||
		fail "[$1] carol's charge went down from $L_CHARGED to $c"
	note "$1: ledger since $s, carol charged $c (was $L_CHARGED)"
	L_CHARGED=$c
}

# ---- 0. baseline: multifactor alone ------------------------------------
cluster_init
printf 'Interval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
conf sched/backfill priority/multifactor ""
cluster_start
note "cluster up (sched/backfill + priority/multifactor, slurmdbd), $(( $(date +%s) - T_START )) s, $WORK"
BLOCK=$(sub carol -N 4 --exclusive -t 30 --wrap "$(gated block)")
wait_for 60 '[ "$(n_running)" = 1 ]' || fail "carol's job $BLOCK did not start"
BLOCK_ST="RUNNING $(scontrol -o show job "$BLOCK" | tr ' ' '\n' | sed -n 's/^StartTime=//p') "
next_second
for i in $(seq 10); do sub alice -n 4 -t 5 --wrap 'sleep 1' > /dev/null; done
next_second
for i in 1 2 3; do sub bob -n 1 -t 5 --wrap 'sleep 1' > /dev/null; done
for i in 1 2 3; do sub carol -n 2 -t 5 --wrap 'sleep 1' > /dev/null; done
wait_for 30 '[ "$(squeue -h -t PD | wc -l)" = 16 ]' || fail "the 16 jobs are not pending"
PD_IDS=$(squeue -h -t PD -o %i | sort -n | tr '\n' ' ')
BASE=$(squeue -h -t PD -o '%i %Q' | sort -n)
[ "$(printf '%s\n' "$BASE" | awk '{ print $2 }' | sort -u | wc -l)" = 3 ] ||
	fail "multifactor's baseline has not 3 distinct priorities (one per job size)"
base_ok || { show baseline; fail "baseline: site factors not 0"; }
note "baseline priorities: $(printf '%s\n' "$BASE" | awk '{ printf "%s:%s ", $1, $2 }')"

# ---- 1. shadow ---------------------------------------------------------
conf sched/backfill priority/multifactor "$(site_lines 0)"
i0=$(n_site_init)
reconfigure
[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[shadow.reconfigure] scontrol reconfigure failed"; }
if [ "$(n_site_init)" -gt "$i0" ]; then
	[ $NEWPROC = 1 ] || fail "[shadow.reconfigure] Slurm $CLUSTER_SLURM_VERSION loaded site_factor/ostrich at reconfigure (the guide says a restart is needed)"
	measured "shadow: scontrol reconfigure loads site_factor/ostrich"
else
	[ $NEWPROC = 0 ] || fail "[shadow.reconfigure] Slurm $CLUSTER_SLURM_VERSION did not load site_factor/ostrich at reconfigure (the guide says it does)"
	measured "shadow: scontrol reconfigure does not load site_factor/ostrich; restart"
	check_jobs "shadow, after the reconfigure"
	restart
	[ "$(n_site_init)" -gt "$i0" ] || fail "[shadow.restart] site_factor/ostrich not loaded at the restart"
fi
grep -q 'ostrich: site_factor/ostrich: weight 0: shadow mode' "$WORK/log/slurmctld.log" ||
	fail "site_factor/ostrich did not start in shadow mode"
check_jobs "shadow"
wait_for 60 '[ "$(table | awk '\''$5 != "-"'\'' | wc -l)" = 16 ]' || { show shadow; fail "[shadow.ranks] the 16 pending jobs are not all ranked"; }
wait_update "priorities differ from the baseline's" base_ok "[shadow.order]"
note "[shadow.order] a site factor update $WAITED s later: every priority the baseline's, SITE 0"
show "shadow"
c=$("$OST_SCAMPAIGN") || fail "[shadow.ranks] scampaign failed"
for u in alice bob carol; do grep -qw "$u" <<<"$c" || { printf '%s\n' "$c"; fail "[shadow.ranks] scampaign does not list $u's campaign"; }; done
wait_for 60 '[ -n "$(ledger)" ] && awk -v c="$(ledger | cut -d" " -f1)" '\''BEGIN { exit !(c > 0) }'\''' ||
	fail "[shadow.ledger] the ledger does not charge carol's running job"
read -r L_CHARGED L_SINCE <<<"$(ledger)"
note "[shadow.ledger] since $L_SINCE, carol charged $L_CHARGED"

# ---- 2. blend ----------------------------------------------------------
conf sched/backfill priority/multifactor "$(site_lines $W_BLEND)"
reconfigure
[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[blend.reconfigure] scontrol reconfigure failed"; }
t0=$(date +%s)
wait_for 150 "site_ok $W_BLEND" || { show blend; fail "[blend.reconfigure] site factors do not follow the ranks with weight $W_BLEND"; }
measured "blend: weight=$W_BLEND by scontrol reconfigure, in force $(( $(date +%s) - t0 )) s later"
check_jobs "blend"
check_ledger blend
show "blend"

# ---- 3. priority/ostrich ----------------------------------------------
R_BEFORE=$(ranks)
r0=$(n_restored) l0=$(n_ledger)
conf sched/backfill priority/ostrich ""
reconfigure
[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[ostrich.reconfigure] scontrol reconfigure failed"; }
if [ $NEWPROC = 0 ]; then
	# multifactor is still loaded, and so is site_factor/ostrich, which
	# reads the parameters slurm.conf no longer has
	wait_for 30 "grep -q 'ostrich: site_factor/ostrich: weight 0 (was $W_BLEND): shadow mode' '$WORK/log/slurmctld.log'" ||
		fail "[ostrich.reconfigure] site_factor/ostrich did not fall back to weight 0"
	wait_passes
	table | awk -v lo=$PRIO_LO '$3 >= lo { bad++ } END { exit bad > 0 }' ||
		{ show "priority/ostrich by reconfigure"; fail "[ostrich.reconfigure] priority/ostrich wrote priorities after a reconfigure on $CLUSTER_SLURM_VERSION"; }
	measured "priority/ostrich: scontrol reconfigure does not change PriorityType (multifactor and site_factor/ostrich go on, the weight falls to 0); restart"
	check_jobs "priority/ostrich, after the reconfigure"
	restart
fi
wait_for 60 "[ \$(n_restored) -gt $r0 ] && [ \$(n_ledger) -gt $l0 ]" ||
	fail "[ostrich.carry] the engine's state or ledger was not restored at the switch"
wait_for 60 ostrich_ok || { show "priority/ostrich"; fail "[ostrich.restart] the priorities are not priority/ostrich's, in rank order"; }
[ $NEWPROC = 0 ] || measured "priority/ostrich: scontrol reconfigure switches PriorityType"
note "[ostrich.carry] $(grep 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*ostrich: //')"
[ "$(ranks)" = "$R_BEFORE" ] ||
	{ diff <(printf '%s\n' "$R_BEFORE") <(ranks) | sed 's/^/#   /'; fail "[ostrich.carry] ranks or campaigns changed at the switch"; }
check_jobs "priority/ostrich"
check_ledger ostrich.carry
show "priority/ostrich"

# ---- 3b. + sched/ostrich -----------------------------------------------
conf sched/ostrich priority/ostrich ""
e0=$(n_engine_init)
reconfigure
if [ $NEWPROC = 0 ]; then
	[ "$RC" != 0 ] && grep -qi 'sched' "$WORK/reconf.out" ||
		{ cat "$WORK/reconf.out"; fail "[sched.reconfigure] scontrol reconfigure did not refuse the new SchedulerType"; }
	grep -q '^SchedulerType *= sched/backfill' <<<"$(scontrol show config)" ||
		fail "[sched.reconfigure] SchedulerType changed at reconfigure"
	measured "sched/ostrich: scontrol reconfigure refuses it ($(head -1 "$WORK/reconf.out")); restart"
	restart
else
	[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[sched.reconfigure] scontrol reconfigure failed"; }
	measured "sched/ostrich: scontrol reconfigure switches SchedulerType"
fi
grep -q '^SchedulerType *= sched/ostrich' <<<"$(scontrol show config)" || fail "[sched.restart] SchedulerType is not sched/ostrich"
wait_for 60 "[ \$(n_engine_init) -gt $e0 ]" || fail "[sched.restart] no engine start"
wait_passes
wait_for 60 ostrich_ok || { show "sched/ostrich"; fail "[sched.restart] the priorities are not in rank order"; }
[ "$(ranks)" = "$R_BEFORE" ] ||
	{ diff <(printf '%s\n' "$R_BEFORE") <(ranks) | sed 's/^/#   /'; fail "[sched.restart] ranks or campaigns changed"; }
check_jobs "sched/ostrich"
check_ledger sched.carry

# ---- R3. back to multifactor + site_factor/ostrich (blend) ------------
r0=$(n_restored)
conf sched/backfill priority/multifactor "$(site_lines $W_BLEND)"
reconfigure
if [ $NEWPROC = 0 ]; then
	[ "$RC" != 0 ] || { cat "$WORK/reconf.out"; fail "[rb3.reconfigure] scontrol reconfigure accepted SchedulerType=sched/backfill"; }
	wait_passes
	ostrich_ok || { show "rollback by reconfigure"; fail "[rb3.reconfigure] priority/ostrich's priorities changed at a reconfigure on $CLUSTER_SLURM_VERSION"; }
	measured "rollback of priority/ostrich: scontrol reconfigure changes neither plugin; restart"
	restart
else
	[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[rb3.reconfigure] scontrol reconfigure failed"; }
	measured "rollback of priority/ostrich: scontrol reconfigure switches back"
fi
wait_for 60 "[ \$(n_restored) -gt $r0 ]" || fail "[rb3.carry] the engine's state was not restored"
t0=$(date +%s)
wait_for 150 "site_ok $W_BLEND" || { show "rollback to blend"; fail "[rb3.carry] site factors do not follow the ranks with weight $W_BLEND"; }
note "[rb3.carry] blend again $(( $(date +%s) - t0 )) s after slurmctld answered"
[ "$(ranks)" = "$R_BEFORE" ] ||
	{ diff <(printf '%s\n' "$R_BEFORE") <(ranks) | sed 's/^/#   /'; fail "[rb3.carry] ranks or campaigns changed"; }
check_jobs "rollback to blend"
check_ledger rb3.carry

# ---- R0. what skipping weight=0 does: stale site factors ---------------
# (the lines removed straight from the blend; on 22.05 by a restart, since
# a reconfigure would leave the plugin loaded: [rb1.reconfigure] below)
STALE=$(table | awk '{ print $1, $3, $4 }')
conf sched/backfill priority/multifactor ""
if [ $NEWPROC = 1 ]; then
	reconfigure
	[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[rb.direct] scontrol reconfigure failed"; }
else
	restart
fi
d0=$(date +%s)
wait_for 150 "[ \$(decay_t) -gt $d0 ]" || fail "[rb.direct] no multifactor period"
[ "$(table | awk '{ print $1, $3, $4 }')" = "$STALE" ] ||
	{ diff <(printf '%s\n' "$STALE") <(table | awk '{ print $1, $3, $4 }') | sed 's/^/#   /'; fail "[rb.direct] site factors changed without the plugin"; }
[ -n "$(awk '$3 == 0' <<<"$STALE")" ] && fail "[rb.direct] a site factor is 0"
measured "plugin lines removed from a blend: each pending job keeps its last site factor (priority = baseline + it) after a multifactor period"
check_jobs "stale"
# back to the blend (22.05: a restart, as in step 1); the site factors
# are still the blend's
conf sched/backfill priority/multifactor "$(site_lines $W_BLEND)"
reconfigure
[ $NEWPROC = 1 ] || restart
wait_for 150 "site_ok $W_BLEND" || { show "blend again"; fail "[rb.direct] blend not back"; }

# ---- R2. blend -> shadow: weight=0 -------------------------------------
conf sched/backfill priority/multifactor "$(site_lines 0)"
reconfigure
[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[rb2.reconfigure] scontrol reconfigure failed"; }
wait_update "priorities are not the baseline's again" base_ok "[rb2.reconfigure]"
measured "rollback of the blend: weight=0 by scontrol reconfigure, the baseline's priorities $WAITED s later"
check_jobs "rollback to shadow"

# ---- R1. shadow -> multifactor alone ----------------------------------
conf sched/backfill priority/multifactor ""
e0=$(n_engine_init) p0=$(n_passes)
reconfigure
[ "$RC" = 0 ] || { cat "$WORK/reconf.out"; fail "[rb1.reconfigure] scontrol reconfigure failed"; }
if [ $NEWPROC = 0 ]; then
	wait_for 60 "[ \$(n_passes) -ge $((p0 + 2)) ]" || fail "[rb1.reconfigure] the engine does not go on"
	measured "rollback of the shadow: scontrol reconfigure leaves site_factor/ostrich loaded (its passes go on); restart"
	e0=$(n_engine_init)
	restart
else
	measured "rollback of the shadow: scontrol reconfigure unloads site_factor/ostrich"
fi
# the engine's start logs before slurmctld answers: none since; the
# priorities are the baseline's, and stay so ([rb.direct]: a period
# without the plugin changes no site factor)
[ "$(n_engine_init)" = "$e0" ] || fail "[rb1.none] the engine started again without the plugin lines"
base_ok || { show "multifactor alone"; fail "[rb1.none] priorities are not the baseline's without the plugin"; }
check_jobs "multifactor alone"
note "[rb1.none] every priority the baseline's, SITE 0, no engine"

open_gate block
wait_for 180 '[ "$(n_queued)" = 0 ]' || { squeue; fail "[jobs] jobs did not finish"; }
n=$(scontrol -o show job | grep -c 'JobState=COMPLETED' || true)
[ "$n" = 17 ] || { scontrol -o show job | sed 's/^/#   /'; fail "[jobs] $n of the 17 jobs completed"; }
note "Slurm $CLUSTER_SLURM_VERSION:"
for r in "${RESULTS[@]}"; do note "  $r"; done
echo "PASS: migration multifactor -> shadow -> blend -> priority/ostrich (+ sched/ostrich) and back, on Slurm $CLUSTER_SLURM_VERSION: no job lost, ranks, campaigns and ledger kept across every switch"
