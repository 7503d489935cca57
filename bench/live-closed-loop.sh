#!/usr/bin/env bash
# live-closed-loop.sh - a closed-loop benchmark on a real cluster (`make
# bench-live`): users who wait for each campaign to end
# before they think and submit the next, under five scheduling policies,
# with each campaign's stretch read from Slurm's own accounting (sacct).
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage (as root): OST_SRCDIR=... OST_PLUGIN_BUILD=.../plugins/.libs \
#                  live-closed-loop.sh > results-live.md
#
# The cluster is that of the live tests (tools/cluster.sh): munged,
# MariaDB + slurmdbd (ACCT=1, for sacct and Fair Tree), slurmctld and
# NNODES slurmd on loopback, every node with CPUS_PER_NODE CPUs and
# GPUS_PER_NODE GPUs over empty device files.  A fresh cluster (scratch
# directory, database) per policy; every daemon stopped by its PID.
#
# The scenario (SEED fixes it, the same for every policy): seven users in
# four classes, each with a plan of campaigns drawn in advance (a
# Park-Miller generator in awk, seeded by SEED and the user's index, so
# the plan does not depend on the awk nor on the policy):
#   heavy   heavy1                 4 campaigns of 8-12 jobs, 1-2 CPUs, 20-50 s
#   light   light1 light2 light3   8 campaigns of 1-3 jobs, 1 CPU, 5-25 s
#   whole   whole1                 4 campaigns of 1 job of every CPU of
#                                  the machine (-N NNODES), 15-30 s
#   gpu     gpu1 gpu2              5 campaigns of 2-5 jobs, 1 CPU and
#                                  --gres=gpu:1-2, 20-45 s
# and a think time of 0-30 s before each campaign.  Every job is a
# `sleep` (no CPU burnt), time limit ceil((run + 15) / 60) minutes.  One
# background shell per user, running as that user (runuser), goes through
# its plan: think, sbatch every job of the campaign, record their ids,
# wait (squeue, every second) until none is left, then the next campaign.
# It starts no campaign after SUBMIT_WINDOW s (from the start of the
# drive), and cancels its jobs and stops at HARD_LIMIT s: bounded in
# count and in time, it stops by itself.
#
# Policies (POLICIES, in this order by default):
#   ostrich-soft  sched/ostrich + priority/ostrich, Gate=soft (the old rule)
#   ostrich-none  the same with Gate=none (rank by F alone, semantics.md §24)
#   ostrich-rules the same with Gate=none, Lead=cap and Overdue=restart
#                 (semantics.md §24, §27)
#     ostrich.conf of all three: OST_CONF (Interval=5, ThinkTime=5) + Gate=...
#   fairtree      sched/backfill + priority/multifactor, Fair Tree (the
#                 default of 22.05) through slurmdbd, every user in one
#                 account (sacctmgr, tools/cluster.sh), FAIRTREE_CONF
#   fifo          sched/builtin + priority/basic
#
# Stretch of a campaign, from sacct (Submit, Start, End, ElapsedRaw,
# AllocTRES of each of its jobs; -X, the allocations):
#   stretch = (last End - first Submit) / LB
#   LB = max(sum(ElapsedRaw x CPUs) / machine CPUs,
#            sum(ElapsedRaw x GPUs) / machine GPUs   (GPU users only),
#            max ElapsedRaw, 1 s)
# Campaigns cancelled at HARD_LIMIT are left out (and counted).
#
# Output: markdown on stdout, progress on stderr.  Environment: SEED (37),
# NNODES (4), CPUS_PER_NODE (4), GPUS_PER_NODE (2), SUBMIT_WINDOW (360),
# HARD_LIMIT (540), POLICIES, OST_CONF, FAIRTREE_CONF, CTLD_PORT and
# NODE_PORT_BASE (tools/cluster.sh; a lock of their own unless the live
# tests' defaults), KEEP_WORK (1: keep the scratch directories),
# BENCH_TARGET (the make target, for the command line in the report),
# REPORT_FROM (the results directory of a run kept with KEEP_WORK=1,
# /tmp/ostrich-live-res.*: no cluster, the report rendered again from
# its plan, records and sacct lines).

set -euo pipefail

