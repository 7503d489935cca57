#!/bin/sh
# rank-shake.sh - the public traces of bench/rank-traces.sh under input
# shaking (bench/shake-swf.py): SEEDS shaken copies of each trace, every
# submit time moved by a uniform [-J, J] s, each replayed under every
# setting, open loop and with the users' feedback (--think-time 600, as
# rank-traces.sh).  One replay of a trace is one sample: the shaken
# replays give each setting's mean over seeds with a 95% CI, and the
# paired ratio to the first setting (the same shaken trace under both).
#
# usage: bench/rank-shake.sh   (environment: SIM, TRACES (directory of
#   the *.swf.gz), OUT (default rank-shake-out), SEEDS (20), JITTER (60),
#   SETTINGS (label:options a line, FS = the fairshare baseline; the first
#   line is the reference of the ratios), TRACE_SPECS (FILE:NAME:M a
#   word, FILE without .swf.gz: other traces than sim/traces.sh's three,
#   e.g. held-out ones), GROUPING (trace, the default, or online: §2's
#   grouping as the plugins apply it; --feedback needs trace grouping, so
#   online replays are open loop only))
# SPDX-License-Identifier: GPL-2.0-or-later

set -eu
: "${SIM:?}" "${TRACES:?}" "${OUT:=rank-shake-out}" "${SEEDS:=20}"
: "${JITTER:=60}" "${GROUPING:=trace}"
case $GROUPING in
trace) modes="open:0 fb:3600" ;;
online) modes="online:-" ;;
*) echo "rank-shake.sh: GROUPING is trace or online, not '$GROUPING'" >&2
	exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
specs=${TRACE_SPECS:-}
# shellcheck source=sim/traces.sh
. "$here/sim/traces.sh"
[ -z "$specs" ] || TRACE_SPECS=$specs
# shellcheck source=sim/ci.sh
. "$here/sim/ci.sh"
mkdir -p "$OUT"
rows=$OUT/rows.txt
: >"$rows"

: "${SETTINGS:=shipped:
gate-none:--gate none
cap+gate-none:--lead cap --gate none
restart:--overdue restart
restart+gate-none:--overdue restart --gate none
restart+cap:--overdue restart --lead cap
restart+cap+gate-none:--overdue restart --lead cap --gate none
restart+forgive:--overdue restart --lead forgive
fairshare:FS}"

for spec in $TRACE_SPECS; do
	trace_spec "$spec"
	seed=1
	while [ "$seed" -le "$SEEDS" ]; do
		python3 "$here/bench/shake-swf.py" "$seed" "$JITTER" "$trace" \
			>"$OUT/shaken.swf"
		for mode in $modes; do
			md=${mode%:*} h=${mode#*:}
			if [ "$h" = - ]; then
				fb="--grouping online"
			else
				fb="--feedback --feedback-threshold $h"
			fi
			echo "$SETTINGS" | while IFS=: read -r lab opts; do
				if [ "$opts" = FS ]; then
					pol="--policy fairshare" opts=
				else
					pol="--policy ostrich"
				fi
				# shellcheck disable=SC2086
				nice -n 19 "$SIM" --quiet --think-time 600 $fb \
					--summary-out "$OUT/s.json" $pol $opts \
					"$OUT/shaken.swf"
				python3 - "$name" "$md" "$lab" "$seed" \
					"$OUT/s.json" >>"$rows" <<'PY'
import json, sys
s = json.load(open(sys.argv[5]))
print(*sys.argv[1:5], '%.6f %.6f %.3f' % (
    s['mean_stretch'], 100 * s['share_stretch_gt_20'], s['max_stretch']))
PY
			done
		done
		seed=$((seed + 1))
	done
done
rm -f "$OUT/shaken.swf" "$OUT/s.json"
python3 "$here/bench/shake-table.py" "$rows" "$SEEDS" "$JITTER" "$ci_t" \
	>"$OUT/rank-shake.md"
cat "$OUT/rank-shake.md"
