/*****************************************************************************\
 *  osl_sync.c - observations to core events: what Slurm shows of the jobs
 *  of one partition, diffed against what its core knows, as the submit,
 *  start, finish, cancel and requeue events that bring the core in line,
 *  in time order, applied (osl_apply.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types: tests/plugin/check_sync.c drives it with made-up
 *  observations.  Charges follow Slurm's allocation: a start carries the
 *  width allocated (ost_job_start_alloc), a pending job whose width or
 *  estimate changed is updated (ost_job_update), and a finish is charged
 *  at most the job's time limit (ost_job_finish_capped).  The one
 *  pipeline for the pass (OSL_SYNC_ALL) and for a submission
 *  (OSL_SYNC_NEW): diff, sort, apply.
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_apply.h"
#include "osl_conf.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_sync.h"
#include "osl_usage.h"
#include "osl_vec.h"

typedef struct {
	osl_event_t *v;			/* the events (malloc) */
	int n;				/* entries used */
	int cap;			/* entries allocated */
} osl_ev_vec_t;

/* A job the core knows; sorted by id. */
typedef struct {
	uint64_t id;			/* core job id */
	ost_job_state_t state;		/* pending or running */
	double start;			/* start time (running) */
	uint32_t procs;			/* width the core counts */
	double estimate;		/* estimate the core counts */
	int32_t nice;			/* nice the core knows (§22) */
	uint32_t account;		/* account it counts in (§21) */
	double ran;			/* running: the largest enforced limit
					 * the ledger saw it run under (NAN:
					 * unknown; osl_usage_ran_under) */
} osl_known_t;

typedef struct {
	osl_known_t *v;			/* the jobs (malloc) */
	int n;				/* entries used */
	int cap;			/* entries allocated */
} osl_known_vec_t;

/* ------------------------------------------------------ observations --- */

extern osl_obs_t *osl_obs_add(osl_obs_vec_t *vec)
{
	vec->v = osl_tgrow(vec->v, &vec->cap, vec->n + 1, sizeof(*vec->v), 256);
	memset(&vec->v[vec->n], 0, sizeof(vec->v[0]));
	return &vec->v[vec->n++];
}

static int _obs_order_cmp(const void *a, const void *b)
{
	const osl_obs_t *x = *(osl_obs_t * const *) a;
	const osl_obs_t *y = *(osl_obs_t * const *) b;

	if (x->part != y->part)
		return x->part - y->part;
	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

extern osl_obs_t **osl_obs_index(const osl_obs_vec_t *vec)
{
	osl_obs_t **idx = osl_tcalloc(vec->n + 1, sizeof(*idx));
	int i;

	for (i = 0; i < vec->n; i++)
		idx[i] = &vec->v[i];
	if (vec->n)
		qsort(idx, vec->n, sizeof(*idx), _obs_order_cmp);
	return idx;
}

/* ------------------------------------------------------------ events --- */

static int _ev_cmp(const void *a, const void *b)
{
	const osl_event_t *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->order != y->order)
		return x->order - y->order;
	return (x->key > y->key) - (x->key < y->key);
}

static void _ev_add(osl_ev_vec_t *ev, double t, int order, osl_ev_kind_t kind,
		    const osl_obs_t *o, uint64_t key)
{
	ev->v = osl_tgrow(ev->v, &ev->cap, ev->n + 1, sizeof(*ev->v), 64);
	memset(&ev->v[ev->n], 0, sizeof(ev->v[0]));
	ev->v[ev->n].t = t;
	ev->v[ev->n].order = order;
	ev->v[ev->n].kind = kind;
	ev->v[ev->n].o = o;
	ev->v[ev->n].key = key;
	ev->n++;
}

static int _known_add(const ost_job_info_t *job, void *arg)
{
	osl_known_vec_t *k = arg;

	k->v = osl_tgrow(k->v, &k->cap, k->n + 1, sizeof(*k->v), 256);
	k->v[k->n].id = job->id;
	k->v[k->n].state = job->state;
	k->v[k->n].start = job->start;
	k->v[k->n].procs = job->procs;
	k->v[k->n].estimate = job->estimate;
	k->v[k->n].nice = job->nice;
	k->v[k->n].account = job->account;
	k->v[k->n].ran = NAN;
	k->n++;
	return 0;
}

