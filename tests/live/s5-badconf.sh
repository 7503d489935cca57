#!/usr/bin/env bash
# s5-badconf.sh - live scenario 5: a broken ostrich.conf stops
# slurmctld at start with a clear message, and so does sched/ostrich with
# priority/multifactor (two writers of priorities); broken at `scontrol
# reconfigure` it is reported and the old configuration stays in force.
# `scampaign --check-config` (when OST_SCAMPAIGN is built) predicts each
# refusal, with the plugin's own text, before slurmctld is asked: against
# the slurm.conf file at start, against the running slurmctld before the
# bad reconfigure.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
cluster_init
cluster_conf
cluster_munge

# predicts ARGS... MESSAGE: scampaign --check-config ARGS exits 1, saying
# MESSAGE (without slurmctld's "fatal: "), or exits 0 when MESSAGE is OK
predicts() {
	local msg=${!#} rc=0 out
	[ -x "${OST_SCAMPAIGN:-}" ] || return 0
	out=$("$OST_SCAMPAIGN" --check-config "${@:1:$#-1}" 2>&1) || rc=$?
	if [ "$msg" = OK ]; then
		[ $rc = 0 ] || { printf '%s\n' "$out"; fail "check-config refused a good file (exit $rc)"; }
		return 0
	fi
	[ $rc = 1 ] || { printf '%s\n' "$out"; fail "check-config did not refuse (exit $rc): $msg"; }
	grep -qF -- "$msg" <<<"$out" || { printf '%s\n' "$out"; fail "check-config: no '$msg'"; }
	note "  check-config predicted it (exit 1)"
}

# start_fails CONF MESSAGE: slurmctld -D must exit non-zero, logging MESSAGE
start_fails() {
	local rc=0
	printf '%s\n' "$1" > "$WORK/ostrich.conf"
	case $1 in
	Intervall=*) predicts "$WORK/ostrich.conf" --slurm-conf="$SLURM_CONF" 'unknown key "Intervall"' ;;
	*) predicts "$WORK/ostrich.conf" --slurm-conf="$SLURM_CONF" "${2#fatal: }" ;;
	esac
	: > "$WORK/log/slurmctld.log"
	LD_LIBRARY_PATH=$WORK/plugins timeout 60 slurmctld -D -f "$SLURM_CONF" \
		> "$WORK/ctld.out" 2>&1 || rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "slurmctld did not refuse '$1' (exit $rc)"
	grep -F "$2" "$WORK/log/slurmctld.log" "$WORK/ctld.out" | head -2 | sed 's/^/#   /'
	grep -qF "$2" "$WORK/log/slurmctld.log" || fail "no message '$2' for '$1'"
}
note "bad values at start:"
start_fails "Mode=bogus" "fatal: ostrich: bad configuration: $WORK/ostrich.conf: Mode=bogus: must be ostrich or faircamp"
start_fails "Interval=0" "fatal: ostrich: bad configuration: $WORK/ostrich.conf: Interval=0: must be 1..3600 seconds"
start_fails "UserWeights=alice:-1" "fatal: ostrich: bad configuration: $WORK/ostrich.conf: UserWeights: weight \"-1\" of alice must be a number in [1e-6, 1e6]"
start_fails "UserWeights=alice:1e-300" "fatal: ostrich: bad configuration: $WORK/ostrich.conf: UserWeights: weight \"1e-300\" of alice must be a number in [1e-6, 1e6]"
start_fails "ThinkTime=10minutes" "fatal: ostrich: bad configuration: $WORK/ostrich.conf: ThinkTime=10minutes: must be a whole number of seconds in [0, 4294967295]"
start_fails "Intervall=5" "Parsing error at unrecognized key: Intervall"
grep -qF "fatal: ostrich: bad configuration: $WORK/ostrich.conf: cannot parse" "$WORK/log/slurmctld.log" ||
	fail "unknown key: no fatal message"
# two writers of priorities: multifactor's decay pass and sched/ostrich's
# would undo each other at every cycle; refused at start
sed -i 's#^PriorityType=.*#PriorityType=priority/multifactor#' "$SLURM_CONF"
start_fails "Interval=1" "fatal: ostrich: SchedulerType=sched/ostrich cannot run with PriorityType=priority/multifactor"
sed -i "s#^PriorityType=.*#PriorityType=$PRIO#" "$SLURM_CONF"
# a site factor beside the two: a third writer (whichever plugin loads
# first says it)
echo "PrioritySiteFactorPlugin=site_factor/ostrich" >> "$SLURM_CONF"
start_fails "Interval=1" "cannot run with PrioritySiteFactorPlugin=site_factor/ostrich"
sed -i '/^PrioritySiteFactorPlugin=/d' "$SLURM_CONF"

note "good configuration, then broken at reconfigure:"
printf 'Interval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
: > "$WORK/log/slurmctld.log"
cluster_start
for i in $(seq 12); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
for i in 1 2; do sub bob -n 4 -t 1 --wrap 'sleep 2' >/dev/null; done
snapshot
check_ranks
before=$PEND

# the running slurmctld's configuration accepts the file in force...
predicts - OK
printf 'Interval=1\nCapacity=maybe\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
# ...and the check predicts the refusal the reconfigure below logs
predicts - "ostrich: bad configuration: $WORK/ostrich.conf: Capacity=maybe: must be used or full"
# 22.05 reconfigures in place: the command succeeds.  From 24.11 a new
# slurmctld starts, refuses the file and exits; the old one goes on (with
# the previous configuration) and the command reports that failure.
if [ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ]; then
	! scontrol reconfigure || fail "scontrol reconfigure succeeded with a bad ostrich.conf"
else
	scontrol reconfigure || fail "scontrol reconfigure failed"
fi
wait_for 60 'grep -q "ostrich: reconfigure: .*Capacity=maybe: must be used or full; keeping the previous configuration" "$WORK/log/slurmctld.log"' ||
	fail "bad configuration at reconfigure not reported"
grep 'ostrich: reconfigure:' "$WORK/log/slurmctld.log" | sed 's/^/#   /'
scontrol ping >/dev/null || fail "slurmctld died at reconfigure"
snapshot
[ "$PEND" = "$before" ] || fail "priorities changed after a refused configuration"
# one reconfigure, one reload: both plugins' hooks are called for it
n=$(grep -c 'ostrich: reconfigure: .*Capacity=maybe' "$WORK/log/slurmctld.log")
[ "$n" = 1 ] || fail "the refused configuration was logged $n times, want 1"
check_ranks

printf 'Mode=faircamp\nInterval=1\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for 60 'grep -q "ostrich: reconfigured: Mode=faircamp" "$WORK/log/slurmctld.log"' ||
	fail "a good configuration was not applied at reconfigure"
snapshot
check_ranks
n=$(grep -c 'ostrich: reconfigured: Mode=faircamp' "$WORK/log/slurmctld.log")
[ "$n" = 1 ] || fail "the reconfigure was logged $n times, want 1"
order=$(printf '%s\n' "$PEND" | sort -k2,2nr | awk '{ print $3 }' | uniq | tr '\n' ' ')
[ "$order" = "alice bob " ] || fail "FairCamp after reconfigure: user order '$order', want 'alice bob'"
echo "PASS: bad ostrich.conf fatal at start, refused at reconfigure; good one applied"
