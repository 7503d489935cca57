# site-lib.sh - what the site_factor/ostrich scenarios (s20-site.sh,
# s22-migrate.sh) share, sourced after TEST_USERS is set: live-lib.sh,
# their requirements (SKIP without accounting or multifactor), a 16-CPU
# cluster with slurmdbd, multifactor weighing job size alone (MF, so
# that its order is known), and the view of the pending jobs.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$OST_SRCDIR/tests/live/live-lib.sh"

[ -f "$OST_PLUGIN_BUILD/site_factor_ostrich.so" ] || fail "missing $OST_PLUGIN_BUILD/site_factor_ostrich.so"
need_accounting
[ -f "$STOCK_PLUGINDIR/priority_multifactor.so" ] || skip "no priority_multifactor.so in $STOCK_PLUGINDIR"
# shellcheck disable=SC2034 # read by live-lib.sh's cluster
NNODES=4 CPUS_PER_NODE=4 ACCT=1
# shellcheck disable=SC2034
SCHED=sched/backfill PRIO=priority/multifactor
MF="PriorityCalcPeriod=1
PriorityWeightJobSize=10000
PriorityWeightAge=0
PriorityWeightFairshare=0
PriorityWeightPartition=0
PriorityWeightQOS=0
PriorityWeightAssoc=0"

# site_lines WEIGHT: the slurm.conf lines of site_factor/ostrich
site_lines() { printf 'PrioritySiteFactorPlugin=site_factor/ostrich\nPrioritySiteFactorParameters=weight=%s' "$1"; }

# log_count ERE: lines of slurmctld.log that match
log_count() { grep -c -E -- "$1" "$WORK/log/slurmctld.log" || true; }
# n_updates: site factor updates logged so far (DebugFlags=Priority)
n_updates() { log_count 'ostrich: site factors: '; }

# Pending jobs, "JOBID USER PRIORITY SITE RANK P CAMPAIGN" (RANK P
# CAMPAIGN from the SystemComment, "- - -" without one; SITE from sprio,
# multifactor's site factor less NICE_OFFSET, what entered the priority;
# "?" when sprio has none, as under priority/ostrich).
table() {
	local sp
	sp=$(sprio -h -o '%i %S' 2>/dev/null) || sp=
	scontrol -o show job | awk '
		/JobState=PENDING/ { id = ""; u = ""; p = ""; r = "-"; n = "-"; c = "-"
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^JobId=/) { id = substr($i, 7) }
				else if ($i ~ /^UserId=/) { u = substr($i, 8); sub(/\(.*/, "", u) }
				else if ($i ~ /^Priority=/) { p = substr($i, 10) }
				else if ($i ~ /^rank=/) { split(substr($i, 6), a, "/"); r = a[1]; n = a[2] }
				else if ($i ~ /^campaign=/) { c = substr($i, 10) } }
			print id, u, p, r, n, c }' |
	awk -v sp="$sp" 'BEGIN { m = split(sp, l, "\n"); for (i = 1; i <= m; i++) { split(l[i], f, " "); s[f[1]] = f[2] } }
		{ print $1, $2, $3, ($1 in s) ? s[$1] : "?", $4, $5, $6 }' | sort -n
}
show() { note "$1 (job user priority site rank pending campaign):"; table | sed 's/^/#   /'; }
