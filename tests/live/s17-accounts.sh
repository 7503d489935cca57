#!/usr/bin/env bash
# s17-accounts.sh - live scenario 17: Hierarchy=accounts inside slurmctld
# (semantics.md §21, §23).  Account solo holds alice, account big holds
# bob, carol, dave and erin, at equal shares.  The partition is DOWN while
# every user submits 3 jobs of 1 CPU: alice's with a 4-minute limit, the
# others' with 2, so that alice's campaign is twice as large as each big
# user's.  Nested, alice holds half the partition and each big user an
# eighth: her campaign (720 CPU.s in V at rate 1/2) ends before theirs
# (360 at 1/8), and her three jobs rank 1-3.  Flat (Hierarchy=users),
# each holds a fifth: theirs end first, hers rank 13-15.  Ranks are read
# from the SystemComment (rank=, share=, account=) and the priorities;
# nested, scampaign --tree shows solo and big at half the partition each
# and alice with all of solo's, and --explain says so of her job.  Each
# time the priorities match the ranks ost-replay computes from the event
# log, which records the accounts, so that a nested run replays nested.
#   A: without slurmdbd, ostrich.conf's AccountWeights=, UserAccounts=;
#      flat, then nested after a restart; the account ids kept across
#      another restart (StateSaveLocation/ostrich_accounts); a live
#      Hierarchy change (scontrol reconfigure) kept out where slurmctld
#      reconfigures in place (22.05), applied with a rebuild where a
#      reconfigure restarts it (23.11+).
#   B: with slurmdbd + MariaDB of the harness: sacctmgr accounts solo and
#      big (Fairshare=1), jobs submitted with -A, Weights=assoc; flat, then
#      nested after a restart; then bob, given an association in solo
#      too, moves one of his pending jobs there with scontrol update
#      account= (solo is then shared by alice and bob's solo leaf, a
#      quarter each), and back.  SKIPs (77) after A when accounting is
#      missing.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol dave erin"
. "$OST_SRCDIR/tests/live/live-lib.sh"

BIG="bob carol dave erin"
SCHED=sched/ostrich PRIO=priority/ostrich

# ostrich.conf of part A (Hierarchy=$1)
conf_a() {
	printf 'Interval=1\nHierarchy=%s\nWeights=config\nAccountWeights=solo:1,big:1\nUserAccounts=alice:solo,bob:big,carol:big,dave:big,erin:big\nEventLog=%s\n' \
		"$1" "$WORK/events.log" > "$WORK/ostrich.conf"
}
# ostrich.conf of part B (Hierarchy=$1)
conf_b() {
	printf 'Interval=1\nHierarchy=%s\nWeights=assoc\nEventLog=%s\n' \
		"$1" "$WORK/events.log" > "$WORK/ostrich.conf"
}

# The partition DOWN now and after any restart of slurmctld (which takes
# partition states from slurm.conf).
part_down() {
	sed -i '/^PartitionName=debug /s/State=UP/State=DOWN/' "$SLURM_CONF"
	scontrol update PartitionName=debug State=DOWN
}

# submit_all SOLO_OPTS BIG_OPTS: 3 jobs per user, alice's 4 min, the
# others' 2 min.  Sets SOLO_JOBS, BIG_JOBS.
submit_all() {
	local u i
	SOLO_JOBS=$(for i in 1 2 3; do sub alice $1 -n 1 -t 4 --wrap 'sleep 1'; done | tr '\n' ' ')
	BIG_JOBS=$(for u in $BIG; do for i in 1 2 3; do sub "$u" $2 -n 1 -t 2 --wrap 'sleep 1'; done; done | tr '\n' ' ')
	note "alice's jobs $SOLO_JOBS(4 min); bob's, carol's, dave's, erin's $BIG_JOBS(2 min)"
}

# restart_ctld CONF_FN HIER: slurmctld stopped (TERM: it saves), ostrich.conf
# with Hierarchy=HIER, started again; returns after two passes.
restart_ctld() {
	local n
	n=$(grep -c "ostrich: engine configured: .* Hierarchy=$2 " "$WORK/log/slurmctld.log" || true)
	ctld_stop TERM
	"$1" "$2"
	ctld_start || fail "slurmctld did not restart"
	wait_for 60 "[ \$(grep -c 'ostrich: engine configured: .* Hierarchy=$2 ' '$WORK/log/slurmctld.log' || true) -gt $n ]" ||
		fail "the engine did not start with Hierarchy=$2"
	wait_passes
}