: "${SEED:=37}" "${NNODES:=4}" "${CPUS_PER_NODE:=4}" "${GPUS_PER_NODE:=2}"
: "${SUBMIT_WINDOW:=360}" "${HARD_LIMIT:=540}" "${KEEP_WORK:=0}"
: "${POLICIES:=ostrich-soft ostrich-none ostrich-rules fairtree fifo}"
: "${OST_CONF:=$(printf 'Interval=5\nThinkTime=5')}"
: "${FAIRTREE_CONF:=$(printf '%s\n' PriorityWeightFairshare=100000 PriorityWeightAge=100 \
	PriorityMaxAge=0-0:10 PriorityDecayHalfLife=0-0:05 PriorityCalcPeriod=1)}"
: "${OST_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BENCH_TARGET:=}"

say() { echo "live-closed-loop: $*" >&2; }
die() { say "error: $*"; exit 1; }

for v in SEED NNODES CPUS_PER_NODE GPUS_PER_NODE SUBMIT_WINDOW HARD_LIMIT; do
	case ${!v} in '' | *[!0-9]*) die "$v=${!v}: not a whole number" ;; esac
done
[ "$GPUS_PER_NODE" -gt 0 ] || die "GPUS_PER_NODE must be > 0 (the GPU users)"
[ "$HARD_LIMIT" -gt "$SUBMIT_WINDOW" ] || die "HARD_LIMIT must exceed SUBMIT_WINDOW"
[ -n "${REPORT_FROM:-}" ] || [ "$(id -u)" = 0 ] || die "run as root (it starts munged, MariaDB, slurmdbd, slurmctld and slurmd, and adds test users)"
PATH=$PATH:/usr/sbin:/sbin
[ -z "${SLURM_PREFIX:-}" ] || PATH=$SLURM_PREFIX/sbin:$SLURM_PREFIX/bin:$PATH
[ -n "${REPORT_FROM:-}" ] ||
for c in slurmctld slurmd slurmdbd munged mariadbd sbatch sacct sacctmgr; do
	command -v $c >/dev/null || die "$c not installed (tools/install-deps.sh)"
done
[ -n "${REPORT_FROM:-}" ] ||
case " $POLICIES " in *" ostrich-"*)
	[ -n "${OST_PLUGIN_BUILD:-}" ] || die "OST_PLUGIN_BUILD is not set (the directory of sched_ostrich.so)"
	for f in sched_ostrich.so priority_ostrich.so libostrich_slurm.so; do
		[ -f "$OST_PLUGIN_BUILD/$f" ] || die "missing $OST_PLUGIN_BUILD/$f"
	done ;;
esac

# user:class, in the order of their seeds
CL_USERS="heavy1:heavy light1:light light2:light light3:light whole1:whole gpu1:gpu gpu2:gpu"
TEST_USERS=$(for p in $CL_USERS; do printf '%s ' "${p%%:*}"; done)
TOT_CPUS=$(( NNODES * CPUS_PER_NODE )) TOT_GPUS=$(( NNODES * GPUS_PER_NODE ))
ACCT=1
export OST_PLUGIN_BUILD TEST_USERS ACCT NNODES CPUS_PER_NODE GPUS_PER_NODE

# One cluster at a time on the same ports, as the live tests
# (tests/live/live-lib.sh): their lock on their ports, else one of our own.
if [ -n "${REPORT_FROM:-}" ]; then
	:	# the report of a run kept (KEEP_WORK=1): no cluster
elif [ "${CTLD_PORT:-16817}.${NODE_PORT_BASE:-17001}" = 16817.17001 ]; then
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.lock}
else
	OST_LIVE_LOCK=${OST_LIVE_LOCK:-/tmp/ostrich-live.${CTLD_PORT}.${NODE_PORT_BASE}.lock}
fi
if [ -z "${REPORT_FROM:-}" ]; then
	exec 9>"$OST_LIVE_LOCK"
	say "waiting for $OST_LIVE_LOCK"
	flock -w 3600 9 || die "another local cluster holds $OST_LIVE_LOCK"
	. "$OST_SRCDIR/tools/cluster.sh"
fi

