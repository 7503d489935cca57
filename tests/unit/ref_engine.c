/*****************************************************************************\
 *  ref_engine.c - a naive reference implementation of §2-5
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The oracle of check_property only; bench/naive.c, the benchmark's
 *  baseline, is a separate engine on purpose (ref_engine.h says why).
\*****************************************************************************/

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "ref_engine.h"

#define MAXU 64
#define MAXC 4096
#define MAXJ 8192

typedef struct {
	uint64_t id;
	int camp;
	uint32_t q;
	double e, submit;	/* e: the estimate counted (§12's charge) */
	double full, start;	/* e without §12; start time */
	int state;		/* 0 pending, 1 running, 2 gone */
	bool cancelled;
} rjob_t;

typedef struct {
	int user;
	uint32_t seq;
	double t_c, phi, len, area, area_est, E, S, F, D;
	double K;		/* order key: F, or §13, §14's */
	double vrel, cut;	/* §24: v at open or restart; v when its last
				 * job left (+inf while it has one) */
	uint32_t k;
	bool elig;
	bool restarted;		/* §27: its pending work rejoined V */
	bool behind;		/* §24: at v_rel another campaign of its
				 * user had an unfinished job */
} rcamp_t;

typedef struct {
	uint32_t uid;
	double w;
	uint32_t last_seq;
	int last;		/* newest campaign index, -1 */
} ruser_t;

struct ref {
	ost_config_t cfg;
	double now, v;
	ruser_t u[MAXU];
	int nu;
	rcamp_t c[MAXC];
	int nc;
	rjob_t j[MAXJ];
	int nj;
};

static int _user(ref_t *r, uint32_t uid)
{
	int i;

	for (i = 0; i < r->nu; i++)
		if (r->u[i].uid == uid)
			return i;
	r->u[r->nu] = (ruser_t){ .uid = uid, .w = r->cfg.default_weight,
				 .last = -1 };
	return r->nu++;
}

static rjob_t *_job(ref_t *r, uint64_t id)
{
	int i;

	for (i = 0; i < r->nj; i++)
		if (r->j[i].id == id && r->j[i].state != 2)
			return &r->j[i];
	abort();
}

static int _unfinished(const ref_t *r, int c)
{
	int i, n = 0;

	for (i = 0; i < r->nj; i++)
		n += r->j[i].camp == c && r->j[i].state < 2;
	return n;
}

static bool _has_pending(const ref_t *r, int c)
{
	int i;

	for (i = 0; i < r->nj; i++)
		if (r->j[i].camp == c && r->j[i].state == 0)
			return true;
	return false;
}

/* All tags and deadlines from scratch, campaigns in creation order (which
 * is each user's order). */
static void _derive(ref_t *r)
{
	double pf[MAXU], pd[MAXU];
	int i, k;

	for (i = 0; i < r->nu; i++)
		pf[i] = pd[i] = -INFINITY;
	for (i = 0; i < r->nc; i++) {
		rcamp_t *c = &r->c[i];
		double len = c->area_est / (double)r->cfg.procs, emax = 0.0;
		double pend = 0.0, w = r->u[c->user].w, P;

		for (k = 0; k < r->nj; k++)
			if (r->j[k].camp == i && !r->j[k].cancelled &&
			    r->j[k].e > emax)
				emax = r->j[k].e;
		for (k = 0; k < r->nj; k++)
			if (r->j[k].camp == i && r->j[k].state == 0)
				pend += (double)r->j[k].q * r->j[k].e;
		if (emax > len)
			len = emax;
		/* §24: keep S = max(phi, pf), F = S + L; cap takes
		 * min(pf, v_rel + kappa L) for pf; forgive clamps F to
		 * max(S, cut) */
		P = pf[c->user];
		if (r->cfg.lead == OST_LEAD_CAP && !c->behind &&
		    c->vrel + r->cfg.lead_cap * c->len < P)
			P = c->vrel + r->cfg.lead_cap * c->len;
		c->S = c->phi > P ? c->phi : P;
		c->F = c->S + c->len;
		if (r->cfg.lead == OST_LEAD_FORGIVE && c->F > c->cut)
			c->F = c->cut > c->S ? c->cut : c->S;
		/* §13, §14: P = max(S, F - A^pend / w), K = P or
		 * min(F, P + Lambda / w) */
		P = c->F - pend / w;
		if (P < c->S)
			P = c->S;
		if (r->cfg.rank == OST_RANK_SERVED)
			c->K = P;
		else if (r->cfg.rank == OST_RANK_CAPPED)
			c->K = fmin(c->F, P + r->cfg.rank_cap *
				    (double)r->cfg.procs / w);
		else
			c->K = c->F;
		c->D = (c->t_c > pd[c->user] ? c->t_c : pd[c->user]) +
		       (double)c->k * len;
		c->elig = r->cfg.mode == OST_MODE_FAIRCAMP || r->v >= c->S;
		pf[c->user] = c->F;
		pd[c->user] = c->D;
	}
}

