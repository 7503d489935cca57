/*****************************************************************************\
 *  check_sync.c - osl_sync(): what Slurm shows, diffed against what the
 *  core knows, becomes the right core events in the right order
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "ostrich.h"
#include "osl_conf.h"
#include "osl_evlog.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_sync.h"
#include "osl_usage.h"
#include "osl_vec.h"

static fake_rec_t recs[16];

/* State of job id in the core, or -1 if unknown. */
static int _state(const osl_part_t *p, uint64_t id)
{
	ost_job_info_t info;

	return ost_job_get(p->sched, id, &info) ? -1 : (int) info.state;
}

/* The submit time the core was given for job id (NAN: unknown). */
static double _submitted(const osl_part_t *p, uint64_t id)
{
	ost_job_info_t info;

	return ost_job_get(p->sched, id, &info) ? NAN : info.submit;
}

/*
 * When a job arrives (§9.12).  Before any pass of this process, a pending
 * job Slurm found eligible keeps its times (history: a switch to ostrich,
 * a state rebuilt).  After a pass at T0 + 100 that did not show them:
 *   1. a job submitted at T0 (held, released at T0 + 6000) arrives at
 *      T0 + 6000, not at its submit time;
 *   2. one submitted after that pass, found eligible at once, arrives at
 *      its submit time;
 *   3. one whose --begin (T0 + 7000) is still to come is not submitted
 *      (when it comes, at T0 + 6500, it arrives then);
 *   4. one first found eligible at T0 + 300 (a dependency met) arrives
 *      then;
 *   5. one submitted at T0 + 50 during a save (unseen) keeps its time;
 *   6. one first seen running, released at T0 + 6000 and started at once,
 *      arrives at its start;
 *   7. one held and released between two passes (submitted at T0 + 5000,
 *      its eligible time 0 again) arrives at its release, T0 + 6000.
 */
START_TEST(test_sync_arrival)
{
	osl_part_t p = mk_part(8);
	osl_obs_t first[] = { pend(9, 10, T0 - 500, &recs[9]) };
	osl_obs_t obs[] = {
		pend(1, 10, T0, &recs[1]),
		pend(2, 11, T0 + 5990, &recs[2]),
		pend(3, 12, T0 + 10, &recs[3]),
		pend(4, 13, T0 + 200, &recs[4]),
		pend(5, 14, T0 + 50, &recs[5]),
		running(6, 15, T0 + 20, T0 + 6001, &recs[6]),
		pend(7, 16, T0 + 5000, &recs[7]),
	};
	char log[512];

	first[0].eligible = T0 - 500;
	ck_assert_int_eq(sync_log(&p, first, 1, T0 + 100, OSL_SYNC_ALL, log,
				  sizeof(log)), 1);
	ck_assert_double_eq(_submitted(&p, 9), T0 - 500);
	ck_assert_double_eq(p.last_pass, T0 + 100);
	obs[0].eligible = T0;		/* found eligible, then held */
	obs[1].eligible = T0 + 5990;
	obs[2].eligible = T0 + 7000;
	obs[3].eligible = T0 + 300;
	obs[4].eligible = T0 + 50;
	obs[4].unseen = true;
	obs[5].eligible = T0 + 20;
	obs[6].eligible = 0;		/* released: Slurm reset it */
	(void) sync_log(&p, obs, 7, T0 + 6000, OSL_SYNC_NEW, log, sizeof(log));
	ck_assert_double_eq(_submitted(&p, 1), T0 + 6000);
	ck_assert_double_eq(_submitted(&p, 2), T0 + 5990);
	ck_assert(isnan(_submitted(&p, 3)));
	ck_assert_double_eq(_submitted(&p, 4), T0 + 300);
	ck_assert_double_eq(_submitted(&p, 5), T0 + 50);
	ck_assert_double_eq(_submitted(&p, 6), T0 + 6000);
	ck_assert_double_eq(_submitted(&p, 7), T0 + 6000);
	ck_assert_double_eq(p.last_pass, T0 + 100);	/* not a pass */
	/* its --begin moved to T0 + 6500 and come: 3 arrives then */
	obs[2].eligible = T0 + 6500;
	(void) sync_log(&p, obs + 2, 1, T0 + 6600, OSL_SYNC_NEW, log,
			sizeof(log));
	ck_assert_double_eq(_submitted(&p, 3), T0 + 6500);
	free_part(&p);
}
END_TEST

/* New records: a pending and a running job are submitted (the running one
 * also started, after its submission); a finished one the core never saw
 * is no business of the core's. */
