#!/usr/bin/env bash
# s20-site.sh - live scenario 20: site_factor/ostrich (semantics.md §25),
# the engine inside priority/multifactor, under sched/backfill.  With
# accounting (22.05's multifactor calls site_factor_p_update only from its
# decay thread, which runs only with slurmdbd), 4 nodes x 4 CPUs,
# PriorityCalcPeriod=1 (a minute: the least slurm.conf takes, in minutes,
# on every supported release) and multifactor's job size factor alone
# (PriorityWeightJobSize=10000, favouring large jobs; age, fair-share,
# partition, QOS weights 0, so that its priorities do not move with time).
# The partition is DOWN while alice submits a campaign of 10 jobs of 4
# CPUs, then bob 3 of 1 CPU and carol 3 of 2 CPUs: multifactor puts
# alice's first (job size 2500 > 1875 > 1562), OStrich bob's and carol's
# small campaigns first.
#   0. baseline: the same submissions without any site factor plugin;
#      multifactor's priorities are recorded, job by job, then cancelled;
#   1. shadow (weight=0): once a site factor update followed the ranks,
#      every priority is the baseline's, bit for bit (job by job, in
#      submission order), every site factor 0, while SystemComment,
#      scampaign, --explain and --usage show the engine's ranks;
#   2. restart (TERM) in shadow mode: the schedule is restored from its
#      state file, every job's rank= and campaign= are the same after it,
#      and the priorities still the baseline's;
#   3. dominant (weight=10^7, restart): every site factor is
#      floor(W (P - R + 1) / P) for the job's rank=R/P, every priority the
#      baseline's + its site factor, and the priority order is the rank
#      order (what priority/ostrich gives);
#   3b. an update when no rank moved reads no record again, and a
#      hand-set SiteFactor= lasts until the job's value moves;
#   4. blend (weight=4000, scontrol reconfigure): priority = baseline +
#      site factor again, and the blend lies between the two orders: every
#      pair of jobs the two orders agree on is in that order, and of the
#      pairs they disagree on, some follow OStrich and some multifactor
#      (so the Kendall distances add up: d(mf, blend) + d(blend, ostrich)
#      = d(mf, ostrich), both terms > 0);
#   5. weight=lots at scontrol reconfigure: logged, the weight in force
#      kept (22.05 in place; 24.11+ the new slurmctld refuses it and the
#      old one goes on), the site factors unchanged;
#   6. refused at start, saying why: sched/ostrich or priority/ostrich
#      with site_factor/ostrich (two writers), a bad weight, and on 22.05
#      a weight without slurmdbd.
# Each wait is for a condition (a site factor update comes within a
# PriorityCalcPeriod), never a fixed sleep.
# SKIPs (77) and says why when slurmdbd, MariaDB or the MySQL plugin is
# missing.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol"
. "$OST_SRCDIR/tests/live/site-lib.sh"
W_DOM=10000000
W_BLEND=4000

# conf SITE_LINES: slurm.conf with multifactor (+ SITE_LINES), the
# partition DOWN.
conf() {
	cluster_conf "$MF${1:+
$1}"
	sed -i '/^PartitionName=debug /s/State=UP/State=DOWN/' "$SLURM_CONF"
}

# submit: alice's campaign, then bob's and carol's; prints the job ids.
submit() {
	local i
	for i in $(seq 10); do sub alice -n 4 -t 5 --wrap 'sleep 1'; done
	next_second
	for i in 1 2 3; do sub bob -n 1 -t 5 --wrap 'sleep 1'; done
	for i in 1 2 3; do sub carol -n 2 -t 5 --wrap 'sleep 1'; done
}

# site_ok W: every pending job has a SystemComment rank, its site factor
# is floor(W (P - R + 1) / P) and its priority the baseline's + its site
# factor (BASE: "INDEX PRIORITY" by submission order, FIRST its first id).
site_ok() {
	table | awk -v w="$1" -v first="$FIRST" -v base="$BASE" '
		BEGIN { m = split(base, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); b[f[1]] = f[2] } }
		{ n++
		  if ($5 == "-") { bad++; next }
		  want = int(w * ($6 - $5 + 1) / $6)
		  if ($4 != want) bad++
		  if ($3 != b[$1 - first] + $4) bad++ }
		END { exit !(n == 16 && !bad) }'
}

# wait_site W LABEL: until site_ok W (a PriorityCalcPeriod, and the
# restart's first one may come before the engine's first pass: 150 s).
wait_site() {
	local t0=$(date +%s)
	wait_for 150 "site_ok $1" ||
		{ show "$2"; fail "$2: site factors do not follow the ranks with weight $1 (or priorities are not the baseline's + the site factor)"; }
	note "$2: site factors follow the ranks after $(( $(date +%s) - t0 )) s"
}