/* §24: whether a campaign of c's user other than c has an unfinished
 * job, by a scan of every job. */
static bool _behind(const ref_t *r, int c)
{
	int k;

	for (k = 0; k < r->nj; k++)
		if (r->j[k].state < 2 && r->j[k].camp != c &&
		    r->c[r->j[k].camp].user == r->c[c].user)
			return true;
	return false;
}

/* §27 Overdue=restart: each user's newest campaign complete in V with
 * jobs pending, that has not rejoined since it last grew, rejoins at v
 * with its pending area (phi = v, L = A^pend / w); tags re-derived. */
static void _rejoin(ref_t *r)
{
	bool any = false;
	int u, k;

	if (r->cfg.overdue != OST_OVERDUE_RESTART)
		return;
	for (u = 0; u < r->nu; u++) {
		rcamp_t *c = r->u[u].last >= 0 ? &r->c[r->u[u].last] : NULL;
		double pend = 0.0, len;

		if (!c || c->restarted || r->v < c->F)
			continue;
		for (k = 0; k < r->nj; k++)
			if (r->j[k].camp == r->u[u].last &&
			    r->j[k].state == 0)
				pend += (double)r->j[k].q * r->j[k].e;
		len = pend / r->u[u].w;
		if (!(pend > 0.0) || !(r->v + len > r->v))
			continue;
		c->phi = c->vrel = r->v;
		c->behind = _behind(r, r->u[u].last);
		c->len = len;
		c->restarted = true;
		any = true;
	}
	if (any)
		_derive(r);
}

static double _flast(const ref_t *r, int u)
{
	return r->u[u].last >= 0 ? r->c[r->u[u].last].F : -INFINITY;
}

static double _capacity(const ref_t *r)
{
	double m = r->cfg.procs, busy = 0;
	bool pend = false, epend = false;
	int i;

	if (r->cfg.capacity == OST_CAPACITY_FULL)
		return m;
	for (i = 0; i < r->nj; i++) {
		if (r->j[i].state == 1)
			busy += r->j[i].q;
		if (r->j[i].state == 0) {
			pend = true;
			epend |= r->c[r->j[i].camp].elig;
		}
	}
	if (!(r->cfg.gate == OST_GATE_STRICT ? epend : pend))
		return m;
	return busy < m ? busy : m;
}

static void _advance(ref_t *r, double t)
{
	if (!(t > r->now))
		goto out;
	if (isinf(r->now)) {
		r->now = t;
		goto out;
	}
	while (r->now < t) {
		double c, W = 0, x = INFINITY, dt;
		bool by_gate, any = false;
		int i;

		_derive(r);
		_rejoin(r);	/* §27 from the last events' instant */
		c = _capacity(r);
		for (i = 0; i < r->nu; i++)
			if (r->v < _flast(r, i)) {
				W += r->u[i].w;
				any = true;
				if (_flast(r, i) < x)
					x = _flast(r, i);
			}
		if (!any || !(c > 0.0)) {
			r->now = t;
			break;
		}
		by_gate = r->cfg.gate == OST_GATE_STRICT &&
			  r->cfg.capacity == OST_CAPACITY_USED;
		for (i = 0; by_gate && i < r->nc; i++)
			if (r->c[i].elig && _has_pending(r, i))
				by_gate = false;
		for (i = 0; by_gate && i < r->nc; i++)
			if (!r->c[i].elig && _has_pending(r, i) &&
			    r->c[i].S < x)
				x = r->c[i].S;
		dt = (x > r->v) ? (x - r->v) * W / c : 0.0;
		if (r->now + dt <= t) {
			r->now += dt;
			if (x > r->v)
				r->v = x;
			_derive(r);
			_rejoin(r);	/* §27 at the breakpoint */
		} else {
			r->v += (t - r->now) * c / W;
			r->now = t;
		}
	}
out:
	_derive(r);
}

