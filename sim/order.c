/*****************************************************************************\
 *  order.c - priority orders (§4-§6).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  fcfs: submit time, then trace order: a list in arrival order.
 *
 *  Skipping narrow-fit misses (fcfs and fairshare): a walk may say that
 *  it ignores jobs wider than a limit (the free CPUs, during EASY's
 *  backfill or list dispatch), and jobs are then reached by a jump to
 *  the next job that fits instead of one by one.  Each job gets a slot
 *  at submission: fcfs the arrival rank, fairshare the next slot of its
 *  user's range (ranges sized by the user's job count, so a user's FIFO
 *  is its slots in increasing order); a min-tree over the slots holds
 *  the procs of pending jobs, so the next slot >= i within a range with
 *  procs <= limit is one climb and one descent: O(log n).
 *
 *  fairshare (Slurm classic, equal shares): factor 2^(-U_u/S_u) with
 *  U_u the user's decayed usage normalized by the total and S_u = 1/N.
 *  With equal shares the factor falls as U_u grows, so the order is U_u
 *  increasing, then submit time: a k-way merge of per-user FIFO queues
 *  keyed by usage.  Usage decays with half-life H (s):
 *	U_u(t) = sum_jobs q * integral 2^(-(t-x)/H) dx  over its run time
 *	       = g(t)^-1 * G_u(t),   g(t) = 2^((t - t0)/H),
 *	G_u(t) = G_u(t_u) + R_u * H/ln 2 * (g(t) - g(t_u))
 *  with R_u the user's running charge since t_u: its running CPUs, or
 *  with GPUs the raw charge of §20 (a double, as Slurm's billable TRES).  g(t)^-1 is common to all
 *  users, so comparing G_u is enough and no decay step ever runs; t0 is
 *  moved forward when g gets large.  g(t_u) is kept per user, so a walk
 *  computes g once, not once per user.  Usage accrues while jobs run, as
 *  Slurm's decay thread does.
 *
 *  fairtree (a Fair-Tree-like baseline for §21, equal shares): the
 *  same per-user FIFOs and usage, merged by (the usage of the user's
 *  account, summed over its users; the user's usage; submit): Slurm's
 *  Fair Tree ranks the accounts by their Level FS (share over usage among
 *  siblings), then each account's users by theirs, so with equal shares
 *  every user of a less used account comes first.  A user's account is
 *  that of its first job (one level under the root; users of no account
 *  form one account).  The account sums are cached per instant and
 *  recomputed after a start or a finish: O(U) per walk at most.
 *
 *  Recomputation period P (Slurm's PriorityCalcPeriod): P = 0 orders by
 *  the usage at the walk's own time.  P > 0 orders by the usage at the
 *  last multiple of P (trace seconds) not after the walk, snapshotted for
 *  every user when the first event at or past that multiple arrives
 *  (before it is applied, so the snapshot sees the state just before
 *  t_r = k P); between multiples the user order is frozen, and jobs
 *  submitted meanwhile join their user's FIFO.  O(U) per period.
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "workload.h"

#define NONE UINT32_MAX
#define REBASE_AT 0x1p500
#define LN2 0.69314718055994530942

struct fs_key {
	double ausage;       /* fairtree: the account's G(now); else 0 */
	double usage;        /* G_u(now) */
	uint32_t user;
	uint32_t job;        /* the user's next job in this merge */
};

