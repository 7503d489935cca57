#!/usr/bin/env bash
# plugin-overhead.sh - part 3 of the benchmarks (`make bench-plugin`, and
# `make bench-plugin-scale` at 100k jobs): the cost of sched/ostrich +
# priority/ostrich in a real slurmctld against the stock sched/backfill +
# priority/basic, on the same job set.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage (as root): OST_SRCDIR=... OST_PLUGIN_BUILD=.../plugins/.libs \
#                  plugin-overhead.sh > plugin.md
#
# For each configuration it starts the local cluster of the live tests
# (tools/cluster.sh: munged + slurmctld + NNODES slurmd on loopback), with
# the partition DOWN submits the same NJOBS jobs from NUSERS users
# (user i, job j: 1 CPU and a run time of 20-80 s fixed by i and j; far
# more than the 32 CPUs can run, so most stay pending; one CPU each so that
# both policies start jobs at the same rate, whatever order they pick:
# with mixed sizes ostrich's largest-first order ran fewer, larger jobs,
# hence fewer job-end triggered cycles), brings the
# partition UP, lets it settle for SETTLE seconds, resets sdiag (sdiag -r)
# and measures over WINDOW seconds of wall time:
#   - sdiag "Main schedule statistics": cycles, mean and max cycle (µs),
#     mean depth; "Backfilling stats": cycles and mean cycle; jobs started;
#   - the ostrich pass times logged under DebugFlags=Priority
#     ("ostrich: pass N took X ms: ... P priorities changed ...; job read
#     lock held R ms ...; job write lock held W ms ..."), sched/ostrich
#     only: total (lock waits included), time holding the job read lock
#     (first half) and the job write lock (second half), and priorities
#     written per pass.
# Jobs run and end during the window, so both configurations see starts,
# ends and the triggers that come with them.  Every daemon is stopped by
# PID at the end (cluster_stop); the cluster lock /tmp/ostrich-live.lock
# (shared with the live tests and the demo) is held throughout.
#
# Around that window, for the scale targets (same run, same job set):
#   - sbatch throughput, jobs slurmctld accepted (sdiag "Jobs submitted")
#     per second of wall time: the fill (0 -> NJOBS pending, partition
#     DOWN) and, after the window, STORMS storms of STORM more jobs each,
#     one after the other (the r-th with NJOBS + (r - 1) x STORM submitted,
#     less the jobs started), partition UP (the median storm's rate);
#     one submitter for both: SUBMIT_PAR
#     users at a time, one sbatch at a time each (as users do);
#   - slurmctld's VmRSS (/proc/PID/status) before and after the fill and
#     at the end, and VmHWM;
#   - the longest "job write lock held" of the ostrich passes (and,
#     for information, the longest "job read lock held") during the fill, in
#     the window and over the whole run, against the longest main cycle of
#     the stock configuration (sdiag "Max cycle": before the window, read
#     just before `sdiag -r`, in the window, and after it).
#
# Output: a markdown section on stdout, progress on stderr.  Environment:
# NJOBS (10000), NUSERS (50), WINDOW (240), SETTLE (30), MAXJOBS
# (MaxJobCount, 100000), STORM (jobs of a storm after the window; 0: no
# storm), STORMS (storms one after the other, the median's rate kept: 1),
# SUBMIT_PAR (users submitting at once, 5), OST_CONF (lines of
# ostrich.conf; default: empty, i.e. the defaults an admin gets), CONFIGS
# ("stock ostrich"; "nocomment" adds sched/ostrich + priority/ostrich with
# SystemComment=no, what the per-job line costs), KEEP_WORK (1: keep the
# scratch directories),
# OST_PLUGIN_COMMIT (the commit the plugins were built from, for the
# report; default: that of OST_SRCDIR), BENCH_TARGET (the make target, for
# the title: bench-plugin or bench-plugin-scale), TRIM_SAMPLES (readings
# of the trimmed VmRSS, the least kept: 3).

set -euo pipefail

: "${NJOBS:=10000}" "${NUSERS:=50}" "${WINDOW:=240}" "${SETTLE:=30}"
: "${MAXJOBS:=100000}" "${STORM:=0}" "${STORMS:=1}" "${SUBMIT_PAR:=5}" "${BENCH_TARGET:=bench-plugin}"
: "${OST_CONF:=}" "${CONFIGS:=stock ostrich}" "${KEEP_WORK:=0}" "${TRIM_SAMPLES:=3}"
: "${OST_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"

say() { echo "plugin-overhead: $*" >&2; }
die() { say "error: $*"; exit 1; }

for v in NJOBS NUSERS WINDOW SETTLE MAXJOBS STORM STORMS SUBMIT_PAR TRIM_SAMPLES; do
	case ${!v} in '' | *[!0-9]*) die "$v=${!v}: not a whole number" ;; esac
done
[ "$NUSERS" -gt 0 ] && [ "$SUBMIT_PAR" -gt 0 ] && [ "$STORMS" -gt 0 ] || die "NUSERS, SUBMIT_PAR and STORMS must be > 0"
[ $(( NJOBS + STORMS * STORM )) -le "$MAXJOBS" ] || die "NJOBS + STORMS x STORM > MAXJOBS (MaxJobCount)"
[ "$(id -u)" = 0 ] || die "run as root (it starts munged, slurmctld and slurmd, and adds test users)"
PATH=$PATH:/usr/sbin:/sbin
[ -z "${SLURM_PREFIX:-}" ] || PATH=$SLURM_PREFIX/sbin:$SLURM_PREFIX/bin:$PATH
for c in slurmctld slurmd munged sbatch sdiag; do
	command -v $c >/dev/null || die "$c not installed (tools/install-deps.sh)"
