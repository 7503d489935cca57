/*****************************************************************************\
 *  bench_engine.c - part 1 of `make bench`: the cost of one scheduling
 *  pass of the core engine against the recompute-everything baseline
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  For N pending jobs of K users (N = 10k, 100k, 1M; K = 10, 1k, 10k) one
 *  "pass" is what sched/ostrich does every cycle: apply the events since
 *  the last cycle, then walk ost_sched_foreach_pending() storing each
 *  job's rank in an array.  A batch is 1% of N events: a third finishes of
 *  random running jobs, a third starts of the top-ranked pending jobs, a
 *  third submissions (uniform user, e log-uniform 1 min .. 1 day, q a power
 *  of 2 up to 32), all at one instant, 30 s after the previous batch; the
 *  pending count stays N.  Campaigns: grouped by think time (600 s), as
 *  the plugin does, or (stress case) explicit campaigns of 100 jobs, so
 *  that a user has many campaigns queued behind each other.  The same batches go to
 *  the baseline (naive.c), whose ranks are checked equal to the engine's
 *  after every pass (untimed).  Time: CLOCK_MONOTONIC, median over the
 *  batches after one warm-up batch.
 *
 *  Output: markdown tables on stdout, progress on stderr.
\*****************************************************************************/

#define _GNU_SOURCE

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ostrich.h"
#include "benchutil.h"
#include "naive.h"

#define JOBS_PER_CAMPAIGN 100
#define BATCH_GAP 30.0		/* s between passes */
#define LOAD_SPAN 3600.0	/* s over which the initial jobs arrive */
#define LOAD_SLOTS 360.0	/* distinct submit instants among them */

enum ev_kind { EV_FINISH, EV_SUBMIT, EV_START };

struct ev {
	enum ev_kind kind;
	uint64_t id;
	double p;		/* runtime, s (finish) */
};

/* The synthetic cluster both implementations are fed. */
struct world {
	size_t n;		/* pending jobs to keep */
	uint32_t k;		/* users */
	bool explicit_camps;	/* campaigns of JOBS_PER_CAMPAIGN jobs */
	uint32_t m;		/* CPUs */
	uint64_t rng;
	double t;		/* clock of the next batch, s */
	uint64_t next_id;	/* next id to submit (ids from 1) */
	size_t max_jobs;	/* ids available */
	uint32_t *ucount;	/* jobs submitted per user */
	uint32_t *q;		/* per id - 1 */
	double *e;		/* per id - 1, s */
	uint32_t *uid;		/* per id - 1 */
	uint32_t *camp;		/* per id - 1 */
	uint64_t *running;	/* ids of running jobs, unordered */
	size_t nrun;
	ost_sched_t *eng;
	naive_t *nv;
	uint64_t *rank_e, *rank_n;	/* per id - 1 */
	const uint32_t *order;	/* naive's last order (id - 1) */
	long npend;		/* its length */
	struct ev *evs;
	size_t nevs;
};

/* One row of the pass table. */
struct row {
	size_t n;
	uint32_t k;
	bool explicit_camps;
	uint64_t campaigns;
	size_t batch;
	double eng_ev, eng_pass, eng_total;	/* medians, s */
	double nv_ev, nv_pass, nv_total;	/* medians, s */
	int eng_reps, nv_reps;
	double rate_submit, rate_start, rate_finish;	/* events/s */
	double mem_eng_heap, mem_eng_peak, mem_nv_heap;	/* bytes per job */
};

/* Print what and exit(1): the benchmark has no partial result. */
static void _die(const char *what)
{
	fprintf(stderr, "bench-engine: %s\n", what);
	exit(1);
}

/* Draw a new job's owner, CPUs, estimate and campaign for id. */
static void _draw_job(struct world *w, uint64_t id)
{
	size_t i = id - 1;
	uint32_t u = (uint32_t)(bench_rand(&w->rng) % w->k);
	double x = bench_uniform(&w->rng);

	w->uid[i] = u;
	w->q[i] = 1u << (bench_rand(&w->rng) % 6);
	w->e[i] = 60.0 * ceil(exp(x * log(1440.0)));
	w->camp[i] = w->explicit_camps ?
		     1 + w->ucount[u]++ / JOBS_PER_CAMPAIGN : 0;
}

/* Submit job id (drawn by _draw_job) to engine s at t (s).  Returns
 * 0 or a negative OST_E* code. */
