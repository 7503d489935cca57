/*****************************************************************************\
 *  check_dispatch.c - unit tests of the running set (EASY shadow time)
 *  and of the three dispatch modes over an fcfs order; with GPUs (§20),
 *  the shadow time over two resources and no over-allocation.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ck_run.h"
#include "dispatch.h"
#include "pendidx.h"

START_TEST(test_shadow)
{
	sim_running_t rs;
	uint64_t extra;

	sim_running_init(&rs);
	sim_running_add(&rs, (sim_run_t) { 20, 1, 2, 0 });
	sim_running_add(&rs, (sim_run_t) { 10, 2, 1, 0 });
	sim_running_add(&rs, (sim_run_t) { 10, 3, 1, 0 });
	sim_running_add(&rs, (sim_run_t) { 3, 4, 4, 0 });  /* overran: now */
	ck_assert_uint_eq(rs.busy, 8);
	ck_assert_double_eq(sim_running_shadow(&rs, 5, 1, 1, &extra), 5);
	ck_assert_uint_eq(extra, 0);
	ck_assert_double_eq(sim_running_shadow(&rs, 5, 1, 4, &extra), 5);
	ck_assert_uint_eq(extra, 1);
	ck_assert_double_eq(sim_running_shadow(&rs, 5, 1, 6, &extra), 10);
	ck_assert_uint_eq(extra, 1);
	ck_assert_double_eq(sim_running_shadow(&rs, 5, 1, 9, &extra), 20);
	ck_assert(isinf(sim_running_shadow(&rs, 5, 1, 10, &extra)));
	ck_assert_int_eq(sim_running_del(&rs, 10, 3), 0);
	ck_assert_int_eq(sim_running_del(&rs, 10, 3), -1);
	ck_assert_uint_eq(rs.busy, 7);
	sim_running_free(&rs);
}
END_TEST

/* m = 4: job 0 (3 CPUs, 10 s) runs; pending in fcfs order: job 1
 * (4 CPUs), job 2 (1 CPU, 3 s), job 3 (1 CPU, 20 s). */
static sim_job_t _jobs[] = {
	{ .procs = 3, .estimate = 10, .runtime = 10 },
	{ .procs = 4, .estimate = 5, .runtime = 5, .submit = 1 },
	{ .procs = 1, .estimate = 3, .runtime = 3, .submit = 2 },
	{ .procs = 1, .estimate = 20, .runtime = 20, .submit = 2 },
};

static size_t _run(sim_dispatch_t mode, uint32_t *out)
{
	sim_workload_t w = { .jobs = _jobs, .njobs = 4, .nusers = 1 };
	sim_order_t *o = sim_order_create(SIM_POLICY_FCFS, &w, NULL, 0);
	sim_disp_t d;
	size_t n;

	ck_assert_int_eq(sim_disp_init(&d, mode, 4, 4), 0);
	for (uint32_t j = 0; j < 4; j++) {
		sim_order_submit(o, j, 0);
		ck_assert_int_eq(sim_disp_pending(&d, _jobs[j].procs), 0);
	}
	ck_assert_int_eq(sim_disp_run(&d, o, _jobs, 0), 0);
	for (size_t i = 0; i < d.nstarts; i++)
		sim_order_start(o, d.starts[i], 0);
	n = d.nstarts;
	for (size_t i = 0; i < n; i++)
		out[i] = d.starts[i];
	sim_disp_free(&d);
	sim_order_destroy(o);
	return n;
}

START_TEST(test_modes)
{
	uint32_t s[4];

	/* list: first fit in order: 0, then 2 (1 CPU left) */
	ck_assert_uint_eq(_run(SIM_DISPATCH_LIST, s), 2);
	ck_assert_uint_eq(s[0], 0);
	ck_assert_uint_eq(s[1], 2);
	/* strict: 0, then stop at 1 */
	ck_assert_uint_eq(_run(SIM_DISPATCH_STRICT, s), 1);
	/* easy: reservation for 1 at 10 (extra 0); 2 ends at 3 <= 10 */
	ck_assert_uint_eq(_run(SIM_DISPATCH_EASY, s), 2);
	ck_assert_uint_eq(s[1], 2);
}
END_TEST

START_TEST(test_easy_extra)
{
	/* m = 4, job 0 runs on 2 CPUs until 10; job 1 wants 3 (shadow 10,
	 * extra 1); job 2 (1 CPU, 50 s) may use the extra CPU. */
	sim_job_t jobs[] = {
		{ .procs = 2, .estimate = 10 },
		{ .procs = 3, .estimate = 5 },
		{ .procs = 1, .estimate = 50 },
		{ .procs = 1, .estimate = 50 },
	};
	sim_workload_t w = { .jobs = jobs, .njobs = 4, .nusers = 1 };
	sim_order_t *o = sim_order_create(SIM_POLICY_FCFS, &w, NULL, 0);
	sim_disp_t d;

	sim_disp_init(&d, SIM_DISPATCH_EASY, 4, 4);
	sim_order_submit(o, 0, 0);
	ck_assert_int_eq(sim_disp_pending(&d, 2), 0);
	sim_disp_run(&d, o, jobs, 0);
	sim_order_start(o, 0, 0);
	for (uint32_t j = 1; j < 4; j++) {
		sim_order_submit(o, j, 0);
		ck_assert_int_eq(sim_disp_pending(&d, jobs[j].procs), 0);
	}
	sim_disp_run(&d, o, jobs, 0);
	ck_assert_uint_eq(d.nstarts, 1);
	ck_assert_uint_eq(d.starts[0], 2);
	ck_assert_uint_eq(d.pending, 2);
	ck_assert_uint_eq(d.qmin, 1);
	sim_disp_free(&d);
	sim_order_destroy(o);
}
END_TEST

