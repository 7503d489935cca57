/*****************************************************************************\
 *  naive.c - the recompute-everything baseline of the engine benchmark
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Virtual time v (CPU-seconds per unit weight) follows §3:
 *
 *      dv/dt = C / W,   W = number of users u with v < F_last(u)
 *
 *  (all weights are 1), C = min(busy CPUs, m) while a job is pending, else
 *  m.  The floating-point operations are those of src/ost_vclock.c in the
 *  same order, so v, the tags and C~ match the engine bit for bit; what
 *  differs is the cost: the active users are re-collected and re-sorted at
 *  every clock move and every pass, and every pending job is re-sorted.
 *  It is not tests/unit/ref_engine.c on purpose (naive.h says why).
\*****************************************************************************/

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "naive.h"

#define NONE UINT32_MAX

enum { J_FREE = 0, J_PENDING, J_RUNNING };

struct njob {
	double e, submit;		/* estimate, submit time (s) */
	uint32_t camp, q;		/* campaign index, CPUs */
	uint32_t pos;			/* index in nv->pending while pending */
	uint8_t state;
};

struct ncamp {
	uint32_t uid, seq;
	uint32_t prev, next;		/* the user's campaigns, NONE at ends */
	uint32_t unfinished;		/* pending + running jobs */
	double t_c, phi, len;		/* submit (s), floor and length of S/F */
	double last_end;		/* E_c: last finish (s), -inf if none */
	double S, F;			/* tags (virtual time) */
	double vct;			/* C~ (s), recomputed every pass */
	bool eligible;			/* v >= S, recomputed every pass */
};

struct nuser {
	uint32_t last;			/* newest campaign or NONE */
	uint32_t last_seq;
};

struct naive {
	uint32_t m, max_users;
	double tau;			/* think time, s */
	size_t max_jobs;
	double now, v;			/* clock (s), virtual time */
	uint64_t busy, n_pending;
	struct njob *jobs;		/* by id - 1 */
	struct ncamp *camps;
	size_t ncamps, capcamps;
	struct nuser *users;
	uint32_t *pending;		/* pending job indices, unordered */
	uint32_t *order;		/* sort buffer */
	double *keys;			/* sorted F of the active users */
	double *bt, *bv, *bw;		/* sweep state before breakpoint k */
};

naive_t *naive_create(uint32_t procs, double tau, size_t max_jobs,
		      uint32_t max_users)
{
	naive_t *nv = calloc(1, sizeof(*nv));

	if (!nv)
		return NULL;
	nv->m = procs;
	nv->tau = tau;
	nv->max_jobs = max_jobs;
	nv->max_users = max_users;
	nv->now = -INFINITY;
	nv->jobs = calloc(max_jobs, sizeof(*nv->jobs));
	nv->users = malloc(max_users * sizeof(*nv->users));
	nv->pending = malloc(max_jobs * sizeof(*nv->pending));
	nv->order = malloc(max_jobs * sizeof(*nv->order));
	nv->keys = malloc(max_users * sizeof(*nv->keys));
	nv->bt = malloc((max_users + 1) * sizeof(*nv->bt));
	nv->bv = malloc((max_users + 1) * sizeof(*nv->bv));
	nv->bw = malloc((max_users + 1) * sizeof(*nv->bw));
	if (!nv->jobs || !nv->users || !nv->pending || !nv->order ||
	    !nv->keys || !nv->bt || !nv->bv || !nv->bw) {
		naive_destroy(nv);
		return NULL;
	}
	for (uint32_t u = 0; u < max_users; u++)
		nv->users[u] = (struct nuser){ .last = NONE };
	return nv;
}

void naive_destroy(naive_t *nv)
{
	if (!nv)
		return;
	free(nv->jobs);
	free(nv->camps);
	free(nv->users);
	free(nv->pending);
	free(nv->order);
	free(nv->keys);
	free(nv->bt);
	free(nv->bv);
	free(nv->bw);
	free(nv);
}

size_t naive_bytes(const naive_t *nv)
{
	return sizeof(*nv) + nv->max_jobs * (sizeof(*nv->jobs) +
					     2 * sizeof(*nv->pending)) +
	       nv->capcamps * sizeof(*nv->camps) +
	       nv->max_users * (sizeof(*nv->users) + 4 * sizeof(double));
}

