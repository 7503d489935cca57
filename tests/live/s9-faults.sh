#!/usr/bin/env bash
# s9-faults.sh - live scenario 9: a bad day.  20 users submit about 5,000
# short jobs (arrays included) in parallel while their owners update pending
# jobs (NumCPUs, TimeLimit, hold/release, whole arrays); an operator's
# foreign SystemComment text is on some jobs; slurmctld is killed with -9
# twice (once stopped by gdb in the middle of a pass) while jobs finish
# during the downtime; the state directory is read-only for a while.
# Asserts: no job lost; slurmctld never dies on its own; after recovery
# every pending priority follows the core's ranks; the foreign text
# survives; the failed saves are logged once, and their end; each user's
# work charged in the core (finish records of the event log) equals what
# Slurm allocated (CPUs x elapsed, bounded by the time limit) to within one
# second per job.  Jobs still pending or running at the end must be known to
# Slurm and to the core (not all 5,000 need to run within the time bound).
# SPDX-License-Identifier: GPL-2.0-or-later

NUSERS=20 ARRAYS=5 TASKS=40 SINGLES=50	# 20 x (5 x 40 + 50) = 5,000 jobs
TEST_USERS=$(for i in $(seq -w 1 $NUSERS); do printf 'fu%s ' "$i"; done)
export TEST_USERS
. "$OST_SRCDIR/tests/live/live-lib.sh"

command -v gdb >/dev/null || skip "gdb is not installed (the mid-pass kill needs it)"
[ -f "${OST_TEST_PLUGIN_BUILD:-}/job_submit_ostrich_test.so" ] ||
	fail "missing ${OST_TEST_PLUGIN_BUILD:-?}/job_submit_ostrich_test.so"

SCHED=sched/ostrich PRIO=priority/ostrich
RO_MOUNTED=0
ro_off() {
	if [ "$RO_MOUNTED" = 1 ]; then
		umount "$WORK/state" 2>/dev/null || umount -l "$WORK/state" 2>/dev/null || true
		RO_MOUNTED=0
	fi
}
# EXIT: stop the load (our own background jobs, by PID), unmount, then the
# common exit (which stops the cluster).  errexit off first: a failing
# command here must not skip live_exit and leave the daemons running.
s9_exit() {
	local rc=$? pids
	set +e
	touch "$WORK/stop" 2>/dev/null
	pids=$(jobs -p)
	[ -z "$pids" ] || kill $pids 2>/dev/null
	ro_off
	(exit $rc)
	live_exit
}
trap s9_exit EXIT

cluster_init
cp "$OST_TEST_PLUGIN_BUILD/job_submit_ostrich_test.so" "$WORK/plugins/"
printf 'Interval=2\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
cluster_conf "MinJobAge=3600
MaxJobCount=20000
MaxArraySize=1000
JobSubmitPlugins=ostrich_test"
cluster_start
note "cluster up: $NNODES nodes x $CPUS_PER_NODE CPUs, $NUSERS users, $WORK"
CTLD_PID=$(cat "$WORK/run/slurmctld.pid")
KILLS=0

# slurmctld is alive and is the one we started (it never dies on its own).
ctld_alive() {
	pid_alive "$CTLD_PID" && scontrol ping >/dev/null 2>&1 ||
		fail "slurmctld died on its own (pid $CTLD_PID)"
}