# restart [SITE_LINES]: slurmctld stopped (TERM) and started again with
# slurm.conf for SITE_LINES, the partition DOWN.
restart() {
	ctld_stop TERM
	conf "${1:-}"
	ctld_start || { tail -20 "$WORK/log/slurmctld.log"; fail "slurmctld did not restart"; }
}

# pairs W: "AGREE CONFLICT FOLLOW_OSTRICH FOLLOW_MF BAD" over every pair of
# pending jobs: BASE orders them by multifactor, the site factor by
# OStrich, the priority by both; BAD counts pairs both orders agree on
# (or one ties) that the priority puts otherwise.
pairs() {
	table | awk -v first="$FIRST" -v base="$BASE" '
		function sgn(x) { return (x > 0) - (x < 0) }
		BEGIN { m = split(base, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); b[f[1]] = f[2] } }
		{ n++; id[n] = $1; p[n] = $3; s[n] = $4; bb[n] = b[$1 - first] }
		END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
			sb = sgn(bb[i] - bb[j]); ss = sgn(s[i] - s[j]); sp = sgn(p[i] - p[j])
			if (sb * ss < 0) { conflict++; if (sp == ss) fo++; else if (sp == sb) fm++; else bad++ }
			else { agree++; want = sb ? sb : ss; if (sp != want) bad++ } }
		      print agree + 0, conflict + 0, fo + 0, fm + 0, bad + 0 }'
}

# ---- 0. baseline: multifactor alone ------------------------------------
cluster_init
printf 'Interval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
conf ""
cluster_start
scontrol update PartitionName=debug State=DOWN
note "cluster up (sched/backfill + priority/multifactor, slurmdbd on port $DBD_PORT), $(( $(date +%s) - T_START )) s, $WORK"
B_IDS=$(submit | tr '\n' ' ')
B_FIRST=${B_IDS%% *}
wait_for 30 '[ "$(squeue -h -t PD | wc -l)" = 16 ]' || fail "the 16 baseline jobs are not pending"
BASE=$(squeue -h -t PD -o '%i %Q' | sort -n | awk -v f="$B_FIRST" '{ print $1 - f, $2 }')
note "baseline priorities (index priority): $(printf '%s\n' "$BASE" | awk '{ printf "%s:%s ", $1, $2 }')"
[ "$(printf '%s\n' "$BASE" | awk '{ print $2 }' | sort -u | wc -l)" = 3 ] ||
	fail "multifactor's baseline has not 3 distinct priorities (one per job size)"
scancel $B_IDS
wait_for 60 '[ "$(n_queued)" = 0 ]' || fail "the baseline jobs were not cancelled"

# ---- 1. shadow mode ----------------------------------------------------
restart "$(site_lines 0)"
grep -q 'ostrich: site_factor/ostrich: weight 0: shadow mode' "$WORK/log/slurmctld.log" ||
	fail "site_factor/ostrich did not start in shadow mode"
u0=$(n_updates)
IDS=$(submit | tr '\n' ' ')
FIRST=${IDS%% *}
wait_for 60 '[ "$(table | awk '\''$5 != "-"'\'' | wc -l)" = 16 ]' || { show shadow; fail "the 16 jobs are not all ranked"; }
# an update after the ranks are final: every site factor 0 (it writes
# NICE_OFFSET, Slurm's own value) and every priority the baseline's
t0=$(date +%s)
wait_for 150 "[ \$(n_updates) -gt $u0 ] && grep 'ostrich: site factors: ' '$WORK/log/slurmctld.log' | tail -1 | grep -q 'weight 0, 16 ranked records, ' && site_ok 0" ||
	{ show shadow; grep 'ostrich: site factors: ' "$WORK/log/slurmctld.log" | tail -3; fail "shadow mode: priorities differ from the baseline's (or no site factor update came)"; }
note "shadow: an update after $(( $(date +%s) - t0 )) s: $(grep 'ostrich: site factors: ' "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*ostrich: //')"
show "shadow mode"
out=$(table | awk -v first="$FIRST" -v base="$BASE" '
	BEGIN { m = split(base, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); b[f[1]] = f[2] } }
	{ n++; if ($3 != b[$1 - first] || $4 != 0) { print "job " $1 ": priority " $3 " site " $4 ", baseline " b[$1 - first]; bad++ } }
	END { print "compared " n + 0 " priorities with the baseline, job by job: " bad + 0 " differ"; exit bad > 0 || n != 16 }') ||
	{ printf '%s\n' "$out"; fail "shadow mode changed multifactor's priorities"; }