/* C (CPUs): used capacity, soft gate (§3). */
static double _capacity(const naive_t *nv)
{
	double m = (double)nv->m;

	if (!nv->n_pending)
		return m;
	return (double)nv->busy < m ? (double)nv->busy : m;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Collect F_last of the users with v < F_last into nv->keys, sorted
 * ascending: the breakpoints of W.  Returns their number.
 * O(U + U log U): every user is scanned, as the 2014 plugins do.
 */
static size_t _active_sorted(naive_t *nv)
{
	size_t n = 0;

	for (uint32_t u = 0; u < nv->max_users; u++) {
		uint32_t c = nv->users[u].last;

		if (c != NONE && nv->v < nv->camps[c].F)
			nv->keys[n++] = nv->camps[c].F;
	}
	qsort(nv->keys, n, sizeof(*nv->keys), _cmp_double);
	return n;
}

/*
 * Move the clock to t by a forward fluid simulation: between breakpoints
 * dt = (x - v) W / C seconds; the users whose F is reached leave W.
 */
static void _advance(naive_t *nv, double t)
{
	size_t n, k = 0;
	double w, c;

	if (!(t > nv->now))
		return;
	if (isinf(nv->now)) {
		nv->now = t;
		return;
	}
	n = _active_sorted(nv);
	w = (double)n;
	c = _capacity(nv);
	while (nv->now < t) {
		double x, dt;

		if (k == n || !(c > 0.0)) {
			nv->now = t;
			break;
		}
		x = nv->keys[k];
		dt = (x > nv->v) ? (x - nv->v) * w / c : 0.0;
		if (nv->now + dt <= t) {
			nv->now += dt;
			if (x > nv->v)
				nv->v = x;
			while (k < n && nv->keys[k] <= nv->v) {
				k++;
				w -= 1.0;
			}
			if (k == n)
				w = 0.0;
		} else {
			nv->v += (t - nv->now) * c / w;
			nv->now = t;
		}
	}
}

/* S = max(phi, F_prev), F = S + L for c and the user's later campaigns. */
static void _rederive(naive_t *nv, uint32_t c)
{
	for (; c != NONE; c = nv->camps[c].next) {
		struct ncamp *p = &nv->camps[c];
		double pf = p->prev != NONE ? nv->camps[p->prev].F : -INFINITY;

		p->S = p->phi > pf ? p->phi : pf;
		p->F = p->S + p->len;
	}
}

/*
 * Campaign number seq of uid: the newest, or a new one opened at t.  seq 0:
 * the newest if it has unfinished jobs or finished its last one at most
 * tau seconds ago (§2), else a new one.
 */
static uint32_t _campaign(naive_t *nv, uint32_t uid, uint32_t seq, double t)
{
	struct nuser *u = &nv->users[uid];
	struct ncamp *c;

	if (!seq && u->last != NONE &&
	    (nv->camps[u->last].unfinished ||
	     t - nv->camps[u->last].last_end <= nv->tau))
		return u->last;
	if (!seq)
		seq = u->last_seq + 1;
	if (u->last != NONE && seq == u->last_seq)
		return u->last;
	if (nv->ncamps == nv->capcamps) {
		size_t cap = nv->capcamps ? 2 * nv->capcamps : 1024;
		struct ncamp *v = realloc(nv->camps, cap * sizeof(*v));

		if (!v)
			return NONE;
		nv->camps = v;
		nv->capcamps = cap;
	}
	c = &nv->camps[nv->ncamps];
	*c = (struct ncamp){
		.uid = uid, .seq = seq, .prev = u->last, .next = NONE,
		.t_c = t, .phi = nv->v, .last_end = -INFINITY,
	};
	if (u->last != NONE)
		nv->camps[u->last].next = (uint32_t)nv->ncamps;
	u->last = (uint32_t)nv->ncamps;
	u->last_seq = seq;
	_rederive(nv, u->last);
	return (uint32_t)nv->ncamps++;
}

int naive_submit(naive_t *nv, uint64_t id, uint32_t uid, uint32_t q, double e,
		 uint32_t campaign, double t)
{
	struct njob *j;
	struct ncamp *c;
	uint32_t ci;
	double a = (double)q * e;

	if (!id || id > nv->max_jobs || uid >= nv->max_users ||
	    nv->jobs[id - 1].state != J_FREE)
		return -1;
	_advance(nv, t);
	if ((ci = _campaign(nv, uid, campaign, t)) == NONE)
		return -1;
	j = &nv->jobs[id - 1];
	*j = (struct njob){ .e = e, .submit = t, .camp = ci, .q = q,
			    .pos = (uint32_t)nv->n_pending,
			    .state = J_PENDING };
	nv->pending[nv->n_pending++] = (uint32_t)(id - 1);
	c = &nv->camps[ci];
	c->unfinished++;
	if (nv->v < c->F) {
		c->len += a / 1.0;
	} else {
		c->phi = nv->v;
		c->len = a / 1.0;
	}
	_rederive(nv, ci);
	return 0;
}

int naive_start(naive_t *nv, uint64_t id, double t)
{
	struct njob *j = id && id <= nv->max_jobs ? &nv->jobs[id - 1] : NULL;
	uint32_t last;

	if (!j || j->state != J_PENDING)
		return -1;
	_advance(nv, t);
	last = nv->pending[--nv->n_pending];
	nv->pending[j->pos] = last;
	nv->jobs[last].pos = j->pos;
	j->state = J_RUNNING;
	nv->busy += j->q;
	return 0;
}

int naive_finish(naive_t *nv, uint64_t id, double t, double p)
{
	struct njob *j = id && id <= nv->max_jobs ? &nv->jobs[id - 1] : NULL;
	struct ncamp *c;

	if (!j || j->state != J_RUNNING)
		return -1;
	_advance(nv, t);
	c = &nv->camps[j->camp];
	nv->busy -= j->q;
	c->unfinished--;
	if (t > c->last_end)
		c->last_end = t;
	c->len += (double)j->q * (p - j->e) / 1.0;
	if (c->len < 0.0)
		c->len = 0.0;
	j->state = J_FREE;
	_rederive(nv, j->camp);
	return 0;
}

/*
 * C~ of every campaign with unfinished jobs (§3): the real time
 * at which v reaches its F if nothing else happens.  The sweep state
 * (t_k, v_k, W_k) before each breakpoint is tabulated, then each F finds
 * its segment by binary search (the engine's ost_vclock_project walks the
 * same segments with the same operations).
 */
static void _fill_vct(naive_t *nv)
{
	size_t n = _active_sorted(nv);
	double c = _capacity(nv);

	nv->bt[0] = nv->now;
	nv->bv[0] = nv->v;
	nv->bw[0] = (double)n;
	for (size_t k = 0; k < n; k++) {
		nv->bt[k + 1] = nv->bt[k] + (nv->keys[k] - nv->bv[k]) *
					    nv->bw[k] / c;
		nv->bv[k + 1] = nv->keys[k];
		nv->bw[k + 1] = nv->bw[k] - 1.0;
	}
	for (size_t i = 0; i < nv->ncamps; i++) {
		struct ncamp *p = &nv->camps[i];
		size_t lo = 0, hi = n;
		double x = p->F;

		if (!p->unfinished)
			continue;
		p->eligible = nv->v >= p->S;
		if (x <= nv->v) {
			p->vct = nv->now;
			continue;
		}
		if (!(c > 0.0) || !(nv->bw[0] > 0.0)) {
			p->vct = INFINITY;
			continue;
		}
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (nv->keys[mid] < x)
				lo = mid + 1;
			else
				hi = mid;
		}
		p->vct = nv->bw[lo] > 0.0 ?
			 nv->bt[lo] + (x - nv->bv[lo]) * nv->bw[lo] / c :
			 nv->bt[lo];
	}
}