/* §12: the charge of a job whose estimate without the variant is e. */
static double _charge(const ref_t *r, double e)
{
	return r->cfg.evidence && e > r->cfg.evidence_floor
		       ? r->cfg.evidence_floor : e;
}

static void _resize(ref_t *r, rjob_t *j, uint32_t q, double e);

/* Advance to t, applying on the way every step of §12 due by then (a
 * running job whose run time reaches its charge, below its full
 * estimate: the charge doubles, up to it, as a resize), earliest (then
 * lowest id) first, each at its own instant. */
void ref_advance(ref_t *r, double t)
{
	for (;;) {
		rjob_t *next = NULL;
		int i;

		for (i = 0; i < r->nj; i++) {
			rjob_t *j = &r->j[i];

			if (j->state != 1 || !(j->e < j->full) ||
			    !(j->start + j->e <= t))
				continue;
			if (!next || j->start + j->e < next->start + next->e ||
			    (j->start + j->e == next->start + next->e &&
			     j->id < next->id))
				next = j;
		}
		if (!next)
			break;
		_advance(r, next->start + next->e);
		_resize(r, next, next->q, fmin(2.0 * next->e, next->full));
		_derive(r);
	}
	_advance(r, t);
}

ref_t *ref_create(const ost_config_t *cfg)
{
	ref_t *r = calloc(1, sizeof(*r));

	r->cfg = *cfg;
	r->now = -INFINITY;
	return r;
}

void ref_destroy(ref_t *r)
{
	free(r);
}

void ref_set_weight(ref_t *r, uint32_t uid, double w)
{
	r->u[_user(r, uid)].w = w;
}

static uint32_t _busy_users(const ref_t *r)
{
	uint32_t n = 0;
	int i, k;

	for (i = 0; i < r->nu; i++)
		for (k = 0; k < r->nj; k++)
			if (r->j[k].state < 2 && r->c[r->j[k].camp].user == i) {
				n++;
				break;
			}
	return n;
}

/* A join of d > 0 CPU-seconds to campaign c at v (§3.4): L grows while
 * v < F_c, else c restarts at v, behind or not (§24). */
static void _join(ref_t *r, int c, double d)
{
	rcamp_t *k = &r->c[c];

	k->area += d;
	if (r->v < k->F) {
		k->len += d / r->u[k->user].w;
	} else {
		k->phi = k->vrel = r->v;
		k->behind = _behind(r, c);
		k->len = d / r->u[k->user].w;
		k->restarted = false;
	}
}

/* seq 0: grouping by think time (§2); else explicit campaign seq. */
static uint32_t _submit(ref_t *r, uint64_t id, uint32_t uid, uint32_t q,
			double e, double t, uint32_t seq)
{
	int u = _user(r, uid), c = r->u[u].last;
	double full = e, a;

	bool join = seq ? c >= 0 && seq == r->u[u].last_seq
			: c >= 0 && (_unfinished(r, c) ||
				     t - r->c[c].E <= r->cfg.think_time);

	e = _charge(r, e);
	a = (double)q * e;

	if (!join) {
		uint32_t busy = _busy_users(r);
		bool mine = false;
		int k;

		for (k = 0; k < r->nj; k++)
			mine |= r->j[k].state < 2 &&
				r->c[r->j[k].camp].user == u;
		ref_advance(r, t);
		c = r->nc++;
		r->u[u].last_seq = seq ? seq : r->u[u].last_seq + 1;
		r->c[c] = (rcamp_t){ .user = u, .seq = r->u[u].last_seq,
				     .t_c = t, .phi = r->v, .vrel = r->v,
				     .cut = INFINITY, .E = -INFINITY,
				     .behind = mine };
		r->c[c].k = r->cfg.faircamp_users ? r->cfg.faircamp_users
						  : busy + (mine ? 0 : 1);
		r->u[u].last = c;
		_derive(r);
	} else {
		ref_advance(r, t);
	}
	if (r->c[c].cut != INFINITY) {	/* §24: it has a job again */
		if (r->cfg.lead == OST_LEAD_FORGIVE &&
		    r->c[c].S + r->c[c].len > r->c[c].cut)
			r->c[c].len = r->c[c].F - r->c[c].S;
		r->c[c].cut = INFINITY;
	}
	_join(r, c, a);
	r->c[c].area_est += a;
	r->j[r->nj++] = (rjob_t){ .id = id, .camp = c, .q = q, .e = e,
				  .full = full, .submit = t };
	_derive(r);
	return r->c[c].seq;
}

