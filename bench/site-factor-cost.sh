#!/usr/bin/env bash
# site-factor-cost.sh - part of `make bench-plugin`: the cost of
# site_factor/ostrich inside priority/multifactor:
# multifactor's cycle (its decay thread, every PriorityCalcPeriod: the
# site factor update, then every pending job's priority recomputed) with
# site_factor/ostrich against multifactor alone, at NJOBS pending jobs,
# on the same job set in the same run.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage (as root): OST_SRCDIR=... OST_PLUGIN_BUILD=.../plugins/.libs \
#                  site-factor-cost.sh > site.md
#
# One local cluster (tools/cluster.sh) with slurmdbd (22.05's multifactor
# runs its decay thread only with it), sched/backfill +
# priority/multifactor (Fair Tree, the default, with age, fair-share, job
# size, partition and QOS weights, as a site sets them),
# PriorityCalcPeriod=1 (minute), no DebugFlags (DebugFlags=Priority makes
# multifactor log every job's factors at every cycle, which would be most
# of what is measured).  The partition DOWN, NJOBS jobs of one CPU from
# NUSERS users are submitted through libslurm (bench/submit_many.c, one
# process per user: sbatch per job is too slow for 10k).  Then PHASES
# (default "none site none-move site-move none site none-move site-move",
# alternated so that a drift of the machine falls on all): slurmctld
# restarted with multifactor alone (none) or with
# PrioritySiteFactorPlugin=site_factor/ostrich and
# PrioritySiteFactorParameters=weight=WEIGHT (site), and CYCLES cycles of
# the decay thread measured after the first (which, at a start, may come
# before the engine's first pass).  In a -move phase every rank moves
# between two cycles: one more pending job is held every MOVE_EVERY
# seconds (the partition's pending count P drops, so every job's value
# floor(W (P - R + 1) / P) moves and the update looks every job up: its
# worst case, doc/semantics.md §25); in the others nothing moves (its
# best case: no record read).
#
# The measure: bench/decay_probe.c, preloaded into slurmctld in both
# configurations, times each cycle of the thread named "decay" from its
# wake-up to its next sleep: the wall time, the time it waited for
# read-write locks (another thread's: the main scheduler, backfill, the
# engine's pass), the time it held at least one, the time in
# site_factor_g_update() (the plugin's update), and the CPU time the
# thread used (no lock or disk waits, no time the CPU went to another
# process: on a shared machine the wall time is noisy).  The claim is the
# ratio of the medians of the CPU time, site / none; the wall time less
# the lock waits is printed beside it.
#
# Environment: NJOBS (10000), NUSERS (50), CYCLES (4), PHASES, WEIGHT
# (1000000), MOVE_EVERY (15), SUBMIT_PAR (5), CTLD_PORT (53817), NODE_PORT_BASE (53901),
# SLURM_PREFIX, KEEP_WORK (1: keep the scratch directory).

set -euo pipefail

: "${NJOBS:=10000}" "${NUSERS:=50}" "${CYCLES:=4}"
: "${PHASES:=none site none-move site-move none site none-move site-move}"
: "${WEIGHT:=1000000}" "${SUBMIT_PAR:=5}" "${KEEP_WORK:=0}" "${MOVE_EVERY:=15}"
: "${CTLD_PORT:=53817}" "${NODE_PORT_BASE:=53901}"
: "${OST_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
export CTLD_PORT NODE_PORT_BASE
# the tree's commit now, not at the end of the run
commit=$(git -C "$OST_SRCDIR" rev-parse --short HEAD 2>/dev/null || echo unknown)

say() { echo "site-factor-cost: $*" >&2; }
die() { say "error: $*"; exit 1; }

for v in NJOBS NUSERS CYCLES WEIGHT SUBMIT_PAR MOVE_EVERY; do
	case ${!v} in '' | *[!0-9]*) die "$v=${!v}: not a whole number" ;; esac
done
for ph in $PHASES; do
	case $ph in none | site | none-move | site-move) ;; *) die "PHASES: unknown phase $ph" ;; esac
done
[ "$(id -u)" = 0 ] || die "run as root (it starts munged, slurmctld, slurmd, slurmdbd and MariaDB)"
[ -n "${OST_PLUGIN_BUILD:-}" ] || die "OST_PLUGIN_BUILD is not set"
[ -f "$OST_PLUGIN_BUILD/site_factor_ostrich.so" ] || die "missing $OST_PLUGIN_BUILD/site_factor_ostrich.so"

