#!/usr/bin/env bash
# s7-inspect.sh - live scenario 7: what users and admins read.  alice's campaign
# fills the cluster; bob (in partitions debug and other) and carol submit
# small campaigns.  Under PrivateData=jobs, at one quiet moment between two
# engine passes:
#   * every pending job has a SystemComment, consistent with its priority
#     and with the core's ranks (check_ranks, check_comments);
#   * scampaign --json (root) has exactly the core's campaigns with the same
#     job counts, and each campaign's rank/vct/share is its jobs' summary;
#   * sprio: PRIORITY is the job's priority in each partition, FAIRSHARE the
#     owner's share of the partition times PriorityWeightFairshare (1/3 in
#     debug, 1 for bob alone in other), SITE 0; -u, -j, -p filter; carol
#     sees only her own rows;
#   * scampaign --explain of carol's last job names bob's campaign ahead and
#     the job's rank (root); carol sees only her campaigns and is told that
#     jobs ahead are hidden; bob's job is "not found" for her;
#   * SystemComment=no: a new job is ranked and gets no summary line;
#   * errors: unknown job, a held job (no summary), a cluster running
#     sched/backfill + priority/basic (exit 1, clear message), while
#     sched/backfill + priority/ostrich is accepted;
#   * sdiag shows the main scheduler's and the embedded backfill's cycles;
#     the engine's passes are in slurmctld.log (DebugFlags=Priority).
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

[ -x "${OST_SCAMPAIGN:-}" ] || skip "scampaign is not built (configure found no libslurm headers)"
LIVE_USER_BINS=$OST_SCAMPAIGN	# carol runs it: a copy she can reach
SC=	# $WORK/bin/scampaign, once live_start made it
WFS=100			# PriorityWeightFairshare

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=5
ThinkTime=60" "PriorityWeightFairshare=$WFS
PrivateData=jobs
PartitionName=other Nodes=ALL MaxTime=INFINITE State=UP"
SC=$WORK/bin/scampaign

for i in $(seq 12); do sub alice -n 4 -t 5 --wrap 'sleep 300' >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for i in 1 2; do sub bob -n 4 -t 1 --wrap 'sleep 5' >/dev/null; done
bob_other=$(sub bob -p other -n 4 -t 1 --wrap 'sleep 5')
carol_jobs=
for i in 1 2 3; do carol_jobs="$carol_jobs $(sub carol -n 4 -t 1 --wrap 'sleep 5')"; done
carol_last=${carol_jobs##* }
bob_first=$(squeue -h -u bob -p debug -o %i | sort -n | head -1)
alice_run=$(squeue -h -u alice -t R -o %i | sort -n | head -1)

# Everything read at one moment between two passes (nothing starts or ends:
# alice's jobs hold every CPU for 5 minutes).  Interval=5 leaves the reads,
# a dozen client commands, a window of seconds even on a loaded machine.
wait_passes
end=$(( $(date +%s) + 120 ))
while [ "$(date +%s)" -le "$end" ]; do
	p1=$(n_passes)
	PEND=$(squeue -h -r -t PD -o '%i %Q %u' | sort -n)
	SCTL=$(scontrol -o show job)
	JSON=$("$SC" --json)
	QPRIO=$(squeue -h -t PD -o '%i %P %Q' | sort)
	SPRIO=$(sprio -h -o '%i %r %u %Y %F %S' | sort)
	SPRION=$(sprio -h -n -o '%i %r %f' | sort)
	CAROL_JSON=$(as carol "$SC" --json)
	CAROL_EXPLAIN=$(as carol "$SC" --explain "$carol_last")
	ROOT_EXPLAIN=$("$SC" --explain "$carol_last")
	p2=$(n_passes)
	[ "$p1" = "$p2" ] && break
	sleep 0.1
done
[ "$p1" = "$p2" ] || fail "no quiet moment between two passes"
note "pending jobs (job priority user):"
printf '%s\n' "$PEND" | sed 's/^/#   /'
check_ranks
check_comments

# --- SystemComment, scampaign --json and the core agree ------------------
note "scampaign --json:"
printf '%s\n' "$JSON" | sed 's/^/#   /'
# "PART USER SEQ PENDING RUNNING RANK VCT SHARE PARTPENDING" per campaign
json_rows() {
	awk '/"partition"/ { gsub(/[{}",:]/, " "); delete v
		for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
		print v["partition"], v["user"], v["campaign"], v["pending"], v["running"],
		      v["rank"], v["vct"], v["share"], v["partition_pending"] }' | sort
}
json=$(printf '%s\n' "$JSON" | json_rows)
# the same rows computed from the SystemComments of the jobs
comments=$(printf '%s\n' "$SCTL" | awk '/SystemComment=ostrich/ {
		st = $0; sub(/.*JobState=/, "", st); sub(/ .*/, "", st)
		part = $0; sub(/.* Partition=/, "", part); sub(/[ ,].*/, "", part)
		c = $0; sub(/.*SystemComment=/, "", c); split(c, f, " ")
		delete s
		for (i in f) { split(f[i], kv, "="); s[kv[1]] = kv[2] }
		if (!("share" in s)) s["share"] = "null"	# view=own: none
		split(s["campaign"], uc, "/"); split(s["rank"], rp, "/")
		k = part " " uc[1] " " uc[2]
		if (st == "PENDING") { pend[k]++; if (!(k in rank) || rp[1] + 0 < rank[k]) rank[k] = rp[1] + 0 }
		else if (st == "RUNNING") run[k]++
		else next
		seen[k] = 1; vct[k] = s["vct"]; share[k] = s["share"]; np[k] = rp[2] }
	END { for (k in seen) print k, pend[k] + 0, run[k] + 0, rank[k] + 0, vct[k], share[k], np[k] }' |
	while read -r p u c pe ru ra v sh np; do
		# vct=none (the partition's virtual schedule is stalled: nothing
		# runs there) and vct=never (past year 9999) are JSON's null
		case $v in none|never) v=null ;; *) v=$(date -u -d "$v" +%s) ;; esac
		echo "$p $u $c $pe $ru $ra $v $sh $np"
	done | sort)