static int _submit_to(struct world *w, ost_sched_t *s, uint64_t id, double t)
{
	ost_job_desc_t d = {
		.id = id, .uid = w->uid[id - 1], .procs = w->q[id - 1],
		.estimate = w->e[id - 1], .campaign = w->camp[id - 1],
	};

	return ost_job_submit(s, &d, t, NULL);
}

/* The same to w's engine. */
static int _eng_submit(struct world *w, uint64_t id, double t)
{
	return _submit_to(w, w->eng, id, t);
}

/* The same submission to the baseline.  Returns 0 or -1. */
static int _nv_submit(struct world *w, uint64_t id, double t)
{
	size_t i = id - 1;

	return naive_submit(w->nv, id, w->uid[i], w->q[i], w->e[i],
			    w->camp[i], t);
}

/* ost_rank_visit_f: rank[id - 1] = rank, what the plugin's pass does
 * (it sets each job's priority from its rank).  Never stops the walk. */
static int _store_rank(const ost_rank_info_t *r, void *arg)
{
	uint64_t *rank = arg;

	rank[r->job_id - 1] = r->rank;
	return 0;
}

/* Apply evs to engine s at t.  Returns 0 or the first error. */
static int _apply_to(struct world *w, ost_sched_t *s, double t)
{
	int rc = 0;

	for (size_t i = 0; i < w->nevs && !rc; i++) {
		const struct ev *v = &w->evs[i];

		if (v->kind == EV_SUBMIT)
			rc = _submit_to(w, s, v->id, t);
		else if (v->kind == EV_START)
			rc = ost_job_start(s, v->id, t);
		else
			rc = ost_job_finish(s, v->id, t, v->p);
		if (rc)
			fprintf(stderr, "bench-engine: event %d on job %llu: "
				"%s\n", (int)v->kind,
				(unsigned long long)v->id, ost_strerror(rc));
	}
	return rc;
}

/* Apply evs to w's engine at t. */
static int _eng_apply(struct world *w, double t)
{
	return _apply_to(w, w->eng, t);
}

/* Apply evs to the baseline at t.  Returns 0 or -1. */
static int _nv_apply(struct world *w, double t)
{
	int rc = 0;

	for (size_t i = 0; i < w->nevs && !rc; i++) {
		const struct ev *v = &w->evs[i];

		if (v->kind == EV_SUBMIT)
			rc = _nv_submit(w, v->id, t);
		else if (v->kind == EV_START)
			rc = naive_start(w->nv, v->id, t);
		else
			rc = naive_finish(w->nv, v->id, t, v->p);
	}
	return rc;
}

/* Both implementations rank every pending job the same. */
static void _check_ranks(struct world *w)
{
	ost_stats_t st;

	ost_sched_stats(w->eng, &st);
	if (st.pending != (uint64_t)w->npend)
		_die("engine and baseline disagree on the pending count");
	for (long i = 0; i < w->npend; i++)
		if (w->rank_e[w->order[i]] != (uint64_t)i + 1)
			_die("engine and baseline ranks differ");
}

/*
 * The next batch: nb/3 finishes of random running jobs (p = e * U[0.05,1)),
 * nb/3 starts of the top of the last order, the rest submissions.
 */
static void _make_batch(struct world *w, size_t nb)
{
	size_t nf = nb / 3, ns = nb / 3, nsub = nb - nf - ns;

	w->nevs = 0;
	for (size_t i = 0; i < nf && w->nrun; i++) {
		size_t r = bench_rand(&w->rng) % w->nrun;
		uint64_t id = w->running[r];
		double p = w->e[id - 1] * (0.05 + 0.95 *
					   bench_uniform(&w->rng));

		w->running[r] = w->running[--w->nrun];
		w->evs[w->nevs++] = (struct ev){ EV_FINISH, id, p };
	}
	for (size_t i = 0; i < nsub; i++) {
		uint64_t id = w->next_id++;

		if (id > w->max_jobs)
			_die("id space exhausted");
		_draw_job(w, id);
		w->evs[w->nevs++] = (struct ev){ EV_SUBMIT, id, 0.0 };
	}
	for (size_t i = 0; i < ns && (long)i < w->npend; i++) {
		uint64_t id = (uint64_t)w->order[i] + 1;

		w->running[w->nrun++] = id;
		w->evs[w->nevs++] = (struct ev){ EV_START, id, 0.0 };
	}
}