# ---------------------------------------------------------------- load ---
# The submitters and updaters stop at a pause (before a kill: slurmctld
# saves its own job_state every few seconds, and what it acknowledged but
# did not save is lost on kill -9 by Slurm itself): each acknowledges with
# a file, and goes on when the pause file is gone.
mkdir -p "$WORK/load"
paused() {
	local me=$1
	[ -e "$WORK/pause" ] || return 0
	touch "$WORK/load/ack.$me"
	while [ -e "$WORK/pause" ] && [ ! -e "$WORK/stop" ]; do sleep 0.2; done
	rm -f "$WORK/load/ack.$me"
}
# retry: a submission refused while slurmctld is away is tried again
submit_retry() {
	local u=$1 id
	shift
	for _ in $(seq 60); do
		[ -e "$WORK/stop" ] && return 1
		if id=$(sub "$u" "$@" 2>/dev/null) && [ -n "$id" ]; then
			echo "$id"
			return 0
		fi
		sleep 1
	done
	return 1
}
# ARRAYS arrays spread among SINGLES single jobs (one CPU, one in ten two).
submitter() {
	local u=$1 i k id
	for i in $(seq $((ARRAYS + SINGLES))); do
		paused "$u"
		[ -e "$WORK/stop" ] && break
		k=$((RANDOM % 10))
		if [ $((i % 11)) = 1 ] && [ "$i" -le $((ARRAYS * 11)) ]; then
			id=$(submit_retry "$u" --array=0-$((TASKS - 1)) -n 1 -t 2 \
				--wrap "sleep 0.$((RANDOM % 9 + 1))") || continue
			echo "array $id $TASKS" >> "$WORK/load/ids.$u"
		else
			id=$(submit_retry "$u" -n $([ $k = 0 ] && echo 2 || echo 1) -t 2 \
				--wrap "sleep $((RANDOM % 2)).$((RANDOM % 9 + 1))") || continue
			echo "single $id" >> "$WORK/load/ids.$u"
		fi
	done
	touch "$WORK/load/done.$u"
}
# Owners update their pending jobs: widen, shorten, hold then release, and
# a whole pending array at once.
updater() {
	local n=0 ok=0 u id op
	while [ ! -e "$WORK/load/subs-done" ] && [ ! -e "$WORK/stop" ]; do
		paused updater
		u=fu$(printf '%02d' $((RANDOM % NUSERS + 1)))
		op=$((n % 4))
		if [ $op = 3 ]; then
			id=$(squeue -h -u "$u" -t PD -o '%F %i' 2>/dev/null | awk 'index($2, "[") { print $1; exit }' || true)
		else
			id=$(squeue -h -u "$u" -t PD -o '%i' 2>/dev/null | grep -v '\[' | shuf -n 1 2>/dev/null || true)
		fi
		n=$((n + 1))
		[ -n "$id" ] || { sleep 0.3; continue; }
		case $op in
		0) as "$u" scontrol update jobid="$id" NumCPUs=2 >/dev/null 2>&1 && ok=$((ok + 1)) ;;
		1) as "$u" scontrol update jobid="$id" TimeLimit=1 >/dev/null 2>&1 && ok=$((ok + 1)) ;;
		2) as "$u" scontrol hold "$id" >/dev/null 2>&1 && ok=$((ok + 1))
		   sleep 0.5
		   as "$u" scontrol release "$id" >/dev/null 2>&1 || true ;;
		3) as "$u" scontrol update jobid="$id" NumCPUs=2 >/dev/null 2>&1 && ok=$((ok + 1)) ;;
		esac
		echo "$n $ok" > "$WORK/load/updates"
	done
}

# pause_load: stop the load, wait until slurmctld saved its job state after.
pause_load() {
	local t u
	touch "$WORK/pause"
	for u in $TEST_USERS; do
		wait_for 120 "[ -e '$WORK/load/ack.$u' ] || [ -e '$WORK/load/done.$u' ]" ||
			fail "submitter $u does not pause"
	done
	wait_for 60 "[ -e '$WORK/load/ack.updater' ] || [ -e '$WORK/load/subs-done' ]" ||
		fail "the updater does not pause"
	t=$(date +%s)
	wait_for 60 "[ \$(stat -c %Y '$WORK/state/job_state') -gt $t ]" ||
		fail "slurmctld did not save its job state"
}
resume_load() { rm -f "$WORK/pause"; }