#define CMP(x, y) do { if ((x) != (y)) return ((x) < (y)) ? -1 : 1; } while (0)

static naive_t *_sorting;	/* qsort has no context argument in C11 */

/* (eligible first, C~, F, t_c, uid, seq), then LPT: e desc, q desc,
 * submit, id. */
static int _cmp_job(const void *x, const void *y)
{
	uint32_t ia = *(const uint32_t *)x, ib = *(const uint32_t *)y;
	const struct njob *a = &_sorting->jobs[ia], *b = &_sorting->jobs[ib];
	const struct ncamp *ca = &_sorting->camps[a->camp];
	const struct ncamp *cb = &_sorting->camps[b->camp];

	if (ca != cb) {
		CMP(!ca->eligible, !cb->eligible);
		CMP(ca->vct, cb->vct);
		CMP(ca->F, cb->F);
		CMP(ca->t_c, cb->t_c);
		CMP(ca->uid, cb->uid);
		CMP(ca->seq, cb->seq);
	}
	CMP(b->e, a->e);
	CMP(b->q, a->q);
	CMP(a->submit, b->submit);
	CMP(ia, ib);
	return 0;
}

long naive_pass(naive_t *nv, uint64_t *rank, const uint32_t **order)
{
	size_t n = nv->n_pending;

	_fill_vct(nv);
	memcpy(nv->order, nv->pending, n * sizeof(*nv->order));
	_sorting = nv;
	qsort(nv->order, n, sizeof(*nv->order), _cmp_job);
	_sorting = NULL;
	for (size_t i = 0; i < n; i++)
		rank[nv->order[i]] = i + 1;
	*order = nv->order;
	return (long)n;
}