WORKS=() DRIVERS=()
on_exit() {
	local rc=$? p
	for p in "${DRIVERS[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -n "${REPORT_FROM:-}" ] || cluster_stop
	if [ "$KEEP_WORK" != 1 ] && [ $rc = 0 ]; then
		rm -rf "${WORKS[@]}"
	elif [ ${#WORKS[@]} -gt 0 ]; then
		say "scratch directories kept: ${WORKS[*]}"
	fi
	exit $rc
}
trap on_exit EXIT

# The plan: one line per job, "user class campaign think nodes cpus gpus
# run limit" (nodes 0: not asked; limit in minutes).  Park-Miller
# (x = 16807 x mod 2^31 - 1, exact in doubles) seeded by SEED and the
# user's index: the same plan whatever awk and whatever policy.
make_plan() {
	awk -v users="$CL_USERS" -v seed="$SEED" -v nn="$NNODES" -v tc="$TOT_CPUS" '
	function rnd() { x = (x * 16807) % 2147483647; return x / 2147483647 }
	function uni(a, b) { return a + int(rnd() * (b - a + 1)) }
	BEGIN {
		n = split(users, U, " ")
		for (i = 1; i <= n; i++) {
			split(U[i], p, ":"); u = p[1]; cl = p[2]
			x = (seed * 7919 + i * 104729) % 2147483647
			if (x == 0) x = 1
			for (k = 0; k < 5; k++) rnd()
			nc = (cl == "heavy" || cl == "whole") ? 4 : (cl == "light") ? 8 : 5
			for (k = 1; k <= nc; k++) {
				th = uni(0, 30)
				nj = (cl == "heavy") ? uni(8, 12) : (cl == "light") ? uni(1, 3) : \
				     (cl == "whole") ? 1 : uni(2, 5)
				for (j = 1; j <= nj; j++) {
					nodes = 0; g = 0
					if (cl == "heavy") { c = uni(1, 2); r = uni(20, 50) }
					else if (cl == "light") { c = 1; r = uni(5, 25) }
					else if (cl == "whole") { c = tc; nodes = nn; r = uni(15, 30) }
					else { c = 1; g = uni(1, 2); r = uni(20, 45) }
					print u, cl, k, th, nodes, c, g, r, int((r + 15 + 59) / 60)
				}
			}
		}
	}'
}

# The driver, run as the user: DRIVER USER PLAN REC OUTDIR T_WINDOW T_HARD.
# REC gets "c K T_SUBMITTED JOBID..." when campaign K is submitted, "d K
# T" when its last job has left the queue, "x K T" if it was cancelled at
# T_HARD, "s K T" when the window closed before K.
# shellcheck disable=SC2016
DRIVER='
u=$1 plan=$2 rec=$3 out=$4 t_win=$5 t_hard=$6
for k in $(awk -v u="$u" "\$1 == u { print \$3 }" "$plan" | uniq); do
	think=$(awk -v u="$u" -v k="$k" "\$1 == u && \$3 == k { print \$4; exit }" "$plan")
	sleep "$think"
	if [ "$(date +%s)" -ge "$t_win" ]; then echo "s $k $(date +%s)" >> "$rec"; exit 0; fi
	ids=
	while read -r _ _ _ _ nodes c g r lim; do
		opts="-n $c"
		[ "$nodes" = 0 ] || opts="$opts -N $nodes"
		[ "$g" = 0 ] || opts="$opts --gres=gpu:$g"
		id=
		for try in 1 2 3 4 5; do
			id=$(sbatch --parsable -D "$out" -o /dev/null -J "$u.c$k" -t "$lim" $opts \
				--wrap "sleep $r") && break
			sleep 1
		done
		[ -n "$id" ] || { echo "sbatch failed for $u campaign $k" >&2; exit 1; }
		ids="$ids ${id%%;*}"
	done < <(awk -v u="$u" -v k="$k" "\$1 == u && \$3 == k" "$plan")
	echo "c $k $(date +%s)$ids" >> "$rec"
	while :; do
		sleep 1
		if q=$(squeue -h -u "$u" -o %i 2>/dev/null) && [ -z "$q" ]; then break; fi
		if [ "$(date +%s)" -ge "$t_hard" ]; then
			scancel -u "$u" 2>/dev/null
			echo "x $k $(date +%s)" >> "$rec"
			exit 0
		fi
	done
	echo "d $k $(date +%s)" >> "$rec"
done
'

# sacct_wait IDS...: until slurmdbd has every job ended (an End time and
# a final state), 180 s at most; then its lines, "id|user|submit|start|
# end|elapsedraw|alloctres|state", times in seconds since the epoch.
sacct_get() {
	SLURM_TIME_FORMAT=%s sacct -X -n -P -a -j "$(printf '%s\n' "$@" | paste -sd,)" \
		--format=JobIDRaw,User,Submit,Start,End,ElapsedRaw,AllocTRES,State 2>/dev/null
}
sacct_wait() {
	local out n
	for _ in $(seq 180); do
		out=$(sacct_get "$@") || out=
		n=$(printf '%s\n' "$out" | awk -F'|' '$5 ~ /^[0-9]+$/ && $8 !~ /^(PENDING|RUNNING|REQUEUED|SUSPENDED)/' | wc -l)
		[ "$n" -ge "$#" ] && break
		sleep 1
	done
	sacct_get "$@"
}

# run_policy NAME: one cluster, the drive, the accounting; leaves
# $RES/NAME.camp ("user class k njobs submit end lb stretch", one line a
# campaign), $RES/NAME.info and $RES/NAME.cut (campaigns cut).
# RES: the results of every policy (the plan, records, sacct lines,
# campaigns, times), kept with KEEP_WORK=1; REPORT_FROM=RES renders the
# report again from them, without a cluster
if [ -n "${REPORT_FROM:-}" ]; then
	RES=$REPORT_FROM
else
	RES=$(mktemp -d /tmp/ostrich-live-res.XXXXXX)
	WORKS+=("$RES")
fi
run_policy() {
	local name=$1 t0 t1 t2 t3 tw th pid u rec ids extra=
	unset WORK
	case $name in
	ostrich-soft | ostrich-none | ostrich-rules)
		SCHED=sched/ostrich PRIO=priority/ostrich ;;
	fairtree) SCHED=sched/backfill PRIO=priority/multifactor extra=$FAIRTREE_CONF ;;
	fifo) SCHED=sched/builtin PRIO=priority/basic ;;
	*) die "unknown policy $name (ostrich-soft ostrich-none ostrich-rules fairtree fifo)" ;;
	esac
	t0=$(date +%s)
	cluster_init
	WORKS+=("$WORK")
	case $name in
	ostrich-soft) printf '%s\nGate=soft\n' "$OST_CONF" > "$WORK/ostrich.conf" ;;
	ostrich-none) printf '%s\nGate=none\n' "$OST_CONF" > "$WORK/ostrich.conf" ;;
	ostrich-rules) printf '%s\nGate=none\nLead=cap\nOverdue=restart\n' "$OST_CONF" \
		> "$WORK/ostrich.conf" ;;
	esac
	cluster_conf "$extra"
	cluster_start
	install -m 0644 "$RES/plan" "$WORK/out/plan"
	say "$name: cluster up ($SCHED + $PRIO, $NNODES x $CPUS_PER_NODE CPUs, $GPUS_PER_NODE GPUs each, $WORK)"
	t1=$(date +%s)
	tw=$(( t1 + SUBMIT_WINDOW )) th=$(( t1 + HARD_LIMIT ))
	DRIVERS=()
	for u in $TEST_USERS; do
		rec=$WORK/out/rec-$u
		: > "$rec"; chown "$u" "$rec"
		runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" \
			bash -c "$DRIVER" driver "$u" "$WORK/out/plan" "$rec" "$WORK/out" "$tw" "$th" \
			< /dev/null 9>&- &
		DRIVERS+=($!)
	done
	local bad=0
	for pid in "${DRIVERS[@]}"; do wait "$pid" || bad=1; done
	DRIVERS=()
	[ $bad = 0 ] || say "$name: warning: a driver failed (see its record)"
	t2=$(date +%s)
	say "$name: drive over in $(( t2 - t1 )) s; reading sacct"
	ids=$(cat "$WORK"/out/rec-* | awk '$1 == "c" { for (i = 4; i <= NF; i++) print $i }')
	[ -n "$ids" ] || die "$name: no job submitted"
	# shellcheck disable=SC2086
	sacct_wait $ids > "$WORK/sacct.txt"
	cp "$WORK/sacct.txt" "$RES/$name.sacct"
	for u in $TEST_USERS; do
		sed "s/^/$u /" "$WORK/out/rec-$u"
	done > "$RES/$name.rec"
	cluster_stop
	t3=$(date +%s)
	echo "$(( t3 - t0 )) $(( t2 - t1 ))" > "$RES/$name.info"
	say "$name: done in $(( t3 - t0 )) s (drive $(( t2 - t1 )) s)"
	WORK=
}

