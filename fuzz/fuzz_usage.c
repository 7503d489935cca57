/*****************************************************************************\
 *  fuzz_usage.c - libFuzzer target: the usage snapshot parser
 *  (plugins/lib/osl_usnap.c), which scampaign --usage / --metrics run on
 *  the file StateSaveLocation/ostrich_usage.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Whatever parses must be in range and print back to a text that parses
 *  to the same snapshot, which prints to the same bytes (a fixed point);
 *  scampaign --tree (scampaign/tree.c) prints it without a crash or a
 *  hang, whatever its accounts' parents.
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_usnap.h"
#include "tree.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

static void _check(const osl_usnap_t *s)
{
	int i, j;

	for (i = 0; i < s->nparts; i++) {
		const osl_usnap_part_t *p = &s->parts[i];
		uint64_t c = 0;

		CHECK(osl_usnap_name_ok(p->name) && osl_usnap_name_ok(p->unit));
		CHECK(p->nb >= 0 && p->nb <= OSL_USNAP_NB_MAX);
		for (j = 0; j < p->nb; j++) {
			CHECK(p->le[j] > 0 && (!j || p->le[j] > p->le[j - 1]));
			c += p->count[j];
		}
		CHECK(c == p->total && p->sum >= 0 && isfinite(p->sum));
		for (j = 0; j < p->nusers; j++) {
			CHECK(osl_usnap_name_ok(p->users[j].name));
			CHECK(p->users[j].charged >= 0 &&
			      isfinite(p->users[j].charged));
			CHECK(p->users[j].share >= 0 && p->users[j].share <= 1);
		}
		for (j = 0; j < p->naccts; j++)
			CHECK(osl_usnap_name_ok(p->accts[j].name) &&
			      p->accts[j].active <= 1 &&
			      p->accts[j].frac >= 0 && p->accts[j].frac <= 1);
		for (j = 0; j < p->nleaves; j++)
			CHECK(osl_usnap_name_ok(p->leaves[j].account) &&
			      p->leaves[j].active <= 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	osl_usnap_t s, r;
	char err[256], *t1, *t2;
	size_t l1, l2;

	if (osl_usnap_parse(&s, (const char *) data, size, err, sizeof(err)))
		return 0;
	_check(&s);
	CHECK((t1 = osl_usnap_format(&s, &l1)));
	CHECK(!osl_usnap_parse(&r, t1, l1, err, sizeof(err)));
	CHECK((t2 = osl_usnap_format(&r, &l2)));
	CHECK(l1 == l2 && !memcmp(t1, t2, l1));
	/* scampaign --tree on it, a damaged tree (cycles, orphans) too */
	{
		FILE *null = fopen("/dev/null", "w");

		CHECK(null);
		sc_tree(null, &s, false);
		fclose(null);
	}
	free(t1);
	free(t2);
	osl_usnap_free(&s);
	osl_usnap_free(&r);
	return 0;
}