uint32_t ref_submit(ref_t *r, uint64_t id, uint32_t uid, uint32_t q, double e,
		    double t)
{
	return _submit(r, id, uid, q, e, t, 0);
}

uint32_t ref_submit_in(ref_t *r, uint64_t id, uint32_t uid, uint32_t q,
		       double e, double t, uint32_t seq)
{
	return _submit(r, id, uid, q, e, t, seq);
}

static void _correct(ref_t *r, int c, double delta)
{
	r->c[c].area += delta;
	r->c[c].len += delta / r->u[r->c[c].user].w;
	if (r->c[c].len < 0)
		r->c[c].len = 0;
}

/* Job j becomes q CPUs wide with estimate e: d = q e - q_old e_old is
 * added like a submission (d > 0) or a correction (d < 0). */
static void _resize(ref_t *r, rjob_t *j, uint32_t q, double e)
{
	rcamp_t *c = &r->c[j->camp];
	double d = (double)q * e - (double)j->q * j->e;

	j->q = q;
	j->e = e;
	if (d == 0.0)
		return;
	c->area_est += d;
	if (c->area_est < 0)
		c->area_est = 0;
	if (d < 0) {
		_correct(r, j->camp, d);
		return;
	}
	_join(r, j->camp, d);
}

void ref_start(ref_t *r, uint64_t id, double t)
{
	rjob_t *j;

	ref_advance(r, t);
	j = _job(r, id);
	j->state = 1;
	j->start = t;
	_derive(r);
}

void ref_start_alloc(ref_t *r, uint64_t id, double t, uint32_t q)
{
	rjob_t *j;

	ref_advance(r, t);
	j = _job(r, id);
	j->state = 1;
	j->start = t;
	_resize(r, j, q, j->e);
	_derive(r);
}

void ref_update(ref_t *r, uint64_t id, uint32_t q, double e, double t)
{
	rjob_t *j;

	ref_advance(r, t);
	j = _job(r, id);
	if (q == j->q && e == j->full)	/* no change: a requeued job keeps
					 * its charge (§9.4, §12) */
		return;
	j->full = e;
	_resize(r, j, q, _charge(r, e));
	_derive(r);
}

void ref_finish(ref_t *r, uint64_t id, double t, double p)
{
	rjob_t *j;

	ref_advance(r, t);
	j = _job(r, id);
	j->state = 2;
	if (t > r->c[j->camp].E)
		r->c[j->camp].E = t;
	_correct(r, j->camp, (double)j->q * (p - j->e));
	if (!_unfinished(r, j->camp))	/* §24 */
		r->c[j->camp].cut = r->v;
	_derive(r);
}

void ref_requeue(ref_t *r, uint64_t id, double t)
{
	rjob_t *j;
	double run;

	ref_advance(r, t);
	j = _job(r, id);
	run = t - j->start;
	j->state = 0;
	j->start = NAN;
	if (run > 0)
		_join(r, j->camp, (double)j->q * run);
	_derive(r);
}

void ref_cancel(ref_t *r, uint64_t id, double t)
{
	rjob_t *j;

	ref_advance(r, t);
	j = _job(r, id);
	j->state = 2;
	j->cancelled = true;
	r->c[j->camp].area_est -= (double)j->q * j->e;
	if (r->c[j->camp].area_est < 0)
		r->c[j->camp].area_est = 0;
	_correct(r, j->camp, -(double)j->q * j->e);
	if (!_unfinished(r, j->camp))	/* §24 */
		r->c[j->camp].cut = r->v;
	_derive(r);
}

static ref_t *_sort_ref;

