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
# shellcheck source=sim/traces.sh
. "$here/sim/traces.sh"
mkdir -p "$OUT"
rows=$OUT/rows.txt
: >"$rows"

: "${SETTINGS:=shipped:
gate-none:--gate none
forgive:--lead forgive
cap:--lead cap
cap+gate-none:--lead cap --gate none
gate-none+rank-capped:--gate none --rank capped
fairshare:FS}"

for spec in $TRACE_SPECS; do
	trace_spec "$spec"
	for mode in open:0 fb:3600; do
		md=${mode%:*} h=${mode#*:}
		echo "$SETTINGS" | while IFS=: read -r lab opts; do
			if [ "$opts" = FS ]; then
				pol="--policy fairshare" opts=
			else
				pol="--policy ostrich"
			fi
			# shellcheck disable=SC2086
			nice -n 19 "$SIM" --quiet --think-time 600 --feedback \
				--feedback-threshold "$h" \
				--summary-out "$OUT/s.json" $pol $opts "$trace"
			python3 - "$name" "$md" "$lab" "$OUT/s.json" >>"$rows" <<'PY'
import json, sys
s = json.load(open(sys.argv[4]))
print(sys.argv[1], sys.argv[2], sys.argv[3], '%.3f %.2f %.1f' % (
    s['mean_stretch'], 100 * s['share_stretch_gt_20'], s['max_stretch']))
PY
		done
	done
done
{
echo "| trace | mode | setting | mean stretch | > 20 (%) | max |"
echo "|---|---|---|---|---|---|"
awk '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$rows"
} >"$OUT/rank-traces.md"
cat "$OUT/rank-traces.md"
