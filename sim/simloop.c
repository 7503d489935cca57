/*****************************************************************************\
 *  simloop.c - event loop of ostrich-sim.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Events: completions (a heap by end time), submissions (the sorted SWF
 *  jobs, or a heap of campaign releases for closed-loop workloads) and,
 *  with gate=strict only, the next virtual-schedule event when a gated
 *  campaign holds CPUs idle (ost_sched_next_vevent()).  With
 *  gate=soft the loop does not wake up for virtual events alone: the
 *  order is re-read at the next real event.  With --feedback the SWF
 *  jobs come from the campaign releases of feedback.c (§16) instead of
 *  the sorted array.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dispatch.h"
#include "feedback.h"
#include "grouping.h"
#include "ost_heap.h"
#include "order.h"
#include "simloop.h"

#define NONE UINT32_MAX

struct loop {
	sim_workload_t *w;
	const sim_opts_t *opts;
	ost_sched_t *eng;          /* NULL for baselines with fixed campaigns */
	sim_order_t *order;
	sim_disp_t disp;
	sim_pendidx_t pidx;        /* EASY's stop test (disp.index) */
	ost_heap_t done;           /* completions: (end, job) */
	ost_hkey_t *ev_done;       /* done's elements, see _ev_take() */
	uint64_t ev_free;          /* first free one (n_ev: none) */
	size_t n_ev;
	ost_heap_t rel;            /* closed loop: (release, campaign) */
	ost_hkey_t *ev_rel;        /* rel's element of each campaign */
	size_t next_sub;           /* SWF: next job to submit */
	uint32_t *left;            /* closed loop: unfinished jobs per camp */
	sim_fb_t *fb;              /* --feedback: SWF releases (§16) */
	size_t finished;
	char *err;
	size_t errlen;
};

/* Report a failed core call on job.  RET: -1. */
static int _eng_fail(struct loop *l, const char *what, uint32_t job, int rc)
{
	snprintf(l->err, l->errlen, "core: %s of job %llu: %s", what,
		 (unsigned long long) l->w->jobs[job].number,
		 ost_strerror(rc));
	return -1;
}

/*
 * --hierarchy accounts (§21): one account per SWF group under the root,
 * all of share 1, and each user's own account the group of its first job
 * (a job of another group counts there, as with -A).  Declared at the
 * first submit or release time.  Nothing without accounts.  RET: 0 or -1.
 */
static int _accounts(ost_sched_t *eng, const sim_workload_t *w)
{
	double t0 = INFINITY;
	size_t i;

	if (!ost_sched_nested(eng))
		return 0;
	for (i = 0; i < w->njobs; i++)	/* NAN in a closed loop */
		if (w->jobs[i].submit < t0)
			t0 = w->jobs[i].submit;
	for (i = 0; i < w->ncamps; i++)	/* closed loop: first releases */
		if (w->camps[i].start < t0)
			t0 = w->camps[i].start;
	if (isinf(t0))
		t0 = 0.0;
	for (i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];

		if (j->acct && ost_acct_declare(eng, j->acct, 0, 1.0, t0))
			return -1;
	}
	for (i = w->njobs; i-- > 0;)	/* the first job's group wins */
		if (ost_user_set_account(eng, w->jobs[i].uid, w->jobs[i].acct,
					 t0))
			return -1;
	return 0;
}

/* Job becomes pending at now: the core (which may choose its campaign),
 * the order and the dispatcher learn it.  RET: 0 or -1. */
static int _submit(struct loop *l, uint32_t job, double now)
{
	sim_job_t *j = &l->w->jobs[job];
	uint32_t camp = 0;
	int rc;

	j->submit = now;
	if (l->eng) {
		ost_job_desc_t d = {
			.id = (uint64_t) job + 1, .uid = j->uid,
			.procs = j->width,
			.estimate = l->opts->order_exact ? j->runtime
							 : j->estimate,
			.campaign = j->campaign, .account = j->acct,
		};
		if ((rc = ost_job_submit(l->eng, &d, now, &camp)))
			return _eng_fail(l, "submit", job, rc);
		j->campaign = camp;
	}
	sim_order_submit(l->order, job, now);
	if (sim_disp_pending(&l->disp, j->procs)) {
		snprintf(l->err, l->errlen, "out of memory in dispatch");
		return -1;
	}
	if (l->disp.index)
		sim_pendidx_add(l->disp.index, job);
	return 0;
}

