#!/usr/bin/env bash
# demo.sh - OStrich on a real Slurm cluster, on this machine, in one command.
#
#     sudo tools/demo.sh [--keep] [--slurm-tarball FILE | --slurm-prefix DIR]
#
#   --slurm-tarball FILE  run the demo on the Slurm of that release tarball
#                         (slurm-X.Y.Z.tar.gz), built once into
#                         /opt/ostrich-slurm/X.Y.Z by tools/build-slurm.sh
#   --slurm-prefix DIR    run it on a Slurm installed under DIR (a
#                         tools/build-slurm.sh prefix: its src/ and build/
#                         beside DIR hold the headers)
#
# Installs what is needed (Debian bookworm), builds the plugins against the
# installed Slurm (or the one given), starts munged + slurmctld + 8 slurmd on loopback with
# SchedulerType=sched/ostrich and PriorityType=priority/ostrich, lets three
# users submit campaigns of different sizes, and shows what an admin and a
# user would look at: the queue order, scampaign, scampaign --explain, sprio.
# Every daemon it started is stopped by PID at the end, unless --keep.
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

keep=0 tarball= prefix=
usage() { echo "usage: $0 [--keep] [--slurm-tarball FILE | --slurm-prefix DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=1 ;;
	--slurm-tarball) [ $# -ge 2 ] || usage; tarball=$(realpath "$2"); shift ;;
	--slurm-prefix) [ $# -ge 2 ] || usage; prefix=$(realpath "$2"); shift ;;
	*) usage ;;
	esac
	shift
done
[ -z "$tarball" ] || [ -z "$prefix" ] || usage
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "demo: run as root (it installs packages and starts daemons)" >&2; exit 1; }
title() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '\n$ %s\n' "$*"; "$@"; }

title "Installing and building (a few minutes the first time)"
tools/install-deps.sh >/dev/null
if [ -n "$tarball" ]; then	# build (or reuse) that release's prefix
	v=$(basename "$tarball" | sed -n 's/^slurm-\([0-9.]*[0-9]\)\.t.*$/\1/p')
	[ -n "$v" ] || { echo "demo: $tarball is not a slurm-X.Y.Z tarball" >&2; exit 1; }
	tools/build-slurm.sh "$tarball" >/dev/null
	prefix=${OST_SLURM_PREFIX_ROOT:-/opt/ostrich-slurm}/$v/prefix
fi
if [ -n "$prefix" ]; then
	bdir=_build/demo-$(basename "$(dirname "$prefix")")
	cfg=(--with-slurm-prefix="$prefix")
	export SLURM_PREFIX=$prefix	# tools/cluster.sh runs that Slurm
else
	tools/get-slurm-source.sh >/dev/null
	bdir=_build/demo cfg=()
fi
[ -x configure ] || autoreconf -fi >/dev/null 2>&1
mkdir -p "$bdir"
if [ ! -f "$bdir/Makefile" ]; then
	(cd "$bdir" && "$top/configure" -q "${cfg[@]}") >/dev/null
fi
make -C "$bdir" -j"$(nproc)" >/dev/null
echo "built: plugins in $bdir/plugins/.libs, scampaign in $bdir/scampaign"
export PATH="$PATH:/usr/sbin:/sbin"

# One local cluster at a time on the fixed ports (shared with the live tests).
# (OST_LIVE_LOCK with other CTLD_PORT/NODE_PORT_BASE: tests/live/live-lib.sh)
exec 9>"${OST_LIVE_LOCK:-/tmp/ostrich-live.lock}"
flock -w 900 9 || { echo "demo: another local test cluster is running" >&2; exit 1; }
export OST_PLUGIN_BUILD=$top/$bdir/plugins/.libs
SCHED=sched/ostrich PRIO=priority/ostrich KEEP=$keep
. tools/cluster.sh
cluster_init
# carol runs scampaign: a copy in the cluster's scratch directory, since
# the tree may be out of her reach (a clone in root's home or in mktemp -d,
# mode 0700); cluster_start checks that she can run it
cluster_user_bin "$top/$bdir/scampaign/scampaign" >/dev/null
export PATH="$WORK/bin:$PATH"
cleanup() {
	if [ "$keep" = 1 ]; then
		title "Cluster left running (--keep)"
		echo "export SLURM_CONF=$SLURM_CONF"
		echo "stop it with: kill \$(cat $WORK/run/slurmctld.pid $WORK/run/slurmd-*.pid)"
	else
		title "Stopping every daemon the demo started"
		cluster_stop
	fi
}
trap cleanup EXIT
printf 'Interval=2\nThinkTime=60\n' > "$WORK/ostrich.conf"
cluster_conf "PriorityWeightFairshare=100
PriorityWeightAge=0"
cluster_start
title "A cluster of $NNODES nodes x $CPUS_PER_NODE CPUs with SchedulerType=sched/ostrich ($WORK)"

title "alice submits a big campaign: 24 jobs of 4 CPUs, 40 s each"
for i in $(seq 24); do sub alice -n 4 -t 2 -J big --wrap 'sleep 40' >/dev/null; done
# wait (60 s at most) until alice's first 8 jobs run, and for the next
# second, so that bob's and carol's submissions are seen as later
for _ in $(seq 300); do [ "$(squeue -h -t R | wc -l)" -ge 8 ] && break; sleep 0.2; done
t=$(date +%s); while [ "$(date +%s)" -le "$t" ]; do sleep 0.1; done
title "then bob submits 3 small jobs and carol 6 medium ones"
for i in 1 2 3; do sub bob -n 4 -t 1 -J small --wrap 'sleep 10' >/dev/null; done
for i in 1 2 3 4 5 6; do sub carol -n 4 -t 1 -J medium --wrap 'sleep 20' >/dev/null; done
# two engine passes (each logs "ostrich: pass"; 60 s at most)
passes() { grep -c 'ostrich: pass' "$WORK/log/slurmctld.log" 2>/dev/null || true; }
p0=$(passes)
for _ in $(seq 300); do [ "$(passes)" -ge $((p0 + 2)) ] && break; sleep 0.2; done

title "The queue, highest priority first: bob's and carol's campaigns jump ahead of alice's"
show squeue -t PD -S -p -o '%.6i %.8u %.8j %.11Q %.8T %r'
title "Campaigns: OStrich runs first the campaign that would finish first in a fair share"
show scampaign
carol_job=$(squeue -h -t PD -u carol -S -p -o %i | tail -1)
title "Why does carol's job $carol_job wait? (what carol would type)"
printf '\n$ scampaign --explain %s\n' "$carol_job"
as carol env PATH="$PATH" scampaign --explain "$carol_job"
title "The same in Slurm's own tools"
show scontrol show job "$carol_job" | grep -E 'JobId|Priority|SystemComment'
show sprio -l
title "What an admin sees in slurmctld.log (DebugFlags=Priority)"
grep 'ostrich: pass' "$WORK/log/slurmctld.log" | tail -3 || true