START_TEST(test_sync_new)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[] = {
		pend(1, 10, T0, &recs[1]),
		running(2, 11, T0 - 100, T0 + 5, &recs[2]),
		finished(3, 12, T0 - 50, T0 - 40, T0 - 30, &recs[3]),
	};
	char log[512];

	ck_assert_int_eq(sync_log(&p, obs, 3, T0 + 100, OSL_SYNC_ALL, log,
				  sizeof(log)), 3);
	ck_assert_str_eq(log, "weight:11 submit:2 weight:10 submit:1 start:2");
	ck_assert_int_eq(_state(&p, 1), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 2), OST_JOB_RUNNING);
	ck_assert_int_eq(_state(&p, 3), -1);
	free_part(&p);
}
END_TEST

/* A record submitted while a save kept the core away (unseen) that ran and
 * ended before any pass saw it is still charged: submitted, started and
 * finished from its record.  The same finished record without the mark is
 * one the core charged and forgot: nothing happens. */
START_TEST(test_sync_unseen)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[] = {
		finished(5, 12, T0, T0 + 1, T0 + 3, &recs[5]),
		finished(6, 12, T0, T0 + 1, T0 + 3, &recs[6]),
	};
	char log[512];

	obs[0].unseen = true;
	ck_assert_int_eq(sync_log(&p, obs, 2, T0 + 10, OSL_SYNC_ALL, log,
				  sizeof(log)), 3);
	ck_assert_str_eq(log, "weight:12 submit:5 start:5 finish:5");
	ck_assert_int_eq(_state(&p, 5), -1);
	ck_assert_int_eq(_state(&p, 6), -1);
	free_part(&p);
}
END_TEST

/* After a restart the core is its state file's: a job it does not know
 * that ended after that file's clock (8: submitted after the save, ended
 * while slurmctld was down) was never charged by it, and is charged from
 * its record; one that ended before (7) was charged and forgotten.  Only
 * the first pass does this: the next one sees 8 as charged and forgotten
 * (it is: the core forgets finished jobs). */
START_TEST(test_sync_restored)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[] = {
		finished(7, 12, T0 - 20, T0 - 10, T0 - 5, &recs[7]),
		finished(8, 12, T0 + 1, T0 + 2, T0 + 4, &recs[8]),
	};
	char log[512];

	p.restored_at = T0;
	ck_assert_int_eq(sync_log(&p, obs, 2, T0 + 10, OSL_SYNC_ALL, log,
				  sizeof(log)), 3);
	ck_assert_str_eq(log, "weight:12 submit:8 start:8 finish:8");
	ck_assert(p.restored_at == 0);
	ck_assert_int_eq(_state(&p, 7), -1);
	ck_assert_int_eq(_state(&p, 8), -1);
	ck_assert_int_eq(sync_log(&p, obs, 2, T0 + 12, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);
	free_part(&p);
}
END_TEST

/* slurmctld gives an array its priority before it makes the record an
 * array, so the core first holds the array as a plain pending job (key 9).
 * Tasks that split off, ran and ended before the next pass are charged by
 * that pass, which also cancels the plain job; a finished task of an array
 * the core no longer holds (4) is one it charged and forgot: nothing. */
START_TEST(test_sync_array_split)
{
	osl_part_t p = mk_part(8);
	osl_obs_t first[] = { pend(9, 12, T0, &recs[9]) };
	osl_obs_t later[] = {
		finished(OSL_ARRAY_KEY(4, 0), 12, T0 - 9, T0 - 8, T0 - 7,
			 &recs[4]),
		finished(OSL_ARRAY_KEY(9, 0), 12, T0, T0 + 1, T0 + 2,
			 &recs[10]),
		pend(OSL_ARRAY_KEY(9, 1), 12, T0, &recs[9]),
	};
	char log[512];

	later[0].group = 4;
	later[1].group = 9;
	later[2].group = 9;
	sync_log(&p, first, 1, T0, OSL_SYNC_NEW, log, sizeof(log));
	ck_assert_str_eq(log, "weight:12 submit:9");
	ck_assert_int_eq(sync_log(&p, later, 3, T0 + 5, OSL_SYNC_ALL, log,
				  sizeof(log)), 5);
	ck_assert_str_eq(log, "submit:38654705664 submit:38654705665 start:38654705664 finish:38654705664 cancel:9");
	ck_assert_int_eq(_state(&p, OSL_ARRAY_KEY(4, 0)), -1);
	ck_assert_int_eq(_state(&p, OSL_ARRAY_KEY(9, 0)), -1);
	ck_assert_int_eq(_state(&p, OSL_ARRAY_KEY(9, 1)), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 9), -1);
	/* the next pass: nothing charged again */
	ck_assert_int_eq(sync_log(&p, later, 3, T0 + 10, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);
	free_part(&p);
}
END_TEST

/* Known pending jobs that started, finished after running, or ended
 * without running (cancelled), and a running job that finished: events in
 * time order. */