TEST_USERS=$(seq -f 'u%02g' 1 "$NUSERS" | tr '\n' ' ')
export OST_PLUGIN_BUILD TEST_USERS
OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.$CTLD_PORT.$NODE_PORT_BASE.lock}
exec 9>"$OST_LIVE_LOCK"
flock -w 3600 9 || die "another local cluster holds $OST_LIVE_LOCK"

. "$OST_SRCDIR/tools/cluster.sh"
for c in mariadbd slurmdbd; do command -v $c > /dev/null || die "no $c: the bench needs accounting"; done
[ -f "$STOCK_PLUGINDIR/accounting_storage_mysql.so" ] || die "no accounting_storage_mysql.so in $STOCK_PLUGINDIR"

TMPD=$(mktemp -d /tmp/ostrich-sitecost.XXXXXX)
chmod 755 "$TMPD"
INC='' LIB=''
if [ -n "${SLURM_PREFIX:-}" ]; then
	INC="-I$SLURM_PREFIX/include"
	LIB="-L$SLURM_PREFIX/lib -Wl,-rpath,$SLURM_PREFIX/lib"
fi
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 $INC -o "$TMPD/submit_many" "$OST_SRCDIR/bench/submit_many.c" $LIB -lslurm ||
	die "bench/submit_many.c did not build (Slurm's headers: libslurm-dev, or SLURM_PREFIX)"
${CC:-cc} -std=gnu11 -O2 -shared -fPIC -pthread -o "$TMPD/decay_probe.so" \
	"$OST_SRCDIR/bench/decay_probe.c" -ldl || die "bench/decay_probe.c did not build"
