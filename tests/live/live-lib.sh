# live-lib.sh - common part of the live scenarios (sourced by s*.sh).
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Environment (set by tests/live/Makefile.am): OST_LIVE (1: run; anything
# else: SKIP, the quick loop), OST_SRCDIR, OST_LIVE_PLUGINS,
# OST_PLUGIN_BUILD, OST_REPLAY, OST_SCAMPAIGN (s7), SLURM_PREFIX (empty: the
# system's Slurm).  The build tree may be private (mode 0700 above it): a
# test user runs only Slurm's clients and copies in $WORK/bin
# (LIVE_USER_BINS), and cluster_start checks that they can.  OST_LIVE_KEEP=1 keeps the scratch directory of passing
# scenarios too (it is always kept on failure).

set -euo pipefail
# So never pipe a command into grep -q to test its output: grep -q exits at
# the first match, a writer with more to write dies of SIGPIPE (141), and
# pipefail fails the pipeline at random (scampaign --metrics writes 6 KB
# in two writes: 49 of 300 such reads failed).  Read the output whole
# first: grep -q pattern <<<"$(cmd)".  (head -1 or tail -1 before grep -q
# is safe: one line, written once.)

TOP=100000000		# OSL_PRIO_TOP of plugins/lib/osl_prio.h
PRIO_LO=50000000	# OSL_PRIO_LO

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
note() { echo "# $*"; }

# The quick loop (make check) starts no daemon: the scenarios run only when
# asked (make check-live, or LIVE=1 / OST_LIVE=1; tools/test-all.sh asks).
[ "${OST_LIVE:-}" = 1 ] ||
	skip "live scenarios run only when asked: make check-live (root; tools/test-all.sh runs them)"
[ "${OST_LIVE_PLUGINS:-no}" = yes ] ||
	skip "the Slurm plugins are not built (configure found no Slurm source: run tools/get-slurm-source.sh, then configure --with-slurm-source=...)"
[ "$(id -u)" = 0 ] || skip "live tests start munged/slurmctld/slurmd and add test users: run as root"
PATH=$PATH:/usr/sbin:/sbin
# SLURM_PREFIX (configure's --with-slurm-prefix): that Slurm's daemons and
# clients (tools/cluster.sh), not the system's
[ -z "${SLURM_PREFIX:-}" ] || PATH=$SLURM_PREFIX/sbin:$SLURM_PREFIX/bin:$PATH
command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null ||
	skip "slurmctld, slurmd or munged not installed (tools/install-deps.sh)"
[ -x "$OST_REPLAY" ] || fail "missing $OST_REPLAY"
for f in sched_ostrich.so priority_ostrich.so libostrich_slurm.so; do
	[ -f "$OST_PLUGIN_BUILD/$f" ] || fail "missing $OST_PLUGIN_BUILD/$f"
done

# One cluster at a time on the same ports.  tests/live runs its scenarios
# one after the other (.NOTPARALLEL), so the wait is for another run's
# cluster on the same ports (a bench, a second test run): as long as its
# whole live suite may take on a loaded machine.  A run on
# other ports (CTLD_PORT, NODE_PORT_BASE: tools/cluster.sh) takes a lock
# of its own (or OST_LIVE_LOCK) and runs beside it: each cluster has its
# own scratch directory and munged.
if [ "${CTLD_PORT:-16817}.${NODE_PORT_BASE:-17001}" = 16817.17001 ]; then
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.lock}
else
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.${CTLD_PORT:-16817}.${NODE_PORT_BASE:-17001}.lock}
fi
exec 9>"$OST_LIVE_LOCK"
flock -w 10800 9 || fail "another live test held $OST_LIVE_LOCK for 3 hours"

. "$OST_SRCDIR/tools/cluster.sh"

LIVE_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "/tmp/ostrich-live-$LIVE_NAME.XXXXXX")
T_START=$(date +%s)