# kill_ctld [gdb]: kill -9 slurmctld (with gdb: stopped inside a pass, at
# ost_sched_advance), let running jobs end while it is away, restart it.
kill_ctld() {
	local how=${1:-plain} down
	pause_load
	note "kill -9 slurmctld ($how) with $(n_running) jobs running, $(squeue -h -t PD -r | wc -l) pending"
	if [ "$how" = gdb ]; then
		timeout 300 gdb -p "$CTLD_PID" -batch -nx \
			-ex 'set pagination off' -ex 'break ost_sched_advance' \
			-ex 'continue' -ex 'bt 4' -ex "shell kill -9 $CTLD_PID" \
			> "$WORK/gdb.out" 2>&1 || true
		grep -q 'Breakpoint 1, .*ost_sched_advance' "$WORK/gdb.out" ||
			{ cat "$WORK/gdb.out"; fail "gdb did not stop slurmctld inside a pass"; }
		grep -q 'osl_pass' "$WORK/gdb.out" || { cat "$WORK/gdb.out"; fail "stopped outside the pass"; }
		wait_for 30 "! pid_alive $CTLD_PID" || fail "slurmctld survived kill -9"
		rm -f "$WORK/run/slurmctld.pid"
	else
		ctld_stop KILL
	fi
	KILLS=$((KILLS + 1))
	down=$(date +%s)
	# jobs are at most 2 s long: every job running now ends while down
	wait_for 60 "[ \$(( \$(date +%s) - $down )) -ge 5 ]" || true
	ctld_start || fail "slurmctld did not restart after kill $KILLS"
	CTLD_PID=$(cat "$WORK/run/slurmctld.pid")
	note "restarted after $(( $(date +%s) - down )) s down"
	# the engine restores a partition when it first meets it (the first
	# pass or submission), which on 24.11+ can come after the first ping
	wait_for 60 "[ \$(grep -c 'ostrich: partition debug restored from' '$WORK/log/slurmctld.log') -ge $KILLS ]" ||
		fail "the state file was not restored after kill $KILLS"
	resume_load
}

# quiet_check: no job may start or end (partition DOWN, running jobs over),
# then every pending priority must follow the core's ranks.
quiet_check() {
	scontrol update PartitionName=debug State=DOWN
	wait_for 120 '[ "$(n_running)" = 0 ]' || fail "running jobs do not end"
	as_release_all
	snapshot
	check_ranks
	note "$(printf '%s\n' "$PEND" | grep -c . || true) pending jobs checked against the core's ranks"
	scontrol update PartitionName=debug State=UP
}
# every held job is released: by its owner (an update loop may be cut) or
# by Slurm (a task requeued after the restart: launch_failed_requeued_held)
as_release_all() {
	local ids
	ids=$(squeue -h -t PD -o '%i %r' | awk 'tolower($2) ~ /held/ { print $1 }')
	[ -z "$ids" ] || scontrol release $ids 2>/dev/null || true
	[ -z "$ids" ] || wait_passes
}

# The queue builds while the partition is DOWN: how many jobs wait must not
# depend on how fast sbatch runs against how fast jobs end (under load the
# whole load could drain as fast as it comes).  Jobs go on arriving while
# it is down; it is UP again once the foreign text is written.
scontrol update PartitionName=debug State=DOWN
T0=$(date +%s)
for u in $TEST_USERS; do submitter "$u" & done
updater &
UPDATER=$!

# ---------------------------------------------- foreign SystemComment ---
# An operator's note through the test plugin on a few pending jobs, as a
# burst buffer would write one: the engine's line must sit next to it.  The
# partition is DOWN, so the chosen jobs are still pending when it is written.
wait_for 600 '[ "$(squeue -h -t PD | wc -l)" -ge 200 ]' || fail "jobs are not queued"
wait_passes
FOREIGN=
# the lowest priorities first: the jobs that wait longest
for id in $(squeue -h -t PD -S p -o '%i' | grep -v '[_[]' | head -60); do
	grep -q 'SystemComment=ostrich campaign=' <<<"$(scontrol show job "$id" 2>/dev/null)" || continue
	# a job may have started and ended meanwhile: the next one then
	scontrol update jobid="$id" AdminComment="ostrich-test:syscomment:$(date '+%x %X') burst_buffer/test: setup: note $id" \
		>/dev/null 2>&1 || continue
	FOREIGN="$FOREIGN$id "
	[ "$(wc -w <<<"$FOREIGN")" -lt 8 ] || break
done
[ "$(wc -w <<<"$FOREIGN")" -ge 4 ] || fail "could not write foreign SystemComment text on 4 jobs: '$FOREIGN'"
note "foreign SystemComment text on jobs $FOREIGN"
scontrol update PartitionName=debug State=UP

# ------------------------------------------------------------- faults ---
wait_for 300 "[ \$(cat '$WORK'/load/ids.* 2>/dev/null | wc -l) -ge $((NUSERS * (ARRAYS + SINGLES) / 3)) ]" ||
	fail "submissions too slow"
