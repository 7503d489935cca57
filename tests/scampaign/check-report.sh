#!/bin/sh
# check-report.sh - scampaign --report's views of a sample campaign report
# (report_dump, the same printers): the table's sums, the JSON parses
# (jq, when installed) with the sums of §26, and --metrics' report series
# pass promtool (when installed).
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
sample="${srcdir:-.}/report-sample.txt"
./report_dump --table "$sample" > report-table.txt
# alice: 1 campaign, stretch max(100, 1) / max(200 / 4, 60, 1) = 100 / 60
grep -Eq '^debug +user +alice +1 +1\.67 +1\.67 +0% +1\.50 +1\.50 +0%$' report-table.txt
# bob: 600 / max(40 / 4, 10, 1) = 60 > 20, no virtual completion known
grep -Eq '^debug +user +bob +1 +60\.00 +60\.00 +100% +- +- +-$' report-table.txt
./report_dump --json "$sample" > report.json
if command -v jq > /dev/null 2>&1; then
	[ "$(jq '.report.campaigns | length' report.json)" = 2 ]
	[ "$(jq '.report.partitions[0].stretch.above20' report.json)" = 0.5 ]
	[ "$(jq -r '.report.campaigns[1].vct' report.json)" = null ]
fi
./report_dump --metrics "$sample" > report-metrics.prom
grep -q '^ostrich_report_stretch_max{partition="debug"} 60$' report-metrics.prom
grep -q '^ostrich_report_user_virtual_stretch_mean{partition="debug",user="alice"} 1.5$' report-metrics.prom
if command -v promtool > /dev/null 2>&1; then
	promtool check metrics < report-metrics.prom
fi
echo "check-report: table, JSON and $(grep -vc '^#' report-metrics.prom) metric samples right"
