/*****************************************************************************\
 *  osl_report.c - a campaign's stretch (§7, §26) and the report's two
 *  stores: the ring of the last OSL_REPORT_KEEP finished campaigns and the
 *  sorted array of the open ones (osl_report.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "osl_report.h"

/* §7: lb = max(W / m, max_j (t_j - t_c + p_j), 1 s), W in width x s, m in
 * width: seconds.  span holds max_j (t_j + p_j), so the second term is
 * span - t_c. */
extern double osl_report_lower_bound(const osl_report_camp_t *c)
{
	double lb = c->work / (c->capacity > 0 ? c->capacity : 1);

	if (c->span - c->release > lb)
		lb = c->span - c->release;
	if (!(lb >= 1))		/* NaN too */
		lb = 1;
	return lb;
}

/* §7: max(flow, 1 s) / lb, flow = C_c - t_c (s); >= 1 but for rounding. */
static double _stretch_to(const osl_report_camp_t *c, double end)
{
	double flow = end - c->release;

	if (isnan(end))
		return NAN;
	if (!(flow >= 1))
		flow = 1;
	return flow / osl_report_lower_bound(c);
}

extern double osl_report_stretch(const osl_report_camp_t *c)
{
	return _stretch_to(c, c->end);
}

extern double osl_report_vstretch(const osl_report_camp_t *c)
{
	return _stretch_to(c, c->vct);
}

/* The ring grows by doubling up to OSL_REPORT_KEEP (head stays 0 until
 * then), so a partition with few campaigns holds few. */
extern int osl_report_push(osl_report_t *r, const osl_report_camp_t *c)
{
	if (r->nring < OSL_REPORT_KEEP) {
		size_t cap = (size_t) r->cap_ring;
		void *v;

		if (r->nring == r->cap_ring) {
			if (!(v = ost_grow(r->ring, &cap, (size_t) r->nring + 1,
					   sizeof(*r->ring), 16)))
				return -1;
			r->ring = v;
			r->cap_ring = (int) cap;
		}
		r->ring[(r->head + r->nring++) % OSL_REPORT_KEEP] = *c;
	} else {			/* full: the oldest goes */
		r->ring[r->head] = *c;
		r->head = (r->head + 1) % OSL_REPORT_KEEP;
	}
	r->ring[(r->head + r->nring - 1) % OSL_REPORT_KEEP].open = false;
	r->closed++;
	r->dirty = true;
	return 0;
}

extern osl_report_camp_t *osl_report_nth(const osl_report_t *r, int i)
{
	return &r->ring[(r->head + i) % OSL_REPORT_KEEP];
}

/* Where (uid, seq) is, or would go, in r->open: binary search. */
static int _find(const osl_report_t *r, uint32_t uid, uint32_t seq)
{
	int lo = 0, hi = r->nopen;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const osl_report_camp_t *c = &r->open[mid];

		if (c->uid < uid || (c->uid == uid && c->seq < seq))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

extern osl_report_camp_t *osl_report_open_get(osl_report_t *r, uint32_t uid,
					      uint32_t seq, bool create)
{
	int i = _find(r, uid, seq);
	osl_report_camp_t *c;
	size_t cap = (size_t) r->cap_open;
	void *v;

	if (i < r->nopen && r->open[i].uid == uid && r->open[i].seq == seq)
		return &r->open[i];
	if (!create)
		return NULL;
	if (!(v = ost_grow(r->open, &cap, (size_t) r->nopen + 1,
			   sizeof(*r->open), 16)))
		return NULL;
	r->open = v;
	r->cap_open = (int) cap;
	memmove(&r->open[i + 1], &r->open[i],
		(size_t) (r->nopen - i) * sizeof(*r->open));
	r->nopen++;
	c = memset(&r->open[i], 0, sizeof(*c));
	c->uid = uid;
	c->seq = seq;
	c->release = INFINITY;
	c->start = NAN;
	c->end = -INFINITY;
	c->span = -INFINITY;
	c->vct = NAN;
	c->open = true;
	r->dirty = true;
	return c;
}

extern void osl_report_free(osl_report_t *r)
{
	free(r->ring);
	free(r->open);
	memset(r, 0, sizeof(*r));
}