done
[ -n "${OST_PLUGIN_BUILD:-}" ] || die "OST_PLUGIN_BUILD is not set (the directory of sched_ostrich.so)"
for f in sched_ostrich.so priority_ostrich.so libostrich_slurm.so; do
	[ -f "$OST_PLUGIN_BUILD/$f" ] ||
		die "missing $OST_PLUGIN_BUILD/$f: configure with the Slurm source (tools/get-slurm-source.sh) and make"
done

TEST_USERS=$(seq -f 'u%02g' 1 "$NUSERS" | tr '\n' ' ')
export OST_PLUGIN_BUILD TEST_USERS

# One local cluster at a time on the same ports, shared with the live tests
# (OST_LIVE_LOCK with other CTLD_PORT/NODE_PORT_BASE: tests/live/live-lib.sh).
OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.lock}
exec 9>"$OST_LIVE_LOCK"
say "waiting for $OST_LIVE_LOCK"
flock -w 3600 9 || die "another local cluster holds $OST_LIVE_LOCK"

. "$OST_SRCDIR/tools/cluster.sh"

# cluster_stop cancels every job one by one (10k RPCs); only the running
# ones matter (their slurmstepd would outlive the cluster), so stop the
# partition from starting more and cancel just those.
cluster_cancel_all() {
	local ids
	scontrol update PartitionName=debug State=INACTIVE 2>/dev/null || return 0
	for _ in $(seq 100); do
		ids=$(squeue -h -t R,CG,CF -o %i 2>/dev/null) || return 0
		[ -n "$ids" ] || return 0
		scancel $ids 2>/dev/null || true
		sleep 0.3
	done
}