/* Fill w with n + n/20 jobs over LOAD_SPAN, then start the top n/20. */
static void _load(struct world *w)
{
	size_t r0 = w->n / 20, total = w->n + r0;

	for (size_t i = 0; i < total; i++) {
		uint64_t id = w->next_id++;
		double t = floor(LOAD_SLOTS * (double)i / (double)total) *
			   (LOAD_SPAN / LOAD_SLOTS);

		_draw_job(w, id);
		if (_eng_submit(w, id, t) || _nv_submit(w, id, t))
			_die("initial submission refused");
	}
	w->t = LOAD_SPAN;
	if (ost_sched_foreach_pending(w->eng, _store_rank, w->rank_e) ||
	    (w->npend = naive_pass(w->nv, w->rank_n, &w->order)) < 0)
		_die("initial pass failed");
	_check_ranks(w);
	w->nevs = 0;
	for (size_t i = 0; i < r0; i++) {
		uint64_t id = (uint64_t)w->order[i] + 1;

		w->running[w->nrun++] = id;
		w->evs[w->nevs++] = (struct ev){ EV_START, id, 0.0 };
	}
	if (_eng_apply(w, w->t) || _nv_apply(w, w->t))
		_die("initial starts refused");
	if (ost_sched_foreach_pending(w->eng, _store_rank, w->rank_e) ||
	    (w->npend = naive_pass(w->nv, w->rank_n, &w->order)) < 0)
		_die("initial pass failed");
	_check_ranks(w);
}

/* Arrays of w for n pending jobs of k users, `batches` timed batches and
 * `extra` stream jobs; the engine and baseline are created by the caller.
 * m = 10 CPUs per initially running job (n / 20 of them). */
static void _world_init(struct world *w, size_t n, uint32_t k, bool expl,
			int batches, size_t extra)
{
	size_t nb = n / 100 < 3 ? 3 : n / 100;

	memset(w, 0, sizeof(*w));
	w->n = n;
	w->k = k;
	w->explicit_camps = expl;
	w->m = (uint32_t)(n / 20 * 10);
	w->rng = 0x5eed0000ULL + n + k;
	w->next_id = 1;
	w->max_jobs = n + n / 20 + (size_t)(batches + 1) * nb + extra + 1;
	w->ucount = calloc(k, sizeof(*w->ucount));
	w->q = malloc(w->max_jobs * sizeof(*w->q));
	w->e = malloc(w->max_jobs * sizeof(*w->e));
	w->uid = malloc(w->max_jobs * sizeof(*w->uid));
	w->camp = malloc(w->max_jobs * sizeof(*w->camp));
	w->running = malloc(w->max_jobs * sizeof(*w->running));
	w->rank_e = calloc(w->max_jobs, sizeof(*w->rank_e));
	w->rank_n = calloc(w->max_jobs, sizeof(*w->rank_n));
	w->evs = malloc((n / 20 + nb + extra + 1) * sizeof(*w->evs));
	if (!w->ucount || !w->q || !w->e || !w->uid || !w->camp ||
	    !w->running || !w->rank_e || !w->rank_n || !w->evs)
		_die("out of memory");
}

/* Free everything w holds (not w). */
static void _world_free(struct world *w)
{
	ost_sched_destroy(w->eng);
	naive_destroy(w->nv);
	free(w->ucount);
	free(w->q);
	free(w->e);
	free(w->uid);
	free(w->camp);
	free(w->running);
	free(w->rank_e);
	free(w->rank_n);
	free(w->evs);
}

/* A new engine with the defaults of doc/semantics.md (capacity used, gate soft,
 * intra lpt, think time 600 s) for m CPUs; exits on failure. */
static ost_sched_t *_engine(uint32_t m)
{
	ost_config_t cfg;
	ost_sched_t *s;

	ost_config_init(&cfg);
	cfg.procs = m;
	if (!(s = ost_sched_create(&cfg)))
		_die("cannot create the engine");
	return s;
}

