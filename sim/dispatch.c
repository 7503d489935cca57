/*****************************************************************************\
 *  dispatch.c - list / EASY / strict dispatch over a priority order.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Cost: one walk of the order per instant, stopped as soon as the free
 *  CPUs fall below the smallest pending job (qmin, kept with a count per
 *  distinct pending CPU count), so a full machine costs O(1) and a walk
 *  never goes past the point where nothing can start.  Memory grows with
 *  the workload, never with m: a machine of 10^9 CPUs costs what one of
 *  10 does.  With an index of the pending jobs
 *  by estimate (pendidx.h), an EASY walk also stops, once the reservation
 *  is made, as soon as no pending job passes the backfill test, and when
 *  fewer than FEW jobs pass it they are found by search instead of by
 *  walking (_backfill_few).  After the reservation (and in list mode) the
 *  order skips the jobs wider than the free CPUs (sim_order_walk).
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ost_grow.h"

/* At most this many backfill candidates are started by search instead
 * of by walking (see _backfill_few). */
#define FEW 16

struct walk {
	sim_disp_t *d;
	sim_order_t *o;
	const sim_job_t *jobs;
	double now;
	uint64_t free;           /* CPUs idle now */
	uint64_t gfree;          /* GPUs idle now */
	bool blocked;            /* EASY: reservation made */
	double shadow;           /* EASY: reservation time */
	size_t cut;              /* EASY with an index: jobs (by estimate)
				  * with now + e <= shadow */
	uint64_t extra;          /* EASY: CPUs spare at the shadow time */
	uint64_t gextra;         /* EASY: GPUs spare at the shadow time */
	uint64_t fit;            /* jobs wider than this are no-ops to the
				  * walk (list, and EASY after the
				  * reservation: the free CPUs), UINT64_MAX
				  * before; the order may skip them */
	int err;
};

int sim_disp_init(sim_disp_t *d, sim_dispatch_t mode, uint32_t m,
		  size_t njobs)
{
	memset(d, 0, sizeof(*d));
	d->mode = mode;
	d->m = m;
	d->qmin = (uint64_t) m + 1;
	sim_running_init(&d->running);
	d->cap = njobs ? njobs : 1;
	d->starts = malloc(d->cap * sizeof(*d->starts));
	if (!d->starts) {
		sim_disp_free(d);
		return -1;
	}
	return 0;
}

void sim_disp_free(sim_disp_t *d)
{
	sim_running_free(&d->running);
	free(d->qs);
	free(d->starts);
	d->qs = NULL;
	d->nq = d->qcap = 0;
	d->starts = NULL;
}

