/*****************************************************************************\
 *  report_dump.c - a test helper: a campaign report file printed as
 *  scampaign --report would, without Slurm:
 *  report_dump --metrics|--json|--table|--campaigns FILE
 *  (check-report.sh feeds its --metrics to promtool).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_view.h"

int main(int argc, char **argv)
{
	sc_report_filter_t flt = { .since = -INFINITY };
	osl_report_file_t f;
	char err[256], *buf = NULL;
	size_t len = 0, cap = 0, r;
	int newer;
	FILE *fp;

	if (argc != 3 || !(fp = fopen(argv[2], "r"))) {
		fprintf(stderr, "usage: report_dump --metrics|--json|--table|--campaigns FILE\n");
		return 2;
	}
	do {
		if (cap - len < 4096 && !(buf = realloc(buf, cap += 65536)))
			return 2;
		r = fread(buf + len, 1, cap - len, fp);
		len += r;
	} while (r > 0);
	fclose(fp);
	if (osl_report_parse(&f, buf, len, &newer, err, sizeof(err))) {
		fprintf(stderr, "report_dump: %s: %s\n", argv[2], err);
		free(buf);
		return 1;
	}
	free(buf);
	sc_report_filter(&f, &flt);
	if (!strcmp(argv[1], "--metrics"))
		sc_report_metrics(stdout, &f, false, false);
	else if (!strcmp(argv[1], "--json"))
		sc_report_json(stdout, &f, flt.since, false);
	else
		sc_report_table(stdout, &f, !strcmp(argv[1], "--campaigns"),
				false, false);
	osl_report_file_free(&f);
	return 0;
}