# field KEY TEXT: the value of KEY= in a SystemComment line
field() { sed -n "s/.* $1=\([^ |]*\).*/\1/p" <<<"$2"; }

# scampaign --tree (the usage snapshot): solo and big each hold half the
# partition, alice all of solo's half
tree_ok() {
	"$OST_SCAMPAIGN" --tree -h 2> /dev/null | awk '
		$1 == "solo" && $3 == "0.500000" && $4 == "0.500000" { s = 1 }
		$1 == "big" && $4 == "0.500000" { b = 1 }
		$1 == "alice" && $3 == "1.000000" && $4 == "0.500000" { a = 1 }
		END { exit !(s && b && a) }'
}

# bob's job moved to solo: alice and bob's solo leaf a quarter each
tree_moved() {
	"$OST_SCAMPAIGN" --tree -h 2> /dev/null | awk '
		$1 == "alice" && $4 == "0.250000" { a = 1 }
		$1 == "bob" && $4 == "0.250000" { b = 1 }
		END { exit !(a && b) }'
}

# scontrol update account= of a pending job (§23): bob moves his first
# job to solo, where it counts from the next pass (SystemComment, --tree,
# a cancel and a submission in the event log), then back to big.
check_moved() {
	local j=${BIG_JOBS%% *} c
	as bob scontrol update jobid="$j" account=solo || fail "bob could not move job $j to account solo"
	wait_passes
	c=$(comment_of "$j")
	[ "$(field account "$c")" = solo ] ||
		fail "job $j moved to solo ($(scontrol show job "$j" | grep -o 'Account=[^ ]*')): SystemComment '$c'"
	grep -q "^debug cancel $j " "$WORK/events.log" && grep -q "^debug submit $j " "$WORK/events.log" ||
		fail "job $j moved: no cancel and submission in the event log"
	if [ -x "$OST_SCAMPAIGN" ]; then
		wait_for 60 tree_moved || { "$OST_SCAMPAIGN" --tree; fail "job $j moved to solo: --tree does not show alice and bob at a quarter each"; }
		note "job $j of bob's moved to solo: $("$OST_SCAMPAIGN" --tree -h | awk '$1 == "alice" || $1 == "bob" { printf "%s %s; ", $1, $4 }')"
	fi
	as bob scontrol update jobid="$j" account=big || fail "bob could not move job $j back to big"
	wait_passes
	[ "$(field account "$(comment_of "$j")")" = big ] || fail "job $j moved back: not account=big"
	[ -x "$OST_SCAMPAIGN" ] && { wait_for 60 tree_ok || fail "job $j moved back: --tree does not show the halves again"; }
	return 0
}

# nested: --tree and --explain say the shares
check_inspect() {
	local e
	[ -x "$OST_SCAMPAIGN" ] || { note "scampaign not built: --tree not checked"; return 0; }
	wait_for 60 tree_ok || { "$OST_SCAMPAIGN" --tree; fail "$1: scampaign --tree does not show solo and big at half each"; }
	"$OST_SCAMPAIGN" --tree | sed 's/^/#   /'
	e=$("$OST_SCAMPAIGN" --explain "${SOLO_JOBS%% *}") || fail "$1: scampaign --explain failed"
	grep -q "^Account solo has 50% of partition [a-z]* now; alice has 100% of the account's share\.$" <<<"$e" ||
		{ printf '%s\n' "$e"; fail "$1: scampaign --explain does not say solo's share"; }
}

