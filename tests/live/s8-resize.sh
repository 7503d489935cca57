#!/usr/bin/env bash
# s8-resize.sh - live scenario 8: owners grow pending jobs.  While alice's
# jobs fill the cluster, bob raises NumCPUs of a pending job (and goes
# behind frank), carol of her whole pending array in one RPC, and an
# operator raises erin's TimeLimit.
# The core must count the new widths and estimates (replayed from the event
# log), rank by them, start each job on the CPUs Slurm allocated (dave's
# --exclusive job gets a whole node) and charge allocated CPUs x elapsed.
# Then sched/ostrich with priority/basic: a new job must lose basic's top
# priority within seconds, not at the next Interval.
# SPDX-License-Identifier: GPL-2.0-or-later
TEST_USERS="alice bob carol dave erin frank"
. "$OST_SRCDIR/tests/live/live-lib.sh"

SCHED=sched/ostrich PRIO=priority/ostrich
live_start "Interval=5"

# "PROCS ESTIMATE RANK" of job key $1 in the core (replay of the log).
core_job() {
	"$OST_REPLAY" "$WORK/events.log" > "$WORK/replay.out" || fail "ost-replay failed"
	awk -v k="$1" '$1 == "rank" && $4 == k { print $7, $8, $3 }' "$WORK/replay.out"
}

for i in $(seq 8); do sub alice -n 4 -t 10 --wrap "$(gated alice)" >/dev/null; done
wait_for 30 '[ "$(n_running)" = 8 ]' || fail "alice's 8 jobs did not start"
next_second
b1=$(sub bob -n 1 -t 10 --wrap 'sleep 2')
b2=$(sub bob -n 1 -t 10 --wrap 'sleep 2')
c=$(sub carol -n 1 -t 10 --array=0-3 --wrap 'sleep 2')
d=$(sub dave -n 1 -t 5 --exclusive --wrap 'sleep 2')
e=$(sub erin -n 1 -t 10 --wrap 'sleep 2')
f=$(sub frank -n 1 -t 30 --wrap 'sleep 2')
snapshot
check_ranks
read -r bp be br_before <<<"$(core_job "$b1")"
read -r ep ee er_before <<<"$(core_job "$e")"
read -r _ _ fr_before <<<"$(core_job "$f")"
[ "$bp" = 1 ] && [ "$ee" = 600 ] || fail "before the updates the core has bob's job at $bp CPUs, erin's at $ee s"
# areas (CPU-s): dave 300, erin 600, bob 1200, frank 1800, carol 2400
[ "$br_before" -lt "$fr_before" ] || fail "bob's job (rank $br_before) is not ahead of frank's (rank $fr_before) before the updates"
note "before: bob's job $b1 1 CPU rank $br_before, frank's rank $fr_before, erin's job $e 600 s rank $er_before"

as bob scontrol update JobId="$b1" NumCPUs=4 || fail "bob cannot raise NumCPUs of his pending job"
as carol scontrol update JobId="$c" NumCPUs=2 || fail "carol cannot raise NumCPUs of her array"
scontrol update JobId="$e" TimeLimit=120 || fail "cannot raise erin's TimeLimit"
wait_passes
snapshot
check_ranks
grep -q "^debug update $b1 4 600 " "$WORK/events.log" || fail "no update event for bob's job $b1"
grep -q "^debug update $e 1 7200 " "$WORK/events.log" || fail "no update event for erin's job $e"
read -r bp be br <<<"$(core_job "$b1")"
read -r ep ee er <<<"$(core_job "$e")"
read -r _ _ fr <<<"$(core_job "$f")"
[ "$bp" = 4 ] || fail "the core counts bob's job $b1 at $bp CPUs, not 4"
[ "$ee" = 7200 ] || fail "the core counts erin's job $e at $ee s, not 7200"
bad=$(for t in 0 1 2 3; do core_job "${c}_$t"; done | awk '$1 != 2' | wc -l)
[ "$bad" = 0 ] || fail "$bad tasks of carol's array $c are not 2 CPUs wide in the core"
# areas now: dave 300, frank 1800, bob 4 x 600 + 600, carol 4 x 2 x 600,
# erin 7200
[ "$er" -gt "$er_before" ] || fail "erin's job did not move back (rank $er_before, then $er)"
last=$(awk '$1 == "rank" { r = $3 } END { print r }' "$WORK/replay.out")
[ "$er" = "$last" ] || fail "erin's job (7200 s) is not last: rank $er of $last"
[ "$br" -gt "$fr" ] || fail "bob's widened job (rank $br) is not behind frank's (rank $fr)"
note "after: bob's job $b1 4 CPUs rank $br behind frank's $fr, erin's job $e 7200 s rank $er (last), carol's tasks 2 CPUs"