note "$out"
# the engine ranks bob's and carol's small campaigns first, multifactor
# alice's jobs: the two orders disagree
table | awk '$2 != "alice" && $5 > 6 { bad = 1 } $2 == "alice" && $5 <= 6 { bad = 1 } END { exit bad }' ||
	{ show shadow; fail "the engine does not rank bob's and carol's 6 jobs first"; }
if [ -x "${OST_SCAMPAIGN:-}" ]; then
	c=$("$OST_SCAMPAIGN") || fail "scampaign failed under site_factor/ostrich"
	for u in alice bob carol; do grep -qw "$u" <<<"$c" || { printf '%s\n' "$c"; fail "scampaign does not list $u's campaign"; }; done
	c=$("$OST_SCAMPAIGN" --explain "$FIRST") || fail "scampaign --explain $FIRST failed"
	grep -q "^Its site factor is 0 (site_factor/ostrich in shadow mode" <<<"$c" ||
		{ printf '%s\n' "$c"; fail "scampaign --explain does not say the shadow mode"; }
	note "scampaign --explain $FIRST: $(tr '\n' ' ' <<<"$c")"
	"$OST_SCAMPAIGN" --usage > "$WORK/usage.txt" || fail "scampaign --usage failed under site_factor/ostrich"
fi

# ---- 2. restart (TERM) in shadow mode: nothing lost -------------------
before=$(table | awk '{ print $1, $5, $6, $7, $3 }')
n_rest=$(grep -c 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" || true)
p0=$(n_passes)
restart "$(site_lines 0)"
wait_for 60 "[ \$(grep -c 'ostrich: partition debug restored from' '$WORK/log/slurmctld.log' || true) -gt $n_rest ]" ||
	fail "the schedule was not restored from its state file at the restart"
wait_for 60 "[ \$(n_passes) -ge $((p0 + 2)) ]" || fail "no pass after the restart"
wait_for 60 '[ "$(table | awk '\''{ print $1, $5, $6, $7, $3 }'\'')" = "$before" ]' ||
	{ diff <(printf '%s\n' "$before") <(table | awk '{ print $1, $5, $6, $7, $3 }') | sed 's/^/#   /'
	  fail "ranks, campaigns or priorities changed at the restart in shadow mode"; }
note "restart in shadow mode: $(grep 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*ostrich: //'); the 16 ranks, campaigns and priorities unchanged"

# ---- 3. dominant weight: priority/ostrich's order ---------------------
restart "$(site_lines $W_DOM)"
wait_site $W_DOM "dominant (weight=$W_DOM)"
show "dominant (weight=$W_DOM)"
order=$(table | sort -k3,3nr | awk '{ printf "%s ", $5 }')
[ "$order" = "$(seq 16 | tr '\n' ' ')" ] ||
	fail "dominant: the ranks in priority order are $order, want 1 to 16 (priority/ostrich's order)"
read -r agree conflict fo fm bad <<<"$(pairs)"
note "dominant: $agree pairs agreed on, $conflict in conflict: $fo follow OStrich, $fm multifactor"
[ "$bad" = 0 ] && [ "$fm" = 0 ] && [ "$conflict" -gt 0 ] || fail "dominant: not OStrich's order ($fm conflicts follow multifactor, $bad pairs out of both orders)"
if [ -x "${OST_SCAMPAIGN:-}" ]; then
	c=$("$OST_SCAMPAIGN" --explain "$FIRST") || fail "scampaign --explain $FIRST failed"
	grep -q "^Its priority $(squeue -h -j "$FIRST" -o %Q) under priority/multifactor: $(sprio -h -j "$FIRST" -o %S | tr -d ' ') from the OStrich site factor" <<<"$c" ||
		{ printf '%s\n' "$c"; fail "scampaign --explain does not give the site factor against the priority"; }
	note "scampaign --explain $FIRST: $(tr '\n' ' ' <<<"$c")"
fi

