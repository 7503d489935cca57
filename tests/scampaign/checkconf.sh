#!/bin/sh
# checkconf.sh - scampaign --check-config's verdict (checkconf_run: the
# same code without libslurm) on the sample files of checkconf/: exit 0
# and "OK" for what the plugins accept, exit 1 and the plugins' own
# message for what they refuse (the texts of slurm/*.c's fatal(), through
# plugins/lib/osl_combo.c, and of osl_conf_read, through osl_conf_file.c).
# SPDX-License-Identifier: GPL-2.0-or-later
set -u

: "${srcdir:=.}"
RUN=${CHECKCONF_RUN:-./checkconf_run}
D=$srcdir/checkconf
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# case RELEASE OSTRICH_CONF SLURM_CONF RC MESSAGE
case_() {
	rc=0
	"$RUN" "$1" "$D/$2" "$D/$3" > "$tmp/out" 2> "$tmp/err" || rc=$?
	n=$((n + 1))
	if [ "$rc" != "$4" ]; then
		echo "FAIL $n: $1 $2 $3: exit $rc, want $4"; cat "$tmp/out" "$tmp/err"; fail=1
	elif ! grep -qF -- "$5" "$tmp/out" "$tmp/err"; then
		echo "FAIL $n: $1 $2 $3: no '$5' in:"; cat "$tmp/out" "$tmp/err"; fail=1
	else
		echo "ok $n $1 $2 $3: $5"
	fi
}

# ostrich.conf: the plugins' messages (osl_conf_read's, "bad configuration")
case_ 22.05 good.conf slurm-ostrich.conf 0 "OK: the plugins would accept these files"
case_ 22.05 good.conf slurm-ostrich.conf 0 "good.conf: OK: Mode=ostrich ThinkTime=600 Interval=5"
case_ 22.05 mode.conf slurm-ostrich.conf 1 "ostrich: bad configuration: $D/mode.conf: Mode=bogus: must be ostrich or faircamp"
case_ 22.05 unknown-key.conf slurm-ostrich.conf 1 "unknown key \"Intervall\""
case_ 22.05 bad-bool.conf slurm-ostrich.conf 1 "\"maybe\" is not a valid option for \"Backfill\""
case_ 22.05 unknown-user.conf slurm-ostrich.conf 1 "UserWeights: unknown user \"no-such-user-ostrich\""
case_ 22.05 cycle.conf slurm-ostrich.conf 1 "ostrich: bad configuration: $D/cycle.conf: AccountParents"
case_ 22.05 twice.conf slurm-ostrich.conf 1 "Interval=0: must be 1..3600 seconds"
case_ 22.05 no-such.conf slurm-ostrich.conf 0 "no such file: the plugins take the defaults"

# slurm.conf combinations: sched_ostrich.c, priority_ostrich.c,
# site_factor_ostrich.c
case_ 22.05 good.conf slurm-sched-multifactor.conf 1 "ostrich: SchedulerType=sched/ostrich cannot run with PriorityType=priority/multifactor, which writes priorities too"
case_ 22.05 good.conf slurm-sched-default.conf 0 "PriorityType=priority/basic"
case_ 26.05 good.conf slurm-sched-default.conf 1 "cannot run with PriorityType=priority/multifactor"
case_ 22.05 good.conf slurm-shadow.conf 0 "OK: the plugins would accept"
case_ 22.05 good.conf slurm-blend-nodbd.conf 1 "ostrich: PrioritySiteFactorParameters=weight=1000: on this Slurm, priority/multifactor runs its decay thread"
case_ 26.05 good.conf slurm-blend-nodbd.conf 0 "OK: the plugins would accept"
case_ 22.05 good.conf slurm-blend-dbd.conf 0 "OK: the plugins would accept"
case_ 22.05 good.conf slurm-two-writers.conf 1 "ostrich: SchedulerType=sched/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich"
case_ 22.05 good.conf slurm-two-writers.conf 1 "ostrich: PriorityType=priority/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich"
case_ 22.05 good.conf slurm-two-writers.conf 1 "ostrich: PrioritySiteFactorPlugin=site_factor/ostrich needs PriorityType=priority/multifactor, not priority/ostrich"
case_ 22.05 good.conf slurm-site-basic.conf 1 "needs PriorityType=priority/multifactor, not priority/basic"
case_ 26.05 good.conf slurm-site-badweight.conf 1 "ostrich: PrioritySiteFactorParameters=weight=12x: weight=12x is not a number from 0 to"
# both files wrong: every problem said, not only the first
case_ 22.05 mode.conf slurm-sched-multifactor.conf 1 "Mode=bogus"
grep -qF "cannot run with PriorityType=priority/multifactor" "$tmp/err" && echo "ok $((n = n + 1)) both problems said" ||
	{ echo "FAIL: only the first problem said"; fail=1; }
exit $fail
