#!/usr/bin/env bash
# s21-report.sh - live scenario 21: the campaign report (semantics.md §26)
# of the site's own scheduler, in shadow mode: sched/backfill +
# priority/multifactor ranks the queue, site_factor/ostrich weight=0
# watches.  With accounting (sacct is the reference; 22.05's multifactor
# needs slurmdbd for its decay thread), 4 nodes x 4 CPUs, Interval=1,
# ThinkTime=3, PrivateData=usage.  dave holds the whole machine with a
# gated job while alice submits 3 jobs of 4 CPUs, bob 1 of 2, carol 2 of
# 8; once all ran, alice submits a second campaign of two jobs, the
# second while the first runs (it joins, §2).  Then, for every campaign:
#   - its release, first start and end in scampaign --report --json are
#     sacct's (Eligible, the arrival of §9.12, = Submit here; Start; End)
#     within 1 s, its jobs and work (AllocCPUS x ElapsedRaw) sacct's, and
#     its stretch the one §7 computes from sacct's times, campaigns
#     grouped from sacct by §2's rule;
#   - ostrich's virtual completion is there (shadow mode computes it);
# and the per-user sums are the campaigns'; the file is SlurmUser's (0600)
# under PrivateData and a user reading a copy sees only their campaigns;
# scampaign --metrics with the report's series passes promtool (the
# per-user ones only with --per-user under PrivateData); after a
# restart (TERM) the report is the same, campaign by campaign; restarted
# with priority/ostrich instead, the report is restored and bob's new
# campaign matches sacct too.
# Every wait is for a condition, with a generous limit, never a fixed
# sleep.  SKIPs (77) and says why when slurmdbd, MariaDB, the MySQL
# plugin or jq is missing.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol dave"
. "$OST_SRCDIR/tests/live/live-lib.sh"

[ -f "$OST_PLUGIN_BUILD/site_factor_ostrich.so" ] || fail "missing $OST_PLUGIN_BUILD/site_factor_ostrich.so"
need_accounting
[ -f "$STOCK_PLUGINDIR/priority_multifactor.so" ] || skip "no priority_multifactor.so in $STOCK_PLUGINDIR"
[ -x "${OST_SCAMPAIGN:-}" ] || skip "scampaign not built"
command -v jq > /dev/null || skip "no jq (tools/install-deps.sh installs it)"

NNODES=4 CPUS_PER_NODE=4 ACCT=1
SCHED=sched/backfill PRIO=priority/multifactor
LIVE_USER_BINS="$OST_SCAMPAIGN"
TAU=3		# ThinkTime, s
M=16		# the partition's capacity: CPUs (no billing weights)
live_start "$(printf 'Interval=1\nThinkTime=%s' $TAU)" "PriorityCalcPeriod=1
PriorityWeightJobSize=10000
PriorityWeightAge=0
PriorityWeightFairshare=0
PrioritySiteFactorPlugin=site_factor/ostrich
PrioritySiteFactorParameters=weight=0
PrivateData=usage"
grep -q 'ostrich: site_factor/ostrich: weight 0: shadow mode' "$WORK/log/slurmctld.log" ||
	fail "site_factor/ostrich did not start in shadow mode"
REPORT=$WORK/state/ostrich_report
SC=$OST_SCAMPAIGN
note "$(( $(date +%s) - T_START )) s to start; slurmdbd on port $DBD_PORT"

state_of() { squeue -h -j "$1" -o %T 2>/dev/null | head -1; }
running() { [ "$(state_of "$1")" = RUNNING ]; }
# campaigns in the report (closed ones: what scampaign shows)
n_report() { "$SC" --report --json 2>/dev/null | jq '.report.campaigns | length' 2>/dev/null || echo 0; }

# ---- the campaigns ------------------------------------------------------
blk=$(sub dave -n 16 -t 5 --wrap "$(gated blk)")
wait_for 120 "running $blk" || { squeue; fail "dave's job $blk did not start"; }
next_second
A1=$(for i in 1 2 3; do sub alice -n 4 -t 2 --wrap 'sleep 2'; done | tr '\n' ' ')
B1=$(sub bob -n 2 -t 2 --wrap 'sleep 3')
C1=$(for i in 1 2; do sub carol -n 8 -t 2 --wrap 'sleep 2'; done | tr '\n' ' ')
note "dave $blk (16 CPUs, gated); alice $A1(4 CPUs); bob $B1 (2); carol $C1(8)"
wait_passes
open_gate blk
wait_queue_empty 300
wait_for 300 '[ "$(n_report)" -ge 4 ]' ||
	{ "$SC" --report --campaigns; fail "the report does not close the 4 first campaigns"; }