open_gate alice
wait_queue_empty 180
jobs=$(scontrol -o show job | awk '{ split("", v); for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
	id = v["JobId"]; if (v["ArrayJobId"] != "" && v["ArrayTaskId"] != "") id = v["ArrayJobId"] "_" v["ArrayTaskId"]
	print id, v["JobId"], v["NumCPUs"] }')
# every start carries Slurm's NumCPUs (log keys: job id, or array << 32 | task)
out=$(printf '%s\n' "$jobs" | awk '
	FNR == NR { if ($2 == "start") { w[$3] = $5 } next }
	{ split($1, a, "_"); key = (2 in a) ? a[1] * 4294967296 + a[2] : $2
	  if (!(key in w)) { k = sprintf("%.0f", key); if (k in w) key = k }
	  n++; if (w[key] != $3) { print "job " $1 ": started on " w[key] " CPUs in the log, NumCPUs=" $3; bad++ } }
	END { print "checked the width of " n + 0 " starts, " bad + 0 " mismatches"; exit bad > 0 || n == 0 }' "$WORK/events.log" -) ||
	{ printf '%s\n' "$out"; fail "starts do not carry the allocated width"; }
note "$out"
dcpus=$(printf '%s\n' "$jobs" | awk -v d="$d" '$1 == d { print $3 }')
[ "$dcpus" = "$CPUS_PER_NODE" ] || fail "dave's --exclusive job got $dcpus CPUs, expected a whole node ($CPUS_PER_NODE)"
# charged = allocated CPUs x elapsed: dave's only campaign's area
read -r _ _ _ dst den _ <<<"$(jobs_table | awk -v d="$d" '$1 == d')"
"$OST_REPLAY" "$WORK/events.log" > "$WORK/replay.out" || fail "ost-replay failed"
duid=$(id -u dave)
area=$(awk -v u="$duid" '$1 == "campaign" && $3 == u { print $8 }' "$WORK/replay.out")
want=$(( dcpus * (den - dst) ))
[ "$area" = "$want" ] || fail "dave charged $area CPU-s, Slurm allocated $dcpus CPUs x $((den - dst)) s = $want"
note "dave's --exclusive job: $dcpus CPUs x $((den - dst)) s charged $area CPU-s"
bw=$(awk -v k="$b1" '$2 == "start" && $3 == k { print $5 }' "$WORK/events.log")
# the width Slurm allocated after the update: 4 CPUs on 22.05; 24.11 and
# later keep a batch job's one task on one CPU (doc/slurm-versions.md).
# Either way the start and the charge carry what Slurm allocated.
bcpus=$(printf '%s\n' "$jobs" | awk -v b="$b1" '$1 == b { print $3 }')
[ "$bw" = "$bcpus" ] && [ "$bw" -ge 1 ] ||
	fail "bob's job $b1 started on $bw CPUs in the log, Slurm allocated $bcpus"
[ "$(printf '%s\n' 24.11 "${CLUSTER_SLURM_SERIES:-22.05}" | sort -V | head -1)" = 24.11 ] ||
	[ "$bw" = 4 ] || fail "bob's job $b1 started on $bw CPUs, not the 4 he asked for"

# --- sched/ostrich + priority/basic: a submission wakes a pass -----------
cluster_cancel_all
ctld_stop TERM
SCHED=sched/ostrich PRIO=priority/basic
printf 'Interval=300\nEventLog=%s\n' "$WORK/events.log" > "$WORK/ostrich.conf"
cluster_conf
ctld_start || fail "slurmctld did not restart with $SCHED + $PRIO"
for i in $(seq 8); do sub alice -n 4 -t 10 --wrap "$(gated alice2)" >/dev/null; done
wait_for 30 '[ "$(n_running)" = 8 ]' || fail "alice's 8 jobs did not start"
j=$(sub bob -n 1 -t 10 --wrap 'sleep 1')
t0=$(date +%s)
wait_for 30 "p=\$(squeue -h -j $j -o %Q); [ -n \"\$p\" ] && [ \"\$p\" -lt $TOP ]" ||
	fail "bob's job $j kept priority/basic's priority $(squeue -h -j "$j" -o %Q) (Interval=300): no pass after the submission"
note "priority/basic: bob's new job got an OStrich priority ($(squeue -h -j "$j" -o %Q)) within $(( $(date +%s) - t0 )) s"
open_gate alice2
echo "PASS: resized jobs re-ranked, starts on the allocated width, charged CPUs x elapsed; a submission wakes a pass under priority/basic"
