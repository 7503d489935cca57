/*****************************************************************************\
 *  ost_vclock.c - the virtual time of the fair schedule (§3)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The virtual schedule V shares the capacity C (CPUs) among the active
 *  users in proportion to their weights, as a fluid.  It is kept with one
 *  number, the virtual time v (CPU-seconds per unit weight):
 *
 *      dv/dt = C(t) / W(t),    W(t) = sum of w_u over active users
 *
 *  and v does not move while W = 0.  A user with weight w receives w dv
 *  CPU-seconds while v advances by dv, so a campaign of area A needs a
 *  virtual length A / w.  A user is active while v < F of its latest
 *  campaign; W only changes when v crosses such an F (a breakpoint, kept in
 *  the heap s->active) or at an event.  Between breakpoints C / W is
 *  constant, so advancing costs O(log n) per user that becomes inactive and
 *  never touches the campaigns.
\*****************************************************************************/

#include <stdlib.h>

#include "ost_internal.h"

/*
 * C(t), CPUs.  capacity=full: m.  capacity=used (the thesis's event-based
 * resizing): the CPUs busy in the real schedule while some waiting job may
 * be started (any pending job with gate=soft, an eligible one with
 * gate=strict), else m, so V never stalls when the real schedule idles for
 * lack of startable work.  Busy CPUs above m (oversubscription) count as m.
 */
double ost_vclock_capacity(const ost_sched_t *s)
{
	double m = (double)s->cfg.procs;
	bool waiting;

	if (s->cfg.capacity == OST_CAPACITY_FULL)
		return m;
	if (s->cfg.gate == OST_GATE_STRICT)
		waiting = s->n_eligible > 0;
	else
		waiting = s->n_pending > 0;
	if (!waiting)
		return m;
	return (double)s->busy < m ? (double)s->busy : m;
}

/* Put u in or out of W after the F of its latest campaign changed: the
 * root's, or its account's (§21), which then updates its own place. */
void ost_vclock_user_update(ost_sched_t *s, ost_user_t *u)
{
	ost_acct_t *a = u->acct;
	ost_heap_t *hp = a ? &a->active : &s->active;
	uint32_t *n = a ? &a->n_active : &s->n_active;
	double *w = a ? &a->wsum : &s->total_weight;
	const ost_campaign_t *e = ost_user_end(u);	/* §22 */
	bool active = e && ost_user_vtime(s, u) < e->vfinish;
	bool linked = ost_hnode_linked(&u->active.node);

	/* §27: its pending work rejoins V when the clock next moves (so
	 * the events of one instant count together, as they are settled) */
	if (e && !active && !u->in_overdue && ost_campaign_may_rejoin(s, e)) {
		u->in_overdue = true;
		u->next_overdue = s->overdue;
		s->overdue = u;
	}

	if (active && !linked) {
		/* cannot fail: ost_user_get() reserved a slot per user */
		(void)ost_hkey_push(hp, &u->active, e->vfinish, u->tie);
		(*n)++;
		*w += u->weight;
	} else if (active) {
		ost_hkey_update(hp, &u->active, e->vfinish);
	} else if (linked) {
		ost_hkey_remove(hp, &u->active);
		(*n)--;
		*w -= u->weight;
		if (!*n)
			*w = 0.0;
	}
	ost_acct_refresh(s, a);
}

static int _cmp_hkey(const void *a, const void *b)
{
	const ost_hkey_t *x = *(ost_hkey_t *const *)a;
	const ost_hkey_t *y = *(ost_hkey_t *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->tie < y->tie ? -1 : (x->tie > y->tie);
}

/*
 * C~: the real times at which v would reach each of vf[0..n) (sorted
 * ascending) if no event happened: C stays as now, users leave W at their
 * F.  Values <= v give now; with C = 0 and work left, INFINITY.  Returns a
 * new array (free()) or NULL on memory shortage.  O(U log U + n).
 */
double *ost_vclock_project(const ost_sched_t *s, const double *vf, size_t n)
{
	double *out = malloc((n ? n : 1) * sizeof(*out));
	ost_hkey_t **u = malloc((s->active.n + 1) * sizeof(*u));
	double c = ost_vclock_capacity(s), v = s->vtime, t = s->now;
	double w = s->total_weight;
	size_t i, k = 0;

	if (!out || !u) {
		free(out);
		free(u);
		return NULL;
	}
	for (i = 0; i < s->active.n; i++)
		u[i] = OST_HKEY(s->active.v[i]);
	qsort(u, s->active.n, sizeof(*u), _cmp_hkey);
	for (i = 0; i < n; i++) {
		double x = vf[i];

		if (x <= s->vtime) {
			out[i] = s->now;
			continue;
		}
		/* §24: with Lead=cap an F may lie past its user's last F
		 * (the lead beyond the cap forgiven): once W is 0, v stops
		 * and C~ is when the last user left, as in the completion */
		if (!(c > 0.0) ||
		    (!(w > 0.0) && s->cfg.lead == OST_LEAD_KEEP)) {
			out[i] = INFINITY;
			continue;
		}
		while (k < s->active.n && u[k]->key < x) {
			t += (u[k]->key - v) * w / c;
			v = u[k]->key;
			w -= ost_hkey_weight(u[k]);
			k++;
			if (!(w > 0.0))
				break;
		}
		out[i] = (w > 0.0) ? t + (x - v) * w / c : t;
	}
	free(u);
	return out;
}

/*
 * C~ of one F, x, without the sort of ost_vclock_project().  Between now
 * and the time v reaches x, dv/dt = C / W(v) with W(v) the weights of the
 * active users whose F_u > v, so (every active u has F_u > v now)
 *
 *     t(x) = now + (1 / C) * integral from v to x of W(v') dv'
 *          = now + (1 / C) * sum over active u of w_u * (min(F_u, x) - v)
 *
 * in seconds (w_u * CPU-s per unit weight / CPUs).  Past the last F_u the
 * integral stops growing: t is when the last user leaves, as in
 * ost_vclock_project(), whose value this is to rounding.  x <= v: now;
 * C = 0 or W = 0: INFINITY.  O(U), no allocation.
 */
double ost_vclock_completion(const ost_sched_t *s, double x)
{
	double c = ost_vclock_capacity(s), sum = 0.0;
	size_t i;

	if (x <= s->vtime)
		return s->now;
	if (!(c > 0.0) ||
	    (!(s->total_weight > 0.0) && s->cfg.lead == OST_LEAD_KEEP))
		return INFINITY;	/* §24: see ost_vclock_project() */
	for (i = 0; i < s->active.n; i++) {
		const ost_hkey_t *h = OST_HKEY(s->active.v[i]);
		double f = h->key < x ? h->key : x;

		sum += ost_hkey_weight(h) * (f - s->vtime);
	}
	return s->now + sum / c;
}

/*
 * CPUs user u receives in V now: C w_u / W, counting u in W if it is not
 * active (the share it would get by submitting now).
 */
double ost_vclock_share(const ost_sched_t *s, const ost_user_t *u)
{
	double w = s->total_weight;

	if (u->acct)
		return ost_vclock_capacity(s) * ost_acct_share(s, u);
	if (!ost_hnode_linked(&u->active.node))
		w += u->weight;
	return ost_vclock_capacity(s) * u->weight / w;
}