/* A machine of UINT32_MAX CPUs costs no more than a small one: the
 * dispatcher keeps counts per distinct pending size, not per CPU. */
START_TEST(test_huge_machine)
{
	sim_job_t jobs[] = {
		{ .procs = 4000000000u, .estimate = 10 },
		{ .procs = 300000000, .estimate = 5 },
		{ .procs = 1, .estimate = 50 },
	};
	sim_workload_t w = { .jobs = jobs, .njobs = 3, .nusers = 1 };
	sim_order_t *o = sim_order_create(SIM_POLICY_FCFS, &w, NULL, 0);
	sim_disp_t d;

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(sim_disp_init(&d, SIM_DISPATCH_EASY, UINT32_MAX, 3),
			 0);
	for (uint32_t j = 0; j < 3; j++) {
		sim_order_submit(o, j, 0);
		ck_assert_int_eq(sim_disp_pending(&d, jobs[j].procs), 0);
	}
	ck_assert_uint_eq(d.qmin, 1);
	ck_assert_uint_le(d.qcap, 16);
	ck_assert_int_eq(sim_disp_run(&d, o, jobs, 0), 0);
	/* 4e9 + 3e8 > 2^32 - 1: job 1 waits (reserved at 10), job 2 fits */
	ck_assert_uint_eq(d.nstarts, 2);
	ck_assert_uint_eq(d.starts[0], 0);
	ck_assert_uint_eq(d.starts[1], 2);
	ck_assert_uint_eq(d.qmin, 300000000);
	ck_assert_uint_eq(d.pending, 1);
	sim_disp_free(&d);
	sim_order_destroy(o);
}
END_TEST

/* qmin follows the smallest pending size through submissions, starts and
 * finishes of a random list-dispatched workload (checked against the jobs'
 * own states). */
START_TEST(test_qmin_tracking)
{
	enum { M = 64, N = 3000 };
	static sim_job_t jobs[N];
	static int state[N];	/* 0 unsubmitted, 1 pending, 2 running, 3 done */
	sim_workload_t w = { .jobs = jobs, .njobs = N, .nusers = 1 };
	sim_order_t *o;
	sim_disp_t d;
	uint32_t x = 12345, next = 0;
	long bad = -1;

	for (uint32_t j = 0; j < N; j++) {
		x = x * 1103515245u + 12345u;
		jobs[j] = (sim_job_t) { .procs = 1 + (x >> 16) % M,
					.estimate = 1, .start = NAN };
	}
	o = sim_order_create(SIM_POLICY_FCFS, &w, NULL, 0);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(sim_disp_init(&d, SIM_DISPATCH_LIST, M, N), 0);
	for (long step = 0; step < 4 * N && bad < 0; step++) {
		uint64_t want = M + 1;

		x = x * 1103515245u + 12345u;
		if ((x >> 9) % 2 && next < N) {
			sim_order_submit(o, next, 0);
			OST_CHECK(!sim_disp_pending(&d, jobs[next].procs),
				  "pending at step %ld", step);
			state[next++] = 1;
		} else {
			for (uint32_t j = 0; j < next; j++)
				if (state[j] == 2 && (x >> 12) % 2) {
					OST_CHECK(!sim_disp_finish(&d, jobs,
								   j),
						  "finish %u", j);
					sim_order_finish(o, j, 0);
					state[j] = 3;
					break;
				}
		}
		OST_CHECK(!sim_disp_run(&d, o, jobs, 0), "run at step %ld",
			  step);
		for (size_t i = 0; i < d.nstarts; i++) {
			jobs[d.starts[i]].start = 0;
			sim_order_start(o, d.starts[i], 0);
			state[d.starts[i]] = 2;
		}
		for (uint32_t j = 0; j < next; j++)
			if (state[j] == 1 && jobs[j].procs < want)
				want = jobs[j].procs;
		if (d.qmin != want)
			bad = step;
	}
	ck_assert_msg(bad < 0, "qmin wrong after step %ld", bad);
	sim_disp_free(&d);
	sim_order_destroy(o);
}
END_TEST

/* The shadow time over CPUs and GPUs waits for both (§20): running jobs
 * ending at 10 (4 CPUs), 20 and 30 (1 CPU + 2 GPUs each), 1 CPU and no
 * GPU free now. */