# campaigns NAME: "user class k njobs submit end lb stretch" per campaign
# completed, from the records and sacct; the cut ones to NAME.cut.
campaigns() {
	local n=$1
	awk -v tc="$TOT_CPUS" -v tg="$TOT_GPUS" -v users="$CL_USERS" -v cut="$RES/$n.cut" '
	BEGIN { m = split(users, U, " "); for (i = 1; i <= m; i++) { split(U[i], p, ":"); cls[p[1]] = p[2] } }
	FNR == NR {
		split($0, f, "|")
		id = f[1]; sb[id] = f[3]; en[id] = f[5]; el[id] = f[6] + 0; state[id] = f[8]
		c = 0; g = 0
		if (match(f[7], /(^|,)cpu=[0-9]+/)) { s = substr(f[7], RSTART, RLENGTH); sub(/.*=/, "", s); c = s + 0 }
		if (match(f[7], /gres\/gpu=[0-9]+/)) { s = substr(f[7], RSTART, RLENGTH); sub(/.*=/, "", s); g = s + 0 }
		cpu[id] = c; gpu[id] = g
		next
	}
	$2 == "c" { key = $1 " " $3; ct[key] = $4; nj[key] = NF - 4; for (i = 5; i <= NF; i++) J[key, i - 4] = $i; order[++no] = key; next }
	$2 == "x" { xc[$1 " " $3] = $4; next }
	END {
		for (o = 1; o <= no; o++) {
			key = order[o]; split(key, q, " "); u = q[1]
			if (key in xc) { print u, cls[u], q[2], "cancelled", xc[key] - ct[key], "s after its submission (HARD_LIMIT)" > cut; continue }
			first = ""; last = 0; wc = 0; wg = 0; lo = 0; ok = 1
			for (j = 1; j <= nj[key]; j++) {
				id = J[key, j]
				if (!(id in sb) || en[id] !~ /^[0-9]+$/ || state[id] !~ /^COMPLETED/) { ok = 0; break }
				if (first == "" || sb[id] < first) first = sb[id]
				if (en[id] > last) last = en[id]
				wc += el[id] * cpu[id]; wg += el[id] * gpu[id]
				if (el[id] > lo) lo = el[id]
			}
			if (!ok) { print u, cls[u], q[2], "(no complete sacct record: " id ")" > cut; continue }
			lb = wc / tc
			if (cls[u] == "gpu" && wg / tg > lb) lb = wg / tg
			if (lo > lb) lb = lo
			if (lb < 1) lb = 1
			printf "%s %s %s %d %d %d %.2f %.3f\n", u, cls[u], q[2], nj[key], first, last, lb, (last - first) / lb
		}
	}' "$RES/$n.sacct" "$RES/$n.rec"
}