static int _known_cmp(const void *a, const void *b)
{
	const osl_known_t *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * The finish of o at its end, charged at most its time limit, but never
 * less than the estimate it ran under (counted): an owner may cut a
 * running job's limit, even to 0, and must not cut its charge with it
 * (§1).  An operator who raised the limit raised the bound too.
 */
static void _finish(osl_ev_vec_t *ev, const osl_obs_t *o, int order,
		    double counted)
{
	_ev_add(ev, o->end, order, OSL_EV_FINISH, o, o->key);
	ev->v[ev->n - 1].estimate = o->limit > counted ? o->limit : counted;
}

/*
 * What running k may be charged at most: the estimate the core counted,
 * or the largest enforced limit it ran under when the ledger saw a longer
 * one.  A job without a limit is counted at DefaultEstimate, a ranking
 * estimate only: it is charged what it ran, even after its owner cut
 * the limit.
 */
static double _ran_bound(const osl_known_t *k)
{
	return k->ran > k->estimate ? k->ran : k->estimate;
}

/* The nice of pending o at t, if that is news to the core (a submission
 * carries its own). */
static void _nice(osl_ev_vec_t *ev, const osl_known_t *k, const osl_obs_t *o,
		  double t)
{
	if (o->nice != k->nice)
		_ev_add(ev, t, OSL_ORD_UPDATE, OSL_EV_NICE, o, o->key);
}

/* An update of k to (procs, estimate) at t, if that is news to the core. */
static void _update(osl_ev_vec_t *ev, const osl_known_t *k, const osl_obs_t *o,
		    double t, uint32_t procs, double estimate)
{
	if (k && procs == k->procs && estimate == k->estimate)
		return;
	_ev_add(ev, t, OSL_ORD_UPDATE, OSL_EV_UPDATE, o, o->key);
	ev->v[ev->n - 1].procs = procs;
	ev->v[ev->n - 1].estimate = estimate;
}

/*
 * When o, a job the core does not know, arrives in the schedule (§9.12),
 * seconds: when Slurm first found it eligible (never before its submit
 * time); now if Slurm has not found it eligible yet (its eligible time is
 * 0 after a release, for an array being made, during a dependency wait);
 * now too when the last pass (at seen, 0: none in this process) would have
 * shown it, had it been eligible then, and did not: it was held or could
 * not run.  A job submitted while a save kept the core away (o->unseen)
 * was not shown for that reason.  NAN: not yet, a --begin still to come.
 */
static double _arrival(const osl_obs_t *o, double now, double seen)
{
	double t = (double) o->submit;

	if ((double) o->eligible > now)
		return NAN;
	if ((double) o->eligible > t)
		t = (double) o->eligible;
	if (!o->eligible || t > now)	/* t > now: a clock stepped back */
		t = now;
	if (seen > 0 && t < seen && !o->unseen)
		t = now;
	return t;
}

/* The arrival t of o, a job first seen started, at the latest its start. */
static double _before_start(double t, const osl_obs_t *o)
{
	return isnan(t) || t > (double) o->start ? (double) o->start : t;
}

/*
 * Events that bring the core's view of one job in line with Slurm's.
 * IN k - what the core knows (NULL: nothing)
 * IN o - what Slurm shows (NULL: the record is gone or left alone)
 * A pending job whose width or estimate differ is updated now (Slurm keeps
 * no time of the change); one that started meanwhile gets its new
 * estimate just before its start, and its width from the start itself
 * (o->procs is then the allocated width); a requeued job gets the request
 * it has now right after its requeue.
 */
static void _diff_one(osl_ev_vec_t *ev, const osl_known_t *k, const osl_obs_t *o,
		      double now, double seen, bool uncharged)
{
	if (!k) {
		double t = _arrival(o, now, seen);

		if (o->st == OSL_PENDING) {
			if (!isnan(t))	/* NAN: its --begin is to come */
				_ev_add(ev, t, OSL_ORD_SUBMIT, OSL_EV_SUBMIT, o,
					o->key);
		} else if (o->st == OSL_RUNNING) {
			_ev_add(ev, _before_start(t, o), OSL_ORD_SUBMIT,
				OSL_EV_SUBMIT, o, o->key);
			_ev_add(ev, o->start, OSL_ORD_START, OSL_EV_START, o, o->key);
		} else if (o->st == OSL_FINISHED && o->ran && uncharged) {
			/* over before a pass saw it, and known to be
			 * uncharged (see _uncharged()): still charged what it
			 * used.  (A finished record the core does not know is
			 * otherwise one it has charged and forgotten.) */
			_ev_add(ev, _before_start(t, o), OSL_ORD_SUBMIT,
				OSL_EV_SUBMIT, o, o->key);
			_ev_add(ev, o->start, OSL_ORD_START, OSL_EV_START, o, o->key);
			_finish(ev, o, OSL_ORD_END_LATE, o->estimate);
		}
		return;
	}
	if (!o) {
		if (k->state == OST_JOB_PENDING)
			_ev_add(ev, now, OSL_ORD_END, OSL_EV_CANCEL, NULL, k->id);
		else {
			_ev_add(ev, now, OSL_ORD_END, OSL_EV_VANISH, NULL, k->id);
			ev->v[ev->n - 1].estimate = k->ran;
		}
		return;
	}
	if (k->state == OST_JOB_PENDING) {
		if (o->st == OSL_PENDING) {
			_update(ev, k, o, now, o->procs, o->estimate);
			_nice(ev, k, o, now);
		} else if (o->st == OSL_RUNNING) {
			_update(ev, k, o, o->start, k->procs, o->estimate);
			_ev_add(ev, o->start, OSL_ORD_START, OSL_EV_START, o, o->key);
		} else if (o->st == OSL_FINISHED && o->ran) {
			_update(ev, k, o, o->start, k->procs, o->estimate);
			_ev_add(ev, o->start, OSL_ORD_START, OSL_EV_START, o, o->key);
			_finish(ev, o, OSL_ORD_END_LATE,
				k->estimate > o->estimate ? k->estimate :
				o->estimate);
		} else if (o->st == OSL_FINISHED) {
			_ev_add(ev, o->end, OSL_ORD_END, OSL_EV_CANCEL, o, o->key);
		}
	} else {
		if (o->st == OSL_PENDING) {
			double t = o->submit > now ? now : o->submit;

			_ev_add(ev, t, OSL_ORD_REQUEUE, OSL_EV_REQUEUE, o, o->key);
			_update(ev, k, o, t, o->procs, o->estimate);
			_nice(ev, k, o, t);
		} else if (o->st == OSL_FINISHED) {
			_finish(ev, o, OSL_ORD_END, _ran_bound(k));
		}
	}
}

/*
 * Is o, a record the core does not know, one the core never charged?
 * Either it was submitted while a save kept the core away (o->unseen), or
 * it ended after the clock of the state file the core was restored from
 * (p->restored_at, first pass after a restart only): every job a core
 * charged had ended by its clock, so the restored core cannot have charged
 * this one, and the finish it heard before the restart was lost with the
 * process.  Or it is a task of an array whose submission the core still
 * holds as a plain pending job: slurmctld calls priority_p_set before it
 * makes the record an array (_create_job_array() comes after
 * set_job_prio() in job_mgr.c), so the core got the array's job id, and
 * tasks split off, run and end before the next pass sees the array.  That
 * plain job is cancelled by the same pass (no record shows its key
 * again), so this holds for one pass only, and a task is never charged
 * twice.
 */
static bool _uncharged(const osl_part_t *p, const osl_known_vec_t *known,
		       const osl_obs_t *o)
{
	osl_known_t key = { .id = o->group };
	const osl_known_t *k;

	if (o->unseen)
		return true;
	if (p->restored_at > 0 && o->end > p->restored_at)
		return true;
	if (!o->group || !known->n)
		return false;
	k = bsearch(&key, known->v, known->n, sizeof(*known->v), _known_cmp);
	return k && k->state == OST_JOB_PENDING;
}

/*
 * Was pending o moved to another account since the core took it in
 * (scontrol update account=, §23)?  Only with Hierarchy=accounts, and only
 * to an account it names that the core holds, or can be given at the
 * submission that follows (osl_acct_declare): then the job lands there,
 * and the next pass finds them equal.  Its owner's own account is placed
 * by osl_apply, which may wait while the owner has work in V, and an
 * account the core refused counts as the owner's own: neither may make a
 * job move at every pass.
 */
static bool _moved(const osl_part_t *p, const osl_known_t *k,
		   const osl_obs_t *o)
{
	uint32_t path[OSL_ACCT_DEPTH_MAX + 1];

	if (!ost_sched_nested(p->sched) ||
	    k->state != OST_JOB_PENDING || o->st != OSL_PENDING ||
	    !o->account || o->account == k->account)
		return false;
	if ((int) o->account <= p->nacct && p->acct[o->account - 1].declared)
		return true;
	return osl_acct_path(o->account, path, OSL_ACCT_DEPTH_MAX + 1) > 0;
}

/* Every job: a merge of the core's jobs and obs[0..n), both by id. */
static void _diff_all(osl_ev_vec_t *ev, const osl_part_t *p, osl_obs_t **obs,
		      int n, double now)
{
	osl_known_vec_t known = { 0 };
	int i = 0, j = 0;

	(void) ost_sched_foreach_job(p->sched, _known_add, &known);
	if (known.n)
		qsort(known.v, known.n, sizeof(*known.v), _known_cmp);
	for (i = 0; p->ledger && i < known.n; i++)	/* the pass's ledger */
		if (known.v[i].state == OST_JOB_RUNNING)
			known.v[i].ran = osl_usage_ran_under(
				&p->ledger->usage, known.v[i].id);
	i = 0;
	while (i < known.n || j < n) {
		if (j == n || (i < known.n && known.v[i].id < obs[j]->key)) {
			_diff_one(ev, &known.v[i++], NULL, now, p->last_pass,
				  false);
		} else if (i == known.n || obs[j]->key < known.v[i].id) {
			_diff_one(ev, NULL, obs[j], now, p->last_pass,
				  _uncharged(p, &known, obs[j]));
			j++;
		} else if (_moved(p, &known.v[i], obs[j])) {
			/* it leaves its campaign and arrives now in the
			 * account it names, as a new submission would */
			_ev_add(ev, now, OSL_ORD_END, OSL_EV_CANCEL, obs[j],
				obs[j]->key);
			_ev_add(ev, now, OSL_ORD_SUBMIT, OSL_EV_SUBMIT, obs[j],
				obs[j]->key);
			i++;
			j++;
		} else {
			_diff_one(ev, &known.v[i++], obs[j++], now,
				  p->last_pass, false);
		}
	}
	osl_tfree(known.v, known.cap, sizeof(*known.v));
}

/* Only the observations the core does not know. */
static void _diff_new(osl_ev_vec_t *ev, const osl_part_t *p, osl_obs_t **obs,
		      int n, double now)
{
	ost_job_info_t info;
	int j;

	for (j = 0; j < n; j++)
		if (ost_job_get(p->sched, obs[j]->key, &info))
			_diff_one(ev, NULL, obs[j], now, p->last_pass,
				  obs[j]->unseen);
}

extern int osl_sync(osl_part_t *p, osl_obs_t **obs, int n, double now,
		    osl_sync_scope_t scope, FILE *evlog)
{
	osl_ev_vec_t ev = { 0 };
	int e;

	if (scope == OSL_SYNC_ALL) {
		_diff_all(&ev, p, obs, n, now);
		p->restored_at = 0;	/* every record diffed once */
		p->last_pass = now;	/* every eligible pending job seen */
	} else
		_diff_new(&ev, p, obs, n, now);
	if (ev.n)
		qsort(ev.v, ev.n, sizeof(*ev.v), _ev_cmp);
	for (e = 0; e < ev.n; e++)
		osl_apply(p, &ev.v[e], now, evlog);
	if (scope == OSL_SYNC_ALL)	/* shares changed in Slurm (§23) */
		osl_acct_refresh(p, now, evlog);
	osl_tfree(ev.v, ev.cap, sizeof(*ev.v));
	return ev.n;
}