# alice's second campaign: a4 runs, a5 joins it while it does
a4=$(sub alice -n 4 -t 2 --wrap "$(gated a4)")
wait_for 120 "running $a4" || { squeue; fail "alice's job $a4 did not start"; }
next_second
a5=$(sub alice -n 4 -t 2 --wrap 'sleep 1')
wait_for 120 "[ \"\$(state_of $a5)\" = RUNNING ] || [ -z \"\$(state_of $a5)\" ]" ||
	{ squeue; fail "alice's job $a5 did not start"; }
open_gate a4
wait_queue_empty 300
wait_for 300 '[ "$(n_report)" -ge 5 ]' ||
	{ "$SC" --report --campaigns; fail "the report does not close alice's second campaign"; }
ALL="$blk $A1$B1 $C1$a4 $a5"
ALL=$(echo $ALL | tr ' ' ',')

# ---- sacct, the reference ----------------------------------------------
# the report's campaigns, "USER JOBS RELEASE START END WORK LOWER_BOUND
# STRETCH VCT VSTRETCH SEQ ACCOUNT", by user and release
report_camps() { "$SC" --report --json | jq -r '.report.campaigns | sort_by(.user, .release)[] |
	[.user, .jobs, .release, .start, .end, .work, .lower_bound, .stretch, .vct, .vstretch, .seq, .account] | @tsv'; }

# check_sacct N LABEL: the report's campaigns are the N that sacct's rows
# of the jobs $ALL make (comma-separated ids), campaign by campaign.
# Sets REP.
check_sacct() {
	local want=$1 label=$2 rows_out n_jobs camps out
	# slurmctld sends the ends to slurmdbd on its own time: read once all
	# are there, in epoch seconds
	rows() { SLURM_TIME_FORMAT=%s sacct -a -n -P -X -j "$ALL" \
		--format=JobIDRaw,User,Account,Submit,Eligible,Start,End,ElapsedRaw,AllocCPUS,State; }
	n_jobs=$(echo "$ALL" | tr ',' '\n' | grep -c .)
	wait_for 300 '[ "$(rows 2>/dev/null | grep -c "|COMPLETED$")" = "$n_jobs" ]' ||
		{ rows; fail "$label: sacct does not show the $n_jobs jobs COMPLETED"; }
	rows_out=$(rows) || fail "sacct failed"
	note "$label: sacct (JobIDRaw|User|Account|Submit|Eligible|Start|End|ElapsedRaw|AllocCPUS|State):"
	printf '%s\n' "$rows_out" | sed 's/^/#   /'
	# campaigns from sacct by §2's rule: per user in arrival order, a
	# job joins the latest campaign while one of its jobs has not ended
	# at its arrival, or within TAU of its last end; "USER JOBS RELEASE
	# START END WORK SPAN" each
	camps=$(printf '%s\n' "$rows_out" | sort -t'|' -k2,2 -k5,5n -k1,1n | awk -F'|' -v tau=$TAU '
		function flush() { if (n) print u, n, rel, st, en, work, span }
		{ t = $5; if ($2 != u || !(t < en || t - en <= tau)) { flush(); u = $2; n = 0; rel = t; st = $6; en = $7; work = 0; span = 0 }
		  n++; if ($6 < st) st = $6; if ($7 > en) en = $7
		  work += $9 * $8; if (t + $8 > span) span = t + $8 }
		END { flush() }')
	note "$label: campaigns from sacct (user jobs release start end work span):"
	printf '%s\n' "$camps" | sed 's/^/#   /'
	[ "$(printf '%s\n' "$camps" | grep -c .)" = "$want" ] || fail "$label: sacct's jobs do not make $want campaigns"
	REP=$(report_camps) || fail "scampaign --report --json failed"
	note "$label: scampaign --report --json (user jobs release start end work lower_bound stretch vct vstretch seq account):"
	printf '%s\n' "$REP" | sed 's/^/#   /'
	out=$(paste <(printf '%s\n' "$camps" | sort -k1,1 -k3,3n | tr ' ' '\t') <(printf '%s\n' "$REP") | awk -F'\t' -v m=$M -v acct="$ACCT_ACCOUNT" -v want="$want" '
		function abs(x) { return x < 0 ? -x : x }
		function upd(d) { if (abs(d) > maxd) maxd = abs(d); return abs(d) <= 1 }
		{ n++; id = $1 " campaign " n
		  # sacct: 1 user 2 jobs 3 release 4 start 5 end 6 work 7 span;
		  # report: 8 user 9 jobs 10 release 11 start 12 end 13 work
		  # 14 lb 15 stretch 16 vct 17 vstretch 18 seq 19 account
		  if ($1 != $8 || $2 != $9) { print id ": sacct " $1 " " $2 " jobs, report " $8 " " $9 " jobs"; bad++; next }
		  if (!upd($10 - $3)) { print id ": release " $10 " vs sacct " $3; bad++ }
		  if (!upd($11 - $4)) { print id ": start " $11 " vs sacct " $4; bad++ }
		  if (!upd($12 - $5)) { print id ": end " $12 " vs sacct " $5; bad++ }
		  if (abs($13 - $6) > $2 * 16) { print id ": work " $13 " vs sacct " $6; bad++ }
		  # §7 from sacct alone
		  lb = $6 / m; if ($7 - $3 > lb) lb = $7 - $3; if (lb < 1) lb = 1
		  fl = $5 - $3; if (fl < 1) fl = 1; s = fl / lb
		  ds = abs(s - $15); if (ds > maxs) maxs = ds
		  if (ds > 1e-9 * s) { print id ": stretch " $15 " vs " s " from sacct"; bad++ }
		  if ($16 == "" || $16 < $10) { print id ": no virtual completion, or before its release (" $16 ")"; bad++ }
		  if ($19 != acct) { print id ": account " $19 ", want " acct; bad++ } }
		END { printf "checked %d campaigns against sacct: max |time difference| %g s, max |stretch difference| %g, %d mismatches\n", n, maxd, maxs, bad + 0; exit bad > 0 || n != want }') ||
		{ printf '%s\n' "$out"; fail "$label: the report differs from sacct"; }
	note "$label: $out"
}
check_sacct 5 "shadow mode"
# someone waited: dave's job held the machine while the others queued
printf '%s\n' "$REP" | awk -F'\t' '$1 != "dave" && $8 > 1.5 { w = 1 } END { exit !w }' ||
	fail "no campaign of alice, bob or carol has a stretch above 1.5 (they waited behind dave's job)"

# per-user sums are their campaigns'
out=$("$SC" --report --json | jq -r '.report as $r | $r.users[] | .user as $u |
	($r.campaigns | map(select(.user == $u) | .stretch)) as $s |
	[$u, .campaigns, ($s | length), .stretch.max, ($s | max), .stretch.mean, (($s | add) / ($s | length))] | @tsv' |
	awk -F'\t' '{ n++; d = $6 - $7; if ($2 != $3 || $4 != $5 || d > 1e-9 || d < -1e-9) { print "user " $1 ": " $0; bad++ } }
		END { print "checked the sums of " n + 0 " users"; exit bad > 0 || n != 4 }') ||
	{ printf '%s\n' "$out"; fail "the per-user sums are not their campaigns'"; }
note "$out"
"$SC" --report | sed 's/^/#   /'

# ---- who may read it (PrivateData=usage) -------------------------------
[ "$(stat -c %a "$REPORT")" = 600 ] || fail "$REPORT is mode $(stat -c %a "$REPORT") under PrivateData=usage, want 600"
cp "$REPORT" "$WORK/out/report.copy" && chmod 644 "$WORK/out/report.copy"
u=$(as alice "$WORK/bin/scampaign" --report --json --report-file="$WORK/out/report.copy" |
	jq -r '[.report.campaigns[].user] + [.report.users[].user] | unique | join(" ")') ||
	fail "alice cannot read a copy of the report"
[ "$u" = alice ] || fail "alice reading a copy sees the campaigns of '$u', want only hers"
note "the report is SlurmUser's (0600); alice reading a copy sees only her campaigns"

# ---- metrics -----------------------------------------------------------
"$SC" --metrics > "$WORK/metrics.prom" || fail "scampaign --metrics failed"
if command -v promtool > /dev/null; then
	promtool check metrics < "$WORK/metrics.prom" || fail "scampaign --metrics does not pass promtool"
fi
grep -q '^ostrich_report_campaigns{partition="debug"} 5$' "$WORK/metrics.prom" ||
	{ grep ostrich_report "$WORK/metrics.prom"; fail "--metrics does not count the 5 campaigns"; }
# under PrivateData the per-user and per-account series are left out of
# what would be published, unless --per-user says it stays private
! grep -q '^ostrich_report_\(user\|account\)_' "$WORK/metrics.prom" ||
	fail "--metrics publishes per-user or per-account report series under PrivateData=usage"
"$SC" --metrics --per-user > "$WORK/metrics-users.prom" || fail "scampaign --metrics --per-user failed"
if command -v promtool > /dev/null; then
	promtool check metrics < "$WORK/metrics-users.prom" || fail "scampaign --metrics --per-user does not pass promtool"
fi
grep -q '^ostrich_report_user_stretch_max{partition="debug",user="alice"} ' "$WORK/metrics-users.prom" ||
	fail "--metrics --per-user has no ostrich_report_user_stretch_max for alice"
note "metrics: $(grep -c '^ostrich_report' "$WORK/metrics.prom") samples of the report, $(grep -c '^ostrich_report' "$WORK/metrics-users.prom") with --per-user"

# ---- a restart (TERM) loses nothing ------------------------------------
before=$(report_camps)
n_rest=$(grep -c 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" || true)
ctld_stop TERM
t=$(date +%s)
next_second	# what the new slurmctld writes is dated after t
ctld_start || { tail -20 "$WORK/log/slurmctld.log"; fail "slurmctld did not restart"; }
wait_for 120 "[ \$(grep -c 'ostrich: partition debug restored from' '$WORK/log/slurmctld.log' || true) -gt $n_rest ]" ||
	fail "the schedule was not restored from its state file at the restart"
wait_passes
wait_for 120 "[ \"\$(sed -n 's/^report time=\\([0-9]*\\).*/\\1/p' '$REPORT')\" -gt $t ]" ||
	fail "no report written after the restart"
after=$(report_camps)
[ "$after" = "$before" ] ||
	{ diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed 's/^/#   /'; fail "the report changed at the restart"; }
note "restart (TERM): the report written again after it, the 5 campaigns unchanged"

# ---- priority/ostrich ranks the queue: the same report -----------------
# the site moves on (doc/admin-guide.md's migration): slurmctld restarted
# with priority/ostrich and no site factor; the report, restored, goes on
ctld_stop TERM
PRIO=priority/ostrich cluster_conf "PrivateData=usage"
ctld_start || { tail -20 "$WORK/log/slurmctld.log"; fail "slurmctld did not restart with priority/ostrich"; }
wait_passes
[ "$(report_camps)" = "$before" ] || fail "the report changed when priority/ostrich took over"
B2=$(for i in 1 2; do sub bob -n 8 -t 2 --wrap 'sleep 1'; done | tr '\n' ' ')
note "priority/ostrich: bob $B2(8 CPUs each)"
wait_queue_empty 300
wait_for 300 '[ "$(n_report)" -ge 6 ]' ||
	{ "$SC" --report --campaigns; fail "the report does not close bob's campaign under priority/ostrich"; }
ALL="$ALL,$(echo $B2 | tr ' ' ',')"
check_sacct 6 "priority/ostrich"
echo "PASS: the campaign report in shadow mode (multifactor ranks, site_factor/ostrich weight=0): 5 campaigns of 4 users match sacct within 1 s, their stretch is §7's from sacct's times, ostrich's virtual completion beside it; per-user sums; 0600 under PrivateData; promtool; unchanged across a restart; then under priority/ostrich, restored, a 6th campaign matches sacct too"