struct sim_order {
	sim_policy_t policy;
	const sim_workload_t *w;
	const ost_sched_t *eng;
	uint32_t *next, *prev;     /* per job: FIFO links */
	uint32_t head, tail;       /* fcfs list */
	/* slots (fcfs, fairshare) */
	uint32_t *slot, *byslot;   /* job -> slot, slot -> job */
	uint32_t *smin;            /* min-tree over slots: procs if pending */
	size_t leaves;             /* slots of the tree (a power of 2) */
	uint32_t nsub;             /* fcfs: slots used */
	uint32_t *uoff, *uused;    /* fairshare: user's first slot, used */
	/* fairshare */
	double half_life, t0;
	double period, next_calc;  /* P; next multiple of P to snapshot at */
	uint32_t *uhead, *utail;   /* per user FIFO of pending jobs */
	double *gu, *tu;           /* G_u at t_u */
	double *gtu;               /* g(t_u) */
	double *snap;              /* P > 0: G_u at the last multiple of P */
	double *ru;                /* running charge per second (§20) */
	uint32_t *waiting;         /* users with pending jobs */
	uint32_t *wpos;            /* position in waiting, NONE if absent */
	uint32_t nwaiting;
	struct fs_key *heap;
	/* fairtree */
	bool tree;                 /* merge by account first */
	uint32_t *uacct;           /* user -> dense account */
	double *asum;              /* account -> G at asum_t */
	double asum_t;             /* instant of asum, NAN when stale */
	uint32_t naccts;
};

/* fairtree: each user's account, the one of its first job in replay
 * order, as a dense index.  RET: 0 or -1 (memory). */
static int _ft_init(sim_order_t *o)
{
	const sim_workload_t *w = o->w;
	size_t nu = w->nusers + 1, n = 0;
	uint32_t *ids = malloc((w->njobs + 1) * sizeof(*ids));
	bool *seen = calloc(nu, sizeof(*seen));

	o->uacct = calloc(nu, sizeof(*o->uacct));
	o->asum = calloc(w->njobs + 1, sizeof(*o->asum));
	o->asum_t = NAN;
	if (!ids || !seen || !o->uacct || !o->asum) {
		free(ids);
		free(seen);
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++)
		ids[i] = w->jobs[i].acct;
	n = sim_u32_distinct(ids, w->njobs);
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];

		if (seen[j->uidx])
			continue;
		seen[j->uidx] = true;
		o->uacct[j->uidx] = (uint32_t)((uint32_t *)bsearch(&j->acct,
			ids, n, sizeof(*ids), sim_u32_cmp) - ids);
	}
	o->naccts = (uint32_t)n;
	free(ids);
	free(seen);
	return 0;
}

sim_order_t *sim_order_create(sim_policy_t policy, const sim_workload_t *w,
			      const ost_sched_t *eng, double half_life)
{
	sim_order_t *o = calloc(1, sizeof(*o));
	size_t nu = w->nusers + 1, nj = w->njobs + 1;

	if (!o)
		return NULL;
	o->policy = policy;
	o->w = w;
	o->eng = eng;
	o->head = o->tail = NONE;
	o->half_life = half_life;
	o->t0 = NAN;
	o->tree = policy == SIM_POLICY_FAIRTREE;
	if (o->tree)	/* the fairshare machinery, merged by account */
		o->policy = policy = SIM_POLICY_FAIRSHARE;
	if (policy != SIM_POLICY_FCFS && policy != SIM_POLICY_FAIRSHARE)
		return o;
	o->next = malloc(nj * sizeof(*o->next));
	o->prev = malloc(nj * sizeof(*o->prev));
	o->slot = malloc(nj * sizeof(*o->slot));
	o->byslot = malloc(nj * sizeof(*o->byslot));
	o->leaves = 1;
	while (o->leaves < nj)
		o->leaves *= 2;
	o->smin = malloc(2 * o->leaves * sizeof(*o->smin));
	if (!o->next || !o->prev || !o->slot || !o->byslot || !o->smin)
		goto out_destroy;
	memset(o->smin, 0xff, 2 * o->leaves * sizeof(*o->smin));
	if (policy == SIM_POLICY_FCFS)
		return o;
	o->uoff = calloc(nu + 1, sizeof(*o->uoff));
	o->uused = calloc(nu, sizeof(*o->uused));
	if (!o->uoff || !o->uused)
		goto out_destroy;
	for (size_t i = 0; i < w->njobs; i++)
		o->uoff[w->jobs[i].uidx + 1]++;
	for (size_t u = 0; u < nu; u++)
		o->uoff[u + 1] += o->uoff[u];
	o->uhead = malloc(nu * sizeof(*o->uhead));
	o->utail = malloc(nu * sizeof(*o->utail));
	o->gu = calloc(nu, sizeof(*o->gu));
	o->tu = calloc(nu, sizeof(*o->tu));
	o->gtu = calloc(nu, sizeof(*o->gtu));
	o->snap = calloc(nu, sizeof(*o->snap));
	o->ru = calloc(nu, sizeof(*o->ru));
	o->waiting = malloc(nu * sizeof(*o->waiting));
	o->wpos = malloc(nu * sizeof(*o->wpos));
	o->heap = malloc(nu * sizeof(*o->heap));
	if (!o->uhead || !o->utail || !o->gu || !o->tu || !o->gtu ||
	    !o->snap || !o->ru ||
	    !o->waiting || !o->wpos || !o->heap)
		goto out_destroy;
	for (size_t u = 0; u < nu; u++)
		o->uhead[u] = o->utail[u] = o->wpos[u] = NONE;
	if (o->tree && _ft_init(o))
		goto out_destroy;
	return o;
out_destroy:
	sim_order_destroy(o);
	return NULL;
}

