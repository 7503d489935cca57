#!/usr/bin/env bash
# s16-usage.sh - live scenario 16: the usage ledger reconciles with
# Slurm's accounting.  MariaDB + slurmdbd of the harness (tools/cluster.sh,
# ACCT=1) on GPU nodes with TRESBillingWeights=CPU=1.0,GRES/gpu=4.0,
# sched/backfill + priority/ostrich (the het-job setup),
# PrivateData=usage.  Jobs: a plain one, a GPU one (1 CPU + 4 GPUs:
# 17 billing units), an array, a het job, a running
# job whose owner cuts its limit to 0, one its owner requeues (two runs),
# one moved into a reservation and out while it runs, one run in one,
# one without a time limit (MaxTime=INFINITE, TimeLimit=UNLIMITED)
# requeued after more than DefaultEstimate (20 s) has run, charged what
# it ran, not DefaultEstimate,
# one its owner cancels while it runs, an array its owner updates while
# the engine is held in a save (gdb), one that runs and ends during a held
# save, and one that ends while slurmctld is down after a kill -9.  Then,
# per user, the work scampaign --usage --json reports charged equals
# sum(billing x ElapsedRaw) of every run sacct -D shows, within 1
# billing-second per run; the snapshot file is
# SlurmUser's (0600) under PrivateData, and a user reading a copy sees
# only their own rows; scampaign --metrics passes promtool.
# SKIPs (77) and says why when slurmdbd, MariaDB or the Slurm's MySQL
# plugin is missing.  OST_USAGE_SCRAPES=DIR: scrape scampaign --metrics
# every 2 s into DIR/EPOCH.prom meanwhile (tools/render-dashboard.py).
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

need_accounting
[ -f "$STOCK_PLUGINDIR/gres_gpu.so" ] || skip "no gres_gpu.so in $STOCK_PLUGINDIR"
[ -x "$OST_SCAMPAIGN" ] || skip "scampaign not built"

NNODES=4 GPUS_PER_NODE=4 ACCT=1
TEST_USERS="alice bob carol dave"
PART_EXTRA="TRESBillingWeights=CPU=1.0,GRES/gpu=4.0"
SCHED=sched/backfill PRIO=priority/ostrich
LIVE_USER_BINS="$OST_SCAMPAIGN"
# ThinkTime=5: campaigns end during the run (the stretch histogram);
# DefaultEstimate=20: dave's job without a limit is estimated at 20 s
live_start "$(printf 'Interval=1\nThinkTime=5\nDefaultEstimate=20')" "PrivateData=usage"
SNAP=$WORK/state/ostrich_usage
note "$(( $(date +%s) - T_START )) s to start; slurmdbd on port $DBD_PORT"

if [ -n "${OST_USAGE_SCRAPES:-}" ]; then
	mkdir -p "$OST_USAGE_SCRAPES"
	( while sleep 2; do
		# --per-user: under PrivateData the per-user series are
		# left out of what would be published (the dashboard's)
		"$OST_SCAMPAIGN" --metrics --per-user --state-file "$SNAP" \
			> "$OST_USAGE_SCRAPES/$(date +%s).prom" 2>/dev/null || true
	  done ) &
	SCRAPER=$!
	trap 'rc=$?; kill "$SCRAPER" 2>/dev/null; (exit $rc); live_exit' EXIT
fi

state_of() { squeue -h -j "$1" -o %T 2>/dev/null | head -1; }
running() { [ "$(state_of "$1")" = RUNNING ]; }

# dave's job without a limit.  A job without -t that the main scheduler
# starts runs with TimeLimit=UNLIMITED (MaxTime=INFINITE); backfill, which
# starts batch jobs first here (bf_interval=1 < batch_sched_delay=3),
# gives one 365 days, but keeps an explicit UNLIMITED: -t UNLIMITED makes
# a job without a limit whichever scheduler starts it
nl=$(sub dave -n 1 -t UNLIMITED --requeue --wrap "$(gated nl)")
wait_for 30 "running $nl" || { squeue; fail "job $nl (no limit) did not start"; }
grep -q ' TimeLimit=UNLIMITED ' <<<"$(scontrol -o show job "$nl")" ||
	fail "job $nl: $(scontrol -o show job "$nl" | grep -o 'TimeLimit=[^ ]*'), want UNLIMITED"
