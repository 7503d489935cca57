/*****************************************************************************\
 *  osl_usage.c - the usage ledger: what each user of a partition was
 *  charged, accrued pass by pass from what Slurm shows (doc/semantics.md
 *  §18).  The audit record; the core's virtual schedule keeps its own
 *  account of areas (§3.4) and never reads this one.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A run is one job's time on its allocation, named by (key, start): a
 *  requeued job's next run is another run.  Running runs are in u->runs,
 *  charged up to u->runs[i].run seconds; runs charged in full are in
 *  u->done while Slurm still shows their record, so that no record is
 *  charged twice, even across a restart (the ledger is saved with them).
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "osl_obs.h"
#include "osl_usage.h"
#include "osl_vec.h"

extern void osl_usage_init(osl_usage_t *u, double since)
{
	memset(u, 0, sizeof(*u));
	u->since = since;
	u->clock = since;
}

extern void osl_usage_free(osl_usage_t *u)
{
	double since = u->since;

	free(u->users);
	free(u->runs);
	free(u->done);
	free(u->ended);
	osl_usage_init(u, since);
}

static int _user_cmp(const void *a, const void *b)
{
	const osl_usage_user_t *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

static int _done_cmp(const void *a, const void *b)
{
	const osl_usage_done_t *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->start > y->start) - (x->start < y->start);
}

static int _ended_cmp(const void *a, const void *b)
{
	const osl_usage_ended_t *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* Add amount (width x s, > 0) to uid's charge. */
static void _user_add(osl_usage_t *u, uint32_t uid, double amount)
{
	osl_usage_user_t key = { .uid = uid }, *f;
	int i;

	f = u->nusers ? bsearch(&key, u->users, u->nusers, sizeof(key),
				_user_cmp) : NULL;
	if (f) {
		f->charged += amount;
		return;
	}
	u->users = osl_grow(u->users, &u->cap_users, u->nusers + 1,
			    sizeof(*u->users), 16);
	for (i = u->nusers; i > 0 && u->users[i - 1].uid > uid; i--)
		u->users[i] = u->users[i - 1];
	u->users[i].uid = uid;
	u->users[i].charged = amount;
	u->nusers++;
}

extern double osl_usage_of(const osl_usage_t *u, uint32_t uid)
{
	osl_usage_user_t key = { .uid = uid }, *f;

	f = u->nusers ? bsearch(&key, u->users, u->nusers, sizeof(key),
				_user_cmp) : NULL;
	return f ? f->charged : 0;
}

extern double osl_usage_total(const osl_usage_t *u)
{
	double s = 0;
	int i;

	for (i = 0; i < u->nusers; i++)
		s += u->users[i].charged;
	return s;
}

/* Was the run (key, start) charged in full? */
static bool _done_has(const osl_usage_t *u, uint64_t key, int64_t start)
{
	osl_usage_done_t d = { .key = key, .start = start };

	return u->ndone && bsearch(&d, u->done, u->ndone, sizeof(d), _done_cmp);
}

/* The work of one pass: the runs kept, the runs charged in full. */
typedef struct {
	osl_usage_t *u;
	double now;
	double charged;			/* width x s charged by the pass */
	osl_usage_run_t *runs;		/* the runs still running */
	int nruns, cap_runs;
	osl_usage_done_t *done;		/* runs charged in full now */
	int ndone, cap_done;
	osl_usage_ended_t *ended;	/* runs closed or gone now, by key */
	int nended, cap_ended;
	osl_usage_fin_f fin;
	void *arg;
} osl_upass_t;

/* Charge r up to t seconds of run (never less than already charged). */
static void _accrue(osl_upass_t *ps, osl_usage_run_t *r, double t)
{
	if (!(t > r->run))
		return;
	_user_add(ps->u, r->uid, (double) r->q * (t - r->run));
	ps->charged += (double) r->q * (t - r->run);
	r->run = t;
}

/* r's run is over (closed, or its record gone): its cap, for the core. */
static void _ended(osl_upass_t *ps, const osl_usage_run_t *r)
{
	ps->ended = osl_grow(ps->ended, &ps->cap_ended, ps->nended + 1,
			     sizeof(*ps->ended), 16);
	ps->ended[ps->nended].key = r->key;
	ps->ended[ps->nended].cap = r->cap;
	ps->nended++;
}

