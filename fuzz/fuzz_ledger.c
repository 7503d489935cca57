/*****************************************************************************\
 *  fuzz_ledger.c - libFuzzer target: the usage ledger's loader
 *  (plugins/lib/osl_ledger_io.c), which reads ostrich_ledger.PARTITION
 *  at slurmctld's start, salvaging a damaged file record by record.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Whatever loads (whole or salvaged) must be sorted, without duplicates,
 *  in range, and save to a text that loads whole and saves to the same
 *  bytes (a fixed point); what does not load leaves the ledger as it was.
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_usage.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

static void _check(const osl_usage_t *u)
{
	int i;

	CHECK(isfinite(u->since) && isfinite(u->clock));
	for (i = 0; i < u->nusers; i++)
		CHECK(u->users[i].charged >= 0 &&
		      isfinite(u->users[i].charged) &&
		      (!i || u->users[i - 1].uid < u->users[i].uid));
	for (i = 0; i < u->nruns; i++)
		CHECK(u->runs[i].run >= 0 && !isnan(u->runs[i].cap) &&
		      (!i || u->runs[i - 1].key < u->runs[i].key));
	for (i = 1; i < u->ndone; i++)
		CHECK(u->done[i - 1].key < u->done[i].key ||
		      (u->done[i - 1].key == u->done[i].key &&
		       u->done[i - 1].start < u->done[i].start));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	osl_usage_t u, v;
	char err[512], *t1, *t2;
	size_t l1, l2;
	long rc;

	osl_usage_init(&u, 12345);
	rc = osl_ledger_load(&u, (const char *) data, size, err, sizeof(err));
	CHECK(rc == 0 || rc == -1 || rc == OSL_LEDGER_SALVAGED ||
	      rc > OSL_LEDGER_FORMAT);
	if (rc && rc != OSL_LEDGER_SALVAGED) {
		CHECK(u.since == 12345 && !u.nusers && !u.nruns && !u.ndone);
		return 0;
	}
	_check(&u);
	CHECK((t1 = osl_ledger_save(&u, &l1)));
	osl_usage_init(&v, 0);
	CHECK(osl_ledger_load(&v, t1, l1, err, sizeof(err)) == 0);
	CHECK((t2 = osl_ledger_save(&v, &l2)));
	CHECK(l1 == l2 && !memcmp(t1, t2, l1));
	free(t1);
	free(t2);
	osl_usage_free(&u);
	osl_usage_free(&v);
	return 0;
}