START_TEST(test_sync_started_finished)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		pend(1, 10, T0, &recs[1]), pend(2, 10, T0, &recs[2]),
		pend(3, 10, T0, &recs[3]),
		running(4, 10, T0, T0 + 10, &recs[4]),
	};
	osl_obs_t after[] = {
		running(1, 10, T0, T0 + 50, &recs[1]),
		finished(2, 10, T0, T0 + 20, T0 + 60, &recs[2]),
		finished(3, 10, T0, 0, T0 + 30, &recs[3]),
		finished(4, 10, T0, T0 + 10, T0 + 40, &recs[4]),
	};
	char log[512];

	sync_log(&p, before, 4, T0 + 15, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "weight:10 submit:1 submit:2 submit:3 submit:4 start:4");
	ck_assert_int_eq(sync_log(&p, after, 4, T0 + 100, OSL_SYNC_ALL, log,
				  sizeof(log)), 5);
	ck_assert_str_eq(log, "start:2 cancel:3 finish:4 start:1 finish:2");
	ck_assert_int_eq(_state(&p, 1), OST_JOB_RUNNING);
	ck_assert_int_eq(_state(&p, 2), -1);
	ck_assert_int_eq(_state(&p, 3), -1);
	ck_assert_int_eq(_state(&p, 4), -1);
	free_part(&p);
}
END_TEST

/* Records gone from job_list: a pending job is cancelled now; a running
 * job (purged while running) finishes now, having run since its start. */
START_TEST(test_sync_purged)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		pend(1, 10, T0, &recs[1]),
		running(2, 10, T0, T0 + 10, &recs[2]),
	};
	FILE *f = tmpfile();
	char log[512], line[256];
	osl_evlog_rec_t r;
	osl_obs_t **none = NULL;

	sync_log(&p, before, 2, T0 + 20, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(osl_sync(&p, none, 0, T0 + 100, OSL_SYNC_ALL, f), 2);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_CANCEL);
	ck_assert_uint_eq(r.job.id, 1);
	ck_assert(r.t == T0 + 100);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_FINISH);
	ck_assert_uint_eq(r.job.id, 2);
	ck_assert(r.t == T0 + 100);
	ck_assert(r.x == 90);		/* run time: now - start */
	ck_assert_ptr_null(fgets(line, sizeof(line), f));
	fclose(f);
	ck_assert_int_eq(_state(&p, 1), -1);
	ck_assert_int_eq(_state(&p, 2), -1);
	free_part(&p);
}
END_TEST

/* A running job pending again was requeued: at its new submission time,
 * or now if that lies ahead. */
START_TEST(test_sync_requeued)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		running(1, 10, T0, T0 + 10, &recs[1]),
		running(2, 10, T0, T0 + 10, &recs[2]),
	};
	osl_obs_t after[] = {
		pend(1, 10, T0 + 200, &recs[1]),	/* ahead of now */
		pend(2, 10, T0 + 50, &recs[2]),
	};
	char log[512];

	sync_log(&p, before, 2, T0 + 20, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(sync_log(&p, after, 2, T0 + 150, OSL_SYNC_ALL, log,
				  sizeof(log)), 2);
	ck_assert_str_eq(log, "requeue:2 requeue:1");
	ck_assert_int_eq(_state(&p, 1), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 2), OST_JOB_PENDING);
	free_part(&p);
}
END_TEST

/* The tasks of a pending array record share one campaign (group = array
 * job id); a task that starts is started alone. */
START_TEST(test_sync_array)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[3], later[3];
	ost_job_info_t info[3];
	char log[512];
	int t;

	for (t = 0; t < 3; t++) {
		obs[t] = pend(OSL_ARRAY_KEY(7, t), 10, T0, &recs[7]);
		obs[t].group = 7;
		later[t] = obs[t];
	}
	later[1] = running(OSL_ARRAY_KEY(7, 1), 10, T0, T0 + 30, &recs[8]);
	later[1].group = 7;
	sync_log(&p, obs, 3, T0 + 10, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "weight:10 submit:30064771072 submit:30064771073 submit:30064771074");
	for (t = 0; t < 3; t++)
		ck_assert_int_eq(ost_job_get(p.sched, OSL_ARRAY_KEY(7, t),
					     &info[t]), 0);
	ck_assert_uint_eq(info[0].campaign, info[1].campaign);
	ck_assert_uint_eq(info[0].campaign, info[2].campaign);
	sync_log(&p, later, 3, T0 + 40, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "start:30064771073");
	free_part(&p);
}
END_TEST

/* At one instant: completions of jobs that started earlier, requeues,
 * submissions, starts, then completions of jobs started at that instant. */
START_TEST(test_sync_ties)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		running(1, 10, T0, T0, &recs[1]),
		running(2, 10, T0, T0, &recs[2]),
		pend(3, 10, T0, &recs[3]),
	};
	osl_obs_t after[] = {
		finished(1, 10, T0, T0, T0 + 50, &recs[1]),
		pend(2, 10, T0 + 50, &recs[2]),
		finished(3, 10, T0, T0 + 50, T0 + 50, &recs[3]),
		pend(4, 10, T0 + 50, &recs[4]),
	};
	char log[512];

	sync_log(&p, before, 3, T0 + 10, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(sync_log(&p, after, 4, T0 + 60, OSL_SYNC_ALL, log,
				  sizeof(log)), 5);
	ck_assert_str_eq(log, "finish:1 requeue:2 submit:4 start:3 finish:3");
	free_part(&p);
}
END_TEST

