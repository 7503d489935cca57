#!/bin/sh
# cli.sh - the command-line interface the scripts depend on: option
# names, --compare tables and file names, exact CSV headers, JSON keys,
# exit statuses.
# SPDX-License-Identifier: GPL-2.0-or-later

: "${SIM:=../../sim/ostrich-sim}" "${GEN:=../../sim/ostrich-gen}" "${DATA:=data}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$SIM" --compare ostrich,faircamp,fcfs,fairshare --dispatch list \
	--jobs-out "$tmp/jobs.csv" --campaigns-out "$tmp/camps" \
	--summary-out "$tmp/sum.json" "$DATA/semantics3.swf" >"$tmp/out" ||
	fail "compare exit status"
grep -q '^metric  *ostrich  *faircamp  *fcfs  *fairshare$' "$tmp/out" ||
	fail "compare table header"
for row in "max stretch" "mean stretch" "campaigns stretch > 20" \
	   "utilization" "mean bounded slowdown" "Jain index" "wall time"; do
	grep -q "^$row" "$tmp/out" || fail "summary row $row"
done
for p in ostrich faircamp fcfs fairshare; do
	head -1 "$tmp/jobs-$p.csv" | grep -qx \
		'job,user,campaign,submit,start,end,procs,runtime,estimate' ||
		fail "jobs header ($p)"
	head -1 "$tmp/camps-$p" | grep -qx \
		'user,campaign,submit,end,jobs,work,lower_bound,flow,stretch' ||
		fail "campaigns header ($p)"
	for key in max_stretch mean_stretch share_stretch_gt_20 \
		   share_stretch_le_2 utilization makespan mean_wait mean_bsld \
		   jain_user_mean_stretch jobs campaigns skipped; do
		grep -q "\"$key\": " "$tmp/sum-$p.json" || fail "key $key ($p)"
	done
	grep -q "\"policy\": \"$p\"" "$tmp/sum-$p.json" || fail "policy ($p)"
done

"$SIM" --quiet --summary-out "$tmp/one.json" "$DATA/semantics3.swf" >"$tmp/out" ||
	fail "single run"
[ -s "$tmp/out" ] && fail "--quiet printed"
grep -q '"policy": "ostrich"' "$tmp/one.json" || fail "default policy"
grep -q '"dispatch": "easy"' "$tmp/one.json" || fail "default dispatch"
grep -q '"procs": 4' "$tmp/one.json" || fail "procs from header"
"$SIM" --quiet --procs 8 --summary-out "$tmp/one.json" "$DATA/semantics3.swf" &&
	grep -q '"procs": 8' "$tmp/one.json" || fail "--procs"

for bad in "--policy lottery" "--dispatch magic" "--grouping never" \
	   "--estimates guess" "--capacity half" "--gate open" "--intra rnd" \
	   "--procs 0" "--think-time -1" "--half-life x" "--compare ostrich,x" \
	   "--no-such-option"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $bad "$DATA/semantics3.swf" 2>/dev/null
	[ $? -eq 2 ] || fail "bad option $bad not refused with status 2"
done
# --fairshare-period: a finite number of seconds >= 0, refused otherwise
# with status 2 and a message naming the option
for bad in -1 -0.5 nan NaN inf -inf 1e400 abc 300s "" " "; do
	"$SIM" --quiet --policy fairshare --fairshare-period "$bad" \
		"$DATA/semantics3.swf" 2>"$tmp/err"
	[ $? -eq 2 ] || fail "--fairshare-period '$bad' not refused with status 2"
	grep -q -- "--fairshare-period" "$tmp/err" ||
		fail "--fairshare-period '$bad': message does not name the option"
done
for good in 0 300 0.5 1e9; do
	"$SIM" --quiet --policy fairshare --fairshare-period "$good" \
		"$DATA/semantics3.swf" || fail "--fairshare-period $good refused"
done
# the variants' options (doc/semantics.md §10-§15): every value outside
# its set or range is refused with status 2, every documented one accepted
# (names in any case, as the core's)
for bad in "--virtual-area guessed" "--virtual-area" "--memory yes" \
	   "--memory keys" "--memory-credit -1" "--memory-credit nan" \
	   "--memory-credit 1e400" "--evidence 1" "--evidence-floor 0" \
	   "--evidence-floor 0.5" "--evidence-floor inf" "--rank best" \
	   "--rank capped," "--rank-cap -5" "--rank-cap nan" "--rank-cap 10m"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $bad "$DATA/semantics3.swf" 2>/dev/null
	[ $? -eq 2 ] || fail "bad variant option $bad not refused with status 2"