/* Closed loop: submit all jobs of campaign c at now.  RET: 0 or -1. */
static int _release(struct loop *l, uint32_t c, double now)
{
	const sim_camp_t *cp = &l->w->camps[c];

	for (size_t i = cp->first; i < cp->first + cp->njobs; i++)
		if (_submit(l, (uint32_t) i, now))
			return -1;
	return 0;
}

/* Job completes at now; in a closed loop the user's next campaign is
 * released think seconds after the last job of this one.  RET: 0 or -1. */
static int _finish(struct loop *l, uint32_t job, double now)
{
	sim_job_t *j = &l->w->jobs[job];
	int rc;

	if (sim_disp_finish(&l->disp, l->w->jobs, job)) {
		snprintf(l->err, l->errlen, "internal: job %u not running", job);
		return -1;
	}
	sim_order_finish(l->order, job, now);
	if (l->eng && (rc = ost_job_finish(l->eng, (uint64_t) job + 1, now,
					   j->runtime)))
		return _eng_fail(l, "finish", job, rc);
	l->finished++;
	if (l->fb && sim_fb_finish(l->fb, l->w, job, now))
		return -1;
	if (!l->w->closed || --l->left[j->camp_idx])
		return 0;
	uint32_t next = l->w->camps[j->camp_idx].next;
	if (next == NONE)
		return 0;
	return ost_hkey_push(&l->rel, &l->ev_rel[next],
			     now + l->w->camps[next].think, next);
}

/*
 * The done heap's elements: a running job holds one (its tie is the job),
 * a job runs on one CPU or more, so min(jobs, m) of them are enough.  The
 * free ones are a LIFO stack threaded through tie, so a start takes the
 * element the last finish freed, still in cache: an element per job
 * instead cost a cache miss per start (the old heap of events by value
 * had none).
 */
static int _ev_init(struct loop *l)
{
	l->n_ev = l->w->njobs < l->opts->procs ? l->w->njobs : l->opts->procs;
	if (!(l->ev_done = malloc((l->n_ev + 1) * sizeof(*l->ev_done))))
		return -1;
	for (size_t i = 0; i < l->n_ev; i++)
		l->ev_done[i].tie = i + 1;
	l->ev_free = 0;
	return 0;
}

/* A free element, or NULL (more jobs running than CPUs: a bug). */
static ost_hkey_t *_ev_take(struct loop *l)
{
	ost_hkey_t *e = &l->ev_done[l->ev_free];

	if (l->ev_free >= l->n_ev)
		return NULL;
	l->ev_free = e->tie;
	return e;
}

static void _ev_give(struct loop *l, ost_hkey_t *e)
{
	e->tie = l->ev_free;
	l->ev_free = (uint64_t) (e - l->ev_done);
}

/* Dispatch at now and start the chosen jobs.  RET: 0 or -1. */
static int _dispatch(struct loop *l, double now)
{
	sim_disp_t *d = &l->disp;
	int rc;

	if (sim_disp_run(d, l->order, l->w->jobs, now)) {
		snprintf(l->err, l->errlen, "out of memory in dispatch");
		return -1;
	}
	for (size_t i = 0; i < d->nstarts; i++) {
		uint32_t job = d->starts[i];
		sim_job_t *j = &l->w->jobs[job];
		ost_hkey_t *e = _ev_take(l);

		if (!e) {
			snprintf(l->err, l->errlen, "internal: more jobs "
				 "running than CPUs");
			return -1;
		}
		j->start = now;
		j->end = now + j->runtime;
		sim_order_start(l->order, job, now);
		if (l->eng && (rc = ost_job_start(l->eng, (uint64_t) job + 1,
						  now)))
			return _eng_fail(l, "start", job, rc);
		if (ost_hkey_push(&l->done, e, j->end, job))
			return -1;
	}
	return 0;
}

/* Next real time a virtual tag is reached (gate=strict wake-up), only
 * when a gated campaign leaves CPUs idle.  O(1). */
static double _next_virtual(struct loop *l, double now)
{
	double t;

	if (!l->eng || !l->disp.held || l->disp.running.busy >= l->disp.m)
		return INFINITY;
	t = ost_sched_next_vevent(l->eng);
	if (isfinite(t) && t <= now * (1 + 1e-12) + 1e-9)
		t = now * (1 + 1e-12) + 1e-9;
	return t;
}