# check_shape nested|flat LABEL: alice's jobs rank 1-3 and above every big
# user's job (nested: she holds half), or 13-15 and below them all (flat:
# a fifth); her share= is 0.50 or 0.20; nested, each job's account= is its
# account.  Priorities follow the same order.
check_shape() {
	local shape=$1 label=$2 j c r ranks="" want share want_share acct
	snapshot
	check_ranks
	wait_passes	# comments of the pass the snapshot saw
	for j in $SOLO_JOBS; do
		c=$(comment_of "$j")
		r=$(field rank "$c")
		ranks="$ranks${r%%/*} "
		share=$(field share "$c")
		acct=$(field account "$c")
		[ "$shape" = flat ] || [ "$acct" = solo ] ||
			fail "$label: alice's job $j: SystemComment '$c' has not account=solo"
		[ "$shape" = nested ] || [ -z "$acct" ] ||
			fail "$label: alice's job $j: SystemComment '$c' names an account under Hierarchy=users"
	done
	for j in $BIG_JOBS; do
		c=$(comment_of "$j")
		acct=$(field account "$c")
		[ "$shape" = flat ] || [ "$acct" = big ] ||
			fail "$label: job $j: SystemComment '$c' has not account=big"
	done
	ranks=$(tr ' ' '\n' <<<"$ranks" | grep . | sort -n | tr '\n' ' ')
	if [ "$shape" = nested ]; then want="1 2 3 "; want_share=0.50; else want="13 14 15 "; want_share=0.20; fi
	note "$label: alice's ranks $ranks(of 15), share=$share; a big user's job: $(comment_of "${BIG_JOBS%% *}" | sed 's/ *StdErr=.*//; s/|.*//')"
	[ "$ranks" = "$want" ] || fail "$label: alice's jobs rank $ranks, want $want"
	[ "$share" = "$want_share" ] || fail "$label: alice's share=$share, want $want_share"
	# priorities: all of alice's above (nested) or below (flat) all others
	printf '%s\n' "$PEND" | awk -v shape="$shape" '
		$3 == "alice" { if (!amin || $2 < amin) amin = $2; if ($2 > amax) amax = $2; next }
		{ if (!bmin || $2 < bmin) bmin = $2; if ($2 > bmax) bmax = $2 }
		END { if (shape == "nested") exit !(amin > bmax); exit !(amax < bmin) }' ||
		{ printf '%s\n' "$PEND" | sed 's/^/#   /'; fail "$label: priorities not in the $shape order"; }
	[ "$(printf '%s\n' "$PEND" | grep -c .)" = 15 ] ||
		{ printf '%s\n' "$PEND"; fail "$label: not 15 pending jobs"; }
	[ "$shape" = flat ] || check_inspect "$label"
}

# §23: an account ostrich.conf does not give its user (Slurm takes any -A
# without slurmdbd) counts as the user's own: erin's jobs naming x1, x2
# and x3 count in big, no id is given to the names, the halves stay, and
# each refusal is logged once.  (Counted, each name would be an account
# of its own under the root: solo and big at a fifth each.)
check_made_up() {
	local j jobs="" a c n
	for a in x1 x2 x3; do
		jobs="$jobs$(sub erin -A "$a" -n 1 -t 2 --wrap 'sleep 1') "
	done
	wait_passes
	for j in $jobs; do
		c=$(comment_of "$j")
		[ "$(field account "$c")" = big ] ||
			fail "erin's job $j names $(scontrol show job "$j" | grep -o 'Account=[^ ]*'): SystemComment '$c' has not account=big"
	done
	if [ -x "$OST_SCAMPAIGN" ]; then
		wait_for 60 tree_ok || { "$OST_SCAMPAIGN" --tree; fail "erin named accounts x1-x3: scampaign --tree does not show solo and big at half each"; }
	fi
	! grep -q 'x[123]' "$TABLE" || fail "made-up accounts in the account table: $(tr '\n' ' ' < "$TABLE")"
	for a in x1 x2 x3; do
		n=$(grep -c "names account $a, which UserAccounts= does not give the user" "$WORK/log/slurmctld.log" || true)
		[ "$n" = 1 ] || fail "the refusal of account $a logged $n times, want once"
	done
	scancel $jobs
	wait_passes
	note "erin's jobs $jobs naming x1-x3 counted in big; the table: $(tr '\n' ' ' < "$TABLE")"
}

# ------------------------------------------------ A: without slurmdbd ---
cluster_init
conf_a users	# after cluster_init, which empties ostrich.conf
cluster_conf ""
cluster_start
note "cluster up (part A, no slurmdbd), $WORK"
grep -q 'ostrich: engine configured: .* Hierarchy=users ' "$WORK/log/slurmctld.log" ||
	fail "the engine did not start with Hierarchy=users"
part_down
submit_all "" ""
check_shape flat "A, Hierarchy=users"

restart_ctld conf_a accounts
# the flat state file cannot become nested: rebuilt from the job records,
# as planned (§23): logged at info, not as an error
grep -q '] ostrich: state file .* was saved under Hierarchy=users, now Hierarchy=accounts: rebuilding partition debug' "$WORK/log/slurmctld.log" ||
	fail "the restart with Hierarchy=accounts did not rebuild the flat schedule: $(grep 'ostrich: state file' "$WORK/log/slurmctld.log")"
! grep -q 'error: ostrich: state file .*refused' "$WORK/log/slurmctld.log" ||
	fail "the planned rebuild is logged as an error"
check_shape nested "A, Hierarchy=accounts"