kill_ctld plain
ctld_alive

wait_for 300 "[ \$(cat '$WORK'/load/ids.* 2>/dev/null | wc -l) -ge $((NUSERS * (ARRAYS + SINGLES) * 2 / 3)) ]" ||
	fail "submissions too slow"
note "state directory read-only"
ro_start=$(date +%s)
nerr0=$(grep -c 'ostrich: cannot save' "$WORK/log/slurmctld.log" || true)
mount --bind "$WORK/state" "$WORK/state" || fail "cannot bind-mount the state directory"
RO_MOUNTED=1
# The remount fails with EBUSY while a file on the new mount is open for
# writing: slurmctld saves its own state in this directory every few
# seconds under this load.  Retry until no save is in progress.
wait_for 60 "mount -o remount,ro,bind '$WORK/state' 2>'$WORK/ro.err'" ||
	fail "cannot make the state directory read-only: $(cat "$WORK/ro.err")"
p0=$(n_passes)
wait_for 120 "[ \$(n_passes) -ge $((p0 + 8)) ] && [ \$(( \$(date +%s) - $ro_start )) -ge 20 ]" ||
	fail "passes stopped while the state directory was read-only"
nerr=$(( $(grep -c 'ostrich: cannot save' "$WORK/log/slurmctld.log" || true) - nerr0 ))
ro_off
note "read-only for $(( $(date +%s) - ro_start )) s, $(( $(n_passes) - p0 )) passes: $nerr 'cannot save' messages"
[ "$nerr" = 1 ] || fail "a read-only state directory logged $nerr 'cannot save' messages, not 1"
wait_for 60 "grep -q 'ostrich: state saved again after [0-9]* failed saves' '$WORK/log/slurmctld.log'" ||
	fail "the recovery of the saves is not logged"
note "$(grep -o 'ostrich: state saved again after [0-9]* failed saves' "$WORK/log/slurmctld.log" | tail -1)"
ctld_alive

wait_for 600 "[ \$(ls '$WORK'/load/done.* 2>/dev/null | wc -l) = $NUSERS ]" || fail "submitters did not finish"
touch "$WORK/load/subs-done"
wait "$UPDATER" || true
note "submitted in $(( $(date +%s) - T0 )) s; owner updates (tried ok): $(cat "$WORK/load/updates" 2>/dev/null)"
kill_ctld gdb
ctld_alive
quiet_check

# ---------------------------------------------------------- the end ---
# Let the queue run for a bounded time, then check everything at rest.
wait_for 180 '[ "$(n_queued)" = 0 ]' || note "still queued after 180 s: $(n_queued) records"
quiet_check
ctld_alive

# No job lost: every submitted job (each task of an array) is a record of
# Slurm, finished or still pending (the partition is down: none runs).
scontrol -o show job > "$WORK/jobs.final" 2>/dev/null || fail "scontrol show job failed"
cat "$WORK"/load/ids.* > "$WORK/ids.all"
out=$(awk '
	FNR == NR { if ($1 == "array") for (t = 0; t < $3; t++) want[$2 "_" t] = 1
		    else want[$2] = 1
		    n++; next }
	/^JobId=/ {
		for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v[k] = substr($i, length(k) + 2) }
		if (v["ArrayJobId"] != "" && v["ArrayTaskId"] != "") {
			s = v["ArrayTaskId"]; gsub(/[\[\]]/, "", s); sub(/%.*/, "", s)
			m = split(s, parts, ",")
			for (j = 1; j <= m; j++) {
				if (split(parts[j], r, "-") == 2) { for (t = r[1]; t <= r[2]; t++) have[v["ArrayJobId"] "_" t] = v["JobState"] }
				else have[v["ArrayJobId"] "_" parts[j]] = v["JobState"]
			}
		} else have[v["JobId"]] = v["JobState"]
		delete v }
	END { for (k in want) { tot++; if (!(k in have)) { lost++; if (lost < 10) print "lost: " k } else st[have[k]]++ }
	      printf "jobs: %d submitted,", tot; for (s in st) printf " %d %s", st[s], s; printf "; lost: %d\n", lost + 0
	      exit lost > 0 }' "$WORK/ids.all" "$WORK/jobs.final") || { printf '%s\n' "$out"; fail "jobs were lost"; }
