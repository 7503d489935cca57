/*****************************************************************************\
 *  bench_sim.c - part 2 of `make bench`: ostrich-sim replay speed
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Replays each workload under every policy x dispatch with the
 *  simulator's own modules (libostsim, what ostrich-sim runs) and times
 *  sim_run() alone (CLOCK_MONOTONIC; the workload is read once, the
 *  metrics are not counted; median of 3 runs, 1 run above 500k jobs).
 *  The baseline is fcfs + easy on the same workload in the same run.
 *  Growth: prefixes of SDSC-BLUE and synthetic workloads of growing size
 *  (time against jobs), and SDSC-BLUE with its arrivals compressed by a
 *  factor (time against queue length: the mean number of waiting jobs,
 *  sum of waits / span, by Little's law, and the largest).  The
 *  end-to-end time of the ostrich-sim command (read + replay + metrics)
 *  is measured for the headline target.  Scale targets: CPU time per
 *  job at f = 1 and f = 0.6 for ostrich and fairshare, and fairshare
 *  against ostrich on every workload of the bench, as ratios of one run
 *  (--only-scale runs this part alone).  Feedback: each trace replayed
 *  with --feedback (doc/semantics.md §16) against the open-loop replay,
 *  same policy, as ratios of one run (target <= 1.5x).
 *
 *  Output: markdown on stdout, plot data (TSV) in the file given by
 *  --data, progress on stderr.
\*****************************************************************************/

#define _GNU_SOURCE

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ostrich.h"
#include "sim.h"
#include "simloop.h"
#include "workload.h"
#include "benchutil.h"

#define NPOL 4
#define NDISP 3

static const sim_policy_t _pols[NPOL] = {
	SIM_POLICY_OSTRICH, SIM_POLICY_FAIRCAMP, SIM_POLICY_FCFS,
	SIM_POLICY_FAIRSHARE,
};
static const sim_dispatch_t _disps[NDISP] = {
	SIM_DISPATCH_EASY, SIM_DISPATCH_LIST, SIM_DISPATCH_STRICT,
};

/* Queue statistics of a finished replay. */
struct qstat {
	double mean;		/* mean waiting jobs (Little) */
	size_t max;		/* most jobs waiting at once */
};

struct cli {
	bool only_scale;	/* the scale targets alone */
	bool only_feedback;	/* the feedback target alone */
	const char *traces;	/* directory of the SWF traces */
	const char *syn[3];	/* synthetic workloads: 10k, 100k, 1M jobs */
	const char *sim;	/* ostrich-sim binary, for end-to-end time */
	FILE *data;		/* plot data */
};

/* ostrich-sim's defaults (main.c) for policy p and dispatch d on w:
 * m from the workload, think time 600 s, fairshare half-life 7 days. */
static void _opts_init(sim_opts_t *o, const sim_workload_t *w,
		       sim_policy_t p, sim_dispatch_t d)
{
	memset(o, 0, sizeof(*o));
	ost_config_init(&o->core);
	o->half_life = 7 * 86400.0;
	o->policy = p;
	o->dispatch = d;
	o->procs = w->procs;
	o->core.procs = w->procs;
}

/* Seconds of one sim_run(), or -1 with a message on stderr. */
static double _replay(sim_workload_t *w, sim_policy_t p, sim_dispatch_t d)
{
	sim_opts_t o;
	char err[256];
	double t0;

	_opts_init(&o, w, p, d);
	t0 = bench_now();
	if (sim_run(w, &o, err, sizeof(err))) {
		fprintf(stderr, "bench-sim: %s/%s: %s\n", sim_policy_name(p),
			sim_dispatch_name(d), err);
		return -1;
	}
	return bench_now() - t0;
}

/* Median of reps replays (reps <= 5). */
static double _timed(sim_workload_t *w, sim_policy_t p, sim_dispatch_t d,
		     int reps)
{
	double v[5];

	for (int i = 0; i < reps; i++)
		if ((v[i] = _replay(w, p, d)) < 0)
			return -1;
	return bench_median(v, (size_t)reps);
}

