#!/usr/bin/env bash
# plugin-overhead.sh - part 3 of the benchmarks (`make bench-plugin`): the
# cost of sched/ostrich + priority/ostrich in a real slurmctld against the
# stock sched/backfill + priority/basic, on the same job set.
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
#     ("ostrich: pass N took X ms: ... P priorities changed ...; locks held
#     H ms ..."), sched/ostrich only: total (lock wait included), time
#     holding the locks, and priorities written per pass.
# Jobs run and end during the window, so both configurations see starts,
# ends and the triggers that come with them.  Every daemon is stopped by
# PID at the end (cluster_stop); the cluster lock /tmp/ostrich-live.lock
# (shared with the live tests and the demo) is held throughout.
#
# Output: a markdown section on stdout, progress on stderr.  Environment:
# NJOBS (10000), NUSERS (50), WINDOW (240), SETTLE (30), OST_CONF (lines
# of ostrich.conf; default: empty, i.e. the defaults an admin gets),
# CONFIGS ("stock ostrich"), KEEP_WORK (1: keep the scratch directories),
# OST_PLUGIN_COMMIT (the commit the plugins were built from, for the
# report; default: that of OST_SRCDIR).

set -euo pipefail

: "${NJOBS:=10000}" "${NUSERS:=50}" "${WINDOW:=240}" "${SETTLE:=30}"
: "${OST_CONF:=}" "${CONFIGS:=stock ostrich}" "${KEEP_WORK:=0}"
: "${OST_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"

say() { echo "plugin-overhead: $*" >&2; }
die() { say "error: $*"; exit 1; }

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
	if [ "$KEEP_WORK" != 1 ] && [ $rc = 0 ]; then
		rm -rf "${WORKS[@]}"
	elif [ ${#WORKS[@]} -gt 0 ]; then
		say "scratch directories kept: ${WORKS[*]}"
	fi
	exit $rc
}
trap on_exit EXIT

# Submit user $1's share of the jobs (job k of user i: CPUs and run time
# depend on i and k only).
submit_user() {
	local i=$1 per=$2 u k n t
	u=$(printf 'u%02d' "$i")
	for k in $(seq "$per"); do
		t=$(( 20 + (i * 7 + k * 13) % 61 ))
		runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" sbatch -Q -D "$WORK/out" \
			-o /dev/null -n 1 -t 5 -J "b$i" --wrap "sleep $t" ||
			return 1
	done
}

# sdiag_val SECTION_REGEX KEY: a value from the saved sdiag output.
sdiag_val() {
	awk -v sec="$1" -v key="$2" '
		/^[A-Z][A-Za-z ]*(statistics|stats)/ { insec = ($0 ~ sec) }
		insec && index($0, key ":") { sub(/.*: */, ""); sub(/ .*/, ""); print; exit }
	' "$WORK/sdiag.out"
}

# run_one NAME SCHED PRIO: one configuration; appends a row to ROWS.
ROWS=()
run_one() {
	local name=$1 sched=$2 prio=$3 per t0 l0 pend i p pids tot perjob
	unset WORK
	SCHED=$sched PRIO=$prio
	cluster_init
	WORKS+=("$WORK")
	printf '%s\n' "$OST_CONF" > "$WORK/ostrich.conf"
	cluster_conf "MaxJobCount=100000"
	cluster_start
	say "$name: cluster up ($SCHED + $PRIO, $NNODES x $CPUS_PER_NODE CPUs, $WORK)"
	scontrol update PartitionName=debug State=DOWN
	per=$(( NJOBS / NUSERS ))
	t0=$(date +%s)
	pids=()
	for i in $(seq "$NUSERS"); do
		submit_user "$i" "$per" &
		pids+=($!)
		# a few users at a time: slurmctld, not the shell, should be busy
		if [ $(( i % 5 )) = 0 ]; then
			for p in "${pids[@]}"; do wait "$p" || die "sbatch failed"; done
			pids=()
		fi
	done
	for p in "${pids[@]}"; do wait "$p" || die "sbatch failed"; done
	say "$name: $(( per * NUSERS )) jobs submitted in $(( $(date +%s) - t0 )) s"
	scontrol update PartitionName=debug State=UP
	sleep "$SETTLE"
	l0=$(wc -l < "$WORK/log/slurmctld.log")
	sdiag -r >/dev/null
	say "$name: measuring for $WINDOW s"
	sleep "$WINDOW"
	sdiag > "$WORK/sdiag.out"
	pend=$(squeue -h -t PD | wc -l)
	tail -n +"$((l0 + 1))" "$WORK/log/slurmctld.log" |
		sed -n 's/.*ostrich: pass [0-9]* took \([0-9.]*\) ms.*/\1/p' > "$WORK/pass-ms.txt"
	tail -n +"$((l0 + 1))" "$WORK/log/slurmctld.log" |
		sed -n 's/.*ostrich: pass .* \([0-9]*\) priorities changed.*locks held \([0-9.]*\) ms.*/\1 \2/p' > "$WORK/pass-held.txt"
	local mc_n mc_mean mc_max mc_depth bf_n bf_mean started pn pmean pmed pmax hmean cmean
	mc_n=$(sdiag_val 'Main schedule' 'Total cycles')
	mc_mean=$(sdiag_val 'Main schedule' 'Mean cycle')
	mc_max=$(sdiag_val 'Main schedule' 'Max cycle')
	mc_depth=$(sdiag_val 'Main schedule' 'Mean depth cycle')
	bf_n=$(sdiag_val 'Backfilling' 'Total cycles')
	bf_mean=$(sdiag_val 'Backfilling' 'Mean cycle')
	started=$(awk '/^Jobs started:/ { print $3; exit }' "$WORK/sdiag.out")
	read -r pn pmean pmed pmax < <(sort -n "$WORK/pass-ms.txt" | awk '
		{ v[NR] = $1; s += $1 }
		END { if (!NR) { print "0 - - -"; exit }
		      printf "%d %.1f %.1f %.1f\n", NR, s / NR, v[int((NR + 1) / 2)], v[NR] }')
	read -r cmean hmean < <(awk '{ c += $1; h += $2 }
		END { if (!NR) print "- -"; else printf "%.0f %.1f\n", c / NR, h / NR }' "$WORK/pass-held.txt")
	# the mean mixes cheap event-triggered cycles (default_queue_depth)
	# with full-queue ones (every sched_interval): also the total main
	# scheduler time and its cost per job tested
	tot=$(awk -v n="${mc_n:-0}" -v m="${mc_mean:-0}" 'BEGIN { printf "%.0f", n * m / 1000 }')
	perjob=$(awk -v d="${mc_depth:-0}" -v m="${mc_mean:-0}" 'BEGIN { if (d > 0) printf "%.2f", m / d; else print "-" }')
	ROWS+=("$name|$SCHED + $PRIO|$pend|${started:-?}|${mc_n:-?}|${mc_mean:-?}|${mc_max:-?}|${mc_depth:-?}|$tot|$perjob|${bf_n:-?}|${bf_mean:-?}|$pn|$pmean|$pmed|$pmax|$hmean|$cmean")
	eval "MEAN_$name=\${mc_mean:-0} TOT_$name=\$tot PERJOB_$name=\$perjob"
	say "$name: main cycles ${mc_n:-?}, mean ${mc_mean:-?} µs; ostrich passes $pn, mean $pmean ms"
	cluster_stop
	WORK=
}

for c in $CONFIGS; do
	case $c in
	stock) run_one stock sched/backfill priority/basic ;;
	ostrich) run_one ostrich sched/ostrich priority/ostrich ;;
	*) die "unknown configuration $c (stock, ostrich)" ;;
	esac