WORKS=()
on_exit() {
	local rc=$?
	cluster_stop
	rm -rf "${PROBE_DIR:-}"
	if [ "$KEEP_WORK" != 1 ] && [ $rc = 0 ]; then
		rm -rf "${WORKS[@]}"
	elif [ ${#WORKS[@]} -gt 0 ]; then
		say "scratch directories kept: ${WORKS[*]}"
	fi
	exit $rc
}
trap on_exit EXIT

# submit_user I K0 N: user I submits its jobs K0+1 .. K0+N, one sbatch at
# a time (job k of user i: run time fixed by i and k only), from one shell
# of that user: a runuser per job (a PAM session each) costs more than
# the sbatch itself on a machine slow to start processes.
submit_user() {
	local i=$1 k0=$2 n=$3 u
	u=$(printf 'u%02d' "$i")
	runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" bash -c '
		for (( k = $2 + 1; k <= $2 + $3; k++ )); do
			sbatch -Q -D "$4" -o /dev/null -n 1 -t 5 -J "b$1" \
				--wrap "sleep $(( 20 + ($1 * 7 + k * 13) % 61 ))" ||
				exit 1
		done' submit "$i" "$k0" "$n" "$WORK/out"
}

# submit_jobs N K0: N jobs spread over the NUSERS users (the first N %
# NUSERS users one more), each user's numbered from K0 + 1.  SUBMIT_PAR
# workers, worker w taking users w, w + SUBMIT_PAR, ...: at most
# SUBMIT_PAR sbatch at once (slurmctld, not the shell, should be busy)
# and no barrier between users, whatever NUSERS.
submit_jobs() {
	local n=$1 k0=$2 w p rc=0 pids=()
	for (( w = 1; w <= SUBMIT_PAR && w <= NUSERS; w++ )); do
		(
			for (( i = w; i <= NUSERS; i += SUBMIT_PAR )); do
				c=$(( n / NUSERS + (i <= n % NUSERS ? 1 : 0) ))
				[ "$c" = 0 ] || submit_user "$i" "$k0" "$c" || exit 1
			done
		) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	return $rc
}

# sdiag_val FILE SECTION_REGEX KEY: a value from a saved sdiag output
# (SECTION_REGEX empty: the top lines, such as "Jobs submitted").
sdiag_val() {
	awk -v sec="$2" -v key="$3" '
		BEGIN { insec = (sec == "") }
		/^[A-Z][A-Za-z ]*(statistics|stats)/ { insec = (sec != "" && $0 ~ sec) }
		insec && index($0, key ":") { sub(/[^:]*: */, ""); sub(/ .*/, ""); print; exit }
	' "$1"
}

# sdiag_reset A B: did slurmctld reset its statistics between the sdiag
# outputs A and B?  It does at midnight, and on `sdiag -r`; "Data since"
# then moves.
sdiag_reset() {
	[ "$(grep -m1 '^Data since' "$1")" != "$(grep -m1 '^Data since' "$2")" ]
}

# accepted A B N WHAT: jobs slurmctld accepted between the sdiag outputs
# A and B, for N sbatch calls that all succeeded (submit_jobs dies on a
# failure).  After a reset sdiag counts only the jobs since: then N, each
# success being a job accepted.
accepted() {
	local n
	if sdiag_reset "$1" "$2"; then
		say "$4: sdiag's statistics were reset meanwhile (midnight): counting the $3 sbatch calls that succeeded"
		echo "$3"
		return
	fi
	n=$(( $(sdiag_val "$2" '' 'Jobs submitted') - $(sdiag_val "$1" '' 'Jobs submitted') ))
	[ "$n" = "$3" ] ||
		say "$4: warning: sdiag counts $n jobs submitted, not $3"
	echo "$n"
}

# ctld_mem FIELD: slurmctld's VmRSS or VmHWM, kB.
ctld_mem() {
	awk -v f="$1:" '$1 == f { print $2; exit }' "/proc/$(cat "$WORK/run/slurmctld.pid")/status"
}

# The malloc probe (bench/malloc_probe.c), preloaded into slurmctld in
# every configuration alike: on request it calls malloc_trim(0) and writes
# malloc_info(3) from a thread of slurmctld's own.  (gdb's inferior calls
# did the same before; some kernels refuse ptrace the extended register
# state they need, and the traced process is left with a broken system
# call.)  Built here, for the bench only; without a C compiler the trimmed
# and in-use columns say "-".
PROBE_DIR=$(mktemp -d /tmp/ostrich-probe.XXXXXX)
PROBE_SO=
if ${CC:-cc} -std=gnu11 -O2 -shared -fPIC -pthread -o "$PROBE_DIR/malloc_probe.so" \
	"$OST_SRCDIR/bench/malloc_probe.c" 2> "$PROBE_DIR/cc.err"; then
	PROBE_SO=$PROBE_DIR/malloc_probe.so
else
	say "the malloc probe did not build ($(head -1 "$PROBE_DIR/cc.err")): no trimmed readings"
fi

# ctld_trimmed TAG: slurmctld's VmRSS, kB, once glibc has handed back the
# memory freed but kept in its arenas (malloc_trim(0) trims every arena,
# called by the probe's thread): the live heap, whatever transient buffers
# (a main or backfill cycle, a pass) were freed just before.  A pass or a
# cycle may be under way at that moment, with its buffers in use (during
# the fill a pass runs about every second): the least of TRIM_SAMPLES
# readings, one second apart, in both configurations.  Also leaves glibc's
# malloc_info(3) of that reading in $WORK/heap-TAG.xml (ctld_inuse).  ""
# without the probe or when it did not answer within 120 s.
ctld_trimmed() {
	local k n rss best= pd=$WORK/probe
	[ -n "$PROBE_SO" ] || return 0
	for (( k = 0; k < TRIM_SAMPLES; k++ )); do
		[ "$k" = 0 ] || sleep 1
		rm -f "$pd/done" "$WORK/heap-$1.try.xml"
		echo "$(cat "$WORK/run/slurmctld.pid") $WORK/heap-$1.try.xml" > "$pd/request.tmp"
		mv -f "$pd/request.tmp" "$pd/request"
		for (( n = 0; n < 1200; n++ )); do
			[ -e "$pd/done" ] && break
			sleep 0.1
		done
		if [ ! -e "$pd/done" ]; then
			rm -f "$pd/request"
			say "the malloc probe did not answer in 120 s"
			continue
		fi
		rss=$(ctld_mem VmRSS)
		cp "/proc/$(cat "$WORK/run/slurmctld.pid")/smaps" "$WORK/smaps-$1.try.txt" 2>/dev/null || true
		if [ -z "$best" ] || [ "$rss" -lt "$best" ]; then
			best=$rss
			mv -f "$WORK/heap-$1.try.xml" "$WORK/heap-$1.xml"
			mv -f "$WORK/smaps-$1.try.txt" "$WORK/smaps-$1.txt" 2>/dev/null || true
		fi
	done
	echo "$best"
}

# ctld_inuse TAG: bytes malloc handed out and not freed, kB, from the
# malloc_info(3) that ctld_trimmed TAG saved: what the arenas took from
# the system, less their free chunks (fast bins and the rest, top chunk
# included), plus the chunks mmap'ed on their own.  Unlike VmRSS, no
# holes: the live heap itself.  "" without the file.
ctld_inuse() {
	[ -s "$WORK/heap-$1.xml" ] || return 0
	awk '
		/<heap / { h = 1 } /<\/heap>/ { h = 0; next }
		h { next }
		function sz() { match($0, /size="[0-9]+"/); return substr($0, RSTART + 6, RLENGTH - 7) }
		/<total type="fast"/ { f = sz() } /<total type="rest"/ { r = sz() }
		/<total type="mmap"/ { m = sz() } /<system type="current"/ { s = sz() }
		END { if (s != "") printf "%d\n", (s - f - r + m) / 1024 }
	' "$WORK/heap-$1.xml"
}

# ctld_arena_free TAG: kB free in the thread arenas (every heap of the
# malloc_info(3) that ctld_trimmed TAG saved but the main arena's, the
# first): mostly the free top of each arena, which malloc_trim(0) leaves
# resident (glibc trims only the main arena's top).  "" without the file.
ctld_arena_free() {
	[ -s "$WORK/heap-$1.xml" ] || return 0
	awk '
		function sz() { match($0, /size="[0-9]+"/); return substr($0, RSTART + 6, RLENGTH - 7) }
		/<heap nr=/ { h++; inh = 1 } /<\/heap>/ { inh = 0 }
		inh && h > 1 && /<total type="(fast|rest)"/ { f += sz() }
		END { printf "%d\n", f / 1024 }
	' "$WORK/heap-$1.xml"
}

# ctld_resident TAG: where slurmctld's resident memory was at the
# trimmed reading TAG, kB, from the /proc/PID/smaps saved with it:
# "HEAP ANON FILE": the main arena's [heap], every other anonymous mapping
# (thread arenas, malloc's own mappings, the plugins' mapped arrays,
# stacks) and file-backed mappings.  "- - -" without the file.
ctld_resident() {
	[ -s "$WORK/smaps-$1.txt" ] || { echo "- - -"; return 0; }
	awk '/^[0-9a-f]+-[0-9a-f]+ / { p = $6; kind = (p == "[heap]") ? "h" : \
			(p == "" || p ~ /^\[/) ? "a" : "f"; next }
		$1 == "Rss:" { r[kind] += $2 }
		END { printf "%d %d %d\n", r["h"], r["a"], r["f"] }' "$WORK/smaps-$1.txt"
}

# held_max FIRST LAST [read|write]: the longest "job write lock held" (or
# "job read lock held") (ms) of the ostrich passes logged in lines
# FIRST..LAST of slurmctld.log; "-" if none.
held_max() {
	sed -n "$1,$2{s/.*ostrich: pass .*job ${3:-write} lock held \([0-9.]*\) ms.*/\1/p}" "$WORK/log/slurmctld.log" |
		sort -g | tail -n 1 | awk '{ printf "%.1f\n", $1 }' | grep . || echo -
}

# now: wall time, s (ns resolution); elapsed T0: seconds since T0.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# rate N S: N per S seconds.
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0 && n != "") printf "%.1f", n / s; else print "-" }'; }
# maxof A B: the larger number ("-" and empty ignored).
maxof() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/) a = ""; if (b !~ /^[0-9.]+$/) b = "";
	if (a == "") print (b == "" ? "-" : b); else if (b == "") print a; else print (a + 0 >= b + 0 ? a : b) }'; }
