/*****************************************************************************\
 *  osl_stretch.c - the stretch (§7) of the campaigns that ended since the
 *  engine started, as a histogram for scampaign --metrics: each campaign
 *  is accounted from the runs the ledger charged (osl_usage.c) and closed
 *  once no job of it is left and none can join it (§18).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_stretch.h"
#include "osl_vec.h"

const double osl_stretch_le[OSL_STRETCH_NB] = {
	1, 1.5, 2, 3, 5, 10, 20, 50, 100, INFINITY
};

extern void osl_stretch_add(osl_stretch_t *h, double x)
{
	int b = 0;

	if (!(x >= 1))		/* NaN too: a lower bound is never above
				 * the flow but for rounding */
		x = 1;
	while (b < OSL_STRETCH_NB - 1 && x > osl_stretch_le[b])
		b++;
	h->bucket[b]++;
	h->sum += x;
	h->count++;
}

extern void osl_stretch_job(osl_stretch_t *h, const osl_obs_t *o, double run,
			    uint32_t campaign, double submit)
{
	double end = (double) o->end;
	osl_scamp_t *c = NULL;
	int i;

	for (i = h->n - 1; i >= 0 && !c; i--)	/* a few open campaigns */
		if (h->v[i].uid == o->uid && h->v[i].seq == campaign)
			c = &h->v[i];
	if (!c) {
		h->v = osl_grow(h->v, &h->cap, h->n + 1, sizeof(*h->v), 16);
		c = &h->v[h->n++];
		c->uid = o->uid;
		c->seq = campaign;
		c->t_c = submit;
		c->work = 0;
		c->span = -INFINITY;
		c->last_end = -INFINITY;
	}
	if (submit < c->t_c)
		c->t_c = submit;
	c->work += (double) o->procs * run;
	if (submit + run > c->span)
		c->span = submit + run;
	if (end > c->last_end)
		c->last_end = end;
}

static int _scamp_cmp(const void *a, const void *b)
{
	const osl_scamp_t *x = a, *y = b;

	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Mark open the campaign of job in h->v (sorted by _scamp_cmp). */
static int _open_visit(const ost_job_info_t *job, void *arg)
{
	osl_stretch_t *h = arg;
	osl_scamp_t key = { .uid = job->uid, .seq = job->campaign }, *c;

	if ((c = bsearch(&key, h->v, h->n, sizeof(key), _scamp_cmp)))
		c->open = true;
	return 0;
}

/* §7: flow / max(work / m, max_j (t_j - t_c + p_j), 1 s). */
static double _stretch(const osl_scamp_t *c, double m)
{
	double lb = c->work / (m > 0 ? m : 1);

	if (c->span - c->t_c > lb)
		lb = c->span - c->t_c;
	if (lb < 1)
		lb = 1;
	return (c->last_end - c->t_c) / lb;
}

/*
 * One walk over the core's jobs, only when some campaign is past its
 * think time: O(J log n) then, O(n) otherwise.
 */
extern int osl_stretch_close(osl_stretch_t *h, const osl_part_t *p,
			     double now, double tau)
{
	int i, m = 0, closed = 0;
	bool due = false;

	for (i = 0; i < h->n; i++) {
		h->v[i].open = false;
		due = due || now - h->v[i].last_end > tau;
	}
	if (!due)
		return 0;
	qsort(h->v, h->n, sizeof(*h->v), _scamp_cmp);
	(void) ost_sched_foreach_job(p->sched, _open_visit, h);
	for (i = 0; i < h->n; i++) {
		osl_scamp_t *c = &h->v[i];

		if (now - c->last_end <= tau || c->open) {
			h->v[m++] = *c;
			continue;
		}
		osl_stretch_add(h, _stretch(c, (double) p->procs));
		closed++;
	}
	h->n = m;
	return closed;
}

extern void osl_stretch_free(osl_stretch_t *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
