/*****************************************************************************\
 *  osl_site.c - site_factor/ostrich's arithmetic (doc/semantics.md §25):
 *  PrioritySiteFactorParameters= read, and a rank turned into a site
 *  factor.  Free of Slurm types (tests/plugin/check_site.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_site.h"

extern int osl_site_params(const char *params, uint32_t *weight, char *err,
			   size_t errsz)
{
	const char *p = params;
	uint32_t w = 0;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n > 7 && !strncmp(p, "weight=", 7)) {
			char num[32], *end;
			unsigned long long v;

			if (n - 7 >= sizeof(num) || p[7] < '0' || p[7] > '9') {
				snprintf(err, errsz, "weight=%.*s is not a number from 0 to %u",
					 (int) (n - 7), p + 7, OSL_SITE_WEIGHT_MAX);
				return -1;
			}
			memcpy(num, p + 7, n - 7);
			num[n - 7] = '\0';
			errno = 0;
			v = strtoull(num, &end, 10);
			if (errno || *end || v > OSL_SITE_WEIGHT_MAX) {
				snprintf(err, errsz, "weight=%s is not a number from 0 to %u",
					 num, OSL_SITE_WEIGHT_MAX);
				return -1;
			}
			w = (uint32_t) v;
		} else if (n) {
			snprintf(err, errsz, "unknown parameter '%.*s' (site_factor/ostrich knows only weight=N)",
				 (int) n, p);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	*weight = w;
	return 0;
}

extern uint32_t osl_site_value(uint32_t weight, uint64_t rank,
			       uint64_t pending)
{
	if (!rank || !pending || rank > pending)
		return 0;
	return (uint32_t) ((unsigned __int128) weight * (pending - rank + 1) /
			   pending);
}

extern bool osl_site_better(uint64_t r1, uint64_t p1, uint64_t r2,
			    uint64_t p2)
{
	/* (p1 - r1 + 1) / p1 > (p2 - r2 + 1) / p2 */
	return (unsigned __int128) (p1 - r1 + 1) * p2 >
	       (unsigned __int128) (p2 - r2 + 1) * p1;
}

static int _cmp_id(const void *a, const void *b)
{
	uint32_t x = ((const osl_site_ent_t *) a)->job_id;
	uint32_t y = ((const osl_site_ent_t *) b)->job_id;

	return (x > y) - (x < y);
}

extern void osl_site_sort(osl_site_ent_t *t, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (t[i - 1].job_id > t[i].job_id)
			break;
	if (i < n)
		qsort(t, (size_t) n, sizeof(*t), _cmp_id);
}

extern void osl_site_carry(osl_site_ent_t *t, int n,
			   const osl_site_ent_t *old, int nold)
{
	int i, j = 0;

	for (i = 0; i < n; i++) {
		while (j < nold && old[j].job_id < t[i].job_id)
			j++;
		t[i].applied = j < nold && old[j].job_id == t[i].job_id ?
			       old[j].applied : 0;
	}
}

extern osl_site_ent_t *osl_site_find(osl_site_ent_t *t, int n,
				     uint32_t job_id)
{
	osl_site_ent_t key = { .job_id = job_id };

	if (!n)
		return NULL;
	return bsearch(&key, t, (size_t) n, sizeof(*t), _cmp_id);
}