done

cat <<EOF
### Plugin overhead in a real slurmctld (part 3, \`make bench-plugin\`)

Generated $(date -u '+%Y-%m-%d %H:%M UTC') by bench/plugin-overhead.sh, plugins of commit ${OST_PLUGIN_COMMIT:-$(git -C "$OST_SRCDIR" rev-parse --short HEAD 2>/dev/null || echo unknown)}, $(slurmctld -V 2>/dev/null).
Local cluster of the live tests (tools/cluster.sh): $NNODES nodes x $CPUS_PER_NODE CPUs on loopback,
SchedulerParameters=bf_interval=1,sched_min_interval=100000, DebugFlags=Priority.
Same job set for each row: $NJOBS jobs of $NUSERS users (1 CPU, 20-80 s, time limit 5 min), submitted with
the partition DOWN, then released at once; after ${SETTLE} s, \`sdiag -r\`, then ${WINDOW} s of wall
time measured. ostrich.conf: ${OST_CONF:-empty (defaults: Interval=30, ThinkTime=600, Backfill=yes)}.
Cycle times are sdiag's (µs; timed inside the job write lock, so waiting for the lock is not
counted); main total = cycles x mean; µs/job = mean / mean depth (jobs tested per cycle);
pass = "ostrich: pass N took X ms" in slurmctld.log in the window (timed from before the
pass asks for the job write lock, so it includes the wait for it; schedule() only signals the
scheduler thread, so no main cycle is included); held = its "locks held" part; written = its
"priorities changed" (records whose priority the pass wrote), means over the passes.

| config | plugins | pending at end | jobs started | main cycles | **main mean µs** | main max µs | main mean depth | main total ms | main µs/job | bf cycles | bf mean µs | ostrich passes | pass mean ms | pass median ms | pass max ms | held mean ms | written per pass |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
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