live_exit() {
	local rc=$?
	# every gated job ends, even one whose slurmd is gone
	[ -d "${WORK:-}/out" ] && touch "$WORK/out/gate.all"
	cluster_stop
	if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
		echo "--- last lines of $WORK/log/slurmctld.log"
		tail -25 "$WORK/log/slurmctld.log" 2>/dev/null || true
		echo "--- scratch directory kept: $WORK"
	elif [ "${OST_LIVE_KEEP:-0}" != 1 ]; then
		rm -rf "$WORK"
	fi
	echo "# $LIVE_NAME: $(( $(date +%s) - T_START )) s"
	exit $rc
}
trap live_exit EXIT

# live_start "OSTRICH_CONF_LINES" [SLURM_CONF_EXTRA]: start the cluster.
# LIVE_USER_BINS: programs of the build tree that test users run (as USER
# $WORK/bin/NAME): copied into the scratch directory, since the tree may
# be out of their reach (a clone in a 0700 directory).
LIVE_USER_BINS=
live_start() {
	cluster_init
	[ -z "$LIVE_USER_BINS" ] || cluster_user_bin $LIVE_USER_BINS >/dev/null
	printf '%s\nEventLog=%s\n' "$1" "$WORK/events.log" > "$WORK/ostrich.conf"
	cluster_conf "${2:-}"
	cluster_start
	note "cluster up: $SCHED + $PRIO, $NNODES nodes x $CPUS_PER_NODE CPUs, $WORK"
}

# need_accounting: SKIP (77), saying why, unless this Slurm's slurmdbd,
# sacctmgr, sacct and MySQL plugin and MariaDB are installed (ACCT=1).
need_accounting() {
	local f c
	if [ -n "${SLURM_PREFIX:-}" ]; then
		for f in sbin/slurmdbd bin/sacctmgr bin/sacct; do
			[ -x "$SLURM_PREFIX/$f" ] ||
				skip "no $f in $SLURM_PREFIX (tools/build-slurm.sh builds it when libmariadb-dev is installed)"
		done
	else
		for c in slurmdbd sacctmgr sacct; do
			command -v "$c" > /dev/null || skip "no $c (tools/install-deps.sh installs slurmdbd)"
		done
	fi
	[ -f "$STOCK_PLUGINDIR/accounting_storage_mysql.so" ] ||
		skip "no accounting_storage_mysql.so in $STOCK_PLUGINDIR (Slurm built without libmariadb-dev)"
	for c in mariadbd mariadb-install-db mariadb mariadb-admin; do
		command -v "$c" > /dev/null || skip "no $c (tools/install-deps.sh installs mariadb-server)"
	done
}

# Wait until CMD (a shell string) succeeds, up to SECONDS.
wait_for() {
	local secs=$1 cmd=$2 i
	for i in $(seq $((secs * 5))); do
		eval "$cmd" && return 0
		sleep 0.2
	done
	return 1
}

# Wait until the wall clock is in a later second than now.  Slurm's submit,
# start and end times have one-second resolution: what a scenario submits
# next must be seen as later than what came before.
next_second() {
	local s
	s=$(date +%s)
	wait_for 30 "[ \$(date +%s) -gt $s ]" || fail "the clock does not move"
}

# Jobs that run until the scenario opens their gate.  "$(gated NAME)" is a
# --wrap body that ends once open_gate NAME was called, so that "while these
# jobs run" lasts as long as the scenario needs, however slow the machine
# (their time limit still bounds them: a gate never opened is a failure
# within the limit).  The gate is a file in the shared out/ directory.
gated() { printf 'while [ ! -e %s/gate.%s ] && [ ! -e %s/gate.all ]; do sleep 0.2; done' "$WORK/out" "$1" "$WORK/out"; }
open_gate() { touch "$WORK/out/gate.$1"; }

