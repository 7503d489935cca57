#!/bin/sh
# check-promtool.sh - scampaign --metrics is valid Prometheus text: the
# metrics of a sample snapshot (usage_dump, the same printer) checked by
# promtool (Debian's prometheus package; tools/install-deps.sh).
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
if ! command -v promtool >/dev/null 2>&1; then
	echo "check-promtool: promtool missing (apt-get install prometheus): skipped"
	exit 77
fi
out=usage-metrics.prom
./usage_dump --metrics "${srcdir:-.}/usage-sample.txt" > "$out"
# promtool check metrics: exit 1 on a format error, and on a lint problem
promtool check metrics < "$out"
grep -q '^ostrich_campaign_stretch_bucket{partition="batch",le="+Inf"} 4$' "$out"
grep -q '^ostrich_charged_unit_seconds_total{partition="batch",user="alice",unit="cpu"} 12345.5$' "$out"
echo "check-promtool: $(grep -vc '^#' "$out") samples valid"