note "$out"
TOTAL_JOBS=$(printf '%s\n' "$out" | sed -n 's/^jobs: \([0-9]*\) submitted.*/\1/p')
[ "${TOTAL_JOBS:-0}" -ge $((NUSERS * (ARRAYS * TASKS + SINGLES) * 9 / 10)) ] ||
	fail "only ${TOTAL_JOBS:-0} jobs submitted"

# The foreign text survived every pass and both kills, next to our line.
for id in $FOREIGN; do
	sc=$(scontrol show job "$id")
	grep -q "burst_buffer/test: setup: note $id" <<<"$sc" ||
		{ printf '%s\n' "$sc"; fail "job $id: foreign SystemComment text lost"; }
	grep -q "ostrich campaign=" <<<"$sc" ||
		{ printf '%s\n' "$sc"; fail "job $id: no OStrich summary next to the foreign text"; }
done
note "foreign SystemComment text kept on all $(wc -w <<<"$FOREIGN") jobs"

# EventLog holds every user's jobs: private to SlurmUser.
[ "$(stat -c %a "$WORK/events.log")" = 600 ] || fail "EventLog mode $(stat -c %a "$WORK/events.log"), not 600"
# Every finished job that ran has a finish record in the event log.
# Charged work per user: the core's (the last finish record of each job: a
# restored state may hear of a finish again; width from its start record,
# else its latest submit or update) against Slurm's.
out=$(awk '
	FNR == NR {
		if ($2 == "submit") { uid[$3] = $4; w[$3] = $5 }
		else if ($2 == "update") w[$3] = $4
		else if ($2 == "start" && NF >= 5 && $5 > 0) w[$3] = $5
		else if ($2 == "finish") { fin[$3] = 1; ch[$3] = w[$3] * $5; fu[$3] = uid[$3] }
		next }
	/^JobId=/ {
		for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v[k] = substr($i, length(k) + 2) }
		st = v["JobState"]; u = v["UserId"]; sub(/\(.*/, "", u)
		if (st != "PENDING" && st != "RUNNING" && v["StartTime"] != "Unknown" && v["StartTime"] != "None" && v["EndTime"] != "Unknown") {
			s0 = v["StartTime"]; e0 = v["EndTime"]; gsub(/[-T:]/, " ", s0); gsub(/[-T:]/, " ", e0)
			el = mktime(e0) - mktime(s0); if (el < 0) el = 0
			tl = v["TimeLimit"]
			if (tl ~ /^[0-9:]+$/) { m = split(tl, a, ":"); lim = (m == 3 ? a[1] * 3600 + a[2] * 60 + a[3] : a[1] * 60 + a[2]); if (el > lim) el = lim }
			key = (v["ArrayJobId"] != "" && v["ArrayTaskId"] != "") ? v["ArrayJobId"] * 4294967296 + v["ArrayTaskId"] : v["JobId"]
			key = sprintf("%.0f", key)
			if (!(key in fin)) { nofin++; if (nofin < 10) print "job " v["JobId"] " (" st ") ran, no finish record in the event log" }
			slurm[u] += v["NumCPUs"] * el; tol[u] += v["NumCPUs"]; nj++
		}
		delete v }
	END {
		for (k in fin) { byuid[fu[k]] += ch[k] }
		for (u in slurm) {
			cmd = "id -u " u; cmd | getline id; close(cmd)
			d = byuid[id] - slurm[u]; if (d < 0) d = -d
			if (d > tol[u]) { bad++; print "user " u ": core charged " byuid[id] " CPU-s, Slurm allocated " slurm[u] " (tolerance " tol[u] ")" }
			tc += byuid[id]; ts += slurm[u] }
		printf "charged work of %d finished jobs: core %.0f CPU-s, Slurm %.0f CPU-s, %d users off, %d jobs without a finish record\n", nj, tc, ts, bad, nofin
		exit (bad + nofin) > 0 }' "$WORK/events.log" "$WORK/jobs.final") ||
	{ printf '%s\n' "$out"; fail "charged work differs from what Slurm allocated"; }
note "$out"

ctld_alive
echo "PASS: ${TOTAL_JOBS} jobs, $KILLS kill -9 (one inside a pass), read-only state for a while: nothing lost, ranks and charges match, foreign text kept"