[ -n "$json" ] || fail "scampaign --json shows no campaign"
out=$(awk 'FNR == NR { want[$1 " " $2 " " $3] = $0; next }
	{ k = $1 " " $2 " " $3; n++
	  if (!(k in want)) { print "campaign " k " in scampaign, not in the SystemComments"; bad++; next }
	  split(want[k], w, " ")
	  if ($4 != w[4] || $5 != w[5] || $6 != w[6] || $7 != w[7] || $9 != w[9] || ($8 - w[8]) ^ 2 > 1e-8) {
		print "campaign " k ": scampaign " $0 ", SystemComments " want[k]; bad++ }
	  delete want[k] }
	END { for (k in want) { print "campaign " k " in the SystemComments, not in scampaign"; bad++ }
	      print "checked " n " campaigns of scampaign --json against the SystemComments, " bad + 0 " mismatches"; exit bad > 0 }' \
	<(printf '%s\n' "$comments") <(printf '%s\n' "$json")) || { printf '%s\n' "$out"; fail "scampaign --json differs from the SystemComments"; }
note "$out"
# the core's campaigns (ost-replay of the event log, run by check_ranks)
core=$(awk '$1 == "campaign" && $5 + $6 > 0 { print $2, $3, $4, $5, $6 }' "$WORK/replay.out" |
	while read -r p uid seq pe ru; do echo "$p $(id -un "$uid") $seq $pe $ru"; done | sort)
mine=$(printf '%s\n' "$json" | awk '{ print $1, $2, $3, $4, $5 }' | sort)
[ "$core" = "$mine" ] || { printf 'core:\n%s\nscampaign:\n%s\n' "$core" "$mine"; fail "scampaign's campaigns differ from the core's"; }
note "scampaign's $(printf '%s\n' "$mine" | wc -l) campaigns (partition user seq pending running) are the core's"
for u in alice bob carol; do
	grep -q "^debug $u " <<<"$json" || fail "no campaign of $u in partition debug"
done
grep -q "^other bob " <<<"$json" || fail "no campaign of bob in partition other"

# --- sprio ----------------------------------------------------------------
note "sprio -o '%i %r %u %Y %F %S' (job partition user PRIORITY FAIRSHARE SITE):"
printf '%s\n' "$SPRIO" | sed 's/^/#   /'
[ "$(printf '%s\n' "$SPRIO" | awk '{ print $1, $2, $4 }')" = "$QPRIO" ] ||
	{ printf 'squeue:\n%s\n' "$QPRIO"; fail "sprio's PRIORITY differs from squeue's priorities"; }
out=$(printf '%s\n' "$SPRION" | awk -v w=$WFS '
	{ n++; want = ($2 == "other") ? 1 : 1 / 3
	  if (($3 - want) ^ 2 > 1e-10) { print "job " $1 " in " $2 ": normalized FAIRSHARE " $3 ", want " want; bad++ } }
	END { print "checked the FAIRSHARE of " n " sprio rows, " bad + 0 " mismatches"; exit bad > 0 }') ||
	{ printf '%s\n' "$out"; fail "sprio -n FAIRSHARE is not the share of the partition"; }
note "$out"
# SITE: 0 on 22.05, where PRIORITY is a direct priority.  From 24.11 on,
# sprio shows every factor as 0 beside a direct priority, so the plugin
# leaves it unset and SITE carries PRIORITY - FAIRSHARE (truncated), which
# sprio adds up to PRIORITY (doc/slurm-versions.md, sprio).
site_rest=0
[ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ] && site_rest=1
printf '%s\n' "$SPRIO" | awk -v w=$WFS -v r=$site_rest '{ want = ($2 == "other") ? w : int(w / 3 + 0.5)
	site = r ? $4 - int((($2 == "other") ? 1 : 1 / 3) * w) : 0
	if ($5 != want || $6 != site) { print "bad sprio row: " $0 " (want FAIRSHARE " want ", SITE " site ")"; exit 1 } }' ||
	fail "sprio's FAIRSHARE is not share x $WFS, or SITE is not $([ $site_rest = 1 ] && echo 'PRIORITY - FAIRSHARE' || echo 0)"
[ "$(sprio -h -u bob -o %u | sort -u)" = bob ] || fail "sprio -u bob shows other users"
[ "$(sprio -h -j "$carol_last" -o '%i %r')" = "$carol_last debug" ] || fail "sprio -j $carol_last"
[ "$(sprio -h -p other -o '%i %r')" = "$bob_other other" ] || fail "sprio -p other shows $(sprio -h -p other -o '%i %r' | tr '\n' ' ')"
# An unknown job: 22.05 filters in slurmctld, so sprio gets no row and says
# so; 24.11+ filters in sprio after that test, so it prints no row at all.
if [ $site_rest = 1 ]; then
	[ -z "$(sprio -h -j 999999)" ] || fail "sprio -j of an unknown job shows rows"
else
	[ "$(sprio -j 999999)" = "Unable to find jobs matching user/id(s) specified" ] || fail "sprio -j of an unknown job"
fi
[ "$(as carol sprio -h -o %u | sort -u)" = carol ] || fail "carol sees other users' rows in sprio (PrivateData=jobs)"
[ -z "$(as carol sprio -h -u bob)" ] || fail "carol sees bob's rows with sprio -u bob"
# the share is a function of every active user's weight: operators only
as carol sprio -h -n -o %f | awk '{ n++ } $1 != 0 { bad++ } END { exit !n || bad }' ||
	fail "carol's sprio -n shows a FAIRSHARE other than 0 under PrivateData=jobs: $(as carol sprio -h -n -o '%i %f' | tr '\n' ' ')"
[ "$(sprio -h | wc -l)" = "$(printf '%s\n' "$QPRIO" | wc -l)" ] || fail "root does not see every pending job in sprio"
note "sprio: PRIORITY = squeue's priority, FAIRSHARE = share x $WFS (0 for carol under PrivateData=jobs); -u, -j, -p and PrivateData=jobs filter"

# --- scampaign --explain and permissions ------------------------------------
note "scampaign --explain $carol_last (root):"
printf '%s\n' "$ROOT_EXPLAIN" | sed 's/^/#   /'
crank=$(printf '%s\n' "$SCTL" | awk -v j="JobId=$carol_last" '$1 == j { sub(/.*SystemComment=[^ ]* [^ ]* rank=/, ""); sub(/ .*/, ""); print }')
# PrivateData=jobs: every summary is its owner's view (view=own, rank among
# the owner's own pending jobs; doc/summary.md), and one SystemComment is
# what everyone allowed to see the job reads, operators included, so root's
# --explain says what carol's says: her own jobs, nobody else's.
grep -q "^Job $carol_last of carol waits in partition debug: rank ${crank%/*} of carol's ${crank#*/} pending jobs there" <<<"$ROOT_EXPLAIN" ||
	fail "--explain does not give the rank ${crank} of the SystemComment"
grep -q "carol's campaign 1" <<<"$ROOT_EXPLAIN" || fail "--explain does not name carol's campaign"
grep -q 'how many wait ahead of it is not shown' <<<"$ROOT_EXPLAIN" ||
	fail "--explain does not say that other users' jobs ahead are private"
grep -Eq 'alice|bob' <<<"$ROOT_EXPLAIN" && fail "--explain names another user's campaign under PrivateData=jobs"
note "scampaign --explain $carol_last (carol, PrivateData=jobs):"
printf '%s\n' "$CAROL_EXPLAIN" | sed 's/^/#   /'
grep -q "^Job $carol_last of carol waits in partition debug: rank ${crank%/*} of carol's ${crank#*/} pending jobs there" <<<"$CAROL_EXPLAIN" ||
	fail "carol's --explain gives another rank"
grep -Eq 'alice|bob' <<<"$CAROL_EXPLAIN" && fail "carol's --explain names another user's campaign under PrivateData=jobs"
[ "$(printf '%s\n' "$CAROL_JSON" | json_rows | awk '{ print $2 }' | sort -u)" = carol ] ||
	fail "carol's scampaign --json shows other users' campaigns"
if as carol "$SC" --explain "$bob_first" > "$WORK/err.txt" 2>&1; then fail "carol may explain bob's job $bob_first"; fi
grep -q "job $bob_first not found (unknown, purged, or not visible to you)" "$WORK/err.txt" ||
	fail "carol explaining bob's job: $(cat "$WORK/err.txt")"
[ "$("$SC" --explain "$alice_run")" = "Job $alice_run (alice, campaign 1) is running." ] || fail "--explain of running job $alice_run"
note "carol sees only her campaign; other users' jobs ahead are neither shown nor counted"

# --- errors ---------------------------------------------------------------
if "$SC" --explain 999999 > "$WORK/err.txt" 2>&1; then fail "--explain of an unknown job succeeded"; fi
grep -q '^scampaign: error: job 999999 not found' "$WORK/err.txt" || fail "unknown job: $(cat "$WORK/err.txt")"
held=$(sub carol --hold -n 4 -t 1 --wrap 'sleep 1')
wait_passes
if "$SC" --explain "$held" > "$WORK/err.txt" 2>&1; then fail "--explain of held job $held succeeded"; fi
grep -q "^Job $held has no OStrich summary" "$WORK/err.txt" || fail "held job: $(cat "$WORK/err.txt")"
if "$SC" -o '%Z' > "$WORK/err.txt" 2>&1; then fail "a bad --format was accepted"; fi
grep -q '^scampaign: error: bad --format' "$WORK/err.txt" || fail "bad format: $(cat "$WORK/err.txt")"

# --- sdiag and the pass log -----------------------------------------------
sdiag > "$WORK/sdiag.txt"
awk '/^Main schedule statistics/ { m = 1 } /^Backfilling stats/ { b = 1 }
     m && /Total cycles:/ && !mc { mc = $3 } b && /Total cycles:/ { bc = $3 }
     END { exit !(mc > 0 && bc > 0) }' "$WORK/sdiag.txt" ||
	{ cat "$WORK/sdiag.txt"; fail "sdiag shows no main or backfill cycles"; }
grep -qi ostrich "$WORK/sdiag.txt" && fail "sdiag mentions ostrich (the guide says it cannot)"
grep -Eq 'ostrich: pass [0-9]+ took [0-9.]+ ms: [0-9]+ job records' "$WORK/log/slurmctld.log" ||
	fail "no pass line in slurmctld.log under DebugFlags=Priority"
note "sdiag: $(grep -A3 '^Main schedule' "$WORK/sdiag.txt" | grep 'Total cycles' | tr -s ' \t' ' ') main, $(grep -A5 '^Backfilling stats' "$WORK/sdiag.txt" | grep 'Total cycles' | tr -s ' \t' ' ') backfill"

# --- SystemComment=no: neither the submission nor a pass writes a line ------
cluster_cancel_all
ctld_stop TERM
printf 'Interval=1\nSystemComment=no\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
cluster_conf
ctld_start || fail "slurmctld did not restart with SystemComment=no"
nc=$(sub carol -n 4 -t 1 --wrap 'sleep 1')
wait_passes
grep -q 'ostrich campaign=' <<<"$(scontrol -o show job "$nc")" &&
	fail "SystemComment=no, yet job $nc has a summary line: $(scontrol -o show job "$nc")"
[ "$(squeue -h -j "$nc" -o %Q)" -gt 1 ] 2>/dev/null || [ -n "$(squeue -h -j "$nc" -t R)" ] ||
	fail "SystemComment=no: job $nc has priority $(squeue -h -j "$nc" -o %Q)"
note "SystemComment=no: job $nc ranked, no summary line"

# --- clusters without the engine ------------------------------------------
cluster_cancel_all
ctld_stop TERM
SCHED=sched/backfill PRIO=priority/ostrich
cluster_conf
ctld_start || fail "slurmctld did not restart with $SCHED + $PRIO"
"$SC" > "$WORK/out.txt" 2>&1 || fail "scampaign refuses sched/backfill + priority/ostrich: $(cat "$WORK/out.txt")"
ctld_stop TERM
SCHED=sched/backfill PRIO=priority/basic
cluster_conf
ctld_start || fail "slurmctld did not restart with $SCHED + $PRIO"
if "$SC" > "$WORK/err.txt" 2>&1; then fail "scampaign accepts a cluster without OStrich"; fi
grep -q '^scampaign: error: this cluster does not run OStrich (SchedulerType=sched/backfill, PriorityType=priority/basic' "$WORK/err.txt" ||
	fail "no OStrich: $(cat "$WORK/err.txt")"
note "$(cat "$WORK/err.txt")"
echo "PASS: SystemComment, scampaign (--json, --explain, permissions, errors), sprio and sdiag as documented"