static int _cmp_camp(const void *a, const void *b)
{
	const rcamp_t *x = &_sort_ref->c[*(const int *)a];
	const rcamp_t *y = &_sort_ref->c[*(const int *)b];
	double kx, ky;

	if (_sort_ref->cfg.mode == OST_MODE_FAIRCAMP) {
		kx = x->D;
		ky = y->D;
	} else {
		if (_sort_ref->cfg.gate != OST_GATE_NONE &&
		    x->elig != y->elig)
			return x->elig ? -1 : 1;
		kx = x->K;
		ky = y->K;
	}
	if (kx != ky)
		return kx < ky ? -1 : 1;
	if (x->t_c != y->t_c)
		return x->t_c < y->t_c ? -1 : 1;
	if (_sort_ref->u[x->user].uid != _sort_ref->u[y->user].uid)
		return _sort_ref->u[x->user].uid < _sort_ref->u[y->user].uid
			       ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int _cmp_job(const void *a, const void *b)
{
	const rjob_t *x = *(rjob_t *const *)a, *y = *(rjob_t *const *)b;
	double k1x = 0, k1y = 0, k2x = 0, k2y = 0;

	switch (_sort_ref->cfg.intra) {
	case OST_INTRA_LPT:
		k1x = -x->full; k1y = -y->full;
		k2x = -(double)x->q; k2y = -(double)y->q;
		break;
	case OST_INTRA_SPT:
		k1x = x->full; k1y = y->full;
		k2x = -(double)x->q; k2y = -(double)y->q;
		break;
	case OST_INTRA_LJF:
		k1x = -(double)x->q; k1y = -(double)y->q;
		k2x = -x->full; k2y = -y->full;
		break;
	case OST_INTRA_FIFO:
		break;
	}
	if (k1x != k1y)
		return k1x < k1y ? -1 : 1;
	if (k2x != k2y)
		return k2x < k2y ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

size_t ref_order(ref_t *r, uint64_t *ids, bool *elig, size_t max)
{
	static int cs[MAXC];
	static rjob_t *js[MAXJ];
	size_t n = 0;
	int nc = 0, i, k, nj;

	_sort_ref = r;
	for (i = 0; i < r->nc; i++)
		if (_has_pending(r, i))
			cs[nc++] = i;
	qsort(cs, (size_t)nc, sizeof(int), _cmp_camp);
	for (i = 0; i < nc; i++) {
		nj = 0;
		for (k = 0; k < r->nj; k++)
			if (r->j[k].camp == cs[i] && r->j[k].state == 0)
				js[nj++] = &r->j[k];
		qsort(js, (size_t)nj, sizeof(*js), _cmp_job);
		for (k = 0; k < nj && n < max; k++) {
			ids[n] = js[k]->id;
			elig[n++] = r->c[cs[i]].elig;
		}
	}
	return n;
}

bool ref_campaign(const ref_t *r, uint32_t uid, uint32_t seq, double *S,
		  double *F, double *D)
{
	int i;

	for (i = 0; i < r->nc; i++)
		if (r->u[r->c[i].user].uid == uid && r->c[i].seq == seq) {
			*S = r->c[i].S;
			*F = r->c[i].F;
			*D = r->c[i].D;
			return true;
		}
	return false;
}

/* Simulate the fluid forward: each step, the active user with the
 * smallest F_last leaves at its F; C stays as now. */
double ref_vct(const ref_t *r, double x)
{
	double v = r->v, t = r->now, c = _capacity(r);
	bool gone[MAXU] = { false };

	if (x <= v)
		return t;
	if (!(c > 0))
		return INFINITY;
	for (;;) {
		double W = 0, next = INFINITY;
		int i, who = -1;

		for (i = 0; i < r->nu; i++)
			if (!gone[i] && v < _flast(r, i)) {
				W += r->u[i].w;
				if (_flast(r, i) < next) {
					next = _flast(r, i);
					who = i;
				}
			}
		if (who < 0)
			return t;
		if (x <= next)
			return t + (x - v) * W / c;
		t += (next - v) * W / c;
		v = next;
		gone[who] = true;
	}
}

double ref_area(const ref_t *r, uint32_t uid, uint32_t seq)
{
	int i;

	for (i = 0; i < r->nc; i++)
		if (r->u[r->c[i].user].uid == uid && r->c[i].seq == seq)
			return r->c[i].area;
	return NAN;
}

double ref_vtime(const ref_t *r)
{
	return r->v;
}