if [ -n "${REPORT_FROM:-}" ]; then
	# T_START, LOAD_START, SLURM_V, COMMIT of the run
	# shellcheck disable=SC1091
	. "$RES/meta"
	for p in $POLICIES; do campaigns "$p" > "$RES/$p.camp"; done
else
	T_START=$(date -u '+%Y-%m-%d %H:%M UTC')
	LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
	SLURM_V=$(slurmctld -V 2>/dev/null)
	COMMIT=${OST_PLUGIN_COMMIT:-$(git -C "$OST_SRCDIR" rev-parse --short HEAD 2>/dev/null || echo unknown)}
	printf 'T_START=%q LOAD_START=%q SLURM_V=%q COMMIT=%q\n' "$T_START" "$LOAD_START" "$SLURM_V" "$COMMIT" > "$RES/meta"
	make_plan > "$RES/plan"
	for p in $POLICIES; do
		run_policy "$p"
		campaigns "$p" > "$RES/$p.camp"
	done
fi

# ---- the report ---------------------------------------------------------
# stats FILE FIELD VALUE: "n max mean" of the stretches of the campaigns
# whose FIELD (1 user, 2 class, 0 all) is VALUE.
stats() {
	awk -v f="$2" -v v="$3" '(f == 0 || $f == v) { n++; s += $8; if ($8 > m) m = $8 }
		END { if (n) printf "%d %.2f %.2f\n", n, m, s / n; else print "0 - -" }' "$1"
}
cmd="make ${BENCH_TARGET:-bench-live}"
[ -n "$BENCH_TARGET" ] || cmd="bench/live-closed-loop.sh"
envs=""
for v in SEED NNODES CPUS_PER_NODE GPUS_PER_NODE SUBMIT_WINDOW HARD_LIMIT CTLD_PORT NODE_PORT_BASE; do
	envs="$envs$v=${!v} "