# gdb_hold PID FILE:LINE FUNCTION: stop the slurmctld thread that reaches
# FILE:LINE (in FUNCTION) and keep it stopped, while slurmctld's other
# threads run (gdb's non-stop mode), until gdb_release.  gdb reads its
# commands from a FIFO, so that it handles the breakpoint between them; it
# never calls into slurmctld (an inferior call needs ptrace to write the
# extended register state, which some kernels refuse).  A gdb that
# outlives the test is ended by timeout (400 s), which makes it detach.
gdb_hold() {
	rm -f "$WORK/gdb.in"
	mkfifo "$WORK/gdb.in"
	timeout 400 gdb -nx -q < "$WORK/gdb.in" > "$WORK/gdb.out" 2>&1 &
	GDB_PID=$!
	exec 8> "$WORK/gdb.in"
	# (attach &: in non-stop mode the threads are not stopped at all, so
	# none can stay stopped by the attach, racing a later continue)
	printf '%s\n' 'set pagination off' 'set confirm off' 'set non-stop on' \
		'handle all nostop noprint pass' "attach $1 &" "break $2" >&8
	wait_for 120 "grep -q 'Breakpoint 1, ' '$WORK/gdb.out'" ||
		{ cat "$WORK/gdb.out"; fail "gdb did not stop a thread at $2"; }
	grep -q "$3" <<<"$(grep 'Breakpoint 1, ' "$WORK/gdb.out")" ||
		{ cat "$WORK/gdb.out"; fail "stopped outside $3()"; }
}

