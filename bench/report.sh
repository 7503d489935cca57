#!/bin/sh
# report.sh - assemble bench/results.md from the parts of `make bench`
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage: report.sh ENGINE.md SIM.md > results.md
#        report.sh --splice-plugin RESULTS.md PLUGIN.md > results.md
# Prints a header (date, machine, compiler, commit), the two parts, and
# part 3 (results-plugin.md, written by `make bench-plugin`) when present.
# --splice-plugin replaces part 3 of an existing results.md.

set -e
srcdir=$(dirname "$0")
plugin_part() {
	echo
	cat "$1"
}
if [ "${1:-}" = --splice-plugin ]; then
	sed '/^### Plugin overhead/,$d' "$2" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	plugin_part "$3"
	if [ -f "$srcdir/history.md" ]; then
		echo
		cat "$srcdir/history.md"
	fi
	exit 0
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
cc=$(${CC:-cc} --version 2>/dev/null | head -n 1)
commit=$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$srcdir/.." status --porcelain -- src sim 2>/dev/null | wc -l)

cat <<HEAD
# ostrich benchmarks (\`make bench\`)

Generated $(date -u '+%Y-%m-%d %H:%M UTC') on ${cpu:-unknown CPU}
(${ncpu} CPUs), ${cc:-unknown compiler}, -O2, source commit ${commit}
(${dirty} files of src/ and sim/ differed from it).

Absolute times depend on the machine; compare the ratios, which are
measured against a baseline in the same run. Reproduce with
\`make bench\` (optionally \`TRACES=DIR\`) from a configured build tree.

HEAD
if [ -d "$srcdir/patches" ]; then
	cat <<'NOTE'
Proposed core changes for the engine targets still missed are in
bench/patches/ (not applied; see "Before/after" at the end).

NOTE
fi
cat "$1"
echo
cat "$2"
cat <<'TAIL'

![Replay time against jobs and queue length](sim-scaling.png)
TAIL
if [ -f "$srcdir/results-plugin.md" ]; then
	plugin_part "$srcdir/results-plugin.md"
else
	printf '\n### Plugin overhead in a real slurmctld (part 3)\n\nNot measured yet: `make -C bench bench-plugin` as root.\n'
fi
# hand-written: before/after of core changes, profiles, proposals (kept
# across runs; its numbers are dated there)
if [ -f "$srcdir/history.md" ]; then
	echo
	cat "$srcdir/history.md"
fi
