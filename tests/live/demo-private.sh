#!/usr/bin/env bash
# demo-private.sh - tools/demo.sh from a clone in a private directory, as a
# newcomer runs it: `git clone` of the committed HEAD of the repository this
# script is in, into a `mktemp -d` directory (mode 0700, as /root is), then
# the demo there.  It must exit 0, and every step a newcomer reads must have
# worked: the queue, scampaign, carol's scampaign --explain (run as carol,
# who cannot reach the clone), scontrol, sprio, and every daemon stopped.
#
#     sudo tests/live/demo-private.sh [DEMO OPTIONS...]
#
# Run by tools/test-all.sh (as root; the demo installs packages and starts
# a cluster on the default ports, 16817 and 17001-17008, under the live
# tests' lock).  The clone and its build are removed at the end unless the
# demo failed (then its path and the demo's output are printed).
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "SKIP: the demo runs as root"; exit 77; }
head=$(git -C "$top" rev-parse HEAD) ||
	{ echo "FAIL: $top is not a git repository"; exit 1; }
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
	echo "# note: uncommitted changes in $top are not tested (the clone is of $head)"

dir=$(mktemp -d)	# mode 0700
[ "$(stat -c %a "$dir")" = 700 ] || chmod 0700 "$dir"
out=$dir.out
keep=0
cleanup() {
	if [ $keep = 0 ]; then rm -rf "$dir" "$out"; fi
}
trap cleanup EXIT
git clone -q "$top" "$dir/ostrich"
git -C "$dir/ostrich" checkout -q --detach "$head"
echo "# tools/demo.sh in $dir/ostrich ($(git -C "$dir/ostrich" log -1 --format='%h %s'))"

t0=$(date +%s)
rc=0
(cd "$dir/ostrich" && tools/demo.sh "$@") > "$out" 2>&1 || rc=$?
echo "# demo: exit $rc, $(( $(date +%s) - t0 )) s"

fail() {
	keep=1
	echo "--- the demo's output:"
	cat "$out"
	echo "--- clone kept: $dir/ostrich"
	echo "FAIL: $*"
	exit 1
}
[ $rc = 0 ] || fail "tools/demo.sh exited $rc"
# what the demo printed, step by step (the titles are bold: strip ESC[...m)
plain=$(sed 's/\x1b\[[0-9;]*m//g' "$out")
expect() {	# expect WHAT REGEX: a line of the output matches
	grep -Eq -- "$2" <<<"$plain" || fail "the demo did not show $1 (no line matches /$2/)"
}
expect "the pending queue" '^ *JOBID +USER +NAME +PRIORITY'
expect "scampaign's campaigns" '^PARTITION +USER +CAMP '
expect "carol's campaign in scampaign" '^debug +carol +1 '
expect "the command carol types" '^\$ scampaign --explain [0-9]+$'
# carol's answer: the lines between her command and the next title
explain=$(awk '/^\$ scampaign --explain /{on=1; next} on && /^== /{exit} on' <<<"$plain")
grep -q '[^[:space:]]' <<<"$explain" || fail "scampaign --explain printed nothing"
if grep -Eiq 'denied|may not run|error|cannot|not found' <<<"$explain"; then
	fail "carol's scampaign --explain failed: $explain"
fi
expect "the job's SystemComment" 'SystemComment=.*ostrich'
expect "sprio" '^ *JOBID +PARTITION +USER'
expect "the engine's passes in slurmctld.log" 'ostrich: pass'
expect "the daemons stopped" '^== Stopping every daemon the demo started'
# the demo leaves its cluster's scratch directory (logs to read); this
# test's is of no use once it passed
work=$(sed -n 's/.*SchedulerType=sched\/ostrich (\(\/tmp\/ostrich-cluster\.[A-Za-z0-9]*\))$/\1/p' <<<"$plain")
[ -z "$work" ] || [ ! -d "$work" ] || rm -rf "$work"
echo "# carol's scampaign --explain:"
sed 's/^/#   /' <<<"$explain"
echo "PASS: tools/demo.sh in a private clone"