chmod 755 "$TMPD"/*

cluster_cancel_all() {	# the partition is DOWN: nothing runs
	return 0
}
MOVER=
stop_mover() {
	[ -z "$MOVER" ] || { kill "$MOVER" 2>/dev/null || true; wait "$MOVER" 2>/dev/null || true; }
	MOVER=
}
on_exit() {
	local rc=$?
	stop_mover
	cluster_stop
	if [ "$KEEP_WORK" != 1 ] && [ $rc = 0 ]; then
		rm -rf "${WORK:-}" "$TMPD"
	else
		say "kept: ${WORK:-} $TMPD"
	fi
	exit $rc
}
trap on_exit EXIT

NNODES=2 CPUS_PER_NODE=4 ACCT=1
SCHED=sched/backfill PRIO=priority/multifactor
MF="PriorityCalcPeriod=1
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=1000
PriorityWeightQOS=1000
PriorityMaxAge=7-0
MaxJobCount=$(( NJOBS * 2 + 1000 ))"
conf() {	# conf none|site (a -move phase's configuration is its kind's)
	local extra=$MF
	[ "${1%-move}" = none ] || extra+=$'\n'"PrioritySiteFactorPlugin=site_factor/ostrich"$'\n'"PrioritySiteFactorParameters=weight=$WEIGHT"
	cluster_conf "$extra"
	sed -i '/^DebugFlags=/d; /^PartitionName=debug /s/State=UP/State=DOWN/' "$SLURM_CONF"
}
PROBE_OUT=
CLUSTER_CTLD_ENV=
n_cycles() { local n; n=$(grep -c '^cycle ' "$PROBE_OUT" 2>/dev/null || true); echo "${n:-0}"; }

cluster_init
PROBE_OUT=$WORK/decay-probe.txt
CLUSTER_CTLD_ENV="LD_PRELOAD=$TMPD/decay_probe.so OST_DECAY_PROBE=$PROBE_OUT"
printf 'EventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
conf none
cluster_start
scontrol update PartitionName=debug State=DOWN
say "cluster up on ports $CTLD_PORT/$NODE_PORT_BASE, $WORK; submitting $NJOBS jobs"
t0=$(date +%s)
pids=()
for (( w = 1; w <= SUBMIT_PAR && w <= NUSERS; w++ )); do
	(
		for (( i = w; i <= NUSERS; i += SUBMIT_PAR )); do
			c=$(( NJOBS / NUSERS + (i <= NJOBS % NUSERS ? 1 : 0) ))
			[ "$c" = 0 ] || runuser -u "$(printf 'u%02d' "$i")" -- env SLURM_CONF="$SLURM_CONF" \
				"$TMPD/submit_many" "$c" "$WORK/out" "$i" || exit 1
		done
	) &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || die "a submitter failed"; done
n=$(squeue -h -t PD -o %i | wc -l)
[ "$n" = "$NJOBS" ] || die "$n jobs pending, not $NJOBS"
FILL_S=$(( $(date +%s) - t0 ))
say "$NJOBS jobs pending after $FILL_S s"

# phase KIND: restart with KIND, CYCLES cycles after the first
declare -A ROWS
k=0
for ph in $PHASES; do
	k=$((k + 1))
	ctld_stop TERM
	conf "$ph"
	ctld_start || { tail -20 "$WORK/log/slurmctld.log" >&2; die "slurmctld did not start ($ph)"; }
	if [ "${ph%-move}" = site ]; then
		grep -q "ostrich: site_factor/ostrich: weight $WEIGHT" "$WORK/log/slurmctld.log" ||
			die "site_factor/ostrich not loaded"
	fi
	c0=$(n_cycles)
	if [ "$ph" != "${ph%-move}" ]; then
		# hold one more pending job (the newest not held) every
		# MOVE_EVERY s: P moves between every two cycles
		(
			for id in $(squeue -h -t PD -o '%i %r' | awk '$2 != "JobHeldAdmin" { print $1 }' | sort -n | tail -400 | sort -nr); do
				scontrol hold "$id" || exit 1
				sleep "$MOVE_EVERY"
			done
		) &
		MOVER=$!
	fi
	say "phase $k ($ph): waiting for $((CYCLES + 1)) decay cycles (PriorityCalcPeriod=1 minute)"
	for _ in $(seq $(( (CYCLES + 2) * 600 ))); do
		[ "$(n_cycles)" -ge $((c0 + CYCLES + 1)) ] && break
		sleep 0.1
	done
	[ -z "$MOVER" ] || kill -0 "$MOVER" 2>/dev/null || die "phase $k: the job holder stopped (scontrol hold failed)"
	stop_mover
	[ "$(n_cycles)" -ge $((c0 + CYCLES + 1)) ] || die "phase $k: not $((CYCLES + 1)) decay cycles in $((CYCLES + 2)) minutes"
	[ "$(squeue -h -t PD -o %i | wc -l)" = "$NJOBS" ] || die "phase $k: jobs lost"
	# the first recorded cycle of a phase is its second (the probe does
	# not see the first, which runs before any wait); skip one more: the
	# site factor update right after a start may precede the first pass
	ROWS[$k]=$(awk -v c0="$c0" -v n="$CYCLES" '/^cycle / { i++; if (i > c0 + 1 && i <= c0 + 1 + n) print }' "$PROBE_OUT")
	[ "${ph%-move}" != site ] || grep -q 'ostrich: engine configured' "$WORK/log/slurmctld.log" || die "no engine in phase $k"
done

# medians of each configuration, in ms
med() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f\n", m / 1000 }'; }
col() {	# col KIND FIELD: FIELD (2 wall 3 wait 4 held 5 site 6 cpu, 7 wall - wait) of KIND's cycles
	local i=0 ph
	for ph in $PHASES; do
		i=$((i + 1))
		[ "$ph" = "$1" ] || continue
		printf '%s\n' "${ROWS[$i]}" | awk -v f="$2" '{ print (f == 7) ? $2 - $3 : $(f) }'
	done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "-") printf "%.3f", a / b; else print "-" }'; }

v=$(slurmctld -V | awk '{ print $2 }')
cat <<EOF
### site_factor/ostrich inside multifactor: the cost of its cycle

Slurm $v, plugins of commit $commit, $(date -u +%Y-%m-%d), $(nproc) CPUs
($(uptime | sed 's/.*load average: /load /')).  $NJOBS pending jobs of one CPU
from $NUSERS users (filled in $FILL_S s through libslurm, the partition DOWN:
nothing starts, every job stays pending), sched/backfill +
priority/multifactor (Fair Tree; age 1000, fair-share 10000, job size 1000,
partition 1000, QOS 1000), slurmdbd, PriorityCalcPeriod=1, no DebugFlags.
Phases in order: $PHASES, each a slurmctld restart
(site: \`PrioritySiteFactorPlugin=site_factor/ostrich\`,
\`PrioritySiteFactorParameters=weight=$WEIGHT\`, its engine's passes on
their own thread every Interval; a -move phase holds one more pending job
every $MOVE_EVERY s, so that every rank and the pending count move between
two cycles), then $CYCLES cycles of multifactor's
decay thread measured after the first two (bench/decay_probe.c, preloaded
in both: wall = wake-up to sleep; wait = blocked on read-write locks;
held = holding at least one; site = in \`site_factor_g_update()\`;
wall - wait; CPU = the thread's CPU time, CLOCK_THREAD_CPUTIME_ID, the
measure of the claim).  Times in ms.

| phase | config | cycle | wall | wait | wall - wait | held | site update | **CPU** |
|---:|---|---:|---:|---:|---:|---:|---:|---:|
EOF
i=0
for ph in $PHASES; do
	i=$((i + 1))
	printf '%s\n' "${ROWS[$i]}" | awk -v k="$i" -v ph="$ph" '
		{ printf "|%d|%s|%d|%.2f|%.2f|%.2f|%.2f|%.3f|%.2f|\n", k, ph, NR, $2 / 1000, $3 / 1000, ($2 - $3) / 1000, $4 / 1000, $5 / 1000, $6 / 1000 }'
done
mn() { sort -g | head -1 | awk '{ printf "%.2f\n", $1 / 1000 }'; }
# summary SUFFIX LABEL: the table of none$SUFFIX against site$SUFFIX
summary() {
	local N=none$1 S=site$1 n_own s_own n_cpu s_cpu n_wall s_wall n_held s_held
	local n_site s_site r_cpu n_min s_min r_attr pairs i prev m ph verdict
	case " $PHASES " in *" $N "*) ;; *) return 0 ;; esac
	case " $PHASES " in *" $S "*) ;; *) return 0 ;; esac
	n_own=$(col "$N" 7 | med) s_own=$(col "$S" 7 | med)
	n_cpu=$(col "$N" 6 | med) s_cpu=$(col "$S" 6 | med)
	n_wall=$(col "$N" 2 | med) s_wall=$(col "$S" 2 | med)
	n_held=$(col "$N" 4 | med) s_held=$(col "$S" 4 | med)
	s_site=$(col "$S" 5 | med) n_site=$(col "$N" 5 | med)
	r_cpu=$(ratio "$s_cpu" "$n_cpu")
	# the least cycle of each (noise on a shared machine only adds
	# time), and the part the plugin's update itself takes
	n_min=$(col "$N" 6 | mn) s_min=$(col "$S" 6 | mn)
	r_attr=$(awk -v a="$s_site" -v b="$n_cpu" 'BEGIN { if (b > 0 && a != "-") printf "%.3f", 1 + a / b; else print "-" }')
	# each none phase against the site phase after it (CPU medians)
	pairs= i=0 prev=
	for ph in $PHASES; do
		i=$((i + 1))
		m=$(printf '%s\n' "${ROWS[$i]}" | awk '{ print $6 }' | med)
		if [ "$ph" = "$N" ]; then prev=$m
		elif [ "$ph" = "$S" ] && [ -n "$prev" ]; then pairs+="$(ratio "$m" "$prev")× "; prev=; fi
	done
	verdict=$(awk -v r="$r_cpu" 'BEGIN { if (r == "-") print "not measured"; else print (r + 0 <= 1.1) ? "**met**" : "**missed**" }')
	cat <<EOT

$2

| median over the cycles, ms | multifactor alone ($N) | + site_factor/ostrich ($S) | ratio |
|---|---:|---:|---:|
| cycle, CPU time | $n_cpu | $s_cpu | **${r_cpu}×** |
| cycle, CPU time, least | $n_min | $s_min | $(ratio "$s_min" "$n_min")× |
| cycle, wall - wait | $n_own | $s_own | $(ratio "$s_own" "$n_own")× |
| cycle, wall | $n_wall | $s_wall | $(ratio "$s_wall" "$n_wall")× |
| locks held | $n_held | $s_held | $(ratio "$s_held" "$n_held")× |
| site factor update | $n_site | $s_site | |

Target: multifactor's cycle with site_factor/ostrich within
1.1× of multifactor alone at $NJOBS pending (CPU time of the cycle):
${r_cpu}×, $verdict.  Each $N phase against the $S phase after it:
${pairs:-none}(the spread is the machine's noise).  The plugin's update
itself, 1 + its median over multifactor's median cycle: ${r_attr}×.
EOT
}
summary "" "**Nothing moves** (the update's best case: it reads no record again):"
summary -move "**Every rank moves between two cycles** (one more job held every $MOVE_EVERY s; the update's worst case: it looks every pending job up):"
