/*****************************************************************************\
 *  fairshare.c - the simulator's fairshare and fairtree orders (§6, §21):
 *  decayed usage per user, and the k-way merge of the users' FIFOs
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
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
 *  Shares (--shares, shares.c): fairshare compares usage over shares, as
 *  Slurm's classic factor 2^(-U/S) does, with S the user's share within
 *  its account times the account's share.  fairtree keeps equal shares
 *  (a sacct dump gives it no accounts).  Without a file: equal shares.
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

#include "order_priv.h"
#include "workload.h"

/* fairtree: each user's account, the one of its first job in replay
 * order, as a dense index.  RET: 0 or -1 (memory). */
int sim_ft_init(sim_order_t *o)
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
double sim_fs_gnow(const sim_order_t *o, double now)
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
void sim_fs_touch(sim_order_t *o, uint32_t u, double now)
{
	if (isnan(o->t0))
		o->t0 = now;
	if (o->half_life > 0 && _g(o, now) > REBASE_AT)
		_fs_rebase(o, now);
	o->gu[u] = _usage(o, u, now, sim_fs_gnow(o, now));
	o->tu[u] = now;
	o->gtu[u] = sim_fs_gnow(o, now);
	o->asum_t = NAN;	/* its running CPUs change next */
}

/* P > 0: at the first event at or past the next multiple of P, snapshot
 * every user's usage at the last multiple t_r <= now.  No user has been
 * touched since t_r (this is the first event at or after it), so G_u(t_r)
 * follows from the state.  O(U), once per period at most. */
void sim_fs_recalc(sim_order_t *o, double now)
{
	double tr, g;

	if (o->period <= 0 || now < o->next_calc)
		return;
	tr = floor(now / o->period) * o->period;
	g = isnan(o->t0) ? 0 : sim_fs_gnow(o, tr);
	for (uint32_t u = 0; u <= o->w->nusers; u++)
		o->snap[u] = isnan(o->t0) ? 0 : _usage(o, u, tr, g);
	o->next_calc = tr + o->period;
	o->asum_t = NAN;
	o->tot_t = NAN;
}

/* The usage the merge orders user u by at now (gnow: 0 before any job
 * ran, else g(now)). */
double sim_fs_key_usage(const sim_order_t *o, uint32_t u, double now,
			double gnow)
{
	if (o->period > 0)
		return o->snap[u];
	return isnan(o->t0) ? 0 : _usage(o, u, now, gnow);
}

/* fairtree: the usage the merge orders u's account by at now, the sum
 * of its users' (cached for the instant); 0 without fairtree. */
double sim_ft_key(sim_order_t *o, uint32_t u, double now, double gnow)
{
	if (!o->tree)
		return 0.0;
	if (!(o->asum_t == now)) {
		memset(o->asum, 0, o->naccts * sizeof(*o->asum));
		for (uint32_t v = 0; v <= o->w->nusers; v++)
			o->asum[o->uacct[v]] +=
				sim_fs_key_usage(o, v, now, gnow);
		o->asum_t = now;
	}
	return o->asum[o->uacct[u]];
}

/* The instant the order reads ages at: the last recomputation's (a
 * period), else now. */
static double _age_at(const sim_order_t *o, double now)
{
	return o->period > 0 ? floor(now / o->period) * o->period : now;
}

/* Multifactor's age factor of job at t: min(1, (t - submit) / max_age),
 * 0 for a job submitted after t. */
static double _age(const sim_order_t *o, uint32_t job, double t)
{
	double a = t - o->w->jobs[job].submit;

	return a > 0 ? fmin(1.0, a / o->max_age) : 0.0;
}

/* F_u = 2^(-U_u / S_u): U_u the user's usage `use` over everyone's (0
 * while nobody used anything; the sum cached for the instant), S_u its
 * normalised share (--shares), else 1/N among the N users.  The caller
 * passes sim_fs_key_usage(o, u, now, gnow), which it has at hand. */
static double _factor(sim_order_t *o, uint32_t u, double use, double now,
		      double gnow)
{
	double s;

	if (!(o->tot_t == now)) {
		o->tot = 0;
		for (uint32_t v = 0; v <= o->w->nusers; v++)
			o->tot += sim_fs_key_usage(o, v, now, gnow);
		o->tot_t = now;
	}
	if (!(o->tot > 0))
		return 1.0;
	s = o->w->ushare ? o->w->ushare[u] * o->w->ashare[u]
			 : 1.0 / (o->w->nusers ? o->w->nusers : 1);
	return exp2(-(use / o->tot) / s);
}

double sim_fs_aged_key(sim_order_t *o, uint32_t u, uint32_t job,
		       double now, double gnow)
{
	return -(_factor(o, u, sim_fs_key_usage(o, u, now, gnow), now, gnow) +
		 o->age_w * _age(o, job, _age_at(o, now)));
}

/* Add (on) or remove user u from the users with pending jobs. */
void sim_fs_wait(sim_order_t *o, uint32_t u, bool on)
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
int sim_fs_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		   void *arg, const uint64_t *fit)
{
	size_t n = o->nwaiting;
	double gnow = isnan(o->t0) ? 0 : sim_fs_gnow(o, now);
	double ta = _age_at(o, now);
	int rc;

	sim_fs_recalc(o, now);
	for (size_t i = 0; i < n; i++) {
		uint32_t u = o->waiting[i];
		double use = sim_fs_key_usage(o, u, now, gnow), f;

		if (o->age_w > 0) {	/* multifactor: F_u + w x age */
			f = _factor(o, u, use, now, gnow);
			o->heap[i] = (struct fs_key) {
				.usage = -(f + o->age_w * _age(o, o->uhead[u],
								ta)),
				.f = f, .user = u, .job = o->uhead[u],
			};
			continue;
		}

		if (o->w->ushare && !o->tree)	/* usage over shares */
			use /= o->w->ushare[u] * o->w->ashare[u];
		o->heap[i] = (struct fs_key) {
			.ausage = sim_ft_key(o, u, now, gnow),
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
		nx = sim_fifo_next(o, job, (size_t) o->uoff[u] + o->uused[u],
				   fit);
		if (nx != NONE) {
			/* a user's FIFO is by submit time: the key can only
			 * grow, and the sift below keeps the heap */
			o->heap[0].job = nx;
			if (o->age_w > 0)
				o->heap[0].usage = -(o->heap[0].f + o->age_w *
						     _age(o, nx, ta));
		} else
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

int sim_order_fairshare_age(sim_order_t *o, double weight, double max_age)
{
	if (!(weight > 0))
		return 0;
	if (o->policy != SIM_POLICY_FAIRSHARE || o->tree || !(max_age > 0))
		return -1;
	o->age_w = weight;
	o->max_age = max_age;
	o->tot_t = NAN;
	return 0;
}

void sim_order_fairshare_period(sim_order_t *o, double period)
{
	o->period = period;
	o->next_calc = -INFINITY;
}
