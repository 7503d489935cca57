/*****************************************************************************\
 *  check_scan.c - property tests of the structures that keep a dispatch
 *  walk from scanning the whole queue: the pending index by estimate
 *  (pendidx), the orders' jumps over jobs too wide (sim_order_walk), the
 *  order keys (sim_order_pos), and EASY dispatch with the index against
 *  the plain walk, on random workloads.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "dispatch.h"
#include "pendidx.h"

#define NJ 400
#define NU 7
#define M 16

/* splitmix64, so every run sees the same workloads */
static uint64_t _rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t _below(uint64_t *s, uint32_t n)
{
	return (uint32_t) (_rand(s) % n);
}

/* Random jobs in submit order: 1-M CPUs (mostly narrow), estimates with
 * many ties, runtimes up to the estimate. */
static void _jobs(sim_job_t *j, size_t n, uint64_t seed)
{
	double t = 0;

	memset(j, 0, n * sizeof(*j));
	for (size_t i = 0; i < n; i++) {
		t += _below(&seed, 4);
		j[i].number = i + 1;
		j[i].uidx = _below(&seed, NU);
		j[i].uid = j[i].uidx + 1;
		j[i].procs = _below(&seed, 3) ? 1 + _below(&seed, 4)
					      : 1 + _below(&seed, M);
		j[i].charge = j[i].procs;     /* fairshare's usage (§20) */
		j[i].estimate = 5.0 * (1 + _below(&seed, 12));
		j[i].runtime = 1 + _below(&seed, (uint32_t) j[i].estimate);
		j[i].submit = t;
		j[i].start = j[i].end = NAN;
	}
}

START_TEST(test_pendidx)
{
	static sim_job_t j[NJ];
	static bool pend[NJ];
	uint32_t out[8];
	sim_pendidx_t x;
	uint64_t seed = 7;
	size_t bad = SIZE_MAX;

	_jobs(j, NJ, 11);
	ck_assert_int_eq(sim_pendidx_init(&x, j, NJ), 0);
	memset(pend, 0, sizeof(pend));
	for (int round = 0; round < 2000 && bad == SIZE_MAX; round++) {
		uint32_t job = _below(&seed, NJ), a, f, lo = UINT32_MAX;
		double now = _below(&seed, 50), shadow = now + _below(&seed, 70);
		size_t c, cnt = 0, k;

		if ((pend[job] = !pend[job]))
			sim_pendidx_add(&x, job);
		else
			sim_pendidx_del(&x, job);
		f = 1 + _below(&seed, M);
		a = _below(&seed, f + 1);
		c = sim_pendidx_cut(&x, now, shadow);
		for (size_t i = 0; i < NJ; i++)
			cnt += now + j[i].estimate <= shadow;
		for (size_t i = 0; i < NJ; i++)
			if (pend[i] && now + j[i].estimate <= shadow &&
			    j[i].procs < lo)
				lo = j[i].procs;
		k = sim_pendidx_collect(&x, c, a, f, out, 8);
		/* brute force: the qualifying jobs, by (estimate, index) */
		size_t want = 0;
		bool same = true;
		for (size_t r = 0; r < NJ; r++) {
			/* job of rank r: scan for it (NJ is small) */
			size_t i = x.job[r];
			bool q = pend[i] && ((r < c && j[i].procs <= f) ||
					     j[i].procs <= a);
			if (!q)
				continue;
			if (want < 8 && (want >= k || out[want] != i))
				same = false;
			want++;
		}
		if (c != cnt || sim_pendidx_min_procs(&x, c) != lo ||
		    k != (want < 8 ? want : 8) || !same)
			bad = (size_t) round;
	}
	/* ranks are by (estimate, index) */
	for (size_t r = 1; r < NJ && bad == SIZE_MAX; r++)
		if (x.est[r - 1] > x.est[r] ||
		    (x.est[r - 1] == x.est[r] && x.job[r - 1] > x.job[r]))
			bad = 100000 + r;
	ck_assert_msg(bad == SIZE_MAX, "pendidx differs from brute force at "
		      "round/rank %zu", bad);
	sim_pendidx_free(&x);
}
END_TEST

struct seq {
	uint32_t job[NJ];
	size_t n;
};

static int _all(uint32_t job, bool eligible, void *arg)
{
	struct seq *s = arg;

	(void) eligible;
	s->job[s->n++] = job;
	return 0;
}

static const sim_job_t *_kj;

static int _by_pos(sim_order_t *o, double now, const uint32_t *a,
		   const uint32_t *b)
{
	sim_order_pos_t x, y;

	sim_order_pos(o, now, *a, &x);
	sim_order_pos(o, now, *b, &y);
	return sim_order_pos_less(&x, &y) ? -1 : sim_order_pos_less(&y, &x);
}

/* The order's invariants at now: walking with a limit visits a
 * subsequence of the full walk containing every job that fits; the keys
 * of sim_order_pos sort the pending jobs in the walk's order.
 * RET: 0, or a code naming the first failure. */
static int _check_order(sim_order_t *o, double now, uint64_t fit)
{
	static struct seq all, lim;
	size_t i = 0;

	all.n = lim.n = 0;
	sim_order_foreach(o, now, _all, &all);
	sim_order_walk(o, now, _all, &lim, &fit);
	for (size_t k = 0; k < all.n; k++) {
		if (i < lim.n && lim.job[i] == all.job[k])
			i++;
		else if (_kj[all.job[k]].procs <= fit)
			return 1;     /* a job that fits was left out */
	}
	if (i != lim.n)
		return 2;             /* not a subsequence */
	for (size_t k = 1; k < all.n; k++)
		if (_by_pos(o, now, &all.job[k - 1], &all.job[k]) >= 0)
			return 3;     /* keys out of the walk's order */
	return 0;
}