done
[ "$POLICIES" = "ostrich-soft ostrich-none ostrich-rules fairtree fifo" ] || envs="${envs}POLICIES=\"$POLICIES\" "

cat <<EOF
# Closed-loop benchmark on a live cluster (\`make bench-live\`)

Generated $T_START by bench/live-closed-loop.sh, plugins of commit $COMMIT, $SLURM_V (the packaged Slurm; no other series run).
Machine: $(uname -srm), $(nproc) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), load average at the start $LOAD_START (shared with other work).
Command (as root, from the build directory): \`$envs$cmd\`$([ -z "${REPORT_FROM:-}" ] || printf '\n(This report rendered again %s from the run'"'"'s kept results, REPORT_FROM: same plan, records and sacct lines.)' "$(date -u '+%Y-%m-%d %H:%M UTC')")

**Cluster** (tools/cluster.sh, fresh for each policy, with MariaDB + slurmdbd for sacct): $NNODES nodes x $CPUS_PER_NODE CPUs
x $GPUS_PER_NODE GPUs (empty device files, every node a GPU node) on loopback, $TOT_CPUS CPUs and $TOT_GPUS GPUs,
select/cons_tres CR_Core, SchedulerParameters=bf_interval=1,sched_min_interval=100000.

**Scenario** (SEED=$SEED, the same plan for every policy; every job a \`sleep\`): closed loop, one shell per
user running as that user: think, sbatch the campaign, wait (squeue, 1 s) until its last job has left
the queue, then the next campaign; think times 0-30 s (before each campaign, the first too); no
campaign started after ${SUBMIT_WINDOW} s, jobs cancelled at ${HARD_LIMIT} s (such campaigns are left out).

| class | users | campaigns each | jobs per campaign | each job |
|---|---|---:|---|---|
| heavy | heavy1 | 4 | 8-12 | 1-2 CPUs, 20-50 s |
| light | light1 light2 light3 | 8 | 1-3 | 1 CPU, 5-25 s |
| whole | whole1 | 4 | 1 | all $TOT_CPUS CPUs (-N $NNODES -n $TOT_CPUS), 15-30 s |
| gpu | gpu1 gpu2 | 5 | 2-5 | 1 CPU + --gres=gpu:1-2, 20-45 s |

Time limit of a job: ceil((run + 15) / 60) min.  Work in the plan: $(awk -v tc="$TOT_CPUS" '{ c += $6 * $8; g += $7 * $8; n++ }
	END { printf "%d jobs, %d CPU-s (%.0f s of the whole machine), %d GPU-s", n, c, c / tc, g }' "$RES/plan").

**Policies**: ostrich-soft = sched/ostrich + priority/ostrich, ostrich.conf \`$(printf '%s' "$OST_CONF" | paste -sd' ')\` + \`Gate=soft\`
(the old rule); ostrich-none = the same + \`Gate=none\` (rank by F alone, doc/semantics.md §24);
ostrich-rules = the same + \`Gate=none Lead=cap Overdue=restart\` (doc/semantics.md §24, §27);
fairtree = sched/backfill + priority/multifactor, Fair Tree (PriorityFlags default of 22.05) through slurmdbd,
every user in one account "research" (sacctmgr), \`$(printf '%s' "$FAIRTREE_CONF" | paste -sd' ')\` (billing = CPUs: GPUs are not charged);
fifo = sched/builtin + priority/basic.

**Stretch** of a campaign, from sacct -X (Submit, End, ElapsedRaw, AllocTRES of its jobs, as the driver recorded their ids):

    stretch = (last End - first Submit) / LB
    LB = max( sum(ElapsedRaw x CPUs) / $TOT_CPUS,
              sum(ElapsedRaw x GPUs) / $TOT_GPUS   (gpu class only),
              max ElapsedRaw,  1 s )

EOF

for p in $POLICIES; do
	read -r tot drive < "$RES/$p.info"
	ncut=$( [ -s "$RES/$p.cut" ] && wc -l < "$RES/$p.cut" || echo 0)
	echo "## $p"
	echo
	echo "Wall time: ${tot} s in all (cluster start and stop included), drive ${drive} s; campaigns left out (cancelled or incomplete): $ncut."
	echo
	echo "| user | class | campaigns done | jobs | not started (window closed) | cancelled | max stretch | mean stretch |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	for pu in $CL_USERS; do
		u=${pu%%:*} c=${pu#*:}
		read -r n mx mn < <(stats "$RES/$p.camp" 1 "$u")
		nj=$(awk -v u="$u" '$1 == u { s += $4 } END { print s + 0 }' "$RES/$p.camp")
		ns=$(awk -v u="$u" -v s="$(awk -v u="$u" '$1 == u && $2 == "s" { print $3 }' "$RES/$p.rec")" \
			'$1 == u { k[$3] = 1 } END { if (s == "") { print 0; exit } for (i in k) if (i + 0 >= s + 0) n++; print n + 0 }' "$RES/plan")
		nx=$(awk -v u="$u" '$1 == u && $2 == "x"' "$RES/$p.rec" | wc -l)
		echo "| $u | $c | $n | $nj | $ns | $nx | $mx | $mn |"
	done
	for c in heavy light whole gpu; do
		read -r n mx mn < <(stats "$RES/$p.camp" 2 "$c")
		echo "| **class $c** | | $n | | | | **$mx** | **$mn** |"
	done
	read -r n mx mn < <(stats "$RES/$p.camp" 0 -)
	echo "| **all** | | $n | | | | **$mx** | **$mn** |"
	echo
	echo "<details><summary>campaigns of $p (user, class, campaign, jobs, first submit, last end, LB s, stretch)</summary>"
	echo
	echo '```'
	cat "$RES/$p.camp"
	[ ! -s "$RES/$p.cut" ] || { echo "# left out:"; cat "$RES/$p.cut"; }
	echo '```'
	echo
	echo "</details>"
	echo