NL_START=$(date -d "$(squeue -h -j "$nl" -o %S)" +%s)
plain=$(sub alice -n 2 -t 2 --wrap 'sleep 3')
gpu=$(sub alice -n 1 --gres=gpu:4 -t 2 --wrap 'sleep 3')
cut=$(sub alice -n 4 -t 5 --wrap "$(gated cut)")
canc=$(sub alice -n 1 -t 5 --wrap "$(gated canc)")
rq=$(sub bob -n 2 -t 5 --requeue --wrap "$(gated rq)")
arr=$(sub bob --array=0-3 -n 1 -t 2 --wrap 'sleep 2')
het=$(sub carol -n 1 -t 2 : -n 2 -t 2 --wrap 'sleep 3')
het=${het%%[+;]*}
k9=$(sub carol -n 2 -t 20 --wrap "$(gated k9)")
note "plain $plain, GPU $gpu, limit cut $cut, cancel $canc (alice); requeue $rq, array $arr (bob); het $het, kill -9 $k9 (carol)"
for j in "$cut" "$canc" "$rq" "$k9"; do
	wait_for 120 "running $j" || { squeue; fail "job $j did not start"; }
done
wait_passes
sleep 3		# each has run, and been charged, a few seconds

# the owner cuts the limit of a running job to 0: what it ran stays charged
as alice scontrol update jobid="$cut" timelimit=0 || fail "alice cannot cut the limit of $cut"
wait_passes
open_gate cut
as alice scancel "$canc" || fail "alice cannot cancel $canc"
as bob scontrol requeue "$rq" || fail "bob cannot requeue $rq"
wait_for 60 "[ \"\$(state_of $rq)\" = PENDING ]" || fail "job $rq was not requeued"
wait_passes
note "job $rq requeued by its owner; waiting for its second run"
wait_for 300 "running $rq" || { squeue; fail "requeued job $rq did not start again"; }
sleep 2
open_gate rq

# dave's job, past DefaultEstimate (20 s): requeued at 26 s or more, it is
# charged what it ran (1 CPU x its run), not 20
wait_for 60 "[ \$(( \$(date +%s) - $NL_START )) -ge 26 ]" || true
as dave scontrol requeue "$nl" || fail "dave cannot requeue $nl"
NL_RAN=$(( $(date +%s) - NL_START ))
wait_for 60 "[ \"\$(state_of $nl)\" = PENDING ]" || fail "job $nl was not requeued"
wait_passes
t=$(date +%s)
wait_for 60 "[ \"\$(sed -n 's/^snapshot time=\\([0-9]*\\).*/\\1/p' '$SNAP' 2>/dev/null)\" -gt $t ]" ||
	fail "no usage snapshot written after $t"
NL_CHARGED=$("$OST_SCAMPAIGN" --usage --json | tr '{' '\n' |
	sed -n 's/.*"user":"dave".*"charged":\([0-9.e+]*\).*/\1/p' | head -1)
note "job $nl (no limit, DefaultEstimate=20) requeued after ${NL_RAN} s: dave charged ${NL_CHARGED:-nothing}"
awk -v c="${NL_CHARGED:-0}" -v r="$NL_RAN" 'BEGIN { exit !(c >= r - 1) }' ||
	fail "job $nl, requeued after $NL_RAN s without a limit, charged ${NL_CHARGED:-0}, want >= $(( NL_RAN - 1 )) (1 CPU x its run, not DefaultEstimate)"
open_gate nl

# arrays and held saves: bob updates his array's pending task while gdb
# holds the engine in a save (its ended tasks must not be charged again),
# and carol's array, submitted during another held save, runs and ends
# before the save is released (its tasks must be charged, from Slurm's
# times); the reconciliation below counts both
if command -v gdb > /dev/null; then
	CTLD_PID=$(cat "$WORK/run/slurmctld.pid")
	jstate() { scontrol -o show job "$1" 2> /dev/null | sed -n 's/.* JobState=\([A-Z]*\) .*/\1/p' | head -1; }
	a2=$(sub bob --array=1-4%1 -n 1 -t 5 --wrap \
		"$(printf '[ "$SLURM_ARRAY_TASK_ID" -le 2 ] && exit 0; %s' "$(gated arr2)")")
	wait_for 120 "[ \"\$(jstate ${a2}_3)\" = RUNNING ]" || { squeue; fail "array $a2: task 3 did not start"; }
	hold_engine_save "$CTLD_PID"
	as bob scontrol update jobid="${a2}_4" TimeLimit=4 || fail "bob cannot update task 4 of array $a2"
	gdb_release "$CTLD_PID"
	wait_passes
	open_gate arr2
	hold_engine_save "$CTLD_PID"
	a3=$(sub carol --array=1-2%1 -n 1 -t 2 --wrap 'sleep 1')
	wait_for 120 "[ \"\$(jstate ${a3}_2)\" = COMPLETED ]" || { squeue; fail "array $a3 did not end during the held save"; }
	gdb_release "$CTLD_PID"
	wait_passes
	note "array $a2 (bob) updated during a held save; array $a3 (carol) ran and ended during one"