/*
 * r ended at end, having run runtime seconds (NAN: unknown), its time
 * bounded by its end and by bound (§1: its enforced limit, never below
 * the largest one it ran under): charge the rest, remember it as done.  o: its
 * last observation, for fin when it finished (NULL: requeued, or replaced
 * by a later run).
 */
static void _close(osl_upass_t *ps, osl_usage_run_t *r, double end,
		   double runtime, double bound, const osl_obs_t *o)
{
	double t = end - (double) r->start;

	if (t > bound)
		t = bound;
	if (!isnan(runtime) && t > runtime)
		t = runtime;
	if (end <= ps->now + 1 && end >= (double) r->start)	/* NAN: no */
		_accrue(ps, r, t);
	ps->done = osl_grow(ps->done, &ps->cap_done, ps->ndone + 1,
			    sizeof(*ps->done), 16);
	ps->done[ps->ndone].key = r->key;
	ps->done[ps->ndone].start = r->start;
	ps->ndone++;
	_ended(ps, r);
	if (o && ps->fin)
		ps->fin(ps->arg, o, r->run);
}

/* A run of o not seen before, charged for nothing before u->since.  Its
 * cap is the limit Slurm enforces, not the estimate: a job without a
 * limit is estimated at DefaultEstimate to rank it, but runs (and is
 * charged) for as long as it runs. */
static osl_usage_run_t _new_run(const osl_upass_t *ps, const osl_obs_t *o)
{
	osl_usage_run_t r = {
		.key = o->key, .uid = o->uid, .q = o->procs,
		.start = (int64_t) o->start, .cap = o->limit,
	};

	if (ps->u->since > (double) r.start)
		r.run = ps->u->since - (double) r.start;
	return r;
}

/* r is running at ps->now: charge it up to now, keep it. */
static void _keep(osl_upass_t *ps, osl_usage_run_t r, const osl_obs_t *o)
{
	double t = ps->now - (double) r.start;

	r.q = o->procs;			/* the width in force */
	if (o->limit > r.cap)		/* raised by an operator (or a run
					 * saved with its estimate as cap) */
		r.cap = o->limit;
	_accrue(ps, &r, t < r.cap ? t : r.cap);
	ps->runs = osl_grow(ps->runs, &ps->cap_runs, ps->nruns + 1,
			    sizeof(*ps->runs), 16);
	ps->runs[ps->nruns++] = r;
}

/* The largest of the run's cap and o's enforced limit: what a finish may
 * charge at most (§1). */
static double _bound(const osl_usage_run_t *r, const osl_obs_t *o)
{
	return o->limit > r->cap ? o->limit : r->cap;
}

/* o, whose key has no run being accrued. */
static void _unknown(osl_upass_t *ps, const osl_obs_t *o)
{
	osl_usage_run_t r;

	if (o->st == OSL_RUNNING) {
		if (!_done_has(ps->u, o->key, (int64_t) o->start))
			_keep(ps, _new_run(ps, o), o);
	} else if (o->st == OSL_FINISHED && o->ran &&
		   (double) o->end > ps->u->since &&
		   !_done_has(ps->u, o->key, (int64_t) o->start)) {
		/* started and ended between two passes, or while
		 * slurmctld was down: charged once, from Slurm's times */
		r = _new_run(ps, o);
		_close(ps, &r, (double) o->end, o->runtime, _bound(&r, o), o);
	}
}

/*
 * When r, now pending again, was requeued: Slurm's end time while the run
 * completes; once it has (batch_requeue_fini), Slurm has cleared it and
 * given the job a new submit time, a bound at most the completion's
 * length late.  NAN when neither fits (nothing more is charged).
 */
static double _requeued_at(const osl_upass_t *ps, const osl_usage_run_t *r,
			   const osl_obs_t *o)
{
	if (o->end >= r->start && (double) o->end <= ps->now)
		return (double) o->end;
	if (o->submit >= r->start && (double) o->submit <= ps->now + 1)
		return (double) o->submit;
	return NAN;
}

