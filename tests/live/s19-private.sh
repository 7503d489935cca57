#!/usr/bin/env bash
# s19-private.sh - live scenario 19: what scampaign's views show, and to
# whom.  Hierarchy=users (the default), Interval=10.
#   1. dave ran one job before a restart of slurmctld and is idle since;
#      alice fills the cluster and queues more, bob only queues: --tree
#      lists alice and bob as active with shares summing to 1, dave by
#      name as idle with no share, and ostrich_user_share_ratio says the
#      same (dave 0);
#   2. right after a pass, carol submits: until the next pass the table
#      mixes no share or completion time of the submission with the
#      pass's (her row has no rank, completion or share yet), counts her
#      job as not yet ranked, and root's --explain never says that a job
#      is invisible to root;
#   3. PrivateData=accounts,jobs (scontrol reconfigure): the snapshot is
#      0600, alice can neither read it nor see bob, carol or dave in any
#      scampaign view; root still sees them, and --metrics (what
#      etc/ostrich-metrics.service publishes) has no per-user series
#      unless --per-user is given.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol dave"
. "$OST_SRCDIR/tests/live/live-lib.sh"

[ -x "${OST_SCAMPAIGN:-}" ] || skip "scampaign is not built (configure found no libslurm headers)"
LIVE_USER_BINS=$OST_SCAMPAIGN
SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=10
ThinkTime=60"
SC=$WORK/bin/scampaign
SNAP=$WORK/state/ostrich_usage
# an assertion that fails says so and the scenario goes on, so that one run
# tells every defect
BAD=0
soft() { echo "FAIL: $*"; BAD=1; }