# hold_engine_save PID: gdb_hold slurmctld PID's engine thread where
# osl_save_all serializes a core with no lock held (a submission or an
# update meanwhile is deferred to the catch-up).
hold_engine_save() {
	local line
	line=$(grep -n 'int rc = ost_sched_save_with(' "$OST_SRCDIR/plugins/slurm/osl_save.c" | cut -d: -f1)
	[ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && [ -n "$line" ] ||
		fail "cannot find the serialization in osl_save_all() in plugins/slurm/osl_save.c"
	gdb_hold "$1" "osl_save.c:$line" osl_save_all
}

# gdb_release PID: let the held thread go, gdb detach from PID and quit.
gdb_release() {
	printf '%s\n' 'delete' 'detach' 'quit' >&8
	exec 8>&-
	wait "$GDB_PID" || { cat "$WORK/gdb.out"; fail "gdb failed"; }
	grep -q 'Detaching from program' "$WORK/gdb.out" || { cat "$WORK/gdb.out"; fail "gdb did not detach"; }
	pid_alive "$1" || fail "slurmctld died"
}

# passes logged so far in slurmctld.log (DebugFlags=Priority)
n_logged() { grep -c 'ostrich: pass [0-9]* took' "$WORK/log/slurmctld.log" || true; }
# the SystemComment of job $1 and what follows it, on one line (another
# writer's text starts a line of its own, which scontrol -o prints as is)
comment_of() { scontrol -o show job "$1" | tr '\n' '|' | sed -n 's/.*SystemComment=\(.*\)/\1/p'; }
n_running() { squeue -h -t R | wc -l; }
n_queued() { squeue -h | wc -l; }
n_passes() { grep -c ' pass ' "$WORK/events.log" 2>/dev/null || echo 0; }

# Wait for two more passes of the engine (priorities are current after).
wait_passes() {
	local p=$(n_passes)
	wait_for 60 "[ \$(n_passes) -ge $((p + 2)) ]" || fail "the engine does not run passes"
}

# Pending jobs "JOBKEY PRIORITY USER" (array tasks expanded as A_T), taken
# after two more passes and between two passes, so that they match the event
# log (callers pick moments when no job starts or ends).
PEND=
snapshot() {
	local p1 p2 end
	wait_passes
	end=$(( $(date +%s) + 120 ))	# tries until a read falls between
	while [ "$(date +%s)" -le "$end" ]; do	# two passes, 120 s at most
		p1=$(n_passes)
		PEND=$(squeue -h -r -t PD -o '%i %Q %u' | sort -n)
		p2=$(n_passes)
		[ "$p1" = "$p2" ] && return 0
		sleep 0.1
	done
	fail "no quiet moment between two passes"
}

# restart_same SIG: slurmctld stopped with SIG (TERM, KILL) and started
# again; the engine must restore its state file $STATE, and the pending
# jobs and priorities (a snapshot) must equal $before, the state replayed
# by ost-replay $WORK/state.before (both the caller's, taken before).
restart_same() {
	ctld_stop "$1"
	ctld_start || fail "slurmctld did not restart"
	# the engine meets the partition (and reads its state) at its first
	# pass or submission, which may come after slurmctld's first answer
	wait_for 60 'grep -q "ostrich: partition debug restored from $STATE" "$WORK/log/slurmctld.log"' ||
		fail "state not restored"
	snapshot
	[ "$PEND" = "$before" ] || { printf 'before:\n%s\nafter:\n%s\n' "$before" "$PEND"; fail "pending jobs or priorities changed across the restart"; }
	"$OST_REPLAY" --state "$STATE" > "$WORK/state.after" || fail "state file unreadable after the restart"
	diff "$WORK/state.before" "$WORK/state.after" || fail "campaigns or ranks changed across the restart"
}

# Check the priorities of the pending jobs (PEND) against the ranks the
# core computes from the event log, skipping the job ids in $1 (admin-set).
check_ranks() {
	local skip=" ${1:-} " out
	"$OST_REPLAY" "$WORK/events.log" > "$WORK/replay.out" || fail "ost-replay failed"
	# every pending job known to the core, as "PARTITION RANK PRIORITY
	# JOBKEY" (ranks are per partition; a job pending in several
	# partitions has one priority per partition, which squeue does not
	# show: only its range is checked)
	out=$(printf '%s\n' "$PEND" | awk -v skip="$skip" -v lo=$PRIO_LO -v top=$TOP '
		FNR == NR { if ($1 == "rank") { k = $4; g = k; sub(/_.*/, "", g);
			    if (!((g, $2) in best)) { np[g]++; part[g] = $2 }
			    if (!((g, $2) in best) || $3 + 0 < best[g, $2]) best[g, $2] = $3 + 0;
			    inrep[k] = 1; nrep++ } next }
		NF >= 2 { k = $1; g = k; sub(/_.*/, "", g);
			  if (index(skip, " " g " ")) { next }
			  seen[k] = 1
			  # priority 0: held (by its owner, an operator, or Slurm
			  # after a failed launch); the engine leaves it alone
			  # (ostrich.conf(5)) and drops it at its next pass
			  if ($2 == 0) { next }
			  if (!(g in np)) { print "job " k " pending in Slurm, unknown to the core"; next }
			  if ($2 < lo || $2 >= top) print "job " k ": priority " $2 " outside [" lo ", " top ")"
			  if (np[g] == 1) print part[g], best[g, part[g]], $2, k
			  else print "- 0 0 " k }
		END { for (k in inrep) if (!(k in seen)) { g = k; sub(/_.*/, "", g);
			    if (!index(skip, " " g " ")) print "job " k " ranked by the core, not pending in Slurm" } }
	' "$WORK/replay.out" - | sort -k1,1 -k2,2n -k4,4 | awk '
		/^job / { print; bad++; next }
		{ n++ }
		$1 == "-" { next }
		$1 == q && $2 == r && $3 != p { print "job " $4 ": priority " $3 ", job " k " of the same rank " r ": " p; bad++ }
		$1 == q && $2 != r && $3 >= p { print "job " $4 ": rank " $2 " in " $1 ", priority " $3 " not below " p " of job " k " (rank " r ")"; bad++ }
		{ q = $1; r = $2; p = $3; k = $4 }
		END { print "checked " n + 0 " pending jobs, " bad + 0 " mismatches"; exit bad > 0 }
	') || { printf '%s\n' "$out"; fail "priorities not in the order of the core's ranks"; }
	note "$out"
}

# The users of the pending jobs (PEND, from snapshot) in priority order,
# each once, must be WANT ("alice bob "); LABEL says under what.
check_user_order() {
	local order
	note "pending jobs (job priority user), $2:"
	printf '%s\n' "$PEND" | sed 's/^/#   /'
	order=$(printf '%s\n' "$PEND" | sort -k2,2nr | awk '{ print $3 }' | uniq | tr '\n' ' ')
	[ "$order" = "$1" ] || fail "$2: priority order by user is '$order', want '$1'"
}

# Every pending job's SystemComment names its user and a rank in the order
# of the priorities (format: the core's ost_summary_format).
check_comments() {
	local out
	out=$(scontrol -o show job | awk '
		/JobState=PENDING/ {
			id = $1; sub(/JobId=/, "", id)
			u = $0; sub(/.*UserId=/, "", u); sub(/\(.*/, "", u)
			p = $0; sub(/.* Priority=/, "", p); sub(/ .*/, "", p)
			c = $0; if (!sub(/.*SystemComment=/, "", c)) { print "job " id ": no SystemComment"; next }
			if (split(c, f, " ") < 6 || f[1] != "ostrich") { print "job " id ": bad SystemComment " c; next }
			cu = f[2]; sub(/campaign=/, "", cu); sub(/\/.*/, "", cu)
			r = f[3]; sub(/rank=/, "", r); sub(/\/.*/, "", r)
			if (cu != u) print "job " id ": SystemComment user " cu ", job of " u
			sc = f[1]; for (i = 2; i <= 6; i++) sc = sc " " f[i]
			if (f[6] !~ /^mode=/ || length(sc) >= 200) print "job " id ": SystemComment malformed or too long: " sc
			pt = $0; sub(/.* Partition=/, "", pt); sub(/ .*/, "", pt)
			# several partitions: the summary is the first one'"'"'s,
			# the priority the best of all
			if (index(pt, ",")) pt = "-"
			# PrivateData=jobs: the owner'"'"'s view, ranks among
			# the owner'"'"'s own pending jobs (doc/summary.md)
			else if (index(c, " view=own ")) pt = pt "/" u
			print pt, r, p, id }' | sort -k1,1 -k2,2n | awk '
		/^job / { print; bad++; next }
		{ n++ }
		$1 == "-" { next }
		$1 == q && $2 == r { print "jobs " k " and " $4 ": the same SystemComment rank " r " in " q; bad++ }
		$1 == q && $3 >= p { print "job " $4 ": SystemComment rank " $2 " in " $1 ", priority " $3 " not below " p " of rank " r; bad++ }
		{ q = $1; r = $2; p = $3; k = $4 }
		END { print "checked the SystemComment of " n + 0 " pending jobs, " bad + 0 " mismatches"; exit bad > 0 }') ||
		{ printf '%s\n' "$out"; fail "SystemComment inconsistent with the priorities"; }
	note "$out"
	note "e.g. $(scontrol -o show job | grep -m1 PENDING | sed 's/.*SystemComment=//; s/ [A-Z][A-Za-z]*=.*//')"
}

# Epoch seconds of a scontrol time (local time).
epoch() { [ "$1" = Unknown ] || [ "$1" = None ] && echo 0 || date -d "$1" +%s; }

# "JOBID USER SUBMIT START END STATE ELIGIBLE" of every job record (epoch
# seconds).
jobs_table() {
	scontrol -o show job | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
		u = v["UserId"]; sub(/\(.*/, "", u)
		print v["JobId"], u, v["SubmitTime"], v["StartTime"], v["EndTime"], v["JobState"], v["EligibleTime"] }' |
	while read -r id u s st e state el; do
		echo "$id $u $(epoch "$s") $(epoch "$st") $(epoch "$e") $state $(epoch "${el:-Unknown}")"
	done | sort -n
}

# Every job's submit/start/finish in the event log carries Slurm's own times:
# a job arrives at its submit time or when Slurm found it eligible
# (doc/semantics.md, 9.12; the two may be a second apart).
check_event_times() {
	local out
	out=$(jobs_table | awk '
		FNR == NR { if ($2 == "submit") sub_t[$3] = $8; else if ($2 == "start") st_t[$3] = $4;
			    else if ($2 == "finish") fin_t[$3] = $4; next }
		{ id = $1; n++
		  if (!(id in sub_t)) { print "job " id ": no submit event"; bad++; next }
		  if (sub_t[id] != $3 && sub_t[id] != $7) { print "job " id ": submit " sub_t[id] " vs SubmitTime " $3 ", EligibleTime " $7; bad++ }
		  if ($6 == "COMPLETED") {
			if (st_t[id] != $4) { print "job " id ": start " st_t[id] " vs StartTime " $4; bad++ }
			if (fin_t[id] != $5) { print "job " id ": finish " fin_t[id] " vs EndTime " $5; bad++ } } }
		END { print "checked the events of " n " jobs, " bad + 0 " mismatches"; exit bad > 0 }
	' "$WORK/events.log" -) || { printf '%s\n' "$out"; fail "event times differ from Slurm's"; }
	note "$out"
}

# Job ids in the order slurmctld started them (main scheduler or backfill).
start_order() {
	sed -n -e 's/.*sched: Allocate JobId=\([0-9_]*\)[ (].*/\1/p' \
	       -e 's/.*_start_job: \(HETJOB: \)\{0,1\}Started JobId=\([0-9_]*\)[ (].*/\2/p' \
		"$WORK/log/slurmctld.log" | tr '\n' ' '
}

# started_before "A B" "C D": every job of the first list started (in log
# order) before every job of the second.
started_before() {
	start_order | awk -v a=" $1 " -v b=" $2 " '
		{ for (i = 1; i <= NF; i++) { if (index(a, " " $i " ")) last_a = i
					      if (index(b, " " $i " ") && !first_b) first_b = i } }
		END { exit !(last_a && first_b && last_a < first_b) }'
}

# Wait until no job is queued, then until the engine has seen the ends.
wait_queue_empty() {
	wait_for "${1:-120}" '[ "$(n_queued)" = 0 ]' || { squeue; fail "jobs did not finish"; }
	wait_passes
}

# Billing units (semantics.md §19, s14 and s15), on a cluster of 4 nodes x
# 4 CPUs x 4 GPUs whose weights make a GPU worth 4 CPUs ($1: the
# ostrich.conf lines besides Charge=, e.g. the ChargeWeights): carol's
# gated job holds every node while alice queues 2 jobs of 1 CPU + 4 GPUs
# and bob 2 jobs of 4 CPUs, all with the same limit.  Charge=billing: 17
# units per job of alice's against 4 of bob's, so bob's campaign finishes
# first in the virtual schedule and all his jobs rank above hers, and the
# SystemComment says "width=17 unit=billing bill=cpu:1,gpu:4x4";
# Charge=cpu (scontrol reconfigure): 1 CPU against 4, the old order;
# back to billing, the jobs run, and the engine's start width of alice's
# jobs is 17.  Sets ALICE_JOBS, BOB_JOBS.
billing_scenario() {
	local conf=$1 blocker j c n

	blocker=$(sub carol -N 4 --exclusive -t 10 --wrap "$(gated block)")
	wait_for 120 '[ "$(n_running)" = 1 ]' || fail "carol's job $blocker did not start on all nodes"
	next_second
	ALICE_JOBS=$(for i in 1 2; do sub alice -n 1 --gres=gpu:4 -t 2 --wrap 'sleep 1'; done | tr '\n' ' ')
	BOB_JOBS=$(for i in 1 2; do sub bob -n 4 -t 2 --wrap 'sleep 1'; done | tr '\n' ' ')
	note "alice's jobs $ALICE_JOBS(1 CPU + 4 GPUs each), bob's $BOB_JOBS(4 CPUs each)"

	_billing_order "billing" "bob alice "
	for j in $ALICE_JOBS; do
		c=$(comment_of "$j")
		case $c in *" width=17 unit=billing bill=cpu:1,gpu:4x4"*) ;;
			*) fail "alice's job $j: SystemComment '$c' has not width=17 unit=billing bill=cpu:1,gpu:4x4" ;; esac
	done
	for j in $BOB_JOBS; do
		c=$(comment_of "$j")
		case $c in *" width=4 unit=billing bill=cpu:4"*) ;;
			*) fail "bob's job $j: SystemComment '$c' has not width=4 unit=billing bill=cpu:4" ;; esac
	done
	note "alice's: $(comment_of "${ALICE_JOBS%% *}" | tr '|' ' ')"
	# scampaign --explain and sprio's TRES column say it too; sprio's
	# PRIORITY is still the job's (24.11+ sums the TRES factor into it)
	if [ -x "${OST_SCAMPAIGN:-}" ]; then
		c=$("$OST_SCAMPAIGN" --explain "${ALICE_JOBS%% *}")
		grep -qx "Its width: 17 billing units: 1 CPU + 4 GPU × 4." <<<"$c" ||
			{ printf '%s\n' "$c"; fail "scampaign --explain does not give alice's width"; }
	fi
	for j in $ALICE_JOBS; do
		c=$(sprio -h -j "$j" -o '%i %Y %T')
		[ "$(awk '{ print $2, $3 }' <<<"$c")" = "$(squeue -h -j "$j" -o %Q) billing=17" ] ||
			fail "sprio of alice's job $j: '$c', want its priority $(squeue -h -j "$j" -o %Q) and billing=17"
	done
	note "sprio -o '%i %Y %T': $(sprio -h -j "${ALICE_JOBS%% *}" -o '%i %Y %T')"

	_billing_reconf "$conf" cpu
	_billing_order "cpu" "alice bob "
	c=$(comment_of "${ALICE_JOBS%% *}")
	case $c in *" width=1 unit=cpu"*) ;; *) fail "Charge=cpu: alice's SystemComment '$c' has not width=1 unit=cpu" ;; esac

	_billing_reconf "$conf" billing
	_billing_order "billing again" "bob alice "
	open_gate block
	wait_queue_empty 120
	for j in $ALICE_JOBS; do
		n=$(awk -v j="$j" '$2 == "start" && $3 == j { print $5 }' "$WORK/events.log" | tail -1)
		[ "$n" = 17 ] || fail "alice's job $j started $n billing units wide in the engine, want 17"
	done
	for j in $BOB_JOBS; do
		n=$(awk -v j="$j" '$2 == "start" && $3 == j { print $5 }' "$WORK/events.log" | tail -1)
		[ "$n" = 4 ] || fail "bob's job $j started $n units wide in the engine, want 4"
	done
}