# ---- 3b. only what moved is read again (doc/semantics.md §25) ----------
# the ranks stand still (the partition is DOWN): the next update reads no
# record, so a hand-set SiteFactor= lasts until the job's value moves (the
# blend's new weight below moves every value, and wait_site checks them)
scontrol update job="$FIRST" SiteFactor=5 || fail "scontrol update job=$FIRST SiteFactor=5 failed"
u0=$(n_updates)
wait_for 150 "[ \$(n_updates) -gt $u0 ]" || fail "no site factor update within 150 s"
last=$(grep 'ostrich: site factors: ' "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*ostrich: //')
grep -q "weight $W_DOM, 16 ranked records, 16 as the last update left them, 0 looked up, 0 pending written" <<<"$last" ||
	fail "an update with no rank moved read records again: $last"
[ "$(sprio -h -j "$FIRST" -o %S | tr -d ' ')" = 5 ] ||
	{ show "hand-set"; fail "the hand-set SiteFactor=5 of $FIRST did not last while its rank stood still"; }
note "ranks standing still: $last; $FIRST keeps its hand-set SiteFactor=5"

# ---- 4. blend: between the two orders ----------------------------------
before=$(grep -c 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" || true)
conf "$(site_lines $W_BLEND)"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for 120 "[ \$(grep -c 'ostrich: reconfigured:' '$WORK/log/slurmctld.log' || true) -gt $before ]" ||
	fail "the engine did not take the reconfigure"
wait_site $W_BLEND "blend (weight=$W_BLEND)"
show "blend (weight=$W_BLEND)"
read -r agree conflict fo fm bad <<<"$(pairs)"
note "blend: $agree pairs agreed on, $conflict in conflict: $fo follow OStrich, $fm multifactor"
[ "$bad" = 0 ] || fail "blend: $bad pairs both orders agree on are in another order"
[ "$fo" -gt 0 ] && [ "$fm" -gt 0 ] && [ $((fo + fm)) = "$conflict" ] ||
	fail "blend: not strictly between the two orders ($fo conflicts follow OStrich, $fm multifactor, of $conflict)"

# ---- 5. a bad weight at reconfigure keeps the one in force ------------
conf "$(site_lines lots)"
if [ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ]; then
	# a new slurmctld starts, refuses it and exits; the old one goes on
	! scontrol reconfigure 2>/dev/null || fail "scontrol reconfigure succeeded with weight=lots"
	want="fatal: ostrich: PrioritySiteFactorParameters=weight=lots: weight=lots is not a number from 0 to 2147483647 (this reconfigure is refused"
else
	scontrol reconfigure || fail "scontrol reconfigure failed"
	want="error: ostrich: reconfigure: PrioritySiteFactorParameters=weight=lots: weight=lots is not a number from 0 to 2147483647; keeping weight $W_BLEND"
fi
wait_for 60 "grep -qF '$want' '$WORK/log/slurmctld.log'" || fail "no '$want' in slurmctld.log"
scontrol ping > /dev/null || fail "slurmctld is gone after a bad weight at reconfigure"
site_ok $W_BLEND || { show "after a bad weight"; fail "a bad weight at reconfigure changed the site factors"; }
note "bad weight at reconfigure: $(grep -F "$want" "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*\] //' | cut -c1-150)..."

# ---- 6. refused at start -----------------------------------------------
scancel $IDS
wait_for 60 '[ "$(n_queued)" = 0 ]' || fail "the jobs were not cancelled"
ctld_stop TERM
# start_fails SCHED PRIO WEIGHT REGEX: slurmctld -D exits non-zero, its log
# matching REGEX
start_fails() {
	local rc=0
	SCHED=$1 PRIO=$2 conf "$(site_lines "$3")"
	: > "$WORK/log/slurmctld.log"
	LD_LIBRARY_PATH=$WORK/plugins timeout 60 slurmctld -D -f "$SLURM_CONF" \
		> "$WORK/ctld.out" 2>&1 || rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "slurmctld did not refuse $1 + $2 + site_factor/ostrich (exit $rc)"
	grep -qE "$4" "$WORK/log/slurmctld.log" || { tail -5 "$WORK/log/slurmctld.log"; fail "no message /$4/ for $1 + $2"; }
	note "refused: $(grep -E "$4" "$WORK/log/slurmctld.log" | head -1 | sed 's/.*\] //' | cut -c1-140)..."
}
start_fails sched/ostrich priority/multifactor 0 \
	'fatal: ostrich: (SchedulerType=sched/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich|PrioritySiteFactorPlugin=site_factor/ostrich cannot run with SchedulerType=sched/ostrich)'
start_fails sched/backfill priority/ostrich 0 \
	'fatal: ostrich: PriorityType=priority/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich'
start_fails sched/backfill priority/multifactor -3 \
	'fatal: ostrich: PrioritySiteFactorParameters=weight=-3: weight=-3 is not a number from 0 to 2147483647'
# 22.05 without slurmdbd: multifactor has no decay thread, no update ever
# comes, so a weight would freeze; 24.11+ run the thread anyway
if [ "$CLUSTER_SLURM_SERIES" = 22.05 ]; then
	ACCT=0 start_fails sched/backfill priority/multifactor 100 \
		'fatal: ostrich: PrioritySiteFactorParameters=weight=100: on this Slurm, priority/multifactor runs its decay thread'
fi
echo "PASS: site_factor/ostrich: shadow keeps multifactor's priorities bit for bit and survives a restart; weight $W_DOM gives OStrich's order, weight $W_BLEND an order between the two; a bad weight at reconfigure keeps the old one; two writers and bad weights refused at start"