else
	note "gdb missing: arrays during a held save not covered (tools/install-deps.sh installs gdb)"
fi

# reservations (§9.14): carol's running job $rv moves into reservation r1
# and back while it runs, and $ri runs to its end inside r1; each second
# of both is charged once (the reconciliation below), and the engine never
# took $rv for ended or new
rv=$(sub carol -n 1 -t 10 --wrap "$(gated rv)")
wait_for 120 "running $rv" || { squeue; fail "job $rv did not start"; }
node=$(squeue -h -j "$rv" -o %N)
scontrol create reservation ReservationName=r1 Users=carol StartTime=now \
	Duration=30 Nodes="$node" Flags=IGNORE_JOBS > /dev/null ||
	fail "cannot create reservation r1 on $node"
as carol scontrol update jobid="$rv" reservation=r1 ||
	fail "carol cannot move running job $rv into reservation r1"
ri=$(sub carol -n 1 -t 2 --reservation=r1 --wrap "$(gated ri)")
wait_for 120 "running $ri" || { squeue; fail "job $ri did not start in r1"; }
wait_passes
sleep 2		# charged a few seconds while in r1
wait_passes
as carol scontrol update jobid="$rv" reservation= ||
	fail "carol cannot take job $rv out of reservation r1"
wait_passes
open_gate ri
open_gate rv
wait_for 120 "[ -z \"\$(squeue -h -j $rv,$ri -o %i 2>/dev/null)\" ]" ||
	{ squeue; fail "jobs $rv and $ri did not end"; }
wait_passes
grep -E "^debug (submit|start|vanish|cancel|requeue) $rv( |$)" "$WORK/events.log" |
	awk '$2 == "vanish" || $2 == "cancel" || $2 == "requeue" { bad = 1 } $2 == "submit" { n++ }
	     END { exit bad || n != 1 }' ||
	{ grep -E " $rv( |$)" "$WORK/events.log"; fail "the engine lost track of job $rv across its moves into and out of r1"; }
grep -Eq "^debug start $ri( |$)" "$WORK/events.log" ||
	fail "job $ri, run in reservation r1, never entered the schedule"
scontrol delete ReservationName=r1 || fail "cannot delete reservation r1"
note "job $rv moved into reservation r1 on $node and out while it ran; job $ri ran in r1 (carol)"

# slurmctld saves its job state at most every 5 s, the engine its ledger
# with its state: both must hold the runs so far before the kill.  From
# 24.11 on, a slurmctld with accounting refuses to restart without its
# assoc_usage file ("No Assoc usage file ... to recover"), which it first
# writes at its periodic full save, 300 s after it started: wait for it
# there (jobs run with limits that outlast the wait).
t=$(date +%s)
wait_for 30 "[ \$(date +%s) -gt $t ]" || true
wait_for 120 "[ \$(stat -c %Y '$WORK/state/job_state') -gt $t ] &&
	[ \$(stat -c %Y '$WORK'/state/ostrich_ledger.debug) -gt $t ]" ||
	{ ls -l --time-style=+%s "$WORK/state"; fail "no state saved after $t"; }
if [ "${CLUSTER_SLURM_VERSION%%.*}" -ge 24 ]; then
	wait_for 420 "[ -e '$WORK/state/assoc_usage' ]" ||
		fail "slurmctld wrote no assoc_usage in 420 s"
fi
note "kill -9 slurmctld; job $k9 ends while it is down"
ctld_stop KILL
open_gate k9
sleep 4
ctld_start || fail "slurmctld did not restart"
wait_queue_empty 300

# every run in sacct, ended: "JobIDRaw|User|AllocTRES|ElapsedRaw|State"
rows() { sacct -a -D -X -n -P -S "$(date -d "@$T_START" +%Y-%m-%dT%H:%M:%S)" \
	--format=JobIDRaw,User,AllocTRES,ElapsedRaw,State; }
wait_for 300 '[ -n "$(rows 2>/dev/null)" ] && ! grep -q "|RUNNING$\||PENDING$" <<<"$(rows 2>/dev/null)"' ||
	{ rows; fail "sacct still shows runs not ended"; }
# sacct's rows first, then two passes and a snapshot after them
wait_passes
last=$(date +%s)
wait_for 60 "[ \"\$(sed -n 's/^snapshot time=\\([0-9]*\\).*/\\1/p' '$SNAP' 2>/dev/null)\" -gt $last ]" ||
	fail "no usage snapshot written after $last"
