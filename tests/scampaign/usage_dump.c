/*****************************************************************************\
 *  usage_dump.c - a test helper: a usage snapshot file printed as
 *  scampaign would, without Slurm: usage_dump --metrics|--json|--table|--tree
 *  FILE
 *  (check-promtool.sh feeds its --metrics to promtool).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "usage.h"

int main(int argc, char **argv)
{
	osl_usnap_t s;
	char err[256], *buf = NULL;
	size_t len = 0, cap = 0, r;
	FILE *f;

	if (argc != 3 || !(f = fopen(argv[2], "r"))) {
		fprintf(stderr, "usage: usage_dump --metrics|--json|--table|--tree FILE\n");
		return 2;
	}
	do {
		if (cap - len < 4096 && !(buf = realloc(buf, cap += 65536)))
			return 2;
		r = fread(buf + len, 1, cap - len, f);
		len += r;
	} while (r > 0);
	fclose(f);
	if (osl_usnap_parse(&s, buf, len, err, sizeof(err))) {
		fprintf(stderr, "usage_dump: %s: %s\n", argv[2], err);
		return 1;
	}
	if (!strcmp(argv[1], "--metrics"))
		sc_metrics(stdout, &s);
	else if (!strcmp(argv[1], "--json"))
		sc_usage_json(stdout, &s);
	else if (!strcmp(argv[1], "--tree"))
		sc_tree(stdout, &s, false);
	else
		sc_usage_table(stdout, &s, false);
	osl_usnap_free(&s);
	free(buf);
	return 0;
}