void sim_order_destroy(sim_order_t *o)
{
	if (!o)
		return;
	free(o->next);
	free(o->prev);
	free(o->slot);
	free(o->byslot);
	free(o->smin);
	free(o->uoff);
	free(o->uused);
	free(o->uhead);
	free(o->utail);
	free(o->gu);
	free(o->tu);
	free(o->gtu);
	free(o->snap);
	free(o->ru);
	free(o->waiting);
	free(o->wpos);
	free(o->heap);
	free(o->uacct);
	free(o->asum);
	free(o);
}

/* ----------------------------------------------------------- lists --- */

/* Append job to the FIFO (*head, *tail) linked through next/prev. */
static void _list_append(sim_order_t *o, uint32_t *head, uint32_t *tail,
			 uint32_t job)
{
	o->next[job] = NONE;
	o->prev[job] = *tail;
	if (*tail != NONE)
		o->next[*tail] = job;
	else
		*head = job;
	*tail = job;
}

/* Unlink job from the FIFO (*head, *tail).  O(1). */
static void _list_del(sim_order_t *o, uint32_t *head, uint32_t *tail,
		      uint32_t job)
{
	if (o->prev[job] != NONE)
		o->next[o->prev[job]] = o->next[job];
	else
		*head = o->next[job];
	if (o->next[job] != NONE)
		o->prev[o->next[job]] = o->prev[job];
	else
		*tail = o->prev[job];
}

/* ----------------------------------------------------------- slots --- */

/* Give job slot i and mark it pending (v = procs) or gone (NONE).
 * O(log n). */
static void _slot_set(sim_order_t *o, uint32_t i, uint32_t v)
{
	size_t p = o->leaves + i;

	o->smin[p] = v;
	for (p /= 2; p; p /= 2) {
		uint32_t a = o->smin[2 * p], b = o->smin[2 * p + 1];
		uint32_t m = a < b ? a : b;

		if (o->smin[p] == m)
			break;
		o->smin[p] = m;
	}
}

/* First slot in [i, end) of a pending job with procs <= lim, NONE if
 * none.  Climb while the node is a right child, step to the right
 * sibling, until a node's minimum is <= lim (or the node starts at or
 * after end: none); then descend to its leftmost such leaf.  A node p
 * of width w leaves covers [p w - leaves, (p + 1) w - leaves).  Each
 * level is visited at most twice: O(log (end - i)) climbing, O(log n)
 * descending only when a job is found. */
static uint32_t _slot_next(const sim_order_t *o, size_t i, size_t end,
			   uint32_t lim)
{
	size_t p = o->leaves + i, w = 1;

	if (i >= end)
		return NONE;
	if (o->smin[p] > lim) {
		for (;;) {
			while (p & 1) {
				p /= 2;
				w *= 2;
				if (p <= 1)
					return NONE;
			}
			p++;
			if (p * w - o->leaves >= end)
				return NONE;
			if (o->smin[p] <= lim)
				break;
		}
		while (p < o->leaves)
			p = o->smin[2 * p] <= lim ? 2 * p : 2 * p + 1;
	}
	return p - o->leaves < end ? (uint32_t) (p - o->leaves) : NONE;
}