/* A submission (OSL_SYNC_NEW): only what the core does not know is
 * submitted; known jobs are left alone, absent ones are not cancelled. */
START_TEST(test_sync_new_scope)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		pend(1, 10, T0, &recs[1]), pend(2, 10, T0, &recs[2]),
	};
	osl_obs_t sub[] = {
		running(2, 10, T0, T0 + 5, &recs[2]),
		pend(3, 11, T0 + 10, &recs[3]),
	};
	char log[512];

	sync_log(&p, before, 2, T0, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(sync_log(&p, sub, 2, T0 + 10, OSL_SYNC_NEW, log,
				  sizeof(log)), 1);
	ck_assert_str_eq(log, "weight:11 submit:3");
	ck_assert_int_eq(_state(&p, 1), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 2), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 3), OST_JOB_PENDING);
	free_part(&p);
}
END_TEST

/* A weight the core refuses and an event it refuses are logged; the rest
 * goes on. */
START_TEST(test_sync_refused)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[] = {
		pend(1, 10, T0, &recs[1]), pend(2, 11, T0, &recs[2]),
	};
	char log[512];

	obs[0].weight = -1;		/* refused: w_u > 0 */
	obs[1].procs = 0;		/* refused: q >= 1 */
	stub_nerrors = 0;
	ck_assert_int_eq(sync_log(&p, obs, 2, T0, OSL_SYNC_ALL, log,
				  sizeof(log)), 2);
	ck_assert_int_eq(stub_nerrors, 2);
	ck_assert_msg(strstr(stub_last_error, "event submit of job 2"),
		      "last error: %s", stub_last_error);
	ck_assert_str_eq(log, "submit:1 weight:11");
	ck_assert_int_eq(_state(&p, 1), OST_JOB_PENDING);
	ck_assert_int_eq(_state(&p, 2), -1);
	free_part(&p);
}
END_TEST


/* The owner raises the width and the time limit of a pending job, and the
 * width of a whole pending array: each becomes one update event at the
 * pass, the core counts the new width and estimate, and the jobs are
 * re-ranked (a wider job of the same campaign goes behind under LPT only
 * by its estimate, so here rank follows the area of the campaigns). */