# mib KB
mib() { awk -v k="$1" 'BEGIN { if (k == "") print "-"; else printf "%.1f", k / 1024 }'; }

# run_one NAME SCHED PRIO: one configuration; appends a row to ROWS and
# its scale measurements to M[NAME.key].
ROWS=()
declare -A M
run_one() {
	local name=$1 sched=$2 prio=$3 t0 l0 lfill lwin pend tot perjob
	local fill_n fill_s st_n st_s rss0 rss1 hwm1 rss2 hwm2 mx_pre mx_end
	local rss0t rss1t ls0 ls1
	unset WORK
	SCHED=$sched PRIO=$prio
	cluster_init
	WORKS+=("$WORK")
	printf '%s\n' "${RUN_CONF-$OST_CONF}" > "$WORK/ostrich.conf"
	mkdir -p "$WORK/probe"
	CLUSTER_CTLD_ENV=
	[ -z "$PROBE_SO" ] || CLUSTER_CTLD_ENV="LD_PRELOAD=$PROBE_SO OST_MALLOC_PROBE=$WORK/probe"
	cluster_conf "MaxJobCount=$MAXJOBS"
	cluster_start
	say "$name: cluster up ($SCHED + $PRIO, $NNODES x $CPUS_PER_NODE CPUs, $WORK)"
	scontrol update PartitionName=debug State=DOWN
	# the fill: jobs accepted per second, from sdiag's count before and
	# after.  No `sdiag -r` here: a reset before slurmctld's background
	# thread has run once makes that thread reset the counters again a
	# moment later (its midnight reset is then due at time 0).
	rss0=$(ctld_mem VmRSS)
	rss0t=$(ctld_trimmed 0)
	sdiag > "$WORK/sdiag-start.out"
	t0=$(now)
	submit_jobs "$NJOBS" 0 || die "sbatch failed"
	fill_s=$(elapsed "$t0")
	sdiag > "$WORK/sdiag-fill.out"
	rss1=$(ctld_mem VmRSS) hwm1=$(ctld_mem VmHWM)
	rss1t=$(ctld_trimmed 1)
	lfill=$(wc -l < "$WORK/log/slurmctld.log")
	fill_n=$(accepted "$WORK/sdiag-start.out" "$WORK/sdiag-fill.out" "$NJOBS" "$name: fill")
	say "$name: $fill_n jobs accepted in $fill_s s; slurmctld VmRSS $(mib "$rss0") -> $(mib "$rss1") MiB"
	scontrol update PartitionName=debug State=UP
	sleep "$SETTLE"
	l0=$(wc -l < "$WORK/log/slurmctld.log")
	# since the start (fill and settling time), before the reset
	sdiag > "$WORK/sdiag-pre.out"
	sdiag -r >/dev/null
	say "$name: measuring for $WINDOW s"
	sleep "$WINDOW"
	sdiag > "$WORK/sdiag.out"
	lwin=$(wc -l < "$WORK/log/slurmctld.log")
	pend=$(squeue -h -t PD | wc -l)
	sed -n "$((l0 + 1)),${lwin}p" "$WORK/log/slurmctld.log" |
		sed -n 's/.*ostrich: pass [0-9]* took \([0-9.]*\) ms.*/\1/p' > "$WORK/pass-ms.txt"
	sed -n "$((l0 + 1)),${lwin}p" "$WORK/log/slurmctld.log" |
		sed -n 's/.*ostrich: pass .* \([0-9]*\) priorities changed.*job read lock held \([0-9.]*\) ms.*job write lock held \([0-9.]*\) ms.*/\1 \3 \2/p' > "$WORK/pass-held.txt"
	local mc_n mc_mean mc_max mc_depth bf_n bf_mean started pn pmean pmed pmax hmean rmean cmean
	mc_n=$(sdiag_val "$WORK/sdiag.out" 'Main schedule' 'Total cycles')
	mc_mean=$(sdiag_val "$WORK/sdiag.out" 'Main schedule' 'Mean cycle')
	mc_max=$(sdiag_val "$WORK/sdiag.out" 'Main schedule' 'Max cycle')
	mc_depth=$(sdiag_val "$WORK/sdiag.out" 'Main schedule' 'Mean depth cycle')
	bf_n=$(sdiag_val "$WORK/sdiag.out" 'Backfilling' 'Total cycles')
	bf_mean=$(sdiag_val "$WORK/sdiag.out" 'Backfilling' 'Mean cycle')
	started=$(awk '/^Jobs started:/ { print $3; exit }' "$WORK/sdiag.out")
	read -r pn pmean pmed pmax < <(sort -n "$WORK/pass-ms.txt" | awk '
		{ v[NR] = $1; s += $1 }
		END { if (!NR) { print "0 - - -"; exit }
		      printf "%d %.1f %.1f %.1f\n", NR, s / NR, v[int((NR + 1) / 2)], v[NR] }')
	read -r cmean hmean rmean < <(awk '{ c += $1; h += $2; r += $3 }
		END { if (!NR) print "- - -"; else printf "%.0f %.1f %.1f\n", c / NR, h / NR, r / NR }' "$WORK/pass-held.txt")
	# the mean mixes cheap event-triggered cycles (default_queue_depth)
	# with full-queue ones (every sched_interval): also the total main
	# scheduler time and its cost per job tested
	tot=$(awk -v n="${mc_n:-0}" -v m="${mc_mean:-0}" 'BEGIN { printf "%.0f", n * m / 1000 }')
	perjob=$(awk -v d="${mc_depth:-0}" -v m="${mc_mean:-0}" 'BEGIN { if (d > 0) printf "%.2f", m / d; else print "-" }')
	ROWS+=("$name|$SCHED + $PRIO|$pend|${started:-?}|${mc_n:-?}|${mc_mean:-?}|${mc_max:-?}|${mc_depth:-?}|$tot|$perjob|${bf_n:-?}|${bf_mean:-?}|$pn|$pmean|$pmed|$pmax|$hmean|$rmean|$cmean")
	eval "MEAN_$name=\${mc_mean:-0} TOT_$name=\$tot PERJOB_$name=\$perjob"
	say "$name: main cycles ${mc_n:-?}, mean ${mc_mean:-?} µs; ostrich passes $pn, mean $pmean ms"

	# the storms: STORMS times STORM more jobs, the first with NJOBS
	# pending, the partition UP, the same submitter (each user's jobs
	# numbered after those before).  One storm takes some 20 s at 10^5 pending, and what
	# else holds the job locks meanwhile (a backfill cycle, ~0.8 s at 10^5
	# records) moves one storm's rate by tens of percent: the rate kept is
	# the median storm's, every storm in the table.
	st_n=0 st_s=-
	if [ "$STORM" -gt 0 ]; then
		local r k0=$(( (NJOBS + NUSERS - 1) / NUSERS )) sn ss rates=()
		for (( r = 1; r <= STORMS; r++ )); do
			say "$name: storm $r of $STORMS: $STORM jobs"
			sdiag > "$WORK/sdiag-storm0-$r.out"
			ls0=$(wc -l < "$WORK/log/slurmctld.log")
			t0=$(now)
			submit_jobs "$STORM" "$k0" || die "sbatch failed (storm)"
			ss=$(elapsed "$t0")
			sdiag > "$WORK/sdiag-storm1-$r.out"
			ls1=$(wc -l < "$WORK/log/slurmctld.log")
			k0=$(( k0 + (STORM + NUSERS - 1) / NUSERS ))
			# what else ran meanwhile: passes, main and backfill cycles, starts
			M[$name.st$r.s]=$ss
			M[$name.st$r.passes]=$(sed -n "$((ls0 + 1)),${ls1}p" "$WORK/log/slurmctld.log" | grep -c 'ostrich: pass .*job write lock held' || true)
			M[$name.st$r.held]=$(sed -n "$((ls0 + 1)),${ls1}p" "$WORK/log/slurmctld.log" |
				sed -n 's/.*ostrich: pass .*job read lock held \([0-9.]*\) ms.*job write lock held \([0-9.]*\) ms.*/\1 \2/p' |
				awk '{ s += $1 + $2 } END { printf "%.0f", s }')
			for k in 'Main schedule|Total cycles|main' 'Backfilling|Total cycles|bf' '|Jobs started|started'; do
				IFS='|' read -r sec key m <<< "$k"
				if sdiag_reset "$WORK/sdiag-storm0-$r.out" "$WORK/sdiag-storm1-$r.out"; then
					M[$name.st$r.$m]=-
				else
					M[$name.st$r.$m]=$(( $(sdiag_val "$WORK/sdiag-storm1-$r.out" "$sec" "$key") - $(sdiag_val "$WORK/sdiag-storm0-$r.out" "$sec" "$key") ))
				fi
			done
			sn=$(accepted "$WORK/sdiag-storm0-$r.out" "$WORK/sdiag-storm1-$r.out" "$STORM" "$name: storm $r")
			M[$name.st$r.n]=$sn M[$name.st$r.rate]=$(rate "$sn" "$ss")
			rates+=("${M[$name.st$r.rate]} $r")
			say "$name: storm $r: $sn jobs accepted in $ss s"
		done
		# the median storm (the lower middle one of an even count)
		r=$(printf '%s\n' "${rates[@]}" | LC_ALL=C sort -n | awk -v n="$STORMS" 'NR == int((n + 1) / 2) { print $2 }')
		st_n=${M[$name.st$r.n]} st_s=${M[$name.st$r.s]}
	fi
	# no reset since the window's: its Max cycle covers the window and the storm
	sdiag > "$WORK/sdiag-end.out"
	rss2=$(ctld_mem VmRSS) hwm2=$(ctld_mem VmHWM)
	mx_pre=$(sdiag_val "$WORK/sdiag-pre.out" 'Main schedule' 'Max cycle')
	mx_end=$(sdiag_val "$WORK/sdiag-end.out" 'Main schedule' 'Max cycle')
	M[$name.fill_n]=$fill_n M[$name.fill_s]=$fill_s M[$name.fill_rate]=$(rate "$fill_n" "$fill_s")
	M[$name.st_n]=$st_n M[$name.st_s]=$st_s M[$name.st_rate]=$(rate "$st_n" "$st_s")
	M[$name.rss0]=$rss0 M[$name.rss1]=$rss1 M[$name.hwm1]=$hwm1 M[$name.rss2]=$rss2 M[$name.hwm2]=$hwm2
	M[$name.grow]=$(( rss1 - rss0 ))
	M[$name.rss0t]=$rss0t M[$name.rss1t]=$rss1t
	M[$name.growt]=
	[ -z "$rss0t" ] || [ -z "$rss1t" ] || M[$name.growt]=$(( rss1t - rss0t ))
	M[$name.res1]=$(ctld_resident 1) M[$name.afree1]=$(ctld_arena_free 1)
	M[$name.use0]=$(ctld_inuse 0) M[$name.use1]=$(ctld_inuse 1) M[$name.useg]=
	[ -z "${M[$name.use0]}" ] || [ -z "${M[$name.use1]}" ] ||
		M[$name.useg]=$(( M[$name.use1] - M[$name.use0] ))
	M[$name.mean]=${mc_mean:-} M[$name.max_win]=${mc_max:-}
	M[$name.max_pre]=${mx_pre:-} M[$name.max_end]=${mx_end:-}
	M[$name.max_all]=$(maxof "${mx_pre:-}" "${mx_end:-}")
	M[$name.held_fill]=$(held_max 1 "$lfill")
	M[$name.held_win]=$(held_max $((l0 + 1)) "$lwin")
	M[$name.held_all]=$(held_max 1 '$')
	M[$name.rheld_win]=$(held_max $((l0 + 1)) "$lwin" read)
	M[$name.rheld_all]=$(held_max 1 '$' read)
	M[$name.passes_all]=$(grep -c 'ostrich: pass .*job write lock held' "$WORK/log/slurmctld.log" || true)
	cluster_stop
	WORK=
}

for c in $CONFIGS; do
	case $c in
	stock) run_one stock sched/backfill priority/basic ;;
	ostrich) run_one ostrich sched/ostrich priority/ostrich ;;
	# the plugins without their per-job SystemComment line: what the
	# line costs in memory and at submission (a prototype row, no target)
	nocomment)
		RUN_CONF=$(printf 'SystemComment=no\n%s' "$OST_CONF") \
			run_one nocomment sched/ostrich priority/ostrich ;;
	*) die "unknown configuration $c (stock, ostrich, nocomment)" ;;
	esac