# _billing_order LABEL WANT: the pending jobs' users in priority order
# (each user once) must be WANT; ranks and comments agree with the core.
_billing_order() {
	snapshot
	check_user_order "$2" "Charge=$1"
	check_ranks
	check_comments
}

# _billing_reconf CONF CHARGE: ostrich.conf with Charge=CHARGE, scontrol
# reconfigure, and wait until the engine says it took it.
_billing_reconf() {
	local before
	before=$(grep -c 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" || true)
	printf 'Interval=1\n%s\nCharge=%s\nEventLog=%s\n' "$1" "$2" "$WORK/events.log" > "$WORK/ostrich.conf"
	scontrol reconfigure || fail "scontrol reconfigure failed"
	wait_for 120 "[ \$(grep -c 'ostrich: reconfigured:.* Charge=$2 ' '$WORK/log/slurmctld.log' || true) -gt 0 ] &&
		[ \$(grep -c 'ostrich: reconfigured:' '$WORK/log/slurmctld.log' || true) -gt $before ]" ||
		fail "the engine did not take Charge=$2 at reconfigure"
	wait_passes
}

# need_accounting and Slurm's GPU plugin, then start 4 nodes x 4 CPUs x 4
# GPUs with accounting
# (ACCT=1) and TRESBillingWeights=CPU=1.0,GRES/gpu=4.0 on the partition,
# sched/ostrich + priority/ostrich, Interval=1 (s12, s14).
live_start_gpu_accounting() {
	need_accounting
	[ -f "$STOCK_PLUGINDIR/gres_gpu.so" ] || skip "no gres_gpu.so in $STOCK_PLUGINDIR"
	NNODES=4 GPUS_PER_NODE=4 ACCT=1
	PART_EXTRA="TRESBillingWeights=CPU=1.0,GRES/gpu=4.0"
	SCHED=sched/ostrich PRIO=priority/ostrich
	live_start "Interval=1"
	note "$(( $(date +%s) - T_START )) s to start; slurmdbd on port $DBD_PORT, MariaDB on port $DB_PORT (127.0.0.1)"
}