START_TEST(test_sync_resize)
{
	osl_part_t p = mk_part(64);
	osl_obs_t before[5], after[5];
	ost_job_info_t info;
	uint64_t r1 = 0, r2 = 0;
	char log[512];
	int t;

	before[0] = pend(1, 10, T0, &recs[1]);
	before[1] = pend(2, 11, T0, &recs[2]);
	for (t = 0; t < 3; t++) {
		before[2 + t] = pend(OSL_ARRAY_KEY(7, t), 12, T0, &recs[7]);
		before[2 + t].group = 7;
	}
	memcpy(after, before, sizeof(after));
	after[0].procs = 32;			/* NumCPUs=32 */
	after[1].estimate = 7200;		/* TimeLimit=120 */
	for (t = 0; t < 3; t++)			/* the whole array */
		after[2 + t].procs = 4;
	sync_log(&p, before, 5, T0 + 10, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(ost_sched_rank(p.sched, 1, &r1), 0);
	ck_assert_int_eq(sync_log(&p, before, 5, T0 + 20, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);	/* nothing new */
	ck_assert_int_eq(sync_log(&p, after, 5, T0 + 30, OSL_SYNC_ALL, log,
				  sizeof(log)), 5);
	ck_assert_str_eq(log, "update:1 update:2 update:30064771072 update:30064771073 update:30064771074");
	ck_assert_int_eq(ost_job_get(p.sched, 1, &info), 0);
	ck_assert_uint_eq(info.procs, 32);
	ck_assert_int_eq(ost_job_get(p.sched, 2, &info), 0);
	ck_assert(info.estimate == 7200);
	for (t = 0; t < 3; t++) {
		ck_assert_int_eq(ost_job_get(p.sched, OSL_ARRAY_KEY(7, t),
					     &info), 0);
		ck_assert_uint_eq(info.procs, 4);
	}
	/* job 1 (now 32 x 600 s) goes behind job 2 (1 x 7200 s) */
	ck_assert_int_eq(ost_sched_rank(p.sched, 1, &r2), 0);
	ck_assert_uint_gt(r2, r1);
	ck_assert_int_eq(sync_log(&p, after, 5, T0 + 40, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);	/* said once */
	free_part(&p);
}
END_TEST

/* A start carries the width Slurm allocated, wider than asked; the finish
 * charges allocated width x run time; a job that started after its time
 * limit was raised starts with the new estimate. */
START_TEST(test_sync_alloc_width)
{
	osl_part_t p = mk_part(64);
	osl_obs_t before[] = {
		pend(1, 10, T0, &recs[1]), pend(2, 10, T0, &recs[2]),
	};
	osl_obs_t after[] = {
		running(1, 10, T0, T0 + 10, &recs[1]),
		running(2, 10, T0, T0 + 10, &recs[2]),
	};
	osl_obs_t done[] = {
		finished(1, 10, T0, T0 + 10, T0 + 110, &recs[1]),
		after[1],
	};
	FILE *f = tmpfile();
	ost_job_info_t info;
	osl_evlog_rec_t r;
	char log[512], line[256];
	osl_obs_vec_t vec = { .v = after, .n = 2, .cap = 2 };
	osl_obs_t **idx = osl_obs_index(&vec);

	after[0].procs = 16;		/* asked 1, allocated 16 */
	after[1].estimate = 1800;	/* TimeLimit raised, then started */
	done[0].procs = 16;
	sync_log(&p, before, 2, T0, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(osl_sync(&p, idx, 2, T0 + 20, OSL_SYNC_ALL, f), 3);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	rewind(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_UPDATE);		/* 2: estimate */
	ck_assert_uint_eq(r.job.id, 2);
	ck_assert(r.job.estimate == 1800 && r.job.procs == 1);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_START);
	ck_assert_uint_eq(r.job.id, 1);
	ck_assert_uint_eq(r.job.procs, 16);
	fclose(f);
	ck_assert_int_eq(ost_job_get(p.sched, 1, &info), 0);
	ck_assert_uint_eq(info.procs, 16);
	ck_assert_int_eq(ost_job_get(p.sched, 2, &info), 0);
	ck_assert(info.estimate == 1800);
	sync_log(&p, done, 2, T0 + 120, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "finish:1");
	free_part(&p);
}
END_TEST

/* osl_sync() of after[0..n) at now (a pass): every finish it logs charges
 * run seconds.  RET the finishes */
static int _finishes_charged(osl_part_t *p, osl_obs_t *after, int n,
			     double now, double run)
{
	osl_obs_vec_t vec = { .v = after, .n = n, .cap = n };
	osl_obs_t **idx = osl_obs_index(&vec);
	FILE *f = tmpfile();
	char line[256];
	osl_evlog_rec_t r;
	int finishes = 0;

	ck_assert_ptr_nonnull(f);
	if (p->ledger)		/* as a pass does: the ledger first */
		(void) osl_usage_pass(&p->ledger->usage, idx, n, now, NULL,
				      NULL);
	(void) osl_sync(p, idx, n, now, OSL_SYNC_ALL, f);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
		if (r.op != OSL_LOG_FINISH)
			continue;
		ck_assert_msg(r.x == run, "job %llu charged %g s, want %g",
			      (unsigned long long) r.job.id, r.x, run);
		finishes++;
	}
	fclose(f);
	return finishes;
}

/* Charged run time is bounded: a finish by the job's time limit (an end
 * time that includes the controller's downtime), a job purged while
 * running by the estimate the core knows. */
START_TEST(test_sync_capped)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		running(1, 10, T0, T0 + 10, &recs[1]),
		running(2, 10, T0, T0 + 10, &recs[2]),
	};
	osl_obs_t after[1];
	char log[512];
	double now = T0 + 90 * 86400.0;		/* 90 days later */

	before[0].limit = 3600;
	before[0].estimate = 3600;
	before[1].estimate = 3600;		/* the limit the core knows */
	after[0] = finished(1, 10, T0, T0 + 10, now - 5, &recs[1]);
	after[0].limit = 3600;
	sync_log(&p, before, 2, T0 + 20, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(_finishes_charged(&p, after, 1, now, 3600), 2);
	ck_assert_int_eq(_state(&p, 1), -1);
	ck_assert_int_eq(_state(&p, 2), -1);
	free_part(&p);
}
END_TEST

/*
 * An owner cuts the time limit of a running job to 0 (Slurm lets owners
 * lower it) and it ends after 8 s: charged its 8 s, not 0.  Likewise a job
 * that started and ended between two passes with its limit cut meanwhile:
 * charged what it ran, within the estimate the core counted.
 */
START_TEST(test_sync_limit_cut)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = {
		running(1, 10, T0, T0 + 10, &recs[1]),
		pend(2, 10, T0, &recs[2]),
	};
	osl_obs_t after[2];
	char log[512];

	before[0].limit = before[0].estimate = 60;
	before[1].limit = before[1].estimate = 60;
	sync_log(&p, before, 2, T0 + 12, OSL_SYNC_ALL, log, sizeof(log));
	after[0] = finished(1, 10, T0, T0 + 10, T0 + 18, &recs[1]);
	after[1] = finished(2, 10, T0, T0 + 13, T0 + 21, &recs[2]);
	after[0].limit = after[1].limit = 0;	/* scontrol update TimeLimit=0 */
	after[1].estimate = 0;			/* so is its estimate now */
	ck_assert_int_eq(_finishes_charged(&p, after, 2, T0 + 30, 8), 2);
	free_part(&p);
}
END_TEST

