/*****************************************************************************\
 *  fuzz_report.c - libFuzzer target: the campaign report's parser
 *  (plugins/lib/osl_report_io.c), which the engine runs at start and
 *  scampaign --report / --metrics on StateSaveLocation/ostrich_report.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Whatever parses must be in range and print back, through the engine's
 *  stores (ring and open campaigns, as osl_report_take fills them), to a
 *  text that parses and prints to the same bytes (a fixed point); every
 *  view of scampaign --report prints it without a crash.
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_report.h"
#include "report_view.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)
#define NPART 8

static void _check(const osl_report_file_t *f)
{
	int i;

	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *c = &f->v[i];

		CHECK(c->part[0] && c->work >= 0 && isfinite(c->work));
		if (c->open)
			continue;
		CHECK(isfinite(c->release) && isfinite(c->end) &&
		      c->end >= c->release && c->capacity > 0 && c->jobs);
		CHECK(osl_report_lower_bound(c) >= 1);
		CHECK(osl_report_stretch(c) > 0);
	}
}

/* f's records into the engine's stores, one per partition (the first
 * NPART partitions), as osl_report_take does.  RET partitions */
static int _stores(const osl_report_file_t *f, osl_report_t *r,
		   const char **names)
{
	int i, k, n = 0;

	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *x = &f->v[i];
		osl_report_camp_t *c;

		for (k = 0; k < n && strcmp(names[k], x->part); k++)
			;
		if (k == n) {
			if (n == NPART)
				continue;
			names[n++] = x->part;
		}
		if (!x->open) {
			CHECK(!osl_report_push(&r[k], x));
		} else {
			CHECK((c = osl_report_open_get(&r[k], x->uid, x->seq,
						       true)));
			*c = *x;
		}
	}
	return n;
}

/* The text of f through the stores (malloc, *len). */
static char *_print(const osl_report_file_t *f, size_t *len)
{
	osl_report_t r[NPART];
	const osl_report_t *rp[NPART];
	const char *names[NPART];
	char *t;
	int i, n;

	memset(r, 0, sizeof(r));
	n = _stores(f, r, names);
	for (i = 0; i < n; i++)
		rp[i] = &r[i];
	CHECK((t = osl_report_format(rp, names, n, f->time, len)));
	for (i = 0; i < NPART; i++)
		osl_report_free(&r[i]);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sc_report_filter_t flt = { .since = -INFINITY };
	osl_report_file_t f, g;
	char err[256], *t1, *t2;
	size_t l1, l2;
	int newer;
	FILE *null;

	if (osl_report_parse(&f, (const char *) data, size, &newer, err,
			     sizeof(err)))
		return 0;
	CHECK(!newer);
	_check(&f);
	t1 = _print(&f, &l1);
	CHECK(!osl_report_parse(&g, t1, l1, &newer, err, sizeof(err)));
	t2 = _print(&g, &l2);
	CHECK(l1 == l2 && !memcmp(t1, t2, l1));
	/* every view of scampaign --report */
	CHECK((null = fopen("/dev/null", "w")));
	sc_report_filter(&f, &flt);
	sc_report_table(null, &f, true, false, false);
	sc_report_json(null, &f, flt.since, false);
	sc_report_metrics(null, &f, false, false);
	fclose(null);
	free(t1);
	free(t2);
	osl_report_file_free(&f);
	osl_report_file_free(&g);
	return 0;
}