/* Time of the next submission (INFINITY if none). */
static double _next_arrival(const struct loop *l)
{
	if (l->w->closed) {
		const ost_hkey_t *e = ost_hkey_top(&l->rel);
		return e ? e->key : INFINITY;
	}
	if (l->fb)
		return sim_fb_next(l->fb);
	return l->next_sub < l->w->njobs ? l->w->jobs[l->next_sub].submit
					 : INFINITY;
}

/* Progress line on stderr, at most twice a second. */
static void _progress(struct loop *l, struct timespec *last)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (ts.tv_sec - last->tv_sec + (ts.tv_nsec - last->tv_nsec) / 1e9 < 0.5)
		return;
	*last = ts;
	fprintf(stderr, "\rostrich-sim: %s %3.0f%% (%zu/%zu jobs done)",
		sim_policy_name(l->opts->policy),
		100.0 * (double) l->finished / (double) l->w->njobs,
		l->finished, l->w->njobs);
}

/* One instant: completions, submissions, virtual events, dispatch
 * (§6).  RET: 0 or -1. */
static int _instant(struct loop *l, double now)
{
	ost_hkey_t *e;

	while ((e = ost_hkey_top(&l->done)) && e->key <= now) {
		uint32_t job = (uint32_t) e->tie;

		ost_hkey_remove(&l->done, e);
		_ev_give(l, e);
		if (_finish(l, job, now))
			return -1;
	}
	if (l->w->closed) {
		while ((e = ost_hkey_top(&l->rel)) && e->key <= now) {
			ost_hkey_remove(&l->rel, e);
			if (_release(l, (uint32_t) e->tie, now))
				return -1;
		}
	} else if (l->fb) {
		uint32_t job;
		int rc;

		while ((rc = sim_fb_pop(l->fb, l->w, now, &job)) == 1)
			if (_submit(l, job, now))
				return -1;
		if (rc < 0)
			return -1;
	} else {
		while (l->next_sub < l->w->njobs &&
		       l->w->jobs[l->next_sub].submit <= now)
			if (_submit(l, (uint32_t) l->next_sub++, now))
				return -1;
	}
	if (l->eng)
		ost_sched_advance(l->eng, now);
	return _dispatch(l, now);
}

/* Run instants until nothing is left.  RET: 0, or -1 (error, or jobs
 * that never ran). */
static int _loop(struct loop *l)
{
	struct timespec last;
	double wake = INFINITY;
	uint64_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &last);
	for (;;) {
		const ost_hkey_t *d = ost_hkey_top(&l->done);
		double now = fmin(d ? d->key : INFINITY, _next_arrival(l));

		now = fmin(now, wake);
		if (!isfinite(now))
			break;
		/* Durations are bounded by the readers, but enough of them
		 * in a row leave the range of event times. */
		if (!ost_time_ok(now)) {
			snprintf(l->err, l->errlen, "simulated time reached "
				 "%g s, beyond the %g s the engine accepts "
				 "(runtimes and think times add up too far)",
				 now, OST_TIME_MAX);
			return -1;
		}
		if (_instant(l, now))
			return -1;
		wake = l->opts->core.gate == OST_GATE_STRICT ?
		       _next_virtual(l, now) : INFINITY;
		if (l->opts->progress && !(++n & 0xfff))
			_progress(l, &last);
	}
	if (l->opts->progress)
		fprintf(stderr, "\r%60s\r", "");
	if (l->finished != l->w->njobs) {
		snprintf(l->err, l->errlen, "%zu jobs never ran (deadlock)",
			 l->w->njobs - l->finished);
		return -1;
	}
	return 0;
}

/* Campaigns for --grouping trace, the engine (for the OStrich/FairCamp
 * order or online grouping), order, dispatcher and first releases; each
 * job's width and charge, the engine's capacity in the same unit (§20).
 * RET: 0 or -1. */