done
for good in "--virtual-area requested" "--virtual-area learned" \
	    "--virtual-area pooled" "--virtual-area Predicted" \
	    "--virtual-area bounded" \
	    "--memory on" "--memory off" \
	    "--memory key" "--memory on --memory-credit 0" \
	    "--evidence on --evidence-floor 1" "--evidence off" \
	    "--rank finish" "--rank served" "--rank capped --rank-cap 0" \
	    "--rank capped --memory key --memory-credit 7200" \
	    "--rank Capped --memory KEY --evidence ON" "--virtual-area Pooled" \
	    "--hierarchy users" "--hierarchy Accounts" "--gate none" \
	    "--lead keep" "--lead forgive" "--lead cap --lead-kappa 0.5" \
	    "--overdue rank" "--overdue Restart" \
	    "--overdue restart --lead cap --gate none"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $good "$DATA/semantics3.swf" ||
		fail "variant option $good refused"
done
# §27: Lead=cap with the strict gate could wait for a V that stopped
"$SIM" --quiet --lead cap --gate strict "$DATA/semantics3.swf" 2>"$tmp/err"
[ $? -eq 2 ] || fail "--lead cap --gate strict not refused with status 2"
grep -q 'lead cap needs gate soft or none' "$tmp/err" ||
	fail "--lead cap --gate strict: $(head -1 "$tmp/err")"
# --conf: an ostrich.conf's engine keys, judged by the plugins' rules; the
# options given win wherever they stand (golden overdue cases)
printf 'Capacity=full ThinkTime=0\nOverdue=restart Lead=cap  # the rule\nGate=none\n' \
	>"$tmp/rule.conf"
x="--estimates exact --dispatch strict"
# shellcheck disable=SC2086
"$SIM" --quiet $x --conf "$tmp/rule.conf" --jobs-out "$tmp/c.csv" \
	"$DATA/overdue.swf" && cmp -s "$tmp/c.csv" "$DATA/overdue-restart.csv" ||
	fail "--conf: not the file's configuration"
# every key the file sets reaches the run: the settings line
"$SIM" --conf "$tmp/rule.conf" "$DATA/overdue.swf" | grep -qx \
	'settings   dispatch easy, grouping trace, think time 0 s, lead cap (kappa 1), overdue restart, estimates requested, capacity full, gate none, intra lpt' ||
	fail "--conf: the settings line is not the file's"
printf 'VirtualArea=bounded Memory=key MemoryCredit=60 Evidence=on EvidenceFloor=5\nRank=capped RankCap=7 FairCampUsers=3 IntraOrder=spt\n' \
	>"$tmp/var.conf"
"$SIM" --conf "$tmp/var.conf" "$DATA/semantics3.swf" | grep -qx \
	'settings   dispatch easy, grouping trace, think time 600 s, virtual area bounded, memory key (credit 60 s), evidence (floor 5 s), rank capped (cap 7 s), faircamp users 3, estimates requested, capacity used, gate soft, intra spt' ||
	fail "--conf: the variants are not the file's"
printf 'Hierarchy=accounts\n' >"$tmp/acc.conf"
"$SIM" --quiet --conf "$tmp/acc.conf" "$DATA/semantics3.swf" 2>"$tmp/err" &&
	grep -q "says Hierarchy=accounts: every account has share 1 here" "$tmp/err" ||
	fail "--conf Hierarchy=accounts: not said"
# names are not looked up, and two names are two users
printf 'UserAccounts=nosuch1:phys,nosuch2:phys\nUserWeights=nosuch1:2,nosuch2:3,4242:2\n' \
	>"$tmp/names.conf"
"$SIM" --quiet --conf "$tmp/names.conf" "$DATA/semantics3.swf" ||
	fail "--conf: two user names in one account refused"
# shellcheck disable=SC2086
"$SIM" --quiet $x --overdue rank --con "$tmp/rule.conf" --jobs-out "$tmp/c.csv" \
	"$DATA/overdue.swf" && cmp -s "$tmp/c.csv" "$DATA/overdue-rank.csv" ||
	fail "--conf: an option given before it does not win"
: >"$tmp/empty.conf"
"$SIM" --quiet --conf "$tmp/empty.conf" --jobs-out "$tmp/c.csv" \
	"$DATA/semantics3.swf" && cmp -s "$tmp/c.csv" "$DATA/semantics3-ostrich.csv" ||
	fail "--conf: an empty file is not the defaults"
