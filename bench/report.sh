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

cat <<HEAD
# ostrich benchmarks (\`make bench\`)

Generated $(date -u '+%Y-%m-%d %H:%M UTC') on ${cpu:-unknown CPU}
(${ncpu} CPUs), ${cc:-unknown compiler}, -O2, source commit ${commit}
(plus uncommitted bench/ changes, if any).

Absolute times depend on the machine; compare the ratios, which are
measured against a baseline in the same run. Reproduce with
\`make bench\` (optionally \`TRACES=DIR\`) from a configured build tree.

HEAD
cat "$1"
echo
cat "$2"
cat <<'TAIL'

![Replay time against jobs and queue length](sim-scaling.png)
TAIL