static int _setup(struct loop *l)
{
	sim_workload_t *w = l->w;
	const sim_opts_t *o = l->opts;
	bool engine_order = o->policy == SIM_POLICY_OSTRICH ||
			    o->policy == SIM_POLICY_FAIRCAMP;
	uint32_t capacity;

	if (sim_charge_capacity(&o->charge, o->procs, o->gpus, &capacity))
		return -1;
	for (size_t i = 0; i < w->njobs; i++) {
		sim_job_t *j = &w->jobs[i];

		j->width = sim_charge_width(&o->charge, o->procs, o->gpus,
					    j->procs, j->gpus);
		j->charge = sim_charge_raw(&o->charge, o->procs, o->gpus,
					   j->procs, j->gpus);
		w->jobs[i].start = w->jobs[i].end = NAN;
		if (!w->closed)
			w->jobs[i].campaign = 0;
		/* a --feedback replay before this one moved it */
		if (!w->closed && o->feedback)
			w->jobs[i].submit = w->jobs[i].trace_submit;
	}
	if (!w->closed && o->grouping == SIM_GROUP_TRACE &&
	    sim_group_trace(w, o->core.think_time))
		return -1;
	if (engine_order || (!w->closed && o->grouping == SIM_GROUP_ONLINE)) {
		ost_config_t cfg = o->core;
		cfg.procs = capacity;
		cfg.mode = o->policy == SIM_POLICY_FAIRCAMP ? OST_MODE_FAIRCAMP
							    : OST_MODE_OSTRICH;
		if (!(l->eng = ost_sched_create(&cfg)) ||
		    _accounts(l->eng, w))
			return -1;
	}
	if (!(l->order = sim_order_create(o->policy, w, l->eng, o->half_life)))
		return -1;
	sim_order_fairshare_period(l->order, o->fs_period);
	if (o->policy == SIM_POLICY_FAIRSHARE &&
	    sim_order_fairshare_age(l->order, o->age_weight, o->max_age))
		return -1;
	if (sim_disp_init(&l->disp, o->dispatch, o->procs, w->njobs) ||
	    _ev_init(l))
		return -1;
	l->disp.gpus = o->gpus;
	/* the index needs every job of the order eligible (dispatch.h) */
	if (o->dispatch == SIM_DISPATCH_EASY &&
	    !(engine_order && o->core.gate == OST_GATE_STRICT)) {
		if (sim_pendidx_init(&l->pidx, w->jobs, w->njobs))
			return -1;
		l->disp.index = &l->pidx;
	}
	w->dependent = 0;
	if (o->feedback && !w->closed) {
		if (!(l->fb = calloc(1, sizeof(*l->fb))) ||
		    sim_fb_init(l->fb, w, o->fb_threshold))
			return -1;
		w->dependent = l->fb->dependent;
	}
	if (!w->closed)
		return 0;
	if (!(l->left = malloc((w->ncamps + 1) * sizeof(*l->left))) ||
	    !(l->ev_rel = malloc((w->ncamps + 1) * sizeof(*l->ev_rel))))
		return -1;
	for (size_t c = 0; c < w->ncamps; c++) {
		l->left[c] = (uint32_t) w->camps[c].njobs;
		if (w->camps[c].seq == 1) {
			if (ost_hkey_push(&l->rel, &l->ev_rel[c],
					  w->camps[c].start, c))
				return -1;
		}
	}
	return 0;
}

int sim_run(sim_workload_t *w, const sim_opts_t *opts, char *err,
	    size_t errlen)
{
	struct loop l = { .w = w, .opts = opts, .err = err, .errlen = errlen };
	int rc;

	if (opts->policy == SIM_POLICY_ACTUAL)	/* nothing to replay */
		return sim_run_actual(w, opts, err, errlen);

	/* §16: dependencies come from the trace's campaigns */
	if (opts->feedback && (w->closed || opts->grouping != SIM_GROUP_TRACE)) {
		snprintf(err, errlen, "--feedback needs an SWF trace and "
			 "--grouping trace");
		return -1;
	}

	ost_heap_init(&l.done, ost_hkey_less);
	ost_heap_init(&l.rel, ost_hkey_less);
	memset(&l.disp, 0, sizeof(l.disp));
	if (_setup(&l)) {
		snprintf(err, errlen, "cannot set up the simulation "
			 "(bad configuration or out of memory)");
		rc = -1;
	} else {
		rc = _loop(&l);
	}
	sim_disp_free(&l.disp);
	sim_pendidx_free(&l.pidx);
	sim_order_destroy(l.order);
	ost_sched_destroy(l.eng);
	ost_heap_free(&l.done);
	ost_heap_free(&l.rel);
	free(l.ev_done);
	free(l.ev_rel);
	free(l.left);
	if (l.fb)
		sim_fb_free(l.fb);
	free(l.fb);
	return rc;
}