printf 'UserWeights=nosuchuser:2 Interval=60 EventLog=/nonexistent/e.log\n' \
	>"$tmp/site.conf"
"$SIM" --quiet --conf "$tmp/site.conf" --jobs-out "$tmp/c.csv" \
	"$DATA/semantics3.swf" && cmp -s "$tmp/c.csv" "$DATA/semantics3-ostrich.csv" ||
	fail "--conf: keys the replay does not read changed it"
while IFS='	' read -r conf want; do
	printf '%s\n' "$conf" >"$tmp/bad.conf"
	"$SIM" --quiet --conf "$tmp/bad.conf" "$DATA/semantics3.swf" 2>"$tmp/err"
	[ $? -eq 2 ] || fail "--conf '$conf' not refused with status 2"
	grep -qF -- "ostrich-sim: --conf: $want" "$tmp/err" ||
		fail "--conf '$conf': $(head -1 "$tmp/err")"
done <<BAD
Gate=strict	$tmp/bad.conf: Gate=strict: must be soft or none
LeadCap=-1	$tmp/bad.conf: LeadCap=-1: must be a number in [0, 1e6]
Overdue=restart Hierarchy=accounts	invalid combination: overdue other than rank needs hierarchy users
Bogus=1	$tmp/bad.conf:1: unknown key "Bogus"
UserAccounts=nosuch1:phys,nosuch1:phys	$tmp/bad.conf: UserAccounts: "nosuch1:phys" named twice
BAD
printf 'Mode=faircamp\n' >"$tmp/fc.conf"
"$SIM" --quiet --conf "$tmp/fc.conf" --jobs-out "$tmp/c.csv" "$DATA/semantics3.swf" \
	2>"$tmp/err" && cmp -s "$tmp/c.csv" "$DATA/semantics3-ostrich.csv" &&
	grep -q "says Mode=faircamp, which --policy decides here" "$tmp/err" ||
	fail "--conf Mode=faircamp: not said, or not left to --policy"
"$SIM" --quiet --conf "$tmp/missing.conf" "$DATA/semantics3.swf" 2>"$tmp/err"
[ $? -eq 2 ] && grep -qx "ostrich-sim: --conf: $tmp/missing.conf: No such file or directory" \
	"$tmp/err" || fail "--conf of a missing file: $(head -1 "$tmp/err")"
# every option's bad value is refused with a message naming that option,
# whatever the order of the option enum and table in main.c; every option
# --help lists must be here
cat >"$tmp/bad-values" <<'EOF'
policy lottery
compare ostrich,x
dispatch magic
procs 0
think-time -1
grouping never
estimates guess
capacity half
gate open
intra rnd
faircamp-users 5e6
half-life x
fairshare-period nan
age-weight -1
max-age 0
virtual-area guessed
memory yes
memory-credit -1
evidence 1
evidence-floor 0
rank best
rank-cap -5
feedback-threshold -1
by team
unlimited-estimate -1
gpus -1
charge fair
charge-weights CPU=x
hierarchy groups
lead forever
lead-kappa -1
overdue never
EOF
while read -r opt val; do
	"$SIM" --quiet "--$opt" "$val" "$DATA/semantics3.swf" 2>"$tmp/err"
	[ $? -eq 2 ] || fail "--$opt '$val' not refused with status 2"
	grep -qx -- "ostrich-sim: bad value '$val' for --$opt" "$tmp/err" ||
		fail "--$opt '$val': message names another option: $(head -1 "$tmp/err")"
done <"$tmp/bad-values"
# --gpus and --charge-weights (§20): every bad value refused with status 2
# and a message naming the option; the documented forms accepted
while read -r opt val; do
	"$SIM" --quiet "--$opt" "$val" "$DATA/gpus.cwl" 2>"$tmp/err"
	[ $? -eq 2 ] || fail "--$opt '$val' not refused with status 2"
	grep -qx -- "ostrich-sim: bad value '$val' for --$opt" "$tmp/err" ||
		fail "--$opt '$val': message names another option"
done <<'EOF'
gpus 1.5
gpus x
gpus 2e9
gpus nan
charge gpu
charge-weights CPU
charge-weights CPU=-1
charge-weights CPU=1,GPU=8
charge-weights CPU=inf
charge-weights CPU=0,GRES/gpu=0
charge-weights CPU=1,,GRES/gpu=2x
charge-weights Mem=1G
EOF
for good in "--gpus 0" "--gpus 8" "--charge cpu" "--charge DOMINANT" \
	    "--charge-weights gres/GPU=8" "--charge-weights CPU=0.5,GRES/gpu=4" \
	    "--charge-max-tres --charge-weights CPU=1,GRES/gpu=8"; do
	# shellcheck disable=SC2086
	"$SIM" --quiet $good "$DATA/gpus.cwl" || fail "option $good refused"