/* The job after job in its FIFO that the walk needs: the next one, or
 * with a limit (*fit below NONE) the next one with procs <= *fit; end
 * bounds the FIFO's slots.  O(1) when the next job fits, else O(log n). */
static uint32_t _fifo_next(const sim_order_t *o, uint32_t job, size_t end,
			   const uint64_t *fit)
{
	uint32_t nx = o->next[job], s;

	if (!fit || *fit >= NONE || nx == NONE ||
	    o->w->jobs[nx].procs <= *fit)
		return nx;
	s = _slot_next(o, (size_t) o->slot[nx] + 1, end, (uint32_t) *fit);
	return s == NONE ? NONE : o->byslot[s];
}

/* ------------------------------------------------------- fairshare --- */

/* g(t) = 2^((t - t0) / H), the common decay factor. */
static double _g(const sim_order_t *o, double t)
{
	return exp2((t - o->t0) / o->half_life);
}

/* G_u(now), the user's usage scaled by g(now), given gnow = g(now)
 * (unused without decay). */
static double _usage(const sim_order_t *o, uint32_t u, double now,
		     double gnow)
{
	if (o->half_life <= 0)
		return o->gu[u] + o->ru[u] * (now - o->tu[u]);
	return o->gu[u] + o->ru[u] * o->half_life / LN2 *
			  (gnow - o->gtu[u]);
}

/* g(now) when there is decay (else unused: 0). */
static double _gnow(const sim_order_t *o, double now)
{
	return o->half_life > 0 ? _g(o, now) : 0;
}

/* Move t0 to now (all G_u divided by g(now)) before g overflows. */
static void _fs_rebase(sim_order_t *o, double now)
{
	double g = _g(o, now);

	for (uint32_t u = 0; u <= o->w->nusers; u++) {
		o->gu[u] = _usage(o, u, now, g) / g;
		o->tu[u] = now;
	}
	o->t0 = now;
	for (uint32_t u = 0; u <= o->w->nusers; u++)
		o->gtu[u] = _g(o, now);
}

/* Bring user u's usage to now before its running CPUs change. */
static void _fs_touch(sim_order_t *o, uint32_t u, double now)
{
	if (isnan(o->t0))
		o->t0 = now;
	if (o->half_life > 0 && _g(o, now) > REBASE_AT)
		_fs_rebase(o, now);
	o->gu[u] = _usage(o, u, now, _gnow(o, now));
	o->tu[u] = now;
	o->gtu[u] = _gnow(o, now);
	o->asum_t = NAN;	/* its running CPUs change next */
}

/* P > 0: at the first event at or past the next multiple of P, snapshot
 * every user's usage at the last multiple t_r <= now.  No user has been
 * touched since t_r (this is the first event at or after it), so G_u(t_r)
 * follows from the state.  O(U), once per period at most. */
static void _fs_recalc(sim_order_t *o, double now)
{
	double tr, g;

	if (o->period <= 0 || now < o->next_calc)
		return;
	tr = floor(now / o->period) * o->period;
	g = isnan(o->t0) ? 0 : _gnow(o, tr);
	for (uint32_t u = 0; u <= o->w->nusers; u++)
		o->snap[u] = isnan(o->t0) ? 0 : _usage(o, u, tr, g);
	o->next_calc = tr + o->period;
	o->asum_t = NAN;
}

/* The usage the merge orders user u by at now (gnow: 0 before any job
 * ran, else g(now)). */
static double _fs_key_usage(const sim_order_t *o, uint32_t u, double now,
			    double gnow)
{
	if (o->period > 0)
		return o->snap[u];
	return isnan(o->t0) ? 0 : _usage(o, u, now, gnow);
}

/* fairtree: the usage the merge orders u's account by at now, the sum
 * of its users' (cached for the instant); 0 without fairtree. */