# --- 1. the flat tree -------------------------------------------------------
d=$(sub dave -n 1 -t 1 --wrap 'sleep 1')
wait_for 60 "[ -z \"\$(squeue -h -j $d 2>/dev/null)\" ]" || fail "dave's job $d did not end"
wait_passes
wait_for 30 "grep -q '^user .*uid=$(id -u dave) ' '$SNAP'" || fail "dave is not in the snapshot"
ctld_stop TERM
ctld_start || fail "slurmctld did not restart"
for i in 1 2; do sub alice -n 4 -t 5 --wrap "$(gated a1)" >/dev/null; done
for i in $(seq 10); do sub alice -n 4 -t 5 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
for i in 1 2; do sub bob -n 4 -t 1 --wrap 'sleep 1' >/dev/null; done
wait_passes
wait_passes	# the snapshot: at most once per Interval
TREE=$("$SC" --tree)
note "scampaign --tree:"
printf '%s\n' "$TREE" | sed 's/^/#   /'
# rows "USER NORMSHARES PARTSHARE ACTIVE" of partition debug
rows=$(printf '%s\n' "$TREE" | awk '/^Partition debug/ { p = 1; next } /^Partition/ { p = 0 }
	p && NF == 4 && $1 != "root" && $1 != "Account" { print }')
for u in alice bob; do
	awk -v u=$u '$1 == u && $4 == "yes" { f = 1 } END { exit !f }' <<<"$rows" ||
		soft "--tree: $u is not listed as active"
done
awk '$1 == "dave" && $2 == "-" && $3 == "-" && $4 == "no" { f = 1 } END { exit !f }' <<<"$rows" ||
	soft "--tree: dave is not listed by name as idle with no share"
awk '$1 ~ /^[0-9]+$/ { exit 1 }' <<<"$rows" || soft "--tree shows a user as a uid"
awk '$4 == "yes" { s += $3 } END { exit !((s - 1) ^ 2 < 1e-8) }' <<<"$rows" ||
	soft "--tree: the active users' shares do not sum to 1"
MET=$("$SC" --metrics | grep '^ostrich_user_share_ratio{partition="debug"')
note "$(printf '%s\n' "$MET" | tr '\n' ' ')"
printf '%s\n' "$MET" | awk '{ s += $2 } /user="dave"/ && $2 != 0 { bad = 1 }
	END { exit bad || !((s - 1) ^ 2 < 1e-8) }' ||
	soft "ostrich_user_share_ratio: not 1 in all, or dave's is not 0"
note "--tree and ostrich_user_share_ratio: alice and bob active, summing to 1; dave idle"

# --- 2. between two passes ----------------------------------------------------
ok=
for try in 1 2 3; do
	p=$(n_passes)
	wait_for 60 "[ \$(n_passes) -gt $p ]" || fail "no pass"
	p1=$(n_passes)
	cj=$(sub carol -n 4 -t 1 --wrap 'sleep 1')
	TABLE=$("$SC")
	EXPL=$(for j in $(squeue -h -t PD -p debug -o %i); do "$SC" --explain "$j" || true; done)
	[ "$(n_passes)" = "$p1" ] && { ok=1; break; }
	scancel "$cj"
done
[ -n "$ok" ] || fail "no read between two passes in 3 tries"
note "scampaign, right after carol's job $cj (before the next pass):"
printf '%s\n' "$TABLE" | sed 's/^/#   /'
note "scampaign --explain of every pending job (root):"
printf '%s\n' "$EXPL" | sed 's/^/#   /'
# carol's only line is her submission's: no rank, completion or share of
# that moment beside the others' of the pass
awk '$1 == "debug" && $2 == "carol" && $7 == "-" && $8 == "-" && $9 == "-" { f = 1 } END { exit !f }' <<<"$TABLE" ||
	soft "the table mixes carol's submission line (rank, completion, share) with the pass's"
grep -q '1 job submitted since the last pass, not yet ranked' <<<"$TABLE" ||
	soft "the table does not count carol's job as not yet ranked"
grep -q 'not visible to you' <<<"$EXPL" && soft "root is told that jobs are not visible to it"
note "between two passes: no submission line mixed in, carol's job counted as not yet ranked"
# jobs ahead at the pass that started since: not listed, never "not
# visible" to root (two of alice's end, bob's two start at once)
p=$(n_passes)
wait_for 60 "[ \$(n_passes) -gt $p ]" || fail "no pass"
p1=$(n_passes)
open_gate a1
wait_for 8 '[ -z "$(squeue -h -u bob -t PD)" ]' || true
aj=$(squeue -h -u alice -t PD -o %i | sort -n | head -1)
X=$("$SC" --explain "$aj" || true)
if [ "$(n_passes)" = "$p1" ] && [ -z "$(squeue -h -u bob -t PD)" ]; then
	note "scampaign --explain $aj (root), bob's jobs started since the pass:"
	printf '%s\n' "$X" | sed 's/^/#   /'
	grep -q 'not visible to you' <<<"$X" && soft "root is told that the jobs that started are not visible to it"
else
	note "a pass came before bob's jobs started: the started-since read is skipped"
fi

# --- 3. PrivateData=accounts,jobs ------------------------------------------
cluster_conf "PrivateData=accounts,jobs"
scontrol reconfigure || fail "scontrol reconfigure"
wait_passes
wait_for 30 "[ \"\$(stat -c %a '$SNAP')\" = 600 ]" ||
	soft "PrivateData=accounts,jobs: $SNAP has mode $(stat -c %a "$SNAP")"
as alice cat "$SNAP" >/dev/null 2>&1 && soft "alice can read $SNAP"
aj=$(squeue -h -u alice -t PD -o %i | head -1)
out=$(for v in "" --tree --usage --metrics "--usage --json" "--explain $aj"; do
	# shellcheck disable=SC2086
	as alice "$SC" $v 2>&1 || true; done)
note "alice's views:"
printf '%s\n' "$out" | sed 's/^/#   /'
grep -Eq 'bob|carol|dave' <<<"$out" && soft "alice sees other users under PrivateData=accounts,jobs"
# (outputs are read whole before a match: grep -q stops at the first, and
# under pipefail the writer's SIGPIPE would fail the check, live-lib.sh)
T=$("$SC" --tree 2>&1) || soft "root's --tree failed: $T"
grep -q ' bob ' <<<"$T" || soft "root's --tree does not show bob"
M=$("$SC" --metrics 2>&1) || soft "root's --metrics failed: $M"
grep -q 'user=' <<<"$M" && soft "--metrics has per-user series under PrivateData"
M=$("$SC" --metrics --per-user 2>&1) || soft "root's --metrics --per-user failed: $M"
grep -q 'ostrich_user_share_ratio{partition="debug",user="bob"}' <<<"$M" ||
	soft "--metrics --per-user lacks bob's share"
note "PrivateData=accounts,jobs: the snapshot is 0600, alice sees only her own, --metrics no users"
open_gate alice
open_gate a1
[ $BAD = 0 ] || fail "see the FAIL lines above"
echo "PASS: --tree in Hierarchy=users, views between passes, PrivateData"
