#!/bin/sh
# report.sh - assemble bench/results.md from the parts of `make bench`
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage: report.sh ENGINE.md SIM.md > results.md
# Prints a header (date, machine, compiler, commit) and the two parts.

set -e
srcdir=$(dirname "$0")
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
if [ -d "$srcdir/patches" ] && [ -f "$srcdir/results-proposed.md" ]; then
	cat <<'NOTE'
Proposed core fixes for the missed engine targets are in bench/patches/;
bench/results-proposed.md holds the same tables measured with them.

NOTE
fi
cat "$1"
echo
cat "$2"
cat <<'TAIL'

![Replay time against jobs and queue length](sim-scaling.png)
TAIL