done

# The title says which Slurm (a tree configured --with-slurm-prefix writes
# one file per release) and which target.
where='' tree=''
if [ -n "${SLURM_PREFIX:-}" ]; then
	where=" on Slurm $CLUSTER_SLURM_VERSION" tree=" in a tree configured --with-slurm-prefix"
fi
case $BENCH_TARGET in
bench-plugin-scale) title="Plugin overhead at scale in a real slurmctld$where: $NJOBS pending jobs of $NUSERS users" ;;
*) title="Plugin overhead in a real slurmctld$where" ;;
esac

cat <<EOF
### $title (part 3, \`make $BENCH_TARGET\`$tree)

Generated $(date -u '+%Y-%m-%d %H:%M UTC') by bench/plugin-overhead.sh, plugins of commit ${OST_PLUGIN_COMMIT:-$(git -C "$OST_SRCDIR" rev-parse --short HEAD 2>/dev/null || echo unknown)}, $(slurmctld -V 2>/dev/null).
Local cluster of the live tests (tools/cluster.sh): $NNODES nodes x $CPUS_PER_NODE CPUs on loopback,
SchedulerParameters=bf_interval=1,sched_min_interval=100000, DebugFlags=Priority, MaxJobCount=$MAXJOBS.
Same job set for each row: $NJOBS jobs of $NUSERS users (1 CPU, 20-80 s, time limit 5 min), submitted with
the partition DOWN, then released at once; after ${SETTLE} s, \`sdiag -r\`, then ${WINDOW} s of wall
time measured. ostrich.conf: ${OST_CONF:-empty (defaults: Interval=30, ThinkTime=600, Backfill=yes)}.
Cycle times are sdiag's (µs; timed inside the job write lock, so waiting for the lock is not
counted); main total = cycles x mean; µs/job = mean / mean depth (jobs tested per cycle);
pass = "ostrich: pass N took X ms" in slurmctld.log in the window (timed from before the
pass asks for the job write lock, so it includes the wait for it; schedule() only signals the
scheduler thread, so no main cycle is included); write-held and read-held = its "job write lock
held" (second half: priorities, comments, job_list) and "job read lock held" (first half: scan,
core, comments merged) parts; written = its
"priorities changed" (records whose priority the pass wrote), means over the passes.

| config | plugins | pending at end | jobs started | main cycles | **main mean µs** | main max µs | main mean depth | main total ms | main µs/job | bf cycles | bf mean µs | ostrich passes | pass mean ms | pass median ms | pass max ms | write-held mean ms | read-held mean ms | written per pass |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
EOF
for r in "${ROWS[@]}"; do echo "|${r}|"; done
if [ -n "${MEAN_stock:-}" ] && [ -n "${MEAN_ostrich:-}" ] && [ "${MEAN_stock}" != 0 ]; then
	ratio=$(awk -v a="$MEAN_ostrich" -v b="$MEAN_stock" 'BEGIN { printf "%.2f", a / b }')
	verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.1 ? "met" : "missed") }')
	r2=$(awk -v a="$TOT_ostrich" -v b="$TOT_stock" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	r3=$(awk -v a="$PERJOB_ostrich" -v b="$PERJOB_stock" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }')
	echo
	echo "Target: sched/ostrich main-cycle mean <= 1.1x the stock one: ${ratio}x, **${verdict}**"
	echo "(total main-scheduler time in the window: ${r2}x; per job tested: ${r3}x)"
fi

# ---- the scale measurements: submission, memory, lock holds -------------
# ratio A B: A / B with 2 decimals, "-" if either is missing or B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^-?[0-9.]+$/ || b !~ /^-?[0-9.]+$/ || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
# verdict R OP LIMIT: met if R OP LIMIT (OP le, ge or lt), "-" when R is.
verdict() { awk -v r="$1" -v op="$2" -v l="$3" 'BEGIN { if (r == "-" || r == "") { print "not measured"; exit }
	ok = (op == "le") ? r + 0 <= l : (op == "ge") ? r + 0 >= l : r + 0 < l
	print ok ? "**met**" : "**missed**" }'; }
# ms US: microseconds to milliseconds.
ms() { awk -v u="$1" 'BEGIN { if (u !~ /^[0-9.]+$/) print "-"; else printf "%.1f", u / 1000 }'; }

if [ "$STORM" -gt 0 ]; then
	storm_text="then, after the window, $STORMS storm(s) of $STORM more jobs each, one after the other, the first with the $NJOBS pending (each later one with the jobs of the storms before it too), the partition UP (the storm's rate below: the median storm's)"
else
	storm_text="no storm in this run (STORM=0)"
fi
cat <<EOF

#### Submission, memory and lock holds

Same run as the table above.  sbatch throughput = jobs slurmctld accepted (sdiag "Jobs
submitted") per second of wall time, one \`sbatch\` per job, $SUBMIT_PAR users submitting at
once (one job at a time each, through \`runuser\`): the fill (0 -> $NJOBS pending,
partition DOWN); $storm_text.
Memory: slurmctld's VmRSS (/proc/PID/status) just before and after the fill and at the
end, and VmHWM; bytes per pending job = growth over the fill / jobs accepted.  "Trimmed":
VmRSS again just after, once glibc has handed back what was freed but kept in its arenas
(\`malloc_trim(0)\`, which hands back the free pages of every arena but keeps the free top
of each thread's arena, called by a thread of slurmctld's own that a
preloaded probe, bench/malloc_probe.c, starts in both configurations;
the least of $TRIM_SAMPLES readings one second apart, as a pass or a cycle may be under way):
resident memory without the buffers a cycle or a pass freed a moment before.  "Heap in use":
from glibc's \`malloc_info\` at that reading, what the arenas hold less their free chunks,
plus malloc's own mappings: the live allocations themselves, without the partly used pages
that VmRSS also counts.
Main max = sdiag "Max cycle" (µs) before the window (from the start: fill and settling
time), in it, and since its \`sdiag -r\` (window and storm); write-held max = longest "job
write lock held" of the ostrich passes in slurmctld.log (ms) during the fill, in the window
and over the whole run (the target); read-held max = longest "job read lock held" (the first
half of a pass: readers such as squeue go on, writers wait).

| config | fill jobs | fill s | **fill jobs/s** | storm jobs | storm s | **storm jobs/s** | VmRSS before fill MiB | VmRSS after fill MiB | VmHWM after fill MiB | fill growth MiB | B per pending job | VmRSS at end MiB | VmHWM at end MiB | trimmed before fill MiB | trimmed after fill MiB | **trimmed growth MiB** | heap in use growth MiB |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
EOF
for c in $CONFIGS; do
	bpj=$(awk -v g="${M[$c.grow]}" -v n="${M[$c.fill_n]}" 'BEGIN { if (n > 0) printf "%.0f", g * 1024 / n; else print "-" }')
	echo "|$c|${M[$c.fill_n]}|${M[$c.fill_s]}|${M[$c.fill_rate]}|${M[$c.st_n]}|${M[$c.st_s]}|${M[$c.st_rate]}|$(mib "${M[$c.rss0]}")|$(mib "${M[$c.rss1]}")|$(mib "${M[$c.hwm1]}")|$(mib "${M[$c.grow]}")|$bpj|$(mib "${M[$c.rss2]}")|$(mib "${M[$c.hwm2]}")|$(mib "${M[$c.rss0t]:-}")|$(mib "${M[$c.rss1t]:-}")|$(mib "${M[$c.growt]:-}")|$(mib "${M[$c.useg]:-}")|"
done
cat <<EOF

Where the resident memory was at the trimmed reading after the fill (/proc/PID/smaps of that
reading): the main arena's [heap], the other anonymous mappings (thread arenas, malloc's own
mappings of large blocks, the plugins' mapped arrays, stacks) and file-backed ones; the
heap in use then (malloc_info); and what the thread arenas held free (malloc_info): mostly
the free top of each, which glibc hands back only past its trim threshold (up to 64 MiB once
a large block was freed) and malloc_trim(0) does not trim, so VmRSS keeps it.

| config | [heap] MiB | other anonymous MiB | file-backed MiB | heap in use MiB | thread arenas free MiB |
|---|---:|---:|---:|---:|---:|
EOF
for c in $CONFIGS; do
	read -r rh ra rf <<< "${M[$c.res1]:-- - -}"
	echo "|$c|$(mib "${rh#-}")|$(mib "${ra#-}")|$(mib "${rf#-}")|$(mib "${M[$c.use1]:-}")|$(mib "${M[$c.afree1]:-}")|"
done
if [ "$STORM" -gt 0 ]; then
	cat <<EOF

During each storm: the ostrich passes that ran and their job locks (read and write halves,
summed), slurmctld's main-scheduler and backfill cycles (sdiag), and the jobs started.

| config | storm | storm s | jobs/s | ostrich passes | their job locks ms | main cycles | backfill cycles | jobs started |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
EOF
	for c in $CONFIGS; do
		for (( r = 1; r <= STORMS; r++ )); do
			echo "|$c|$r|${M[$c.st$r.s]:--}|${M[$c.st$r.rate]:--}|${M[$c.st$r.passes]:--}|${M[$c.st$r.held]:--}|${M[$c.st$r.main]:--}|${M[$c.st$r.bf]:--}|${M[$c.st$r.started]:--}|"
		done
	done
fi
cat <<EOF

| config | main max µs, start to window | main max µs, window | main max µs, window + storm | main max µs, whole run | ostrich passes, whole run | write-held max ms, fill | write-held max ms, window | write-held max ms, whole run | read-held max ms, window | read-held max ms, whole run |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
EOF
for c in $CONFIGS; do
	echo "|$c|${M[$c.max_pre]:--}|${M[$c.max_win]:--}|${M[$c.max_end]:--}|${M[$c.max_all]}|${M[$c.passes_all]}|${M[$c.held_fill]}|${M[$c.held_win]}|${M[$c.held_all]}|${M[$c.rheld_win]:--}|${M[$c.rheld_all]:--}|"
done

# the targets, each against stock in this run
if [ -n "${M[stock.fill_n]:-}" ] && [ -n "${M[ostrich.fill_n]:-}" ]; then
	row() { # LABEL STOCK OSTRICH RATIO OP LIMIT TARGET_TEXT
		local r=$4
		[ "$r" = - ] || r="$r×"
		echo "|$1|${2:--}|${3:--}|$r|$7|$(verdict "$4" "$5" "$6")|"
	}
	cat <<EOF

Targets (sched/ostrich + priority/ostrich against stock, same run):

| measure | stock | ostrich | ostrich / stock | target | verdict |
|---|---:|---:|---:|---|---|
EOF
	r=$(ratio "${M[ostrich.mean]}" "${M[stock.mean]}")
	row "main-cycle mean µs, window" "${M[stock.mean]}" "${M[ostrich.mean]}" "$r" le 1.1 "≤ 1.1×"
	r=$(ratio "${M[ostrich.max_win]}" "${M[stock.max_win]}")
	row "main-cycle max µs, window" "${M[stock.max_win]}" "${M[ostrich.max_win]}" "$r" le 1.1 "≤ 1.1×"
	r=$(ratio "${M[ostrich.held_win]}" "$(ms "${M[stock.max_win]}")")
	row "longest ostrich job write lock hold in the window, ms (stock: its longest main cycle)" \
		"$(ms "${M[stock.max_win]}")" "${M[ostrich.held_win]}" "$r" le 1 "≤ stock's max cycle"
	r=$(ratio "${M[ostrich.held_all]}" "$(ms "${M[stock.max_all]}")")
	row "longest ostrich job write lock hold over the whole run (fill included), ms (stock: its longest main cycle)" \
		"$(ms "${M[stock.max_all]}")" "${M[ostrich.held_all]}" "$r" le 1 "≤ stock's max cycle"
	r=$(ratio "${M[ostrich.fill_rate]}" "${M[stock.fill_rate]}")
	row "sbatch fill, jobs/s ($NJOBS jobs, partition DOWN)" "${M[stock.fill_rate]}" "${M[ostrich.fill_rate]}" "$r" ge 0.95 "≥ 0.95×"
	if [ "$STORM" -gt 0 ]; then
		r=$(ratio "${M[ostrich.st_rate]}" "${M[stock.st_rate]}")
		row "sbatch storm, jobs/s ($STORM jobs, $NJOBS pending, partition UP; median of $STORMS)" "${M[stock.st_rate]}" "${M[ostrich.st_rate]}" "$r" ge 0.95 "≥ 0.95×"
	else
		echo "|sbatch storm, jobs/s|-|-|-|≥ 0.95×|not run (STORM=0)|"
	fi
	# share_row CFG KEY LABEL [LIMIT]: a row of CFG's share of slurmctld's
	# growth KEY over the fill beyond stock's, %; with LIMIT, its target
	# (< LIMIT%) and verdict, else "(information)" for ostrich and
	# "(prototype)" for another configuration
	share_row() {
		local sh tgt vd=-
		sh=$(awk -v o="${M[$1.$2]:-}" -v s="${M[stock.$2]:-}" 'BEGIN { if (s > 0 && o != "") printf "%.1f", (o - s) * 100 / s; else print "-" }')
		if [ -n "${4:-}" ]; then
			tgt="< $4%" vd=$(verdict "$sh" lt "$4")
		elif [ "$1" = ostrich ]; then
			tgt="(information)"
		else
			tgt="(prototype)"
		fi
		echo "|$3|$(mib "${M[stock.$2]:-}")|$(mib "${M[$1.$2]:-}")|share $sh$([ "$sh" = - ] || echo %)|$tgt|$vd|"
	}
	share_row ostrich grow "slurmctld VmRSS growth over the fill, MiB (plugin's share: (ostrich − stock) / stock)" 10
	share_row ostrich growt "slurmctld VmRSS growth over the fill after malloc_trim(0), MiB (plugin's share as above)" 10
	share_row ostrich useg "slurmctld heap in use, growth over the fill (malloc_info), MiB (the live allocations; plugin's share as above)"
	if [ -n "${M[nocomment.fill_n]:-}" ]; then
		# the same shares without the SystemComment line (SystemComment=no)
		share_row nocomment grow "SystemComment=no: slurmctld VmRSS growth over the fill, MiB (plugin's share as above)"
		share_row nocomment growt "SystemComment=no: slurmctld VmRSS growth over the fill after malloc_trim(0), MiB (plugin's share as above)"
		share_row nocomment useg "SystemComment=no: slurmctld heap in use, growth over the fill, MiB (plugin's share as above)"
		r=$(ratio "${M[nocomment.st_rate]:-}" "${M[stock.st_rate]}")
		echo "|SystemComment=no: sbatch storm, jobs/s|${M[stock.st_rate]:--}|${M[nocomment.st_rate]:--}|$r$([ "$r" = - ] || echo ×)|(prototype)|-|"
	fi
fi
