#!/usr/bin/env bash
# installed-live.sh - live scenario on the installed ostrich-slurm .deb:
# slurmctld loads sched/ostrich, priority/ostrich and their engine from
# Slurm's own plugin directory, PluginDir being that directory alone (no
# build tree, no copy), exactly as an admin's slurm.conf names them.
#   * the three files slurmctld maps are the package's, found by the
#     plugins' RUNPATH ($ORIGIN), not through LD_LIBRARY_PATH or a copy;
#   * alice fills the cluster, bob submits a small campaign: bob's jobs
#     rank above alice's pending ones, the priorities follow the core's
#     ranks for the same events and every SystemComment agrees;
#   * the installed /usr/bin/scampaign lists both campaigns and explains
#     one of bob's jobs; every job completes.
# Run by tests/package/deb.sh live (tools/test-all.sh) with the package
# installed; OST_SRCDIR and OST_REPLAY (the test tool of the build tree
# that replays the event log through the core) as for tests/live.
# SPDX-License-Identifier: GPL-2.0-or-later
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
OST_PLUGIN_BUILD=/usr/lib/$MULTIARCH/slurm-wlm	# (live-lib.sh checks the
OST_LIVE_PLUGINS=yes				# three files are there)
OST_LIVE=1	# asked for: deb.sh live runs it (tools/test-all.sh)
. "$OST_SRCDIR/tests/live/live-lib.sh"
[ -x /usr/bin/scampaign ] || fail "no /usr/bin/scampaign: ostrich-slurm is not installed"

# tools/cluster.sh puts copies of OST_PLUGIN_BUILD's files on the
# PluginDir: take them away, Slurm's directory alone remains.
eval "_cluster_init_copies() $(declare -f cluster_init | tail -n +2)"
cluster_init() {
	_cluster_init_copies
	rm -f "$WORK"/plugins/*.so
	PLUGIN_PATH=$STOCK_PLUGINDIR
}

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=1"
grep -qx "PluginDir=$STOCK_PLUGINDIR" "$SLURM_CONF" ||
	fail "slurm.conf's PluginDir is not $STOCK_PLUGINDIR alone"

# What slurmctld mapped: the package's files and no other copy of them.
pid=$(cat "$WORK/run/slurmctld.pid")
maps=$(awk '{ print $6 }' "/proc/$pid/maps" | sort -u)
for f in sched_ostrich.so priority_ostrich.so libostrich_slurm.so; do
	grep -qx "$STOCK_PLUGINDIR/$f" <<<"$maps" ||
		fail "slurmctld has not mapped $STOCK_PLUGINDIR/$f"
	[ "$(grep -c "/$f\$" <<<"$maps")" = 1 ] ||
		fail "slurmctld maps another $f: $(grep "/$f\$" <<<"$maps" | tr '\n' ' ')"
	dpkg -S "$STOCK_PLUGINDIR/$f" 2>/dev/null | grep -q '^ostrich-slurm:' ||
		fail "$STOCK_PLUGINDIR/$f does not belong to ostrich-slurm"
done
note "slurmctld runs the package's sched_ostrich.so, priority_ostrich.so and libostrich_slurm.so from $STOCK_PLUGINDIR"

for i in $(seq 12); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for i in 1 2 3 4; do sub bob -n 4 -t 1 --wrap "$(gated bob)" >/dev/null; done
snapshot
bob_low=$(awk '$3 == "bob" { if (!m || $2 < m) m = $2 } END { print m + 0 }' <<<"$PEND")
alice_high=$(awk '$3 == "alice" && $2 > m { m = $2 } END { print m + 0 }' <<<"$PEND")
[ "$(grep -c ' bob$' <<<"$PEND")" = 4 ] || fail "bob's 4 jobs are not all pending"
[ "$bob_low" -gt "$alice_high" ] ||
	fail "bob's lowest priority $bob_low is not above alice's highest pending $alice_high"
note "bob's pending jobs rank above alice's (priorities >= $bob_low > $alice_high)"
check_ranks
check_comments

# The installed scampaign (linked with the system's libslurm).
out=$(/usr/bin/scampaign -h -o '%P %u %p %r') || fail "scampaign failed"
note "scampaign (partition user pending running):"
printf '%s\n' "$out" | sed 's/^/#   /'
for u in alice bob; do
	grep -q "^debug $u " <<<"$out" || fail "scampaign shows no campaign of $u"
done
job=$(squeue -h -u bob -t PD -o %i | sort -n | tail -1)
out=$(/usr/bin/scampaign --explain "$job") || fail "scampaign --explain $job failed"
grep -q bob <<<"$out" || { printf '%s\n' "$out"; fail "scampaign --explain $job does not name bob's campaign"; }
note "scampaign --explain $job: $(head -1 <<<"$out")"

open_gate alice
open_gate bob
wait_queue_empty 180
[ "$(jobs_table | grep -c COMPLETED)" = 16 ] || fail "not all 16 jobs completed"
echo "PASS: the installed package schedules from Slurm's plugin directory, scampaign reads it"