done

echo "## Summary"
echo
printf '| class | measure |'; for p in $POLICIES; do printf ' %s |' "$p"; done; echo
printf '|---|---|'; for p in $POLICIES; do printf -- '---:|'; done; echo
for c in heavy light whole gpu all; do
	for m in max mean; do
		printf '| %s | %s stretch |' "$c" "$m"
		for p in $POLICIES; do
			if [ "$c" = all ]; then read -r n mx mn < <(stats "$RES/$p.camp" 0 -)
			else read -r n mx mn < <(stats "$RES/$p.camp" 2 "$c"); fi
			[ "$m" = max ] && printf ' %s |' "$mx" || printf ' %s |' "$mn"
		done
		echo
	done
done
printf '| all | campaigns done |'
for p in $POLICIES; do read -r n _ _ < <(stats "$RES/$p.camp" 0 -); printf ' %s |' "$n"; done; echo
printf '| all | campaigns not started (window closed) |'
for p in $POLICIES; do
	awk 'FNR == NR { if ($2 == "s") s[$1] = $3; next }
		($1 in s) && $3 >= s[$1] && !(($1, $3) in seen) { seen[$1, $3] = 1; n++ }
		END { printf " %d |", n }' "$RES/$p.rec" "$RES/plan"
done; echo
printf '| all | campaigns cancelled at HARD_LIMIT |'
for p in $POLICIES; do printf ' %s |' "$(awk '$2 == "x"' "$RES/$p.rec" | wc -l)"; done; echo
printf '| | drive s |'
for p in $POLICIES; do read -r _ d < "$RES/$p.info"; printf ' %s |' "$d"; done; echo
printf '| | wall time s |'
for p in $POLICIES; do read -r t _ < "$RES/$p.info"; printf ' %s |' "$t"; done; echo