/* Timed batches: engine then baseline on the same events. */
static void _passes(struct world *w, int batches, struct row *row)
{
	size_t nb = w->n / 100 < 3 ? 3 : w->n / 100;
	double *v = malloc(6 * (size_t)batches * sizeof(*v));
	double *ee = v, *ep = v + batches, *et = v + 2 * batches;
	double *ne = v + 3 * batches, *np = v + 4 * batches,
	       *nt = v + 5 * batches;

	if (!v)
		_die("out of memory");
	for (int b = -1; b < batches; b++) {
		double t0, t1, t2, t3, t4, t5;

		w->t += BATCH_GAP;
		_make_batch(w, nb);
		t0 = bench_now();
		if (_eng_apply(w, w->t))
			_die("engine refused an event");
		t1 = bench_now();
		ost_sched_foreach_pending(w->eng, _store_rank, w->rank_e);
		t2 = bench_now();
		t3 = bench_now();
		if (_nv_apply(w, w->t))
			_die("baseline refused an event");
		t4 = bench_now();
		if ((w->npend = naive_pass(w->nv, w->rank_n, &w->order)) < 0)
			_die("out of memory in the baseline");
		t5 = bench_now();
		_check_ranks(w);
		if (b < 0)
			continue;
		ee[b] = t1 - t0, ep[b] = t2 - t1, et[b] = t2 - t0;
		ne[b] = t4 - t3, np[b] = t5 - t4, nt[b] = t5 - t3;
	}
	row->batch = nb;
	row->eng_reps = row->nv_reps = batches;
	row->eng_ev = bench_median(ee, batches);
	row->eng_pass = bench_median(ep, batches);
	row->eng_total = bench_median(et, batches);
	row->nv_ev = bench_median(ne, batches);
	row->nv_pass = bench_median(np, batches);
	row->nv_total = bench_median(nt, batches);
	free(v);
}

/*
 * Event streams on the engine alone: s submissions, then their starts,
 * then their finishes, each event 1 ms after the previous one.  Rates in
 * events/s, median of 3 rounds.
 */
static void _streams(struct world *w, size_t s, struct row *row)
{
	double rs[3], rt[3], rf[3];

	for (int r = 0; r < 3; r++) {
		uint64_t first = w->next_id;
		double t0, t1, t2, t3, t = w->t;

		if (first + s > w->max_jobs)
			_die("id space exhausted");
		for (size_t i = 0; i < s; i++)
			_draw_job(w, first + i);
		w->next_id += s;
		t0 = bench_now();
		for (size_t i = 0; i < s; i++)
			if (_eng_submit(w, first + i, t += 1e-3))
				_die("stream submit refused");
		t1 = bench_now();
		for (size_t i = 0; i < s; i++)
			if (ost_job_start(w->eng, first + i, t += 1e-3))
				_die("stream start refused");
		t2 = bench_now();
		for (size_t i = 0; i < s; i++)
			if (ost_job_finish(w->eng, first + i, t += 1e-3,
					   0.5 * w->e[first + i - 1]))
				_die("stream finish refused");
		t3 = bench_now();
		w->t = t;
		rs[r] = (double)s / (t1 - t0);
		rt[r] = (double)s / (t2 - t1);
		rf[r] = (double)s / (t3 - t2);
	}
	row->rate_submit = bench_median(rs, 3);
	row->rate_start = bench_median(rt, 3);
	row->rate_finish = bench_median(rf, 3);
}

/*
 * Memory per pending job (the --memory mode, run in a fresh process so
 * that no freed memory of earlier runs is reused): malloc's bytes in use
 * (mallinfo2) after submitting n jobs, and the peak RSS growth (VmHWM
 * after minus VmRSS before, VmHWM reset first; -1 when the kernel refuses
 * the reset), then the same heap measure for the baseline.  Prints the
 * three numbers (bytes per job) on stdout.  Returns 0, or 1 on failure.
 */
static int _memory_probe(size_t n, uint32_t k, bool expl)
{
	struct world w;
	double out[3] = { -1, -1, -1 };
	size_t h0, r0;
	int hwm;

	_world_init(&w, n, k, expl, 0, 0);
	hwm = bench_reset_hwm();
	h0 = bench_heap_bytes();
	r0 = bench_status_bytes("VmRSS");
	w.eng = _engine(w.m);
	for (uint64_t id = 1; id <= n; id++) {
		_draw_job(&w, id);
		if (_eng_submit(&w, id, (double)(id / 1000)))
			return 1;
	}
	out[0] = (double)(bench_heap_bytes() - h0) / (double)n;
	if (!hwm)
		out[1] = (double)(bench_status_bytes("VmHWM") - r0) / (double)n;
	ost_sched_destroy(w.eng);
	w.eng = NULL;
	h0 = bench_heap_bytes();
	if (!(w.nv = naive_create(w.m, 600.0, n + 1, k)))
		return 1;
	for (uint64_t id = 1; id <= n; id++)
		if (_nv_submit(&w, id, (double)(id / 1000)))
			return 1;
	out[2] = (double)(bench_heap_bytes() - h0) / (double)n;
	printf("%.1f %.1f %.1f\n", out[0], out[1], out[2]);
	_world_free(&w);
	return 0;
}

