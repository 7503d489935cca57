#!/bin/sh
# claims.sh - what the admin guide and ostrich.conf(5) say of the package
# and of passes matches the tree:
#  1. no program the Debian package leaves out (debian/not-installed) is
#     said to be "installed with the package";
#  2. a submission wakes a pass only without priority/ostrich
#     (sched_ostrich.c starts its submission watcher only then): where the
#     man page's Interval entry and the guide's overview speak of a pass
#     after a submission, they name priority/ostrich's exception;
#  3. turning OStrich off: priority/basic shifts every queued priority at
#     a 22.05 restart (sync_job_priorities() in job_mgr.c), so the guide
#     says so and not that basic "never" recomputes.
# Pure text: never skips.
# SPDX-License-Identifier: GPL-2.0-or-later

top=${srcdir:-.}/../..
guide=$top/doc/admin-guide.md man=$top/plugins/ostrich.conf.5
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for bin in $(sed -n 's|^usr/bin/||p' "$top/debian/not-installed"); do
	if grep -n "\`$bin\`[^.]*installed with the package" "$guide"; then
		bad "the guide says $bin is installed with the package (debian/not-installed)"
	fi
done

grep -q 'xstrcmp(slurm_conf.priority_type, "priority/ostrich")' \
	"$top/plugins/slurm/sched_ostrich.c" || bad "sched_ostrich.c: no watcher condition"
interval=$(sed -n '/^\.BI Interval=/,/^\.TP/p' "$man" | tr '\n' ' ')
case $interval in
*submission*priority/ostrich*|*priority/ostrich*submission*) ;;
*submission*) bad "ostrich.conf.5, Interval: a submission wakes a pass, priority/ostrich not named" ;;
esac
overview=$(sed -n '/^The engine keeps one virtual schedule/,/^$/p' "$guide" | tr '\n' ' ')
case $overview in
*"after a submission"*priority/ostrich*|*priority/ostrich*"after a submission"*) ;;
*"after a submission"*) bad "admin guide overview: a pass after a submission, priority/ostrich not named" ;;
esac
off=$(sed -n '/^## Turning it off safely/,/^## /p' "$guide" | tr '\n' ' ')
case $off in
*"priority/basic\` never"*) bad "turning off: priority/basic is said never to recompute" ;;
esac
case $off in
*sync_job_priorities*) ;;
*) bad "turning off: the restart shift of priority/basic (sync_job_priorities) is not described" ;;
esac
[ $fail = 0 ] && echo "ok claims"
exit $fail