ROWS=$(rows | grep -v '|PENDING$' || true)
note "sacct -D -X (JobIDRaw|User|AllocTRES|ElapsedRaw|State):"
printf '%s\n' "$ROWS" | sed 's/^/#   /'
grep -q '|REQUEUED$' <<<"$ROWS" || fail "sacct shows no REQUEUED run of $rq"
grep -q "^$gpu|alice|billing=17," <<<"$ROWS" || fail "sacct does not bill GPU job $gpu 17"

JSON=$("$OST_SCAMPAIGN" --usage --json) || fail "scampaign --usage --json failed"
note "scampaign --usage --json: $(printf '%s' "$JSON" | tr -d '\n')"
"$OST_SCAMPAIGN" --usage | sed 's/^/#   /'

# per user: charged (ledger) vs sum(billing x ElapsedRaw) (sacct), the
# difference within 1 billing-second per run
CMP=$( { printf '%s\n' "$JSON" | sed -n 's/.*"user":"\([^"]*\)".*"charged":\([0-9.e+]*\).*/L \1 \2/p'
	 printf '%s\n' "$ROWS" | awk -F'|' '{ b = 0; n = split($3, t, ",")
		for (i = 1; i <= n; i++) if (t[i] ~ /^billing=/) { sub(/^billing=/, "", t[i]); b = t[i] }
		print "S", $2, b * $4 }'; } |
	awk '$1 == "L" { l[$2] += $3; u[$2] = 1 } $1 == "S" { s[$2] += $3; n[$2]++; u[$2] = 1 }
	     END { for (x in u) { d = l[x] - s[x]; if (d < 0) d = -d
		   printf "%s charged %.1f sacct %.1f runs %d %s\n", x, l[x], s[x], n[x], d <= n[x] ? "ok" : "MISMATCH" } }' | sort)
printf '%s\n' "$CMP" | sed 's/^/# /'
[ "$(printf '%s\n' "$CMP" | grep -c ' ok$')" = 4 ] || fail "the ledger does not reconcile with sacct for every user"

# PrivateData=usage: the file is SlurmUser's; a user sees only their rows
[ "$(stat -c %a "$SNAP")" = 600 ] || fail "$SNAP has mode $(stat -c %a "$SNAP") under PrivateData=usage, want 600"
as alice "$WORK/bin/scampaign" --usage > "$WORK/out/alice.err" 2>&1 &&
	fail "alice read the snapshot under PrivateData"
grep -q 'SlurmUser' "$WORK/out/alice.err" || { cat "$WORK/out/alice.err"; fail "no clear message for alice"; }
install -m 0644 "$SNAP" "$WORK/out/usage.copy"
MINE=$(as alice "$WORK/bin/scampaign" --usage --json --state-file "$WORK/out/usage.copy") ||
	fail "alice cannot read a copy"
grep -q '"user":"alice"' <<<"$MINE" || fail "alice does not see her row: $MINE"
! grep -q '"user":"\(bob\|carol\)"' <<<"$MINE" || fail "alice sees others' rows: $MINE"

# the histogram counts the campaigns that ended since the engine started:
# carol's, whose kill -9 job ended across the restart, ThinkTime after
# its end (bob's may have closed before the kill, and gone with it)
ended() { sed -n 's/^stretch sum=[^ ]* count=//p' "$SNAP"; }
wait_for 60 '[ "$(ended)" -ge 1 ]' || fail "the stretch histogram counts $(ended) campaigns, want 1"
# (--per-user: promtool checks the per-user series too)
"$OST_SCAMPAIGN" --metrics --per-user > "$WORK/out/metrics.prom" || fail "scampaign --metrics failed"
note "stretch histogram: $(grep '^ostrich_campaign_stretch_\(sum\|count\)' "$WORK/out/metrics.prom" | tr '\n' ' ')"
if command -v promtool > /dev/null; then
	promtool check metrics < "$WORK/out/metrics.prom" || fail "promtool rejects scampaign --metrics"
	note "promtool check metrics: ok ($(grep -vc '^#' "$WORK/out/metrics.prom") samples)"
else
	note "promtool missing: metrics not checked (tools/install-deps.sh installs prometheus)"
fi
cp "$WORK/out/metrics.prom" "${OST_USAGE_METRICS_OUT:-/dev/null}" 2>/dev/null || true
echo "PASS: per user, the ledger's charge equals sum(billing x elapsed) of sacct's runs (a requeue's two runs, a job without a limit requeued past DefaultEstimate, a limit cut to 0, a cancel, a het job, arrays, arrays updated and run during held saves, a kill -9 restart); PrivateData keeps the file SlurmUser's and a copy shows a user their own rows; promtool accepts --metrics"