/* Run _memory_probe() in a fresh copy of this program; -1 when it fails. */
static void _memory(size_t n, uint32_t k, bool expl, struct row *row)
{
	char exe[4096], cmd[4200];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;

	row->mem_eng_heap = row->mem_eng_peak = row->mem_nv_heap = -1;
	if (len <= 0)
		return;
	exe[len] = '\0';
	snprintf(cmd, sizeof(cmd), "'%s' --memory %zu %u %d", exe, n, k,
		 (int)expl);
	if (!(f = popen(cmd, "r")))
		return;
	if (fscanf(f, "%lf %lf %lf", &row->mem_eng_heap, &row->mem_eng_peak,
		   &row->mem_nv_heap) != 3)
		fprintf(stderr, "bench-engine: memory probe failed\n");
	pclose(f);
}

/* Measure one (N, K, campaign shape) configuration into row. */
static void _run(size_t n, uint32_t k, bool expl, struct row *row)
{
	struct world w;
	int batches = n >= 1000000 ? 7 : 21;
	size_t s = n / 10 > 100000 ? 100000 : n / 10;
	ost_stats_t st;
	double t0 = bench_now();

	memset(row, 0, sizeof(*row));
	row->n = n;
	row->k = k;
	row->explicit_camps = expl;
	_world_init(&w, n, k, expl, batches, 3 * s);
	w.eng = _engine(w.m);
	if (!(w.nv = naive_create(w.m, 600.0, w.max_jobs, k)))
		_die("out of memory");
	_load(&w);
	_passes(&w, batches, row);
	ost_sched_stats(w.eng, &st);
	row->campaigns = st.campaigns;
	_streams(&w, s, row);
	_world_free(&w);
	_memory(n, k, expl, row);
	fprintf(stderr, "bench-engine: N=%zu K=%u%s done in %.1f s\n", n, k,
		expl ? " (100-job campaigns)" : "", bench_now() - t0);
}

/* Markdown table of the pass times of the rows of one campaign shape;
 * times in ms, speed-up = baseline pass / engine pass. */
static void _print_passes(const struct row *rows, size_t nrows, bool expl)
{
	printf("| N pending | K users | campaigns | events/batch "
	       "| engine events ms | engine walk ms | **engine pass ms** "
	       "| naive events ms | naive sort ms | naive pass ms "
	       "| **speed-up** |\n"
	       "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		if (r->explicit_camps != expl)
			continue;
		printf("| %zu | %u | %llu | %zu | %.3f | %.3f | **%.3f** "
		       "| %.3f | %.3f | %.2f | **%.1f×** |\n",
		       r->n, r->k, (unsigned long long)r->campaigns, r->batch,
		       r->eng_ev * 1e3, r->eng_pass * 1e3,
		       r->eng_total * 1e3, r->nv_ev * 1e3, r->nv_pass * 1e3,
		       r->nv_total * 1e3, r->nv_total / r->eng_total);
	}
}