START_TEST(test_shadow_gpus)
{
	static const sim_run_t runs[] = {
		{ 10, 1, 4, 0 }, { 20, 2, 1, 2 }, { 30, 3, 1, 2 },
	};
	static const struct {
		sim_res_t need, extra;
		double t;
	} cases[] = {
		{ { 2, 1 }, { 4, 1 }, 20 },        /* the GPUs decide */
		{ { 6, 0 }, { 0, 2 }, 20 },        /* the CPUs decide */
		{ { 1, 4 }, { 6, 0 }, 30 },
		{ { 1, 5 }, { 0, 0 }, INFINITY },  /* never */
	};
	sim_running_t rs;

	sim_running_init(&rs);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		sim_running_add(&rs, runs[i]);
	ck_assert_uint_eq(rs.gbusy, 4);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sim_res_t x;
		double t = sim_running_shadow_res(&rs, 0, (sim_res_t) { 1, 0 },
						  cases[i].need, &x);

		ck_assert_msg(t == cases[i].t && x.procs == cases[i].extra.procs
			      && x.gpus == cases[i].extra.gpus,
			      "case %zu: t %g extra %llu/%llu", i, t,
			      (unsigned long long) x.procs,
			      (unsigned long long) x.gpus);
	}
	sim_running_free(&rs);
}
END_TEST

/* Random workloads of CPU and GPU jobs under each dispatch mode, with
 * and without the EASY index: after every dispatch the running jobs
 * (counted from the test's own states, not the dispatcher's sums) hold
 * at most M CPUs and G GPUs, and a job that fits when nothing runs is
 * started (no GPU job waits on an idle machine). */
START_TEST(test_gpus_never_overallocated)
{
	enum { M = 16, G = 4, N = 2000 };
	static sim_job_t jobs[N];
	static int state[N];	/* 0 unsubmitted, 1 pending, 2 running, 3 done */
	sim_workload_t w = { .jobs = jobs, .njobs = N, .nusers = 1 };
	sim_dispatch_t mode = (sim_dispatch_t) (_i % 3);
	bool indexed = _i >= 3;
	sim_pendidx_t x;
	sim_order_t *o;
	sim_disp_t d;
	uint32_t r = 777u + (uint32_t) _i, next = 0;
	long bad = -1;

	for (uint32_t j = 0; j < N; j++) {
		r = r * 1103515245u + 12345u;
		jobs[j] = (sim_job_t) {
			.procs = 1 + (r >> 16) % M,
			.gpus = (r >> 8) % 3 ? 0 : 1 + (r >> 4) % G,
			.estimate = 1 + (r >> 20) % 8, .start = NAN,
		};
	}
	o = sim_order_create(SIM_POLICY_FCFS, &w, NULL, 0);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(sim_disp_init(&d, mode, M, N), 0);
	d.gpus = G;
	if (indexed) {
		ck_assert_int_eq(sim_pendidx_init(&x, jobs, N), 0);
		d.index = &x;
	}
	for (long step = 0; step < 6 * N && bad < 0; step++) {
		uint64_t cpus = 0, gpus = 0, running = 0;
		double now = (double) step;

		r = r * 1103515245u + 12345u;
		if ((r >> 9) % 2 && next < N) {
			sim_order_submit(o, next, now);
			OST_CHECK(!sim_disp_pending(&d, jobs[next].procs),
				  "pending at step %ld", step);
			if (indexed)
				sim_pendidx_add(&x, next);
			state[next++] = 1;
		} else {
			for (uint32_t j = 0; j < next; j++)
				if (state[j] == 2 && (r >> 12) % 3) {
					OST_CHECK(!sim_disp_finish(&d, jobs, j),
						  "finish %u", j);
					sim_order_finish(o, j, now);
					state[j] = 3;
					break;
				}
		}
		OST_CHECK(!sim_disp_run(&d, o, jobs, now), "run at step %ld",
			  step);
		for (size_t i = 0; i < d.nstarts; i++) {
			OST_CHECK(state[d.starts[i]] == 1, "start of job %u "
				  "not pending", d.starts[i]);
			jobs[d.starts[i]].start = now;
			sim_order_start(o, d.starts[i], now);
			state[d.starts[i]] = 2;
		}
		for (uint32_t j = 0; j < next; j++)
			if (state[j] == 2) {
				cpus += jobs[j].procs;
				gpus += jobs[j].gpus;
				running++;
			}
		if (cpus > M || gpus > G || (!running && d.pending))
			bad = step;
	}
	ck_assert_msg(bad < 0, "mode %d index %d: over-allocated (or idle "
		      "with jobs pending) at step %ld", (int) mode, indexed,
		      bad);
	ck_assert_msg(next == N, "not every job was submitted");
	sim_disp_free(&d);
	if (indexed)
		sim_pendidx_free(&x);
	sim_order_destroy(o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dispatch");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	tcase_add_test(tc, test_shadow);
	tcase_add_test(tc, test_modes);
	tcase_add_test(tc, test_easy_extra);
	tcase_add_test(tc, test_huge_machine);
	tcase_add_test(tc, test_qmin_tracking);
	tcase_add_test(tc, test_shadow_gpus);
	tcase_add_loop_test(tc, test_gpus_never_overallocated, 0, 6);
	suite_add_tcase(s, tc);
	return ost_check_run(s);
}