/* Random submissions, starts and finishes over an order of policy p
 * (fairshare with period P), checked every few events. */
static void _order_prop(sim_policy_t p, double half_life, double period)
{
	static sim_job_t j[NJ];
	static bool running[NJ];
	sim_workload_t w = { .jobs = j, .njobs = NJ, .nusers = NU };
	sim_order_t *o;
	uint64_t seed = 3;
	size_t next = 0;
	int rc = 0, at = -1;

	_jobs(j, NJ, 5);
	_kj = j;
	memset(running, 0, sizeof(running));
	o = sim_order_create(p, &w, NULL, half_life);
	ck_assert_ptr_nonnull(o);
	sim_order_fairshare_period(o, period);
	for (int step = 0; step < 1500 && !rc; step++) {
		double now = step;
		uint32_t r = _below(&seed, 10), job;

		if (r < 5 && next < NJ) {
			j[next].submit = now;
			sim_order_submit(o, (uint32_t) next++, now);
		} else if (r < 8 && next) {
			job = _below(&seed, (uint32_t) next);
			if (isnan(j[job].start)) {
				j[job].start = now;
				running[job] = true;
				sim_order_start(o, job, now);
			}
		} else if (next) {
			job = _below(&seed, (uint32_t) next);
			if (running[job]) {
				running[job] = false;
				sim_order_finish(o, job, now);
			}
		}
		if (step % 7 == 0 && (rc = _check_order(o, now,
					1 + _below(&seed, M))))
			at = step;
	}
	sim_order_destroy(o);
	ck_assert_msg(!rc, "%s period %g: invariant %d broken at step %d",
		      sim_policy_name(p), period, rc, at);
}

START_TEST(test_order_fcfs)
{
	_order_prop(SIM_POLICY_FCFS, 0, 0);
}
END_TEST

START_TEST(test_order_fairshare)
{
	_order_prop(SIM_POLICY_FAIRSHARE, 100, 0);
	_order_prop(SIM_POLICY_FAIRSHARE, 0, 0);
	_order_prop(SIM_POLICY_FAIRSHARE, 100, 30);
}
END_TEST

/* A small event loop (completions, submissions, dispatch) of policy p
 * and mode over j, with or without the index; start times into start. */
static void _replay(sim_job_t *j, sim_policy_t p, sim_dispatch_t mode,
		    bool indexed, double *start)
{
	static int state[NJ];     /* 0 not started, 1 running, 2 done */
	sim_workload_t w = { .jobs = j, .njobs = NJ, .nusers = NU };
	sim_order_t *o = sim_order_create(p, &w, NULL, 3600);
	sim_pendidx_t x;
	sim_disp_t d;
	size_t next = 0, done = 0;

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(sim_disp_init(&d, mode, M, NJ), 0);
	ck_assert_int_eq(sim_pendidx_init(&x, j, NJ), 0);
	if (indexed)
		d.index = &x;
	memset(state, 0, sizeof(state));
	while (done < NJ) {
		double now = next < NJ ? j[next].submit : INFINITY;

		for (size_t i = 0; i < NJ; i++)
			if (state[i] == 1 && j[i].end < now)
				now = j[i].end;
		OST_CHECK(isfinite(now), "deadlock");
		for (size_t i = 0; i < NJ; i++)
			if (state[i] == 1 && j[i].end == now) {
				OST_CHECK(!sim_disp_finish(&d, j, (uint32_t) i),
					  "finish");
				sim_order_finish(o, (uint32_t) i, now);
				state[i] = 2;
				done++;
			}
		while (next < NJ && j[next].submit <= now) {
			sim_order_submit(o, (uint32_t) next, now);
			sim_disp_pending(&d, j[next].procs);
			if (indexed)
				sim_pendidx_add(&x, (uint32_t) next);
			next++;
		}
		OST_CHECK(!sim_disp_run(&d, o, j, now), "dispatch");
		for (size_t k = 0; k < d.nstarts; k++) {
			uint32_t s = d.starts[k];

			start[s] = j[s].start = now;
			j[s].end = now + j[s].runtime;
			state[s] = 1;
			sim_order_start(o, s, now);
		}
	}
	sim_pendidx_free(&x);
	sim_disp_free(&d);
	sim_order_destroy(o);
}

START_TEST(test_dispatch_same)
{
	static const sim_policy_t pol[] = { SIM_POLICY_FCFS,
					    SIM_POLICY_FAIRSHARE };
	static const sim_dispatch_t mode[] = { SIM_DISPATCH_EASY,
					       SIM_DISPATCH_LIST };
	static sim_job_t j[NJ];
	static double a[NJ], b[NJ];
	int bad = -1;
	size_t bad_job = 0;

	for (int seed = 0; seed < 6 && bad < 0; seed++)
		for (int p = 0; p < 2 && bad < 0; p++)
			for (int m = 0; m < 2 && bad < 0; m++) {
				_jobs(j, NJ, 100 + (uint64_t) seed);
				for (size_t i = 0; i < NJ; i++)
					a[i] = b[i] = NAN;
				_replay(j, pol[p], mode[m], false, a);
				_replay(j, pol[p], mode[m], true, b);
				for (size_t i = 0; i < NJ && bad < 0; i++)
					if (!(a[i] == b[i])) {
						bad = seed * 4 + p * 2 + m;
						bad_job = i;
					}
			}
	ck_assert_msg(bad < 0, "case %d: job %zu starts differ with the "
		      "index", bad, bad_job);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scan");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_pendidx);
	tcase_add_test(tc, test_order_fcfs);
	tcase_add_test(tc, test_order_fairshare);
	tcase_add_test(tc, test_dispatch_same);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}