/* All part-1 tables in markdown on stdout. */
static void _print(const struct row *rows, size_t nrows)
{
	bool any_expl = false;

	printf("### Engine pass (part 1)\n\n"
	       "One pass = apply a batch of events (1%% of N: finishes, "
	       "starts, submissions, one third each, at one instant) + walk "
	       "ost_sched_foreach_pending() storing every rank in an array, "
	       "as sched/ostrich does each cycle. Baseline = bench/naive.c: "
	       "same events, then C~ of every campaign by a forward fluid "
	       "simulation and qsort of all pending jobs; its ranks are "
	       "checked identical to the engine's after every pass. Median "
	       "of 21 batches (7 at N = 1M) after one warm-up. Campaigns "
	       "grouped by think time (600 s), as the plugin does.\n\n");
	_print_passes(rows, nrows, false);
	for (size_t i = 0; i < nrows; i++)
		any_expl |= rows[i].explicit_camps;
	if (any_expl) {
		printf("\nStress case: explicit campaigns of 100 jobs, so "
		       "each user has many campaigns queued one behind the "
		       "other and a finish moves the tags of all the later "
		       "ones (§3); the engine re-derives them once, at the "
		       "walk, not at each event (doc/design.md).\n\n");
		_print_passes(rows, nrows, true);
	}
	printf("\n### Engine events/s and memory per pending job\n\n"
	       "Streams of N/10 (at most 100k) submissions, then their "
	       "starts, then their finishes, 1 ms apart, on the state above "
	       "(median of 3). Memory, in a fresh process: malloc bytes in "
	       "use (mallinfo2) after submitting N jobs, divided by N, and "
	       "peak RSS growth (VmHWM after - VmRSS before) / N.\n\n"
	       "| N pending | K users | campaigns | submit/s | start/s "
	       "| finish/s | engine B/job (heap) | engine B/job (peak RSS) "
	       "| naive B/job (heap) |\n"
	       "|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		printf("| %zu | %u | %s | %.3g | %.3g | %.3g | %.0f | %.0f "
		       "| %.0f |\n", r->n, r->k,
		       r->explicit_camps ? "100-job" : "think time",
		       r->rate_submit, r->rate_start, r->rate_finish,
		       r->mem_eng_heap, r->mem_eng_peak, r->mem_nv_heap);
	}
}

/* The stress-case target: every 100k row with 100-job campaigns >= 5x
 * the baseline, and the engine's heap bytes per pending job there. */
static void _targets_stress(const struct row *rows, size_t nrows)
{
	double worst = -1, mem = -1;
	uint32_t worst_k = 0;

	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double sp = r->nv_total / r->eng_total;

		if (!r->explicit_camps || r->n != 100000)
			continue;
		if (worst < 0 || sp < worst) {
			worst = sp;
			worst_k = r->k;
		}
		if (r->mem_eng_heap > mem)
			mem = r->mem_eng_heap;
	}
	if (worst < 0)
		return;
	printf("\nTargets (stress rows, 100-job campaigns):\n\n"
	       "- >= 5x faster than the baseline at 100k for every K: worst "
	       "%.1fx (K = %u), **%s**\n"
	       "- engine memory per pending job at 100k (most of the three "
	       "K): %.0f B (heap)\n", worst, worst_k,
	       worst >= 5 ? "met" : "missed", mem);
}

/* The engine-pass targets, judged on the think-time grouping rows. */
static void _targets(const struct row *rows, size_t nrows)
{
	double at100k1k = -1, worst1m = -1, worst_speedup = -1;

	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		double sp = r->nv_total / r->eng_total;

		if (r->explicit_camps)
			continue;
		if (r->n == 100000 && r->k == 1000)
			at100k1k = r->eng_total;
		if (r->n == 1000000 && r->eng_total > worst1m)
			worst1m = r->eng_total;
		if (r->n == 100000 && (worst_speedup < 0 || sp < worst_speedup))
			worst_speedup = sp;
	}
	printf("\nTargets (think-time rows):\n\n");
	if (at100k1k >= 0)
		printf("- pass for 100k jobs / 1k users <= 2 ms: %.3f ms, "
		       "**%s**\n", at100k1k * 1e3,
		       at100k1k <= 2e-3 ? "met" : "missed");
	if (worst1m >= 0)
		printf("- pass for 1M jobs <= 30 ms (worst K): %.2f ms, "
		       "**%s**\n", worst1m * 1e3,
		       worst1m <= 30e-3 ? "met" : "missed");
	if (worst_speedup >= 0)
		printf("- >= 5x faster than the baseline at 100k (worst K): "
		       "%.1fx, **%s**\n", worst_speedup,
		       worst_speedup >= 5 ? "met" : "missed");
	_targets_stress(rows, nrows);
}

/*
 * §21's cost: 100k pending jobs of 1,000 users in 100 accounts on three
 * levels (10 accounts of 10 sub-accounts of 10 users, shares 1..3), the
 * same batches as above (think-time grouping) applied to the flat engine
 * (Hierarchy=users) and to the nested one, each followed by its walk;
 * the starts take the top of the flat order, so both see the very same
 * events.  Ratio = median nested pass / median flat pass, same run.
 * The rules' row (§24, §27: what the rules cost) is the same with the engine
 * of Gate=none, Lead=cap and Overdue=restart in place of the nested one.
 */
#define ACC_TOP 10
#define ACC_SUB 10