# the ids survive a restart, and the nested schedule with them
TABLE=$WORK/state/ostrich_accounts
wait_for 60 "[ -s '$TABLE' ]" || fail "no account table $TABLE"
cp "$TABLE" "$WORK/accounts.before"
note "account table: $(tr '\n' ' ' < "$TABLE")"
restart_ctld conf_a accounts
cmp -s "$TABLE" "$WORK/accounts.before" ||
	{ diff "$WORK/accounts.before" "$TABLE"; fail "account ids changed across the restart"; }
grep -q "ostrich: account table $TABLE: 2 accounts" "$WORK/log/slurmctld.log" ||
	fail "the account table was not read at the restart"
# the nested schedule is saved (state version 2) and restored
! grep -q 'ostrich: .*ostrich_state.debug not saved' "$WORK/log/slurmctld.log" ||
	fail "the nested schedule was not saved: $(grep 'not saved' "$WORK/log/slurmctld.log" | tail -1)"
[ "$(grep -c 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log")" -ge 1 ] ||
	fail "the nested schedule was not restored at the restart"
note "$(grep 'ostrich: partition debug restored from' "$WORK/log/slurmctld.log" | tail -1 | sed 's/.*ostrich: //')"
head -1 "$WORK/state/ostrich_state.debug" | grep -q ' 2$' ||
	fail "the state file is not version 2: $(head -1 "$WORK/state/ostrich_state.debug")"
check_shape nested "A, Hierarchy=accounts after a restart"
check_made_up

# a live change of Hierarchy
before=$(grep -c 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" || true)
conf_a users
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for 120 "[ \$(grep -c 'ostrich: reconfigured:' '$WORK/log/slurmctld.log' || true) -gt $before ]" ||
	fail "the engine did not reconfigure"
wait_passes
if grep -q 'ostrich: reconfigure: Hierarchy=users cannot change while slurmctld runs' "$WORK/log/slurmctld.log"; then
	check_shape nested "A, reconfigured to Hierarchy=users in place: kept"
else
	check_shape flat "A, reconfigured to Hierarchy=users by a restart"
fi
scancel $SOLO_JOBS $BIG_JOBS

# ------------------------------------------------ B: with slurmdbd ------
( need_accounting ) > "$WORK/need.out" 2>&1 || {
	cat "$WORK/need.out"
	echo "PASS (part A only): ostrich.conf accounts: alice alone in solo ranks 1-3 nested, 13-15 flat; ids kept across a restart"
	exit 77
}
cluster_stop
rm -rf "$WORK/state" "$WORK/events.log"
ACCT=1
cluster_init
conf_b users
cluster_conf ""
cluster_start
note "cluster up (part B, slurmdbd on port $DBD_PORT), $(( $(date +%s) - T_START )) s in"
sacctmgr -i add account solo,big cluster=ostrich Fairshare=1 > /dev/null ||
	fail "sacctmgr add account failed"
sacctmgr -i add user alice account=solo cluster=ostrich > /dev/null ||
	fail "sacctmgr add user alice failed"
sacctmgr -i add user "$(tr ' ' , <<<"$BIG")" account=big cluster=ostrich > /dev/null ||
	fail "sacctmgr add users to big failed"
wait_for 120 "grep -q 'UserName=erin' <<<\"\$(scontrol show assoc_mgr flags=assoc users=erin accounts=big 2>/dev/null)\"" ||
	fail "slurmctld does not know erin in account big"
sacctmgr -n -P show assoc cluster=ostrich format=account,user,fairshare | sed 's/^/#   assoc: /'
part_down
submit_all "-A solo" "-A big"
check_shape flat "B, slurmdbd, Hierarchy=users"
restart_ctld conf_b accounts
check_shape nested "B, slurmdbd, Hierarchy=accounts"
# without accounting Slurm keeps no account to move a job to: with it
sacctmgr -i add user bob account=solo cluster=ostrich > /dev/null ||
	fail "sacctmgr add user bob to solo failed"
wait_for 120 "grep -q 'UserName=bob' <<<\"\$(scontrol show assoc_mgr flags=assoc users=bob accounts=solo 2>/dev/null)\"" ||
	fail "slurmctld does not know bob in account solo"
check_moved
check_shape nested "B, after the move and back"
echo "PASS: accounts solo (alice) and big (4 users) at equal shares: alice's campaign, twice a big user's, ranks 1-3 nested (half the partition, share=0.50) and 13-15 flat (a fifth, share=0.20), through ostrich.conf and through slurmdbd's Fairshare with -A; account ids kept across a restart; a pending job moved by scontrol update account= counts in its new account from the next pass"