static double _ft_key(sim_order_t *o, uint32_t u, double now, double gnow)
{
	if (!o->tree)
		return 0.0;
	if (!(o->asum_t == now)) {
		memset(o->asum, 0, o->naccts * sizeof(*o->asum));
		for (uint32_t v = 0; v <= o->w->nusers; v++)
			o->asum[o->uacct[v]] += _fs_key_usage(o, v, now, gnow);
		o->asum_t = now;
	}
	return o->asum[o->uacct[u]];
}

/* Add (on) or remove user u from the users with pending jobs. */
static void _fs_wait(sim_order_t *o, uint32_t u, bool on)
{
	if (on && o->wpos[u] == NONE) {
		o->wpos[u] = o->nwaiting;
		o->waiting[o->nwaiting++] = u;
	} else if (!on && o->wpos[u] != NONE) {
		uint32_t last = o->waiting[--o->nwaiting];
		o->waiting[o->wpos[u]] = last;
		o->wpos[last] = o->wpos[u];
		o->wpos[u] = NONE;
	}
}

/* Merge key: the account's usage (fairtree), the user's, then the head
 * job's submit time, then its index. */
static bool _fs_less(const sim_order_t *o, const struct fs_key *a,
		     const struct fs_key *b)
{
	const sim_job_t *ja = &o->w->jobs[a->job], *jb = &o->w->jobs[b->job];

	if (a->ausage != b->ausage)
		return a->ausage < b->ausage;
	if (a->usage != b->usage)
		return a->usage < b->usage;
	if (ja->submit != jb->submit)
		return ja->submit < jb->submit;
	return a->job < b->job;
}

/* Sift heap entry i down in the merge heap of n users. */
static void _fs_sift(sim_order_t *o, size_t n, size_t i)
{
	struct fs_key k = o->heap[i];

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && _fs_less(o, &o->heap[c + 1], &o->heap[c]))
			c++;
		if (!_fs_less(o, &o->heap[c], &k))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	o->heap[i] = k;
}

/* k-way merge of the users' FIFOs by (usage at now, submit), jumping
 * over jobs wider than *fit (sim_order_walk).
 * O(U + visited (log U + log n)) for U users waiting. */
static int _fs_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		       void *arg, const uint64_t *fit)
{
	size_t n = o->nwaiting;
	double gnow = isnan(o->t0) ? 0 : _gnow(o, now);
	int rc;

	_fs_recalc(o, now);
	for (size_t i = 0; i < n; i++) {
		uint32_t u = o->waiting[i];
		double use = _fs_key_usage(o, u, now, gnow);

		o->heap[i] = (struct fs_key) {
			.ausage = _ft_key(o, u, now, gnow),
			.usage = use, .user = u, .job = o->uhead[u],
		};
	}
	/* Most walks visit one job (the machine is full again, or nothing
	 * can be backfilled): bring the least key to the top by a scan and
	 * build the heap only if the walk goes on.  The keys are a total
	 * order, so the visits are the same either way. */
	for (size_t i = 1; i < n; i++)
		if (_fs_less(o, &o->heap[i], &o->heap[0])) {
			struct fs_key t = o->heap[0];

			o->heap[0] = o->heap[i];
			o->heap[i] = t;
		}
	for (bool heaped = false; n; ) {
		uint32_t job = o->heap[0].job, u = o->heap[0].user, nx;

		if ((rc = fn(job, true, arg)))
			return rc;
		nx = _fifo_next(o, job, (size_t) o->uoff[u] + o->uused[u], fit);
		if (nx != NONE)
			o->heap[0].job = nx;
		else
			o->heap[0] = o->heap[--n];
		if (heaped) {
			_fs_sift(o, n, 0);
			continue;
		}
		for (size_t i = n / 2; i-- > 0;)
			_fs_sift(o, n, i);
		heaped = true;
	}
	return 0;
}

/* ------------------------------------------------------------ engine --- */

struct eng_walk {
	sim_order_visit_f fn;
	void *arg;
	bool strict;         /* gate=strict: honour the eligible flag */
};

/* Adapter from the core's rank visitor to the order's visitor. */
static int _eng_visit(const ost_rank_info_t *r, void *arg)
{
	struct eng_walk *ew = arg;

	return ew->fn((uint32_t) (r->job_id - 1), r->eligible || !ew->strict,
		      ew->arg);
}