/* ost_rank_visit_f: order[rank - 1] = id - 1 (the flat order). */
static int _store_order(const ost_rank_info_t *r, void *arg)
{
	uint32_t *order = arg;

	order[r->rank - 1] = (uint32_t)(r->job_id - 1);
	return 0;
}

static ost_sched_t *_nested(uint32_t m, uint32_t k)
{
	ost_config_t cfg;
	ost_sched_t *s;

	ost_config_init(&cfg);
	cfg.procs = m;
	cfg.hierarchy = OST_HIER_ACCOUNTS;
	if (!(s = ost_sched_create(&cfg)))
		_die("cannot create the engine");
	for (uint32_t a = 1; a <= ACC_TOP; a++) {
		if (ost_acct_declare(s, a, 0, 1 + a % 3, 0))
			_die("declare");
		for (uint32_t b = 0; b < ACC_SUB; b++)
			if (ost_acct_declare(s, 100 * a + b, a, 1 + b % 3, 0))
				_die("declare");
	}
	for (uint32_t u = 0; u < k; u++) {
		uint32_t leaf = u % (ACC_TOP * ACC_SUB);

		if (ost_user_set_account(s, u, 100 * (1 + leaf / ACC_SUB) +
					 leaf % ACC_SUB, 0) ||
		    ost_user_set_weight(s, u, 1 + u % 2, 0))
			_die("user account");
	}
	return s;
}

/* §24 and §27 together: Gate=none, Lead=cap, Overdue=restart. */
static ost_sched_t *_rules(uint32_t m, uint32_t k)
{
	ost_config_t cfg;
	ost_sched_t *s;

	(void)k;
	ost_config_init(&cfg);
	cfg.procs = m;
	cfg.gate = OST_GATE_NONE;
	cfg.lead = OST_LEAD_CAP;
	cfg.overdue = OST_OVERDUE_RESTART;
	if (!(s = ost_sched_create(&cfg)))
		_die("cannot create the engine");
	return s;
}

/* One flat or nested pass: apply, walk; its wall and CPU times in s
 * (CPU: the machine may be shared, and a pass descheduled half-way
 * would count the other programs' time). */
static void _timed_pass(struct world *w, ost_sched_t *s, double t,
			double *wall, double *cpu)
{
	double t0 = bench_now(), c0 = bench_cpu();

	if (_apply_to(w, s, t))
		_die("an engine refused an event");
	ost_sched_foreach_pending(s, _store_rank, w->rank_e);
	*cpu = bench_cpu() - c0;
	*wall = bench_now() - t0;
}

/* The other engine of a paired row, what its table says and its target
 * on the CPU ratio (other / default, same run, same events). */
struct pair {
	ost_sched_t *(*make)(uint32_t m, uint32_t k);
	const char *title;	/* the table's heading */
	const char *what;	/* its column's name */
	double target;
};

static const struct pair PAIR_ACCOUNTS = {
	_nested, "Accounts (§21): nested against flat pass", "nested", 1.5
};
static const struct pair PAIR_RULES = {
	_rules, "Gate=none, Lead=cap, Overdue=restart (§24, §27) against "
		"the defaults", "rules", 1.1
};