done
"$SIM" --quiet --charge-weights CPU=2e9 "$DATA/gpus.cwl" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--charge-weights: the machine's billing total" \
	"$tmp/err" || fail "billing total above 2^32-1 not refused"
# a machine with GPUs: the jobs file gains gpus,width; jobs above G skipped
"$SIM" --quiet --gpus 2 --jobs-out "$tmp/g.csv" --summary-out "$tmp/g.json" \
	"$DATA/gpus.cwl" || fail "--gpus 2"
head -1 "$tmp/g.csv" | grep -qx \
	'job,user,campaign,submit,start,end,procs,runtime,estimate,gpus,width' ||
	fail "jobs header with GPUs"
grep -q '"gpus_above_machine": [1-9]' "$tmp/g.json" || fail "gpus above G"
grep -q '"gpus": 2,' "$tmp/g.json" || fail "summary gpus"
grep -q '"charge": "billing",' "$tmp/g.json" || fail "summary charge"
# the output files, --feedback, --charge-max-tres and --quiet/--help take
# no value that can be bad; --partition-info's and --shares' files and --partition's name
# are checked when read (sacct.sh, shares.sh), --conf's above
"$SIM" --help | grep -o -- '--[a-z-]*' | sort -u | while read -r o; do
	case $o in --jobs-out|--campaigns-out|--summary-out|--groups-out|--quiet|--help|--feedback|--charge-max-tres|--partition-info|--partition|--shares|--conf) continue;; esac
	grep -q "^${o#--} " "$tmp/bad-values" ||
		fail "option $o listed by --help has no bad-value case here"
done || exit 1
"$SIM" --quiet 2>/dev/null; [ $? -eq 2 ] || fail "no workload"
"$SIM" --quiet --by account "$DATA/semantics3.swf" 2>"$tmp/err"
[ $? -eq 2 ] && grep -qx 'ostrich-sim: --by account needs a sacct dump' "$tmp/err" ||
	fail "--by account of an SWF trace: $(cat "$tmp/err")"
"$SIM" --quiet "$tmp/missing.swf" 2>/dev/null; [ $? -eq 1 ] || fail "missing file"
"$SIM" --help | grep -q '^usage: ostrich-sim' || fail "--help"
"$GEN" --experiment nope 2>/dev/null; [ $? -eq 2 ] || fail "gen bad experiment"
"$GEN" --experiment faircamp --jobs 10 | head -1 | grep -qx '%ostrich-campaigns 1' ||
	fail "gen header"
# ostrich-gen's GPU users (§20): half of 12 users ask for 1-8 GPUs and 2
# CPUs per GPU; the file replays on its own header's 16 GPUs
"$GEN" --experiment ostrich --users 12 --gpu-frac 0.5 --jobs 300 \
	-o "$tmp/g.cwl" || fail "gen --gpu-frac"
grep -qx 'gpus 16' "$tmp/g.cwl" || fail "gen gpus header"
[ "$(grep -c '^user .* class gpu-' "$tmp/g.cwl")" -eq 6 ] || fail "gen GPU users"
grep '^job .* gpus ' "$tmp/g.cwl" | awk '$5 < 1 || $5 > 8 || $2 != 2 * $5 { bad = 1 }
	END { exit bad }' || fail "gen GPU jobs"
"$SIM" --quiet --summary-out "$tmp/gs.json" "$tmp/g.cwl" &&
	grep -q '"gpus": 16,' "$tmp/gs.json" || fail "gen workload replay"
for bad in "--gpu-frac 2" "--gpus -1" "--gpus 1.5" "--max-gpus 0" \
	   "--cpus-per-gpu 0" "--experiment faircamp --gpu-frac 0.5"; do
	# shellcheck disable=SC2086
	"$GEN" --experiment ostrich --jobs 10 $bad >/dev/null 2>&1
	[ $? -eq 2 ] || fail "gen $bad not refused with status 2"
done
gzip -c "$DATA/closed.cwl" >"$tmp/closed.cwl.gz"
"$SIM" --quiet --policy fcfs --jobs-out "$tmp/j.csv" "$tmp/closed.cwl.gz" &&
	cmp -s "$tmp/j.csv" "$DATA/closed-fcfs.csv" || fail "gzip'ed workload"
echo "ok cli"