static int _cmp_ev(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	if (x != y)
		return x < y ? -1 : 1;
	/* starts (negative) before submissions at the same instant */
	return (*(const double *)a > 0) - (*(const double *)b > 0);
}

/* Median of up to 3 replays: one, and two more when it took < 0.5 s. */
static double _timed_auto(sim_workload_t *w, sim_policy_t p,
			  sim_dispatch_t d)
{
	double v[3];

	if ((v[0] = _replay(w, p, d)) < 0 || v[0] >= 0.5)
		return v[0];
	for (int i = 1; i < 3; i++)
		if ((v[i] = _replay(w, p, d)) < 0)
			return -1;
	return bench_median(v, 3);
}

/*
 * Waiting jobs of the last replay of w: mean = sum(start - submit) /
 * (last end - first submit) (Little's law), max by a sweep of the
 * submit (+) and start (-) instants (shifted to be > 0) of the jobs that
 * waited at all.
 */
static struct qstat _queue(const sim_workload_t *w)
{
	struct qstat q = { 0, 0 };
	double *ev = malloc(2 * w->njobs * sizeof(*ev));
	double first = INFINITY, last = -INFINITY, wait = 0;
	size_t cur = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];

		wait += j->start - j->submit;
		first = fmin(first, j->submit);
		last = fmax(last, j->end);
	}
	if (last > first)
		q.mean = wait / (last - first);
	if (!ev)
		return q;
	size_t n = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		if (!(w->jobs[i].start > w->jobs[i].submit))
			continue;
		ev[n++] = w->jobs[i].submit - first + 1.0;
		ev[n++] = -(w->jobs[i].start - first + 1.0);
	}
	qsort(ev, n, sizeof(*ev), _cmp_ev);
	for (size_t i = 0; i < n; i++) {
		cur = ev[i] > 0 ? cur + 1 : cur - 1;
		if (cur > q.max)
			q.max = cur;
	}
	free(ev);
	return q;
}

/* Read the workload at path into *w (SWF or closed loop, m from the
 * file).  Returns 0, or -1 with a message on stderr. */
static int _read(const char *path, sim_workload_t *w)
{
	char err[512];

	memset(w, 0, sizeof(*w));
	if (sim_workload_read(path, 0, false, w, NULL, err, sizeof(err))) {
		fprintf(stderr, "bench-sim: %s: %s\n", path, err);
		return -1;
	}
	return 0;
}

/* Table of every policy x dispatch on w, ratios against fcfs + easy. */
static void _matrix(sim_workload_t *w, const char *name)
{
	double t[NPOL][NDISP], base;

	for (int p = 0; p < NPOL; p++)
		for (int d = 0; d < NDISP; d++) {
			t[p][d] = _timed_auto(w, _pols[p], _disps[d]);
			fprintf(stderr, "bench-sim: %s %s/%s %.3f s\n", name,
				sim_policy_name(_pols[p]),
				sim_dispatch_name(_disps[d]), t[p][d]);
		}
	base = t[2][0];
	printf("\n#### %s: %zu jobs, m = %u, %u users\n\n", name, w->njobs,
	       w->procs, w->nusers);
	printf("| policy | easy s | easy jobs/s | easy × | list s | list × "
	       "| strict s | strict × |\n"
	       "|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int p = 0; p < NPOL; p++) {
		printf("| %s | %.3f | %.3g | %.2f", sim_policy_name(_pols[p]),
		       t[p][0], (double)w->njobs / t[p][0], t[p][0] / base);
		for (int d = 1; d < NDISP; d++)
			printf(" | %.3f | %.2f", t[p][d], t[p][d] / base);
		printf(" |\n");
	}
}

