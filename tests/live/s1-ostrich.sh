#!/usr/bin/env bash
# s1-ostrich.sh - live scenario 1: alice's long campaign fills the
# cluster, then bob and carol submit small campaigns.  Their jobs must be
# ranked above alice's remaining pending jobs and start before them, every
# priority must follow the ranks the core computes for the same events, and
# alice's pending jobs keep their priorities while their order holds.
# sched/ostrich alone (priority/basic): the complete setup.  Then Gate= at
# reconfigure: strict refused (the configuration kept), none applied.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/basic
live_start "Interval=1"

for i in $(seq 16); do sub alice -n 4 -t 1 --wrap "$(gated alice)" >/dev/null; done
wait_for 60 '[ "$(n_running)" = 8 ]' || fail "alice's first 8 jobs did not start"
next_second
for u in bob carol; do
	for i in 1 2 3 4; do sub $u -n 4 -t 1 --wrap "$(gated small)" >/dev/null; done
done
wait_passes
snapshot
note "pending jobs (job priority user) after bob and carol submitted:"
printf '%s\n' "$PEND" | sed 's/^/#   /'
min_small=$(printf '%s\n' "$PEND" | awk '$3 != "alice" { if (!m || $2 < m) m = $2 } END { print m + 0 }')
max_alice=$(printf '%s\n' "$PEND" | awk '$3 == "alice" && $2 > m { m = $2 } END { print m + 0 }')
[ "$(printf '%s\n' "$PEND" | grep -c -v alice)" = 8 ] || fail "bob's and carol's 8 jobs are not all pending"
[ "$min_small" -gt "$max_alice" ] ||
	fail "a job of bob or carol (lowest priority $min_small) is not above alice's pending jobs (highest $max_alice)"
check_ranks
check_comments
alice_pending=$(printf '%s\n' "$PEND" | awk '$3 == "alice" { print $1 }' | tr '\n' ' ')
alice_prio=$(printf '%s\n' "$PEND" | awk '$3 == "alice" { print $1, $2 }')

# Stable priorities: once alice's first jobs ended and bob's and carol's
# started, alice's pending jobs are still in the same order among
# themselves, so the passes that saw those ends and starts must not have
# rewritten their priorities (ost_prio_renumber keeps every value that
# still fits).  bob's and carol's jobs run until the snapshot is taken.
open_gate alice
wait_for 60 '[ -z "$(squeue -h -u alice -t R -o %i)" ]' ||
	fail "alice's first jobs did not end"
snapshot
out=$( { printf '%s\n' "$alice_prio"; echo --; printf '%s\n' "$PEND"; } | awk '
	$0 == "--" { second = 1; next }
	!second { before[$1] = $2; next }
	$3 == "alice" && ($1 in before) { n++
		if ($2 != before[$1]) { print "job " $1 ": priority " before[$1] " became " $2; bad++ } }
	END { print "compared the priorities of " n + 0 " of alice'"'"'s jobs still pending, " bad + 0 " rewritten"
	      exit bad > 0 || n == 0 }') ||
	{ printf '%s\n' "$out"; fail "pending jobs whose order did not change got new priorities"; }
note "$out"
check_ranks

open_gate small
wait_queue_empty 120
wait_passes
jobs_table > "$WORK/jobs.txt"
note "start order (job user start):"
sort -k4,4n -k1,1n "$WORK/jobs.txt" | awk '{ printf "#   %s %s %s\n", $1, $2, strftime("%T", $4, 1) }'
last_small=$(awk '$2 != "alice" && $4 > m { m = $4 } END { print m + 0 }' "$WORK/jobs.txt")
first_alice=$(awk -v ids=" $alice_pending" 'index(ids, " " $1 " ") { if (!m || $4 < m) m = $4 } END { print m + 0 }' "$WORK/jobs.txt")
[ "$last_small" -lt "$first_alice" ] ||
	fail "alice's pending jobs started at $first_alice, not after bob's and carol's (last at $last_small)"
[ "$(grep -c COMPLETED "$WORK/jobs.txt")" = 24 ] || fail "not all 24 jobs completed"
check_event_times
grep 'ostrich: pass' "$WORK/log/slurmctld.log" | awk '{ for (i = 1; i <= NF; i++) if ($i == "took") print $(i + 1) }' |
	sort -n | awk '{ v[NR] = $1 } END { printf "# pass times: %d passes, median %.3f ms, max %.3f ms\n", NR, v[int((NR + 1) / 2)], v[NR] }'

# Gate= at reconfigure (§24): strict, the simulator's only, is refused,
# logged, and the configuration in force kept; none is applied, in the
# "reconfigured" line and in the event log's config records.
n_reconf() { grep -c 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" || true; }
before=$(n_reconf)
printf 'Interval=1\nGate=strict\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
if [ "$(printf '%s\n' 24.11 "$CLUSTER_SLURM_SERIES" | sort -V | head -1)" = 24.11 ]; then
	! scontrol reconfigure || fail "scontrol reconfigure succeeded with Gate=strict"
else
	scontrol reconfigure || fail "scontrol reconfigure failed"
fi
wait_for 30 'grep -q "ostrich: reconfigure: .*Gate=strict: must be soft or none (strict is simulator only.*; keeping the previous configuration" "$WORK/log/slurmctld.log"' ||
	fail "Gate=strict at reconfigure not refused with its reason"
# 22.05 logs nothing more; from 24.11 the old process restarts its plugins
# with the configuration kept, and logs it: Gate=soft still
[ "$(n_reconf)" = "$before" ] ||
	grep 'ostrich: reconfigured:' "$WORK/log/slurmctld.log" | tail -1 | grep -q ' Gate=soft ' ||
	fail "Gate=strict at reconfigure did not keep Gate=soft"
printf 'Interval=1\nGate=none\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
scontrol reconfigure || fail "scontrol reconfigure failed"
wait_for 30 'grep -q "ostrich: reconfigured: .* Gate=none " "$WORK/log/slurmctld.log"' ||
	fail "Gate=none was not applied at reconfigure"
wait_for 30 'grep -q " config .* gate=none " "$WORK/events.log"' ||
	fail "no config record with gate=none in the event log"
grep 'ostrich: reconfigure' "$WORK/log/slurmctld.log" | sed 's/^/#   /'
scontrol ping >/dev/null || fail "slurmctld died at reconfigure"
echo "PASS: bob and carol ranked and started before alice's remaining jobs"