/* r, being accrued, and o, what Slurm shows of its key now. */
static void _known(osl_upass_t *ps, osl_usage_run_t *r, const osl_obs_t *o)
{
	bool same = (int64_t) o->start == r->start;

	if (o->st == OSL_PENDING) {
		_close(ps, r, _requeued_at(ps, r, o), NAN, r->cap, NULL);
	} else if (!same && (o->st == OSL_RUNNING || o->ran)) {
		/* requeued and started again between two passes: the
		 * first run ended before the second began */
		_close(ps, r, (double) o->start, NAN, r->cap, NULL);
		_unknown(ps, o);
	} else if (o->st == OSL_RUNNING) {
		_keep(ps, *r, o);
	} else if (o->ran) {
		_close(ps, r, (double) o->end, o->runtime, _bound(r, o), o);
	} else {
		/* ended without a start Slurm kept: charged up to the last
		 * pass, no more */
		_close(ps, r, (double) r->start + r->run, NAN, r->cap, NULL);
	}
}

static int _obs_key_cmp(const void *k, const void *e)
{
	uint64_t key = *(const uint64_t *) k;
	const osl_obs_t *o = *(osl_obs_t *const *) e;

	return (key > o->key) - (key < o->key);
}

/* Keep the done runs whose record obs[0..n) still shows, add ps's. */
static void _done_merge(osl_upass_t *ps, osl_obs_t *const *obs, int n)
{
	osl_usage_t *u = ps->u;
	int i, m = 0;

	for (i = 0; i < u->ndone; i++)
		if (n && bsearch(&u->done[i].key, obs, n, sizeof(*obs),
				 _obs_key_cmp))
			u->done[m++] = u->done[i];
	u->ndone = m;
	if (ps->ndone) {
		u->done = osl_grow(u->done, &u->cap_done, m + ps->ndone,
				   sizeof(*u->done), 16);
		memcpy(u->done + m, ps->done, ps->ndone * sizeof(*ps->done));
		u->ndone += ps->ndone;
	}
	if (u->ndone)
		qsort(u->done, u->ndone, sizeof(*u->done), _done_cmp);
}

extern double osl_usage_pass(osl_usage_t *u, osl_obs_t *const *obs, int n,
			     double now, osl_usage_fin_f fin, void *arg)
{
	osl_upass_t ps = { .u = u, .now = now, .fin = fin, .arg = arg };
	int i = 0, j = 0;

	if (u->unread)		/* its file is still to be read: once it is,
				 * it goes on from its own last pass */
		return 0;

	while (i < u->nruns || j < n) {
		if (j == n || (i < u->nruns && u->runs[i].key < obs[j]->key))
			_ended(&ps, &u->runs[i++]);	/* record gone: charged
						 * up to the last pass */
		else if (i == u->nruns || obs[j]->key < u->runs[i].key)
			_unknown(&ps, obs[j++]);
		else
			_known(&ps, &u->runs[i++], obs[j++]);
	}
	_done_merge(&ps, obs, n);
	free(u->runs);
	u->runs = ps.runs;
	u->nruns = ps.nruns;
	u->cap_runs = ps.cap_runs;
	free(ps.done);
	free(u->ended);
	u->ended = ps.ended;
	u->nended = ps.nended;
	u->cap_ended = ps.cap_ended;
	if (u->nended > 1)
		qsort(u->ended, u->nended, sizeof(*u->ended), _ended_cmp);
	u->clock = now;
	return ps.charged;
}

extern double osl_enforced_limit(double job_s, double part_s)
{
	if (job_s >= 0 && isfinite(job_s))
		return job_s;
	if (part_s >= 0 && isfinite(part_s))
		return part_s;
	return INFINITY;
}

extern double osl_estimate_of(double limit, double dflt)
{
	return isfinite(limit) ? limit : dflt;
}

static int _run_key_cmp(const void *k, const void *e)
{
	uint64_t key = *(const uint64_t *) k;
	const osl_usage_run_t *r = e;

	return (key > r->key) - (key < r->key);
}

extern double osl_usage_ran_under(const osl_usage_t *u, uint64_t key)
{
	const osl_usage_run_t *r = u->nruns ?
		bsearch(&key, u->runs, u->nruns, sizeof(*u->runs),
			_run_key_cmp) : NULL;
	const osl_usage_ended_t *e;
	osl_usage_ended_t k = { .key = key };

	e = u->nended ? bsearch(&k, u->ended, u->nended, sizeof(*u->ended),
				_ended_cmp) : NULL;
	if (r)
		return r->cap;
	return e ? e->cap : NAN;
}