/* Wall seconds of `sim --quiet --policy ostrich path`, median of 3. */
static double _end_to_end(const char *sim, const char *path)
{
	double v[3];

	for (int i = 0; i < 3; i++) {
		double t0 = bench_now();
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return -1;
		if (!pid) {
			execl(sim, sim, "--quiet", "--policy", "ostrich",
			      "--dispatch", "easy", path, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			return -1;
		v[i] = bench_now() - t0;
	}
	return bench_median(v, 3);
}

/* One growth point: seconds per policy (easy) and ostrich's queue. */
struct point {
	double t[NPOL];
	struct qstat q;
};

/* Time every policy with easy dispatch on w and print one table row. */
static struct point _growth_row(sim_workload_t *w, const char *label)
{
	struct point pt;

	for (int p = 0; p < NPOL; p++) {
		pt.t[p] = _timed_auto(w, _pols[p], SIM_DISPATCH_EASY);
		if (p == 0)
			pt.q = _queue(w);
	}
	printf("| %s | %zu | %.1f | %zu | %.3f | %.2f | %.3f | %.3f | %.3f |\n",
	       label, w->njobs, pt.q.mean, pt.q.max, pt.t[0],
	       pt.t[0] / (double)w->njobs * 1e6, pt.t[1], pt.t[2], pt.t[3]);
	return pt;
}

/* Header of the growth tables (times in s, cost in µs per job). */
static void _growth_head(void)
{
	printf("| workload | jobs | mean queue (ostrich) | max queue "
	       "| ostrich s | ostrich µs/job | faircamp s | fcfs s "
	       "| fairshare s |\n"
	       "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

/* Plot data: one line per point, "series x seconds". */
static void _data(FILE *f, const char *series, double x, double s)
{
	if (f)
		fprintf(f, "%s\t%.6g\t%.6g\n", series, x, s);
}

/* The policy x dispatch tables of the three traces, or SKIP lines when
 * they are absent.  Returns 0, or -1 when a trace cannot be read. */
static int _traces(const struct cli *c)
{
	static const char *const names[] = {
		"KTH-SP2-1996-2.1-cln", "HPC2N-2002-2.1-cln",
		"SDSC-BLUE-2000-4.2-cln",
	};
	char path[4096];
	struct stat st;

	if (!c->traces || stat(c->traces, &st) || !S_ISDIR(st.st_mode)) {
		printf("\nSKIP: trace directory %s absent: no trace "
		       "replays (set TRACES=DIR).\n",
		       c->traces ? c->traces : "(none)");
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		sim_workload_t w;

		snprintf(path, sizeof(path), "%s/%s.swf.gz", c->traces,
			 names[i]);
		if (stat(path, &st)) {
			printf("\nSKIP: %s absent.\n", path);
			continue;
		}
		if (_read(path, &w))
			return -1;
		_matrix(&w, names[i]);
		sim_workload_free(&w);
	}
	return 0;
}

/* The SDSC-BLUE target line: read, replay and end-to-end seconds. */
static void _headline(const struct cli *c)
{
	char path[4096];
	sim_workload_t w;
	double rd, rp, e2e = -1;
	struct stat st;

	snprintf(path, sizeof(path), "%s/SDSC-BLUE-2000-4.2-cln.swf.gz",
		 c->traces ? c->traces : ".");
	if (!c->traces || stat(path, &st)) {
		printf("\nSKIP: SDSC-BLUE headline (trace absent).\n");
		return;
	}
	rd = bench_now();
	if (_read(path, &w))
		return;
	rd = bench_now() - rd;
	rp = _timed(&w, SIM_POLICY_OSTRICH, SIM_DISPATCH_EASY, 3);
	if (rp < 0)
		return;
	if (c->sim)
		e2e = _end_to_end(c->sim, path);
	printf("\n#### Headline: SDSC-BLUE, ostrich + easy\n\n"
	       "- read + parse (gzip SWF): %.3f s; replay (sim_run): %.3f s "
	       "(%.3g jobs/s)\n", rd, rp, (double)w.njobs / rp);
	if (e2e >= 0)
		printf("- end to end, `ostrich-sim --quiet --policy ostrich "
		       "--dispatch easy` (read + replay + metrics, median "
		       "of 3): %.3f s\n", e2e);
	printf("- target <= 2 s: **%s**\n",
	       (e2e >= 0 ? e2e : rd + rp) <= 2.0 ? "met" : "missed");
	sim_workload_free(&w);
}

/* Time against jobs: SDSC prefixes and the synthetic sizes. */
static void _growth_jobs(const struct cli *c)
{
	static const size_t pre[] = { 10000, 30000, 100000, 0 };
	char path[4096];
	sim_workload_t w;
	struct stat st;
	struct point pt;

	printf("\n#### Time against the number of jobs (easy dispatch)\n\n"
	       "Prefixes of SDSC-BLUE (the first jobs in submit order) and "
	       "closed-loop synthetic workloads (`ostrich-gen --experiment "
	       "ostrich --users 100`).\n\n");
	_growth_head();
	snprintf(path, sizeof(path), "%s/SDSC-BLUE-2000-4.2-cln.swf.gz",
		 c->traces ? c->traces : ".");
	if (c->traces && !stat(path, &st) && !_read(path, &w)) {
		size_t all = w.njobs;

		for (int i = 0; i < 4; i++) {
			char label[64];

			w.njobs = pre[i] && pre[i] < all ? pre[i] : all;
			snprintf(label, sizeof(label), "SDSC-BLUE %s",
				 pre[i] ? "prefix" : "all");
			pt = _growth_row(&w, label);
			_data(c->data, "sdsc", (double)w.njobs, pt.t[0]);
			_data(c->data, "sdsc-fcfs", (double)w.njobs, pt.t[2]);
		}
		w.njobs = all;
		sim_workload_free(&w);
	}
	for (int i = 0; i < 3; i++) {
		if (!c->syn[i] || _read(c->syn[i], &w))
			continue;
		pt = _growth_row(&w, "synthetic");
		_data(c->data, "synthetic", (double)w.njobs, pt.t[0]);
		_data(c->data, "synthetic-fcfs", (double)w.njobs, pt.t[2]);
		sim_workload_free(&w);
	}
}

/* Time against queue length: SDSC with arrivals compressed by f. */
static void _growth_queue(const struct cli *c)
{
	static const double fs[] = { 1.0, 0.9, 0.8, 0.7, 0.6 };
	char path[4096];
	sim_workload_t w;
	struct stat st;
	double *sub, *rec;

	snprintf(path, sizeof(path), "%s/SDSC-BLUE-2000-4.2-cln.swf.gz",
		 c->traces ? c->traces : ".");
	if (!c->traces || stat(path, &st) || _read(path, &w))
		return;
	printf("\n#### Time against queue length (easy dispatch)\n\n"
	       "SDSC-BLUE with every submit time (and recorded start) "
	       "multiplied by f < 1: same jobs, higher load, longer queues. "
	       "Queue = jobs waiting under ostrich.\n\n");
	_growth_head();
	sub = malloc(w.njobs * sizeof(*sub));
	rec = malloc(w.njobs * sizeof(*rec));
	for (size_t i = 0; sub && rec && i < w.njobs; i++) {
		sub[i] = w.jobs[i].submit;
		rec[i] = w.jobs[i].rec_start;
	}
	for (int k = 0; sub && rec && k < 5; k++) {
		char label[64];
		struct point pt;
		double t0 = sub[0];

		for (size_t i = 0; i < w.njobs; i++) {
			w.jobs[i].submit = t0 + (sub[i] - t0) * fs[k];
			w.jobs[i].rec_start = t0 + (rec[i] - t0) * fs[k];
		}
		snprintf(label, sizeof(label), "SDSC-BLUE f = %.1f", fs[k]);
		pt = _growth_row(&w, label);
		_data(c->data, "queue", pt.q.mean,
		      pt.t[0] / (double)w.njobs * 1e6);
		_data(c->data, "queue-fcfs", pt.q.mean,
		      pt.t[2] / (double)w.njobs * 1e6);
	}
	free(sub);
	free(rec);
	sim_workload_free(&w);
}

/* The policy x dispatch table of the 1M-job synthetic workload. */
static void _synthetic_matrix(const struct cli *c)
{
	sim_workload_t w;

	if (!c->syn[2] || _read(c->syn[2], &w))
		return;
	_matrix(&w, "synthetic 1M (ostrich-gen --users 100, closed loop)");
	sim_workload_free(&w);
}

/* CPU seconds of one sim_run() of w under p + easy, or -1; with the
 * users' feedback (§16, ostrich-sim's default threshold) if fb. */
static double _cpu_replay_fb(sim_workload_t *w, sim_policy_t p, bool fb)
{
	sim_opts_t o;
	char err[256];
	double t0;

	_opts_init(&o, w, p, SIM_DISPATCH_EASY);
	o.feedback = fb;
	o.fb_threshold = 3600;
	t0 = bench_cpu();
	if (sim_run(w, &o, err, sizeof(err))) {
		fprintf(stderr, "bench-sim: %s/easy: %s\n", sim_policy_name(p),
			err);
		return -1;
	}
	return bench_cpu() - t0;
}

/* CPU seconds of one open-loop sim_run() of w under p + easy, or -1. */
static double _cpu_replay(sim_workload_t *w, sim_policy_t p)
{
	return _cpu_replay_fb(w, p, false);
}

/* Arrivals (and recorded starts) of w compressed by f from the first
 * submission, from the saved originals sub and rec. */
static void _compress(sim_workload_t *w, const double *sub,
		      const double *rec, double f)
{
	for (size_t i = 0; i < w->njobs; i++) {
		w->jobs[i].submit = sub[0] + (sub[i] - sub[0]) * f;
		w->jobs[i].rec_start = sub[0] + (rec[i] - sub[0]) * f;
	}
}

#define SCALE_REPS 5

/* Median CPU seconds of ostrich and fairshare (easy) on w, the two
 * policies interleaved so that drift on a shared machine hits both. */
static int _pair(sim_workload_t *w, int reps, double out[2])
{
	double v[2][SCALE_REPS];

	/* fairshare first: w keeps ostrich's schedule for _queue() */
	for (int r = 0; r < reps; r++)
		for (int k = 1; k >= 0; k--)
			if ((v[k][r] = _cpu_replay(w, k ? SIM_POLICY_FAIRSHARE
						     : SIM_POLICY_OSTRICH)) < 0)
				return -1;
	for (int k = 0; k < 2; k++)
		out[k] = bench_median(v[k], (size_t)reps);
	return 0;
}

/* One row of the fairshare / ostrich table (target <= 1.5x). */
static void _pair_row(const char *name, const sim_workload_t *w,
		      const double t[2])
{
	double r = t[1] / t[0];

	printf("| %s | %zu | %.3f | %.3f | %.2f× | ≤ 1.5× | **%s** |\n",
	       name, w->njobs, t[0], t[1], r, r <= 1.5 ? "met" : "missed");
}

/*
 * The scale targets: on SDSC-BLUE, CPU time per job at f = 1 and f = 0.6
 * (arrivals compressed, same jobs, ~100x longer queues) for ostrich and
 * fairshare, target growth <= 2x; and fairshare / ostrich on every
 * workload of the bench, target <= 1.5x.
 */
static void _scale(const struct cli *c)
{
	static const char *const names[] = {
		"KTH-SP2-1996-2.1-cln", "HPC2N-2002-2.1-cln",
		"SDSC-BLUE-2000-4.2-cln",
	};
	double sdsc[2][2] = { { -1, -1 }, { -1, -1 } };
	struct qstat q[2] = { { 0, 0 }, { 0, 0 } };
	size_t njobs = 0;
	sim_workload_t w;
	char path[4096];
	struct stat st;
	double t[2];

	printf("\n#### Scale targets: queue length, and fairshare against "
	       "ostrich\n\n"
	       "CPU time of sim_run() (CLOCK_PROCESS_CPUTIME_ID, so other "
	       "work on the machine counts less than in wall time), easy "
	       "dispatch, ostrich-sim defaults; median of %d runs, ostrich "
	       "and fairshare interleaved. f = 0.6: SDSC-BLUE with its "
	       "arrivals compressed as in the queue-length table.\n\n"
	       "| workload | jobs | ostrich s | fairshare s | fairshare / "
	       "ostrich | target | verdict |\n"
	       "|---|---:|---:|---:|---:|---|---|\n", SCALE_REPS);
	for (int i = 0; c->traces && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s.swf.gz", c->traces,
			 names[i]);
		if (stat(path, &st) || _read(path, &w))
			continue;
		if (!_pair(&w, SCALE_REPS, t))
			_pair_row(names[i], &w, t);
		if (i == 2) {
			double *sub = malloc(w.njobs * sizeof(*sub));
			double *rec = malloc(w.njobs * sizeof(*rec));

			for (size_t j = 0; sub && rec && j < w.njobs; j++) {
				sub[j] = w.jobs[j].submit;
				rec[j] = w.jobs[j].rec_start;
			}
			njobs = w.njobs;
			sdsc[0][0] = t[0];
			sdsc[1][0] = t[1];
			q[0] = _queue(&w);
			if (sub && rec) {
				_compress(&w, sub, rec, 0.6);
				if (!_pair(&w, SCALE_REPS, t)) {
					_pair_row("SDSC-BLUE f = 0.6", &w, t);
					sdsc[0][1] = t[0];
					sdsc[1][1] = t[1];
					q[1] = _queue(&w);
				}
			}
			free(sub);
			free(rec);
		}
		sim_workload_free(&w);
	}
	if (c->syn[2] && !_read(c->syn[2], &w)) {
		if (!_pair(&w, 3, t))
			_pair_row("synthetic 1M (closed loop)", &w, t);
		sim_workload_free(&w);
	}
	if (sdsc[0][1] < 0 || sdsc[1][1] < 0) {
		printf("\nSKIP: SDSC-BLUE absent: no queue-length target.\n");
		return;
	}
	printf("\nSDSC-BLUE, %zu jobs; mean (max) jobs waiting under ostrich: "
	       "%.1f (%zu) at f = 1, %.1f (%zu) at f = 0.6."
	       "\n\n"
	       "| policy | µs/job f = 1 | µs/job f = 0.6 | growth | target "
	       "| verdict |\n|---|---:|---:|---:|---|---|\n",
	       njobs, q[0].mean, q[0].max, q[1].mean, q[1].max);
	for (int k = 0; k < 2; k++) {
		double g = sdsc[k][1] / sdsc[k][0];

		printf("| %s | %.2f | %.2f | %.2f× | ≤ 2× | **%s** |\n",
		       k ? "fairshare" : "ostrich",
		       sdsc[k][0] / (double)njobs * 1e6,
		       sdsc[k][1] / (double)njobs * 1e6, g,
		       g <= 2.0 ? "met" : "missed");
	}
}

/*
 * The feedback target: on each trace, a --feedback replay against the
 * open-loop one, for ostrich and fairshare (easy), median of SCALE_REPS
 * runs of each, the two modes interleaved; target <= 1.5x.
 */
static void _feedback(const struct cli *c)
{
	static const char *const names[] = {
		"KTH-SP2-1996-2.1-cln", "HPC2N-2002-2.1-cln",
		"SDSC-BLUE-2000-4.2-cln",
	};
	static const sim_policy_t pols[] = {
		SIM_POLICY_OSTRICH, SIM_POLICY_FAIRSHARE,
	};
	sim_workload_t w;
	char path[4096];
	struct stat st;

	printf("\n#### Feedback against open loop\n\n"
	       "CPU time of sim_run() with --feedback (threshold 3600 s, "
	       "doc/semantics.md §16) over the open-loop replay of the same "
	       "trace and policy, easy dispatch; median of %d runs, the two "
	       "interleaved.\n\n"
	       "| trace | policy | open s | feedback s | feedback / open "
	       "| target | verdict |\n|---|---|---:|---:|---:|---|---|\n",
	       SCALE_REPS);
	for (int i = 0; c->traces && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s.swf.gz", c->traces,
			 names[i]);
		if (stat(path, &st) || _read(path, &w))
			continue;
		for (int k = 0; k < 2; k++) {
			double v[2][SCALE_REPS], t[2], r;
			int bad = 0;

			for (int n = 0; n < SCALE_REPS && !bad; n++)
				for (int f = 0; f < 2 && !bad; f++)
					bad = (v[f][n] = _cpu_replay_fb(&w,
						pols[k], f)) < 0;
			if (bad)
				continue;
			for (int f = 0; f < 2; f++)
				t[f] = bench_median(v[f], SCALE_REPS);
			r = t[1] / t[0];
			printf("| %s | %s | %.3f | %.3f | %.2f× | ≤ 1.5× | "
			       "**%s** |\n", names[i], sim_policy_name(pols[k]),
			       t[0], t[1], r, r <= 1.5 ? "met" : "missed");
		}
		sim_workload_free(&w);
	}
}

/* bench-sim [--traces DIR] [--syn-10k F --syn-100k F --syn-1m F]
 * [--sim ostrich-sim] [--data F.tsv] [--only-scale] [--only-feedback]:
 * part 2 in markdown
 * on stdout. */
int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "traces", required_argument, NULL, 't' },
		{ "syn-10k", required_argument, NULL, '1' },
		{ "syn-100k", required_argument, NULL, '2' },
		{ "syn-1m", required_argument, NULL, '3' },
		{ "sim", required_argument, NULL, 's' },
		{ "data", required_argument, NULL, 'd' },
		{ "only-scale", no_argument, NULL, 'o' },
		{ "only-feedback", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c = { 0 };
	int o;

	while ((o = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (o) {
		case 't': c.traces = optarg; break;
		case '1': c.syn[0] = optarg; break;
		case '2': c.syn[1] = optarg; break;
		case '3': c.syn[2] = optarg; break;
		case 's': c.sim = optarg; break;
		case 'd': c.data = fopen(optarg, "w"); break;
		case 'o': c.only_scale = true; break;
		case 'f': c.only_feedback = true; break;
		default:
			fprintf(stderr, "usage: bench-sim [--traces DIR] "
				"[--syn-10k F --syn-100k F --syn-1m F] "
				"[--sim ostrich-sim] [--data F.tsv] "
				"[--only-scale] [--only-feedback]\n");
			return 2;
		}
	}
	printf("### Simulator replay (part 2)\n\n"
	       "Time of sim_run() alone (the replay ostrich-sim does after "
	       "reading the workload; median of 3 runs, a single run when "
	       "it takes 0.5 s or more). "
	       "× = time / time of fcfs + easy on the same workload in the "
	       "same run.\n");
	if (c.only_feedback) {
		_feedback(&c);
		return 0;
	}
	if (c.only_scale) {
		_scale(&c);
		_feedback(&c);
		return 0;
	}
	_headline(&c);
	if (_traces(&c))
		return 1;
	_synthetic_matrix(&c);
	_growth_jobs(&c);
	_growth_queue(&c);
	_scale(&c);
	_feedback(&c);
	if (c.data)
		fclose(c.data);
	return 0;
}