static void _pair_row(const struct pair *pr)
{
	const size_t n = 100000;
	const uint32_t k = 1000;
	const int batches = 41;
	size_t nb = n / 100, total = n + n / 20;
	struct world w;
	ost_sched_t *nested;
	uint32_t *order;
	double *fl, *ne, *fc, *nc, flat, nest, fcpu, ncpu, x, y;
	ost_stats_t a, b;

	_world_init(&w, n, k, false, batches, 0);
	w.eng = _engine(w.m);
	nested = pr->make(w.m, k);
	order = malloc(w.max_jobs * sizeof(*order));
	fl = malloc(4 * (size_t)batches * sizeof(*fl));
	if (!order || !fl)
		_die("out of memory");
	ne = fl + batches;
	fc = fl + 2 * batches;
	nc = fl + 3 * batches;
	for (size_t i = 0; i < total; i++) {
		uint64_t id = w.next_id++;
		double t = floor(LOAD_SLOTS * (double)i / (double)total) *
			   (LOAD_SPAN / LOAD_SLOTS);

		_draw_job(&w, id);
		if (_submit_to(&w, w.eng, id, t) ||
		    _submit_to(&w, nested, id, t))
			_die("initial submission refused");
	}
	w.t = LOAD_SPAN;
	w.order = order;
	w.nevs = 0;
	ost_sched_foreach_pending(w.eng, _store_order, order);
	for (size_t i = 0; i < n / 20; i++) {
		w.running[w.nrun++] = (uint64_t)order[i] + 1;
		w.evs[w.nevs++] = (struct ev){ EV_START, order[i] + 1u, 0 };
	}
	_timed_pass(&w, w.eng, w.t, &x, &y);
	_timed_pass(&w, nested, w.t, &x, &y);
	for (int i = -1; i < batches; i++) {
		ost_sched_stats(w.eng, &a);
		w.npend = (long)a.pending;
		ost_sched_foreach_pending(w.eng, _store_order, order);
		w.t += BATCH_GAP;
		_make_batch(&w, nb);
		_timed_pass(&w, w.eng, w.t, &flat, &fcpu);
		_timed_pass(&w, nested, w.t, &nest, &ncpu);
		if (i >= 0)
			fl[i] = flat, ne[i] = nest, fc[i] = fcpu, nc[i] = ncpu;
	}
	ost_sched_stats(w.eng, &a);
	ost_sched_stats(nested, &b);
	if (a.pending != b.pending || a.running != b.running)
		_die("flat and nested disagree on the pending jobs");
	flat = bench_median(fl, batches);
	nest = bench_median(ne, batches);
	fcpu = bench_median(fc, batches);
	ncpu = bench_median(nc, batches);
	printf("\n### %s\n\n"
	       "%zu pending jobs of %u users (for the nested engine in %d "
	       "accounts on 3 levels, %d accounts of %d sub-accounts), "
	       "think-time campaigns, %zu events a pass; medians over %d "
	       "passes, the same run; CPU = the process's CPU time.\n\n"
	       "| default pass ms | %s pass ms | %s / default "
	       "| default CPU ms | %s CPU ms | %s / default (CPU) |\n"
	       "|---:|---:|---:|---:|---:|---:|\n"
	       "| %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n\n"
	       "- %s pass <= %.1fx the default pass (CPU): %.2fx, **%s**\n",
	       pr->title, n, k, ACC_TOP * ACC_SUB, ACC_TOP, ACC_SUB, nb,
	       batches, pr->what, pr->what, pr->what, pr->what, flat * 1e3,
	       nest * 1e3, nest / flat, fcpu * 1e3, ncpu * 1e3, ncpu / fcpu,
	       pr->what, pr->target, ncpu / fcpu,
	       ncpu / fcpu <= pr->target ? "met" : "missed");
	ost_sched_destroy(nested);
	free(order);
	free(fl);
	_world_free(&w);
}

/*
 * bench-engine [MAX_N [ONLY_K]]: the table for N <= MAX_N (default 1M),
 * all K or only K = ONLY_K.  bench-engine --accounts, --rules: one of the
 * paired rows (nested against flat; §24 + §27 against the defaults).  bench-engine --memory N K EXPLICIT: the
 * memory probe (internal).
 */
int main(int argc, char **argv)
{
	static const size_t ns[] = { 10000, 100000, 1000000 };
	static const uint32_t ks[] = { 10, 1000, 10000 };
	size_t max_n;
	unsigned long only_k;
	struct row rows[12];
	size_t nrows = 0;

	if (argc == 2 && !strcmp(argv[1], "--accounts")) {
		_pair_row(&PAIR_ACCOUNTS);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--rules")) {
		_pair_row(&PAIR_RULES);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "--memory"))
		return _memory_probe(strtoull(argv[2], NULL, 10),
				     (uint32_t)strtoul(argv[3], NULL, 10),
				     atoi(argv[4]) != 0);
	max_n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	only_k = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	if (argc > 3 || !max_n) {
		fprintf(stderr, "usage: bench-engine [MAX_N [ONLY_K]]\n");
		return 2;
	}
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3 && ns[i] <= max_n; j++)
			if (!only_k || only_k == ks[j])
				_run(ns[i], ks[j], false, &rows[nrows++]);
	for (size_t j = 0; j < 3 && 100000 <= max_n; j++)
		if (!only_k || only_k == ks[j])
			_run(100000, ks[j], true, &rows[nrows++]);
	if (!nrows)
		return 2;
	_print(rows, nrows);
	_targets(rows, nrows);
	if (max_n >= 100000 && (!only_k || only_k == 1000)) {
		_pair_row(&PAIR_ACCOUNTS);
		_pair_row(&PAIR_RULES);
	}
	return 0;
}