/*
 * The core charges jobs without a time limit (MaxTime=INFINITE, started
 * by the main scheduler: estimate DefaultEstimate, 20 s here) what they
 * ran.
 * One's owner cuts its limit to 60 s after 100 s and it times out at
 * 120 s; the other's record is purged while it runs, seen at 120 s.  Both
 * ran under no limit: each is charged its 110 s, as the ledger is, not
 * the 60 s of the cut nor the 20 s of DefaultEstimate.
 */
START_TEST(test_sync_nolimit)
{
	osl_part_t p = mk_part(8);
	osl_ledger_t led = { 0 };
	osl_obs_t before[] = {
		running(1, 10, T0, T0 + 10, &recs[1]),
		running(2, 10, T0, T0 + 10, &recs[2]),
	};
	osl_obs_t after[1];

	osl_usage_init(&led.usage, T0);
	p.ledger = &led;
	before[0].estimate = before[1].estimate = 20;	/* limit: none */
	ck_assert_int_eq(_finishes_charged(&p, before, 2, T0 + 20, 0), 0);
	before[0].limit = before[0].estimate = 60;	/* the owner's cut */
	ck_assert_int_eq(_finishes_charged(&p, before, 2, T0 + 110, 0), 0);
	after[0] = finished(1, 10, T0, T0 + 10, T0 + 120, &recs[1]);
	after[0].limit = after[0].estimate = 60;
	ck_assert_int_eq(_finishes_charged(&p, after, 1, T0 + 120, 110), 2);
	/* the ledger: 1 in full, 2 up to the last pass that saw it */
	ck_assert_double_eq(osl_usage_of(&led.usage, 10), 110 + 100);
	osl_usage_free(&led.usage);
	free_part(&p);
}
END_TEST

/* A requeued job that asks for another width now is requeued, then
 * updated, at one instant. */
START_TEST(test_sync_requeue_resized)
{
	osl_part_t p = mk_part(8);
	osl_obs_t before[] = { running(1, 10, T0, T0 + 10, &recs[1]) };
	osl_obs_t after[] = { pend(1, 10, T0 + 50, &recs[1]) };
	ost_job_info_t info;
	char log[512];

	before[0].procs = 4;
	after[0].procs = 2;
	sync_log(&p, before, 1, T0 + 20, OSL_SYNC_ALL, log, sizeof(log));
	sync_log(&p, after, 1, T0 + 60, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "requeue:1 update:1");
	ck_assert_int_eq(ost_job_get(p.sched, 1, &info), 0);
	ck_assert_uint_eq(info.procs, 2);
	ck_assert_int_eq(info.state, OST_JOB_PENDING);
	free_part(&p);
}
END_TEST

/*
 * A job's nice reaches the core (§22): at submission, then as an event
 * when a pass sees it change (scontrol top: the topped job lower, the
 * others higher), once; the topped job goes first among its owner's, the
 * other user's job keeps its rank; a requeued job gets the nice it has.
 */
