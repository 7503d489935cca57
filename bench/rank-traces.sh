#!/bin/sh
# rank-traces.sh - chained campaigns: the candidate rules of doc/semantics.md §24 on
# the three public traces (doc/results.md §5), open loop (--feedback
# --feedback-threshold 0) and with the users' feedback (threshold 3600),
# --think-time 600, --grouping trace, as sim/fairshare-analysis.sh's fb
# experiment.  One row per trace, mode and setting: mean stretch, share
# of campaigns with stretch > 20 (%), max stretch.
#
# usage: bench/rank-traces.sh   (environment: SIM, TRACES (directory of
#   the *.swf.gz), OUT (default rank-traces-out))
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${TRACES:?}" "${OUT:=rank-traces-out}"
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"

: "${SETTINGS:=shipped:
gate-none:--gate none
forgive:--lead forgive
cap:--lead cap
cap+gate-none:--lead cap --gate none
gate-none+rank-capped:--gate none --rank capped
fairshare:FS}"

# one unshaken replay per trace, mode and setting: rank-shake.sh with one
# copy and J = 0, which is the trace bit for bit
SEEDS=1 JITTER=0 SETTINGS=$SETTINGS OUT=$OUT SIM=$SIM TRACES=$TRACES \
	sh "$here/bench/rank-shake.sh" >/dev/null
{
echo "| trace | mode | setting | mean stretch | > 20 (%) | max |"
echo "|---|---|---|---|---|---|"
awk '{ printf "| %s | %s | %s | %.3f | %.2f | %.1f |\n", $1, $2, $3, $5, $6, $7 }' \
	"$OUT/rows.txt"
} >"$OUT/rank-traces.md"
cat "$OUT/rank-traces.md"