/* ------------------------------------------------------------ public --- */

void sim_order_fairshare_period(sim_order_t *o, double period)
{
	o->period = period;
	o->next_calc = -INFINITY;
}

void sim_order_submit(sim_order_t *o, uint32_t job, double now)
{
	uint32_t u = o->w->jobs[job].uidx;

	if (o->policy == SIM_POLICY_FCFS) {
		_list_append(o, &o->head, &o->tail, job);
		o->slot[job] = o->nsub++;
	} else if (o->policy == SIM_POLICY_FAIRSHARE) {
		_fs_recalc(o, now);
		_list_append(o, &o->uhead[u], &o->utail[u], job);
		o->slot[job] = o->uoff[u] + o->uused[u]++;
		_fs_wait(o, u, true);
	}
	if (o->policy == SIM_POLICY_FCFS || o->policy == SIM_POLICY_FAIRSHARE) {
		o->byslot[o->slot[job]] = job;
		_slot_set(o, o->slot[job], o->w->jobs[job].procs);
	}
}

void sim_order_start(sim_order_t *o, uint32_t job, double now)
{
	const sim_job_t *j = &o->w->jobs[job];

	if (o->policy == SIM_POLICY_FCFS || o->policy == SIM_POLICY_FAIRSHARE)
		_slot_set(o, o->slot[job], NONE);
	if (o->policy == SIM_POLICY_FCFS) {
		_list_del(o, &o->head, &o->tail, job);
	} else if (o->policy == SIM_POLICY_FAIRSHARE) {
		_fs_recalc(o, now);
		_list_del(o, &o->uhead[j->uidx], &o->utail[j->uidx], job);
		if (o->uhead[j->uidx] == NONE)
			_fs_wait(o, j->uidx, false);
		_fs_touch(o, j->uidx, now);
		o->ru[j->uidx] += j->charge;
	}
}

void sim_order_finish(sim_order_t *o, uint32_t job, double now)
{
	const sim_job_t *j = &o->w->jobs[job];

	if (o->policy == SIM_POLICY_FAIRSHARE) {
		_fs_recalc(o, now);
		_fs_touch(o, j->uidx, now);
		o->ru[j->uidx] -= j->charge;
	}
}

int sim_order_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		      void *arg)
{
	return sim_order_walk(o, now, fn, arg, NULL);
}

int sim_order_walk(sim_order_t *o, double now, sim_order_visit_f fn,
		   void *arg, const uint64_t *fit)
{
	struct eng_walk ew = { fn, arg, false };
	int rc;

	switch (o->policy) {
	case SIM_POLICY_FCFS:
		for (uint32_t j = o->head; j != NONE;
		     j = _fifo_next(o, j, o->nsub, fit))
			if ((rc = fn(j, true, arg)))
				return rc;
		return 0;
	case SIM_POLICY_FAIRSHARE:
		return _fs_foreach(o, now, fn, arg, fit);
	default:
		ew.strict = ost_sched_config(o->eng)->gate == OST_GATE_STRICT;
		return ost_sched_foreach_pending(o->eng, _eng_visit, &ew);
	}
}

int sim_order_pos(sim_order_t *o, double now, uint32_t job,
		  sim_order_pos_t *out)
{
	const sim_job_t *j = &o->w->jobs[job];
	uint64_t rank;
	double gnow;

	switch (o->policy) {
	case SIM_POLICY_FCFS:
		*out = (sim_order_pos_t) { 0, 0, 0, o->slot[job] };
		return 0;
	case SIM_POLICY_FAIRSHARE:
		_fs_recalc(o, now);
		gnow = isnan(o->t0) ? 0 : _gnow(o, now);
		*out = (sim_order_pos_t) {
			_ft_key(o, j->uidx, now, gnow),
			_fs_key_usage(o, j->uidx, now, gnow), j->submit, job,
		};
		return 0;
	default:
		if (ost_sched_rank(o->eng, (uint64_t) job + 1, &rank))
			return -1;
		*out = (sim_order_pos_t) { 0, 0, 0, rank };
		return 0;
	}
}