START_TEST(test_sync_nice)
{
	osl_part_t p = mk_part(8);
	osl_obs_t o[4], req[1];
	ost_job_info_t info;
	uint64_t r = 0;
	char log[512];
	int i;

	for (i = 0; i < 3; i++)
		o[i] = pend(1 + i, 10, T0, &recs[1 + i]);
	o[3] = pend(4, 11, T0, &recs[4]);
	o[1].nice = 5;				/* sbatch --nice=5 */
	sync_log(&p, o, 4, T0 + 10, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(ost_job_get(p.sched, 2, &info), 0);
	ck_assert_int_eq(info.nice, 5);
	ck_assert_int_eq(ost_sched_rank(p.sched, 4, &r), 0);
	o[2].nice = -2;				/* scontrol top 3 */
	o[0].nice = 1;
	o[1].nice = 6;
	ck_assert_int_eq(sync_log(&p, o, 4, T0 + 20, OSL_SYNC_ALL, log,
				  sizeof(log)), 3);
	ck_assert_str_eq(log, "nice:1 nice:2 nice:3");
	ck_assert_int_eq(ost_job_get(p.sched, 3, &info), 0);
	ck_assert_int_eq(info.nice, -2);
	{
		uint64_t r1, r2, r3, r4;

		ck_assert_int_eq(ost_sched_rank(p.sched, 1, &r1), 0);
		ck_assert_int_eq(ost_sched_rank(p.sched, 2, &r2), 0);
		ck_assert_int_eq(ost_sched_rank(p.sched, 3, &r3), 0);
		ck_assert_int_eq(ost_sched_rank(p.sched, 4, &r4), 0);
		ck_assert_uint_lt(r3, r1);
		ck_assert_uint_lt(r1, r2);
		ck_assert_uint_eq(r4, r);
	}
	ck_assert_int_eq(sync_log(&p, o, 4, T0 + 30, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);	/* said once */
	/* job 3 runs, is requeued, and comes back with nice 0 */
	o[2] = running(3, 10, T0, T0 + 35, &recs[3]);
	sync_log(&p, o, 4, T0 + 40, OSL_SYNC_ALL, log, sizeof(log));
	req[0] = pend(3, 10, T0 + 50, &recs[3]);
	o[2] = req[0];
	sync_log(&p, o, 4, T0 + 60, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_str_eq(log, "requeue:3 nice:3");
	ck_assert_int_eq(ost_job_get(p.sched, 3, &info), 0);
	ck_assert_int_eq(info.nice, 0);
	free_part(&p);
}
END_TEST

/* The rank of pending job id. */
static uint64_t _rank(const osl_part_t *p, uint64_t id)
{
	uint64_t r = 0;

	ck_assert_int_eq(ost_sched_rank(p->sched, id, &r), 0);
	return r;
}

/* The pending campaigns' F in rank order must not decrease. */
static int _f_rises(const ost_campaign_info_t *c, void *arg)
{
	double *last = arg;

	if (!c->pending)
		return 0;
	ck_assert_msg(c->vfinish >= *last, "uid %u: F %g after %g", c->uid,
		      c->vfinish, *last);
	*last = c->vfinish;
	return 0;
}

/*
 * Gate=none (§24) through the adapter: ostrich.conf's key, the core's
 * configuration made from it as a reconfigure makes it, and made-up
 * observations.  Alice's 4-CPU job (uid 10) ran alone in R while Bob's
 * (uid 20) waited, so V served her campaign only in part: her next small
 * job opens a campaign with S = F of the previous one > v, not eligible.
 * (S 4000, F 4100, v 2020 as computed here).  Carol (uid 30) arrives then
 * with a long job, eligible.  Gate=soft puts
 * Carol first (the eligible tier); a reconfigure to Gate=none re-sorts by
 * F alone: Alice first, the eligibility still computed; back to soft
 * restores the tier.
 */
/* A campaign's vst from the sweep (§24) is what ost_sched_job_vstart
 * says of its jobs: one projection, the same times.  The one campaign
 * not yet started in V is alice's second, whose job is 3. */
static int _vst_check(const ost_campaign_info_t *c, void *arg)
{
	const ost_sched_t *s = arg;
	double vs = 0;

	if (c->eligible) {
		ck_assert_double_eq(c->vst, ost_sched_now(s));
		return 0;
	}
	ck_assert_int_eq(ost_sched_job_vstart(s, 3, &vs), 0);
	ck_assert_double_eq_tol(c->vst, vs, 1e-6);
	ck_assert_double_gt(c->vst, ost_sched_now(s));
	return 0;
}

START_TEST(test_sync_gate_none)
{
	osl_part_t p = mk_part(4);
	osl_conf_t conf;
	ost_config_t cfg;
	osl_obs_t before[] = {
		running(1, 10, T0, T0, &recs[1]),
		pend(2, 20, T0, &recs[2]),
	};
	osl_obs_t after[] = {
		finished(1, 10, T0, T0, T0 + 1000, &recs[1]),
		running(2, 20, T0, T0 + 1000, &recs[2]),
		pend(3, 10, T0 + 1010, &recs[3]),
		pend(4, 30, T0 + 1010, &recs[4]),
	};
	ost_explain_t ex;
	double last = -INFINITY;
	char log[512], err[256];

	osl_conf_defaults(&conf);
	ck_assert_int_eq(osl_conf_set_value(&conf, "ThinkTime", "0", err,
					    sizeof(err)), 0);
	osl_conf_core(&conf, 4, &cfg);
	ck_assert_int_eq(ost_sched_reconfigure(p.sched, &cfg, T0), 0);
	before[0].procs = before[1].procs = 4;
	before[0].estimate = before[1].estimate = 1000;
	after[0].procs = after[1].procs = 4;
	after[0].estimate = after[1].estimate = 1000;
	after[2].estimate = 100;
	after[3].procs = 4;
	after[3].estimate = 100000;
	sync_log(&p, before, 2, T0 + 10, OSL_SYNC_ALL, log, sizeof(log));
	sync_log(&p, after, 4, T0 + 1010, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(ost_sched_explain(p.sched, 3, 0, &ex), 0);
	ck_assert(!ex.campaign.eligible);
	ck_assert_uint_eq(ex.campaign.seq, 2);
	ck_assert_double_gt(ex.campaign.vstart, ex.vtime);
	ost_explain_free(&ex);
	{	/* when V reaches S: later than now, before C~; Carol now */
		double vs = 0, vct = 0;

		ck_assert_int_eq(ost_sched_job_vstart(p.sched, 3, &vs), 0);
		ck_assert_int_eq(ost_sched_job_vct(p.sched, 3, &vct), 0);
		ck_assert_double_gt(vs, T0 + 1010);
		ck_assert_double_lt(vs, vct);
		ck_assert_int_eq(ost_sched_job_vstart(p.sched, 4, &vs), 0);
		ck_assert_double_eq(vs, T0 + 1010);
		ck_assert_int_eq(ost_sched_job_vstart(p.sched, 99, &vs),
				 -OST_ENOENT);
		/* the sweep's one projection gives the same times */
		ck_assert_int_eq(ost_sched_foreach_campaign(p.sched,
							    _vst_check,
							    p.sched), 0);
	}
	ck_assert_uint_eq(_rank(&p, 4), 1);	/* soft: the eligible first */
	ck_assert_uint_eq(_rank(&p, 3), 2);

	ck_assert_int_eq(osl_conf_set_value(&conf, "Gate", "none", err,
					    sizeof(err)), 0);
	osl_conf_core(&conf, 4, &cfg);
	ck_assert_int_eq(ost_sched_reconfigure(p.sched, &cfg, T0 + 1011), 0);
	ck_assert_uint_eq(_rank(&p, 3), 1);	/* none: by F alone */
	ck_assert_uint_eq(_rank(&p, 4), 2);
	ck_assert_int_eq(ost_sched_explain(p.sched, 3, 0, &ex), 0);
	ck_assert(!ex.campaign.eligible);	/* still computed, shown */
	ost_explain_free(&ex);
	ck_assert_int_eq(ost_sched_foreach_campaign(p.sched, _f_rises,
						    &last), 0);

	ck_assert_int_eq(osl_conf_set_value(&conf, "Gate", "soft", err,
					    sizeof(err)), 0);
	osl_conf_core(&conf, 4, &cfg);
	ck_assert_int_eq(ost_sched_reconfigure(p.sched, &cfg, T0 + 1012), 0);
	ck_assert_uint_eq(_rank(&p, 4), 1);
	ck_assert_uint_eq(_rank(&p, 3), 2);
	free_part(&p);
}
END_TEST

/* A pass's observations grow past OSL_MAP_MIN, where they move from malloc
 * to a mapping of their own: the contents survive each move, new room is
 * zeroed, and osl_tfree takes either kind back (ASan and valgrind would
 * see a free() of a mapping, or a leak). */
START_TEST(test_obs_vec_mapped)
{
	osl_obs_vec_t vec = { 0 };
	osl_obs_t **idx;
	size_t big = OSL_MAP_MIN / sizeof(osl_obs_t) * 3;
	char *z;
	int i;

	for (i = 0; i < (int) big; i++) {
		osl_obs_t *o = osl_obs_add(&vec);

		ck_assert_uint_eq(o->key, 0);
		o->key = (uint64_t) (big - i);
		o->part = i % 3;
	}
	ck_assert_int_ge(vec.cap, vec.n);
	ck_assert_uint_ge((size_t) vec.cap * sizeof(osl_obs_t), OSL_MAP_MIN);
	for (i = 0; i < vec.n; i++)
		ck_assert_uint_eq(vec.v[i].key, big - i);
	idx = osl_obs_index(&vec);	/* mapped too: n + 1 pointers */
	for (i = 1; i < vec.n; i++)
		ck_assert(idx[i - 1]->part < idx[i]->part ||
			  (idx[i - 1]->part == idx[i]->part &&
			   idx[i - 1]->key < idx[i]->key));
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	osl_tfree(vec.v, vec.cap, sizeof(*vec.v));

	z = osl_tcalloc(OSL_MAP_MIN, 1);	/* mapped, zeroed */
	for (i = 0; i < OSL_MAP_MIN; i += 4096)
		ck_assert_int_eq(z[i], 0);
	osl_tfree(z, OSL_MAP_MIN, 1);
	z = osl_tcalloc(0, 16);			/* from malloc: 1 element */
	osl_tfree(z, 0, 16);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_sync_new,
		test_sync_arrival,
		test_sync_started_finished,
		test_sync_purged,
		test_sync_unseen,
		test_sync_requeued,
		test_sync_array,
		test_sync_array_split,
		test_sync_restored,
		test_sync_ties,
		test_sync_new_scope,
		test_sync_refused,
		test_sync_resize,
		test_sync_alloc_width,
		test_sync_capped,
		test_sync_limit_cut,
		test_sync_nolimit,
		test_sync_requeue_resized,
		test_sync_nice,
		test_sync_gate_none,
		test_obs_vec_mapped,
		NULL
	};

	return ost_check_tests("sync", PLUG_TIMEOUT, tests);
}