/* Index of the first entry of d->qs with size >= q. */
static size_t _qfind(const sim_disp_t *d, uint32_t q)
{
	size_t lo = 0, hi = d->nq;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->qs[mid].q < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int sim_disp_pending(sim_disp_t *d, uint32_t q)
{
	size_t at = _qfind(d, q);

	if (at == d->nq || d->qs[at].q != q) {
		sim_qcount_t *nq = ost_grow(d->qs, &d->qcap, d->nq + 1,
					    sizeof(*nq), 16);

		if (!nq)
			return -1;
		d->qs = nq;
		memmove(&d->qs[at + 1], &d->qs[at],
			(d->nq - at) * sizeof(*d->qs));
		d->qs[at] = (sim_qcount_t) { .q = q, .n = 0 };
		d->nq++;
	}
	d->qs[at].n++;
	d->pending++;
	d->qmin = d->qs[0].q;
	return 0;
}

/* A pending job of q CPUs started: keep the counts and qmin. */
static void _pending_gone(sim_disp_t *d, uint32_t q)
{
	size_t at = _qfind(d, q);

	d->pending--;
	if (at == d->nq || d->qs[at].q != q)
		return;		/* never counted: nothing to undo */
	if (!--d->qs[at].n) {
		memmove(&d->qs[at], &d->qs[at + 1],
			(d->nq - at - 1) * sizeof(*d->qs));
		d->nq--;
	}
	d->qmin = d->nq ? d->qs[0].q : (uint64_t) d->m + 1;
}

/* Job's CPUs and GPUs are both idle now. */
static inline bool _fits(const struct walk *w, const sim_job_t *j)
{
	return j->procs <= w->free && j->gpus <= w->gfree;
}

/* EASY: job may take the spare CPUs and GPUs past the shadow time. */
static inline bool _fits_extra(const struct walk *w, const sim_job_t *j)
{
	return j->procs <= w->extra && j->gpus <= w->gextra;
}

/* Start job now: it holds its CPUs and GPUs until start + estimate for
 * EASY.  RET: 0, or -1 (memory short; the walk stops). */
static int _start(struct walk *w, uint32_t job)
{
	const sim_job_t *j = &w->jobs[job];
	sim_disp_t *d = w->d;
	sim_run_t run = {
		.est_end = w->now + j->estimate, .job = job, .procs = j->procs,
		.gpus = j->gpus,
	};

	if (sim_running_add(&d->running, run)) {
		w->err = -1;
		return -1;
	}
	d->starts[d->nstarts++] = job;
	w->free -= j->procs;
	w->gfree -= j->gpus;
	_pending_gone(d, j->procs);
	if (d->index)
		sim_pendidx_del(d->index, job);
	return 0;
}

/*
 * EASY, after the reservation: may a pending job still be backfilled?
 * A job j passes the walk's test iff
 *	q_j <= free  and  (now + e_j <= shadow  or  q_j <= extra),
 * i.e. iff q_j <= min(free, extra), or q_j <= free among the jobs with
 * now + e_j <= shadow.  During a walk the shadow is fixed and free and
 * extra only shrink, so a job the walk passed without starting fails
 * the test for good: if no pending job passes it now, no job later in
 * the order does, and stopping here starts exactly the same jobs.
 * Cost O(log n) (qmin, then one pendidx query; the cut by estimate is
 * found once per walk), whatever the queue.  The test is on CPUs only:
 * a job that passes the full test (GPUs too, §20) passes it, so a false
 * answer still means that nothing can be backfilled.
 */
static bool _backfill_left(const struct walk *w)
{
	const sim_disp_t *d = w->d;
	uint64_t small = w->free < w->extra ? w->free : w->extra;

	if (d->qmin <= small)
		return true;
	return sim_pendidx_min_procs(d->index, w->cut) <= w->free;
}

/* Start job, which passes the backfill test: a job that ends by the
 * shadow time needs nothing more, another one takes extra CPUs.
 * RET: 0, or -1 (memory short). */
static int _backfill_start(struct walk *w, uint32_t job)
{
	const sim_job_t *j = &w->jobs[job];

	if (!(w->now + j->estimate <= w->shadow)) {
		w->extra -= j->procs;
		w->gextra -= j->gpus;
	}
	return _start(w, job);
}

/*
 * EASY after the reservation, with few backfill candidates: start them
 * without walking.  The walk starts, each time, the first job in the
 * order that passes the test with the current free and extra (a job it
 * passed fails it for good, _backfill_left); the candidates now are the
 * pending jobs passing it, which pendidx lists, and the test only gets
 * stricter, so no other job can become one.  Repeatedly starting the
 * candidate first in the order (sim_order_pos) that still passes gives
 * the same starts in the same sequence.  pendidx knows CPUs only, so
 * its list may hold jobs whose GPUs are not free: the choice below
 * applies the full test.
 * Cost O(FEW log n) to list them, O(FEW) order keys (O(log n) each for
 * the engine), O(FEW^2) to choose: no term in the queue length.
 * RET: 1 when done (stop the walk), 0 when there are more than FEW
 * candidates (keep walking), -1 when memory is short.
 */
static int _backfill_few(struct walk *w)
{
	sim_disp_t *d = w->d;
	uint32_t cand[FEW], a = (uint32_t) (w->free < w->extra ? w->free
								 : w->extra);
	sim_order_pos_t pos[FEW];
	size_t k = sim_pendidx_collect(d->index, w->cut, a,
				       (uint32_t) w->free, cand, FEW);

	if (k == FEW)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (sim_order_pos(w->o, w->now, cand[i], &pos[i]))
			return 0;
	for (;;) {
		size_t best = k;

		for (size_t i = 0; i < k; i++) {
			const sim_job_t *j = &w->jobs[cand[i]];

			if (cand[i] == UINT32_MAX || !_fits(w, j) ||
			    (!(w->now + j->estimate <= w->shadow) &&
			     !_fits_extra(w, j)))
				continue;
			if (best == k || sim_order_pos_less(&pos[i], &pos[best]))
				best = i;
		}
		if (best == k)
			return 1;
		if (_backfill_start(w, cand[best]))
			return -1;
		cand[best] = UINT32_MAX;
	}
}

/* Backfill job (EASY, after the reservation).  RET: non-zero to stop
 * the walk: memory short, nothing left to backfill, or the rest started
 * by _backfill_few. */
static int _backfill(struct walk *w, uint32_t job)
{
	if (_backfill_start(w, job))
		return -1;
	if (!w->d->index)
		return 0;
	return !_backfill_left(w) || _backfill_few(w);
}

/* One job of the walk, in priority order (see sim_disp_run).
 * RET: non-zero to stop the walk. */
static int _visit_one(uint32_t job, bool eligible, void *arg)
{
	struct walk *w = arg;
	sim_disp_t *d = w->d;
	const sim_job_t *j = &w->jobs[job];

	if (w->free < d->qmin)
		return 1;
	if (!eligible) {
		d->held = true;
		return 1;
	}
	if (!w->blocked) {
		sim_res_t x;

		if (_fits(w, j))
			return _start(w, job);
		if (d->mode == SIM_DISPATCH_STRICT)
			return 1;
		if (d->mode == SIM_DISPATCH_LIST)
			return 0;
		w->shadow = sim_running_shadow_res(&d->running, w->now,
			(sim_res_t) { w->free, w->gfree },
			(sim_res_t) { j->procs, j->gpus }, &x);
		w->extra = x.procs;
		w->gextra = x.gpus;
		w->blocked = true;
		if (!d->index)
			return 0;
		w->cut = sim_pendidx_cut(d->index, w->now, w->shadow);
		return !_backfill_left(w) || _backfill_few(w);
	}
	if (!_fits(w, j))
		return 0;
	if (w->now + j->estimate <= w->shadow || _fits_extra(w, j))
		return _backfill(w, job);
	return 0;
}

/* _visit_one, then tell the order which jobs the walk ignores from now:
 * those wider than the free CPUs once a job that does not fit no longer
 * blocks (list) or has its reservation (EASY), since free only falls. */
static int _visit(uint32_t job, bool eligible, void *arg)
{
	struct walk *w = arg;
	int rc = _visit_one(job, eligible, arg);

	if (w->blocked || w->d->mode == SIM_DISPATCH_LIST)
		w->fit = w->free;
	return rc;
}

/*
 * Cost of one EASY run with the index, s jobs started, n jobs in the
 * workload, U users waiting (fairshare):
 *	phase 1 (in order until the first job that does not fit):
 *		O(s1 + 1) visits, one shadow time O(k) over the running jobs
 *		ending first (k <= m, not the queue);
 *	reservation: cut by binary search O(log n), stop test O(log n);
 *	backfill: if fewer than FEW candidates, O(FEW log n + FEW^2)
 *		in all; else the walk goes on to the next start, with the
 *		stop test O(log n) after each start and fcfs and fairshare
 *		jumping over wide jobs in O(log n).
 * fairshare adds O(U) to build its merge (U users, not jobs).  The one
 * term that can still grow with the queue is the walk to a backfill
 * start when FEW or more jobs pass the test, and for the engine order
 * (opaque here) the jobs wider than the free CPUs on that way.
 */
int sim_disp_run(sim_disp_t *d, sim_order_t *o, const sim_job_t *jobs,
		 double now)
{
	struct walk w = {
		.d = d, .o = o, .jobs = jobs, .now = now,
		.free = d->m - d->running.busy,
		.gfree = d->gpus - d->running.gbusy, .fit = UINT64_MAX,
	};

	d->nstarts = 0;
	d->held = false;
	if (!d->pending || w.free < d->qmin)
		return 0;
	if (sim_order_walk(o, now, _visit, &w, &w.fit) < 0 || w.err)
		return -1;
	return 0;
}

int sim_disp_finish(sim_disp_t *d, const sim_job_t *jobs, uint32_t job)
{
	return sim_running_del(&d->running, jobs[job].start + jobs[job].estimate,
			       job);
}
