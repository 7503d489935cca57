/*****************************************************************************\
 *  check_ledger.c - the usage ledger (plugins/lib/osl_usage.c, §18): what
 *  each pass charges, that no owner's action takes accrued usage back,
 *  that a restart charges the runs of the downtime once; its state file
 *  (osl_ledger_io.c) and the campaigns' stretch (osl_stretch.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>

#include "plug_util.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_stretch.h"
#include "osl_usage.h"
#include "osl_vec.h"

#define A 1001u			/* two users */
#define B 1002u

/* A pass of u over obs[0..n) (sorted here) at now. */
static double upass(osl_usage_t *u, osl_obs_t *obs, int n, double now)
{
	osl_obs_vec_t vec = { .v = obs, .n = n, .cap = n };
	osl_obs_t **idx = osl_obs_index(&vec);
	double c = osl_usage_pass(u, idx, n, now, NULL, NULL);

	osl_tfree(idx, n + 1, sizeof(*idx));
	return c;
}

/* A running observation of q CPUs with a limit of est seconds. */
static osl_obs_t run_q(uint64_t key, uint32_t uid, uint32_t q, double start,
		       double est)
{
	osl_obs_t o = running(key, uid, start - 10, start, NULL);

	o.procs = q;
	o.estimate = est;
	o.limit = est;
	return o;
}

static osl_obs_t fin_q(uint64_t key, uint32_t uid, uint32_t q, double start,
		       double end, double est)
{
	osl_obs_t o = finished(key, uid, start - 10, start, end, NULL);

	o.procs = q;
	o.estimate = est;
	o.limit = est;
	return o;
}

/* Each pass charges what ran since the last; the finish the rest. */
START_TEST(test_accrual)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_q(1, A, 4, T0 + 10, 3600);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 20), 40);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 50), 120);
	ck_assert_double_eq(osl_usage_of(&u, A), 160);
	o = fin_q(1, A, 4, T0 + 10, T0 + 70, 3600);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 80), 80);
	ck_assert_double_eq(osl_usage_of(&u, A), 240);
	/* the record is still shown: never charged again */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 90), 0);
	ck_assert_int_eq(u.ndone, 1);
	/* gone: forgotten */
	ck_assert_double_eq(upass(&u, NULL, 0, T0 + 100), 0);
	ck_assert_int_eq(u.ndone, 0);
	ck_assert_double_eq(osl_usage_total(&u), 240);
	osl_usage_free(&u);
}
END_TEST

/* A run seen only finished (between two passes) is charged once; one
 * that ended before the ledger began is not; nor is the time of a run
 * before the ledger began. */
START_TEST(test_unseen_runs)
{
	osl_usage_t u;
	osl_obs_t o[3];

	osl_usage_init(&u, T0);
	o[0] = fin_q(1, A, 2, T0 + 5, T0 + 15, 3600);	/* 20 */
	o[1] = fin_q(2, A, 2, T0 - 50, T0 - 10, 3600);	/* before: 0 */
	o[2] = run_q(3, B, 1, T0 - 100, 3600);		/* since T0: 30 */
	ck_assert_double_eq(upass(&u, o, 3, T0 + 30), 50);
	ck_assert_double_eq(upass(&u, o, 3, T0 + 30), 0);
	ck_assert_double_eq(osl_usage_of(&u, A), 20);
	ck_assert_double_eq(osl_usage_of(&u, B), 30);
	osl_usage_free(&u);
}
END_TEST

/* Requeue: the first run stays charged up to the requeue, the second is
 * charged too; also when both happen between two passes. */
START_TEST(test_requeue)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_q(7, A, 3, T0 + 10, 3600);
	(void) upass(&u, &o, 1, T0 + 20);		/* 30 */
	o = pend(7, A, T0 + 5, NULL);			/* requeued at 40, */
	o.end = (time_t) (T0 + 40);			/* still completing */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 45), 3 * 20);
	ck_assert_double_eq(osl_usage_of(&u, A), 90);
	/* completed: end cleared, a new submit time (a bound) */
	o = run_q(8, A, 1, T0 + 10, 3600);
	(void) upass(&u, &o, 1, T0 + 20);		/* 10 */
	o = pend(8, A, T0 + 31, NULL);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 45), 11);
	o = run_q(8, A, 1, T0 + 10, 3600);		/* an old record */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 46), 0);
	o = pend(7, A, T0 + 5, NULL);
	o = run_q(7, A, 3, T0 + 100, 3600);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 110), 30);
	/* requeued and started again between two passes */
	o = run_q(7, A, 3, T0 + 200, 3600);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 210), 3 * 90 + 30);
	o = fin_q(7, A, 3, T0 + 200, T0 + 220, 3600);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 230), 30);
	ck_assert_double_eq(osl_usage_of(&u, A), 90 + 21 + 30 + 270 + 30 + 30);
	osl_usage_free(&u);
}
END_TEST

/* An owner's cut of the limit to 0, then the end: what accrued stays,
 * and the finish charges the whole run (§1: never less than the estimate
 * it ran under). */
START_TEST(test_limit_cut)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_q(9, A, 4, T0, 600);
	(void) upass(&u, &o, 1, T0 + 8);		/* 32 */
	o.estimate = o.limit = 0;			/* cut to 0 */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 9), 4);
	o = fin_q(9, A, 4, T0, T0 + 10, 0);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 12), 4);
	ck_assert_double_eq(osl_usage_of(&u, A), 40);
	/* a run that overran its estimate is charged at most it */
	o = run_q(10, B, 1, T0, 60);
	(void) upass(&u, &o, 1, T0 + 100);
	ck_assert_double_eq(osl_usage_of(&u, B), 60);
	o = fin_q(10, B, 1, T0, T0 + 120, 60);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 130), 0);
	osl_usage_free(&u);
}
END_TEST

/* A run as Slurm shows a job without a time limit in a partition of
 * MaxTime=INFINITE: the estimate is DefaultEstimate (20 s here), the
 * enforced limit none. */
static osl_obs_t run_nolimit(uint64_t key, uint32_t uid, uint32_t q,
			     double start)
{
	osl_obs_t o = run_q(key, uid, q, start, 20);

	o.limit = INFINITY;
	return o;
}

/* A job without a limit accrues what it ran, past DefaultEstimate, and
 * its finish charges the rest. */
START_TEST(test_nolimit_accrual)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_nolimit(1, A, 2, T0);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 10), 20);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 30), 40);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 100), 140);
	o = fin_q(1, A, 2, T0, T0 + 120, 20);
	o.limit = INFINITY;
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 125), 40);
	ck_assert_double_eq(osl_usage_of(&u, A), 2 * 120);
	osl_usage_free(&u);
}
END_TEST

/* Requeued at 47 s, a job without a limit is charged 47 s,
 * not DefaultEstimate; while the run completes (Slurm's end) and once it
 * has (the new submit time). */
START_TEST(test_nolimit_requeue)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_nolimit(7, A, 3, T0);
	(void) upass(&u, &o, 1, T0 + 10);
	o = pend(7, A, T0 - 5, NULL);			/* requeued at 47 */
	o.estimate = 20;
	o.end = (time_t) (T0 + 47);
	(void) upass(&u, &o, 1, T0 + 50);
	ck_assert_double_eq(osl_usage_of(&u, A), 3 * 47);
	o = run_nolimit(8, B, 2, T0);
	(void) upass(&u, &o, 1, T0 + 10);
	o = pend(8, B, T0 + 47, NULL);			/* completed */
	o.estimate = 20;
	(void) upass(&u, &o, 1, T0 + 50);
	ck_assert_double_eq(osl_usage_of(&u, B), 2 * 47);
	osl_usage_free(&u);
}
END_TEST

/* An owner's cut of a limitless job's limit below what it ran (and past
 * DefaultEstimate) lowers nothing: the largest enforced limit seen was
 * none, so it is charged what it ran, requeued or finished. */
START_TEST(test_nolimit_cut)
{
	osl_usage_t u;
	osl_obs_t o;

	osl_usage_init(&u, T0);
	o = run_nolimit(9, A, 4, T0);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 100), 400);
	o.limit = o.estimate = 60;			/* cut to 1 min */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 105), 20);
	o = fin_q(9, A, 4, T0, T0 + 110, 60);		/* TIMEOUT */
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 112), 20);
	ck_assert_double_eq(osl_usage_of(&u, A), 4 * 110);
	/* the same, requeued after the cut */
	o = run_nolimit(11, B, 1, T0);
	(void) upass(&u, &o, 1, T0 + 30);
	o.limit = o.estimate = 25;
	(void) upass(&u, &o, 1, T0 + 40);
	o = pend(11, B, T0 - 5, NULL);
	o.limit = o.estimate = 25;
	o.end = (time_t) (T0 + 47);
	(void) upass(&u, &o, 1, T0 + 50);
	ck_assert_double_eq(osl_usage_of(&u, B), 47);
	osl_usage_free(&u);
}
END_TEST

/* The bound is the limit Slurm enforces: the job's own, else the
 * partition's MaxTime, else none; DefaultEstimate is only the estimate.
 * A job without its own limit in a partition of MaxTime=5 min is
 * charged at most 300 s. */
START_TEST(test_maxtime_bound)
{
	osl_usage_t u;
	osl_obs_t o;

	ck_assert_double_eq(osl_enforced_limit(120, 300), 120);
	ck_assert_double_eq(osl_enforced_limit(INFINITY, 300), 300);
	ck_assert(isinf(osl_enforced_limit(INFINITY, INFINITY)));
	ck_assert_double_eq(osl_estimate_of(300, 20), 300);
	ck_assert_double_eq(osl_estimate_of(INFINITY, 20), 20);
	osl_usage_init(&u, T0);
	o = run_q(10, B, 1, T0, 20);
	o.limit = osl_enforced_limit(INFINITY, 300);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 400), 300);
	o = fin_q(10, B, 1, T0, T0 + 420, 20);		/* OverTimeLimit */
	o.limit = osl_enforced_limit(INFINITY, 300);
	ck_assert_double_eq(upass(&u, &o, 1, T0 + 430), 0);
	ck_assert_double_eq(osl_usage_of(&u, B), 300);
	osl_usage_free(&u);
}
END_TEST

/* Cancel of a running job, a hold, an array's update: none takes usage
 * back; a record gone is charged up to the last pass. */
START_TEST(test_cancel_and_gone)
{
	osl_usage_t u;
	osl_obs_t o[2];

	osl_usage_init(&u, T0);
	o[0] = run_q(OSL_ARRAY_KEY(50, 1), A, 2, T0, 3600);
	o[0].group = 50;
	o[1] = run_q(OSL_ARRAY_KEY(50, 2), A, 2, T0, 3600);
	o[1].group = 50;
	(void) upass(&u, o, 2, T0 + 10);		/* 40 */
	o[0] = fin_q(OSL_ARRAY_KEY(50, 1), A, 2, T0, T0 + 15, 3600);
	o[0].group = 50;				/* cancelled at 15 */
	ck_assert_double_eq(upass(&u, o, 2, T0 + 20), 10 + 20);
	/* an owner's update marks nothing: the task is not charged again */
	ck_assert_double_eq(upass(&u, o, 2, T0 + 20), 0);
	/* task 2's record purged before a pass saw it end */
	ck_assert_double_eq(upass(&u, o, 1, T0 + 40), 0);
	ck_assert_double_eq(osl_usage_of(&u, A), 70);
	osl_usage_free(&u);
}
END_TEST

/* Het components are jobs with their own ids: each is charged. */
START_TEST(test_het)
{
	osl_usage_t u;
	osl_obs_t o[2];

	osl_usage_init(&u, T0);
	o[0] = fin_q(20, A, 1, T0, T0 + 30, 3600);
	o[1] = fin_q(21, A, 4, T0, T0 + 30, 3600);
	ck_assert_double_eq(upass(&u, o, 2, T0 + 40), 150);
	osl_usage_free(&u);
}
END_TEST

/* u through its text into a new ledger. */
static void reload(osl_usage_t *u)
{
	char err[128];
	size_t len;
	char *txt = osl_ledger_save(u, &len);
	osl_usage_t v;

	ck_assert_ptr_nonnull(txt);
	osl_usage_init(&v, 0);
	ck_assert_int_eq(osl_ledger_load(&v, txt, len, err, sizeof(err)), 0);
	free(txt);
	osl_usage_free(u);
	*u = v;
}

/* A restart: what accrued stays, the runs of the downtime are charged
 * once, from Slurm's times, the runs charged before are not. */
START_TEST(test_restart)
{
	osl_usage_t u;
	osl_obs_t o[4];

	osl_usage_init(&u, T0);
	o[0] = run_q(1, A, 2, T0, 3600);		/* ends in the gap */
	o[1] = fin_q(2, A, 1, T0, T0 + 5, 3600);	/* charged before */
	o[2] = run_q(3, B, 1, T0, 3600);		/* still running */
	(void) upass(&u, o, 3, T0 + 10);		/* 20 + 5 + 10 */
	reload(&u);
	ck_assert_double_eq(osl_usage_total(&u), 35);
	/* down from T0 + 10 to T0 + 100 */
	o[0] = fin_q(1, A, 2, T0, T0 + 50, 3600);	/* +80 */
	o[3] = fin_q(4, B, 3, T0 + 20, T0 + 40, 3600);	/* +60, in the gap */
	ck_assert_double_eq(upass(&u, o, 4, T0 + 100), 80 + 90 + 60);
	reload(&u);
	ck_assert_double_eq(upass(&u, o, 4, T0 + 110), 10);
	ck_assert_double_eq(osl_usage_of(&u, A), 20 + 5 + 80);
	ck_assert_double_eq(osl_usage_of(&u, B), 110 + 60);
	osl_usage_free(&u);
}
END_TEST

static long load_str(osl_usage_t *u, const char *txt, char *err, size_t size)
{
	return osl_ledger_load(u, txt, strlen(txt), err, size);
}

/* The file: exact round trip; older, newer and damaged ones. */
START_TEST(test_file)
{
	osl_usage_t u, v;
	osl_obs_t o = run_q(5, A, 3, T0, 3600);
	char err[128], *txt, *bad;
	size_t len, i;

	osl_usage_init(&u, T0 + 0.1);
	(void) upass(&u, &o, 1, T0 + 1.0 / 3);
	txt = osl_ledger_save(&u, &len);
	osl_usage_init(&v, 0);
	ck_assert_int_eq(osl_ledger_load(&v, txt, len, err, sizeof(err)), 0);
	ck_assert(osl_usage_of(&v, A) == osl_usage_of(&u, A));
	ck_assert(v.since == u.since && v.runs[0].run == u.runs[0].run);
	/* every truncation is refused (cut in the first line: v kept) or
	 * salvaged (test_salvage_truncated), never loaded as intact */
	for (i = 0; i < len; i++) {
		long rc = osl_ledger_load(&v, txt, i, err, sizeof(err));

		OST_CHECK(rc == -1 || rc == OSL_LEDGER_SALVAGED,
			  "truncation at %zu loaded: %ld", i, rc);
		OST_CHECK(osl_usage_of(&v, A) <= osl_usage_of(&u, A),
			  "truncation at %zu: %g", i, osl_usage_of(&v, A));
	}
	ck_assert_int_eq(osl_ledger_load(&v, txt, len, err, sizeof(err)), 0);
	bad = malloc(len + 1);
	memcpy(bad, txt, len);
	bad[15] = '9';					/* ostrich-ledger 9 */
	ck_assert_int_eq(osl_ledger_load(&v, bad, len, err, sizeof(err)), 9);
	ck_assert(strstr(err, "newer"));
	memcpy(bad, "ostrich-state 1", 15);		/* a core state */
	ck_assert_int_eq(osl_ledger_load(&v, bad, len, err, sizeof(err)), -1);
	free(bad);
	ck_assert_int_eq(load_str(&v, "ostrich-ledger 1\nsince=0x1p+0 clock=0x1p+0\nuser uid=2 charged=0x1p+0\nuser uid=1 charged=0x1p+0\nend records=3\n",
				  err, sizeof(err)), OSL_LEDGER_SALVAGED);
	ck_assert(strstr(err, "order"));
	ck_assert_int_eq(load_str(&v, "ostrich-ledger 1\nsince=0x1p+0 clock=0x1p+0\nuser uid=1 charged=-0x1p+0\nend records=2\n",
				  err, sizeof(err)), OSL_LEDGER_SALVAGED);
	ck_assert(strstr(err, "line 3"));
	ck_assert_int_eq(load_str(&v, "ostrich-ledger 1\nsince=0x1p+0 clock=0x1p+0\nuser uid=1 charged=0x1p+0\nend records=2\n",
				  err, sizeof(err)), 0);
	free(txt);
	osl_usage_free(&u);
	osl_usage_free(&v);
}
END_TEST

/* A ledger of two users, a run and a done run, as text (malloc). */
static char *three_kinds(osl_usage_t *u, size_t *len)
{
	osl_obs_t o[3];

	osl_usage_init(u, T0);
	o[0] = run_q(5, A, 3, T0, 3600);
	o[1] = fin_q(6, B, 2, T0, T0 + 4, 3600);
	o[2] = fin_q(7, B, 1, T0, T0 + 2, 3600);
	(void) upass(u, o, 3, T0 + 10);		/* A 30, B 10 */
	return osl_ledger_save(u, len);
}

/* The text txt with its line n (1-based) replaced by line (NULL:
 * removed), malloc'ed. */
static char *edit(const char *txt, int n, const char *line)
{
	char *out = malloc(strlen(txt) + (line ? strlen(line) : 0) + 2);
	const char *p = txt;
	size_t k = 0;
	int i;

	for (i = 1; *p; i++) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t) (nl - p) + 1 : strlen(p);

		if (i != n) {
			memcpy(out + k, p, l);
			k += l;
		} else if (line) {
			k += sprintf(out + k, "%s\n", line);
		}
		p += l;
	}
	out[k] = '\0';
	return out;
}

/* A wrong record count loses nothing: every record line that
 * parses is kept, the load says it was damaged. */
START_TEST(test_salvage_count)
{
	osl_usage_t u, v;
	char err[256], *txt, *bad;
	size_t len;

	txt = three_kinds(&u, &len);
	bad = edit(txt, 8, "end records=1");	/* was 6 */
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(load_str(&v, bad, err, sizeof(err)),
			 OSL_LEDGER_SALVAGED);
	ck_assert_msg(strstr(err, "count"), "%s", err);
	ck_assert_double_eq(osl_usage_of(&v, A), 30);
	ck_assert_double_eq(osl_usage_of(&v, B), 10);
	ck_assert_int_eq(v.nruns, 1);
	ck_assert_int_eq(v.ndone, 2);
	ck_assert(v.since == u.since);		/* nothing lost: kept */
	free(bad);
	free(txt);
	osl_usage_free(&u);
	osl_usage_free(&v);
}
END_TEST

/* A truncated file: the whole lines before the cut are kept; the rest
 * (maybe runs) is lost, so runs the ledger no longer knows are charged
 * from its last pass on, never twice.  Cut inside the first line: not a
 * ledger. */
START_TEST(test_salvage_truncated)
{
	osl_usage_t u, v;
	osl_obs_t o;
	char err[256], *txt;
	size_t len, i;
	long rc;

	txt = three_kinds(&u, &len);
	for (i = 0; i < len; i++) {
		osl_usage_init(&v, T0 + 500);
		rc = osl_ledger_load(&v, txt, i, err, sizeof(err));
		OST_CHECK(rc == -1 || rc == OSL_LEDGER_SALVAGED,
			  "truncation at %zu: %ld", i, rc);
		OST_CHECK(rc == -1 || osl_usage_total(&v) <= 40,
			  "truncation at %zu charged %g", i,
			  osl_usage_total(&v));
		osl_usage_free(&v);
	}
	/* cut in the run line: the users stay, the run is lost */
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(osl_ledger_load(&v, txt, strstr(txt, "run ") + 8 -
					 txt, err, sizeof(err)),
			 OSL_LEDGER_SALVAGED);
	ck_assert_double_eq(osl_usage_of(&v, A), 30);
	ck_assert_double_eq(osl_usage_of(&v, B), 10);
	ck_assert_int_eq(v.nruns, 0);
	ck_assert(v.since == T0 + 10);		/* its last pass */
	/* the lost run 5 goes on from the last pass: 3 x 10 more, not 60 */
	o = run_q(5, A, 3, T0, 3600);
	ck_assert_double_eq(upass(&v, &o, 1, T0 + 20), 30);
	ck_assert_double_eq(osl_usage_of(&v, A), 60);
	osl_usage_free(&v);
	free(txt);
	osl_usage_free(&u);
}
END_TEST

/* A garbage line in the middle is dropped, logged by number; the lines
 * around it are kept.  Records out of order are sorted; a user twice
 * keeps its smaller total, a run twice its larger charge. */
START_TEST(test_salvage_garbage)
{
	osl_usage_t u, v;
	char err[256], *txt, *bad;
	size_t len;

	txt = three_kinds(&u, &len);
	bad = edit(txt, 4, "user uid=1002 char\001ed=0x1p+3");
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(load_str(&v, bad, err, sizeof(err)),
			 OSL_LEDGER_SALVAGED);
	ck_assert_msg(strstr(err, "line 4"), "%s", err);
	ck_assert_double_eq(osl_usage_of(&v, A), 30);
	ck_assert_double_eq(osl_usage_of(&v, B), 0);	/* its line lost */
	ck_assert_int_eq(v.nruns, 1);
	ck_assert_int_eq(v.ndone, 2);
	ck_assert(v.since == u.since);		/* only a user line lost */
	osl_usage_free(&v);
	free(bad);
	/* the second line unusable: begins at the caller's time */
	bad = edit(txt, 2, "since=garbage");
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(load_str(&v, bad, err, sizeof(err)),
			 OSL_LEDGER_SALVAGED);
	ck_assert(v.since == T0 + 500 && v.clock == T0 + 500);
	ck_assert_double_eq(osl_usage_total(&v), 40);
	osl_usage_free(&v);
	free(bad);
	osl_usage_init(&v, T0);
	ck_assert_int_eq(load_str(&v, "ostrich-ledger 1\nsince=0x1p+0 clock=0x1p+1\nuser uid=2 charged=0x1p+2\nuser uid=1 charged=0x1p+0\nuser uid=2 charged=0x1p+1\nrun key=9 uid=1 q=1 start=0 run=0x1p+0 cap=inf\nrun key=9 uid=1 q=1 start=0 run=0x1p+1 cap=inf\nend records=6\n",
				  err, sizeof(err)), OSL_LEDGER_SALVAGED);
	ck_assert_int_eq(v.nusers, 2);
	ck_assert_double_eq(osl_usage_of(&v, 1), 1);
	ck_assert_double_eq(osl_usage_of(&v, 2), 2);
	ck_assert_int_eq(v.nruns, 1);
	ck_assert_double_eq(v.runs[0].run, 2);
	osl_usage_free(&v);
	free(txt);
	osl_usage_free(&u);
}
END_TEST

/*
 * A read error other than a missing file (EIO; a directory in its place
 * gives EISDIR) never leads to a save over the file: the ledger stays
 * unread, charges nothing and does not serialize until a read succeeds,
 * which then restores it whole.  A missing file gives an empty ledger.
 */
START_TEST(test_unread)
{
	osl_usage_t u, v;
	osl_obs_t o = run_q(5, A, 3, T0, 3600);
	char err[256], *txt;
	size_t len, n;

	txt = three_kinds(&u, &len);
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(osl_ledger_take(&v, NULL, 0, EIO, err, sizeof(err)),
			 OSL_LEDGER_UNREAD);
	ck_assert(v.unread);
	ck_assert_msg(strstr(err, "Input/output"), "%s", err);
	ck_assert_double_eq(upass(&v, &o, 1, T0 + 600), 0);
	ck_assert_int_eq(v.nruns, 0);
	ck_assert_ptr_null(osl_ledger_save(&v, &n));	/* never saved */
	/* the next read works: the file's ledger, whole */
	ck_assert_int_eq(osl_ledger_take(&v, txt, len, 0, err, sizeof(err)),
			 0);
	ck_assert(!v.unread);
	ck_assert_double_eq(osl_usage_total(&v), 40);
	free(osl_ledger_save(&v, &n));
	ck_assert_uint_eq(n, len);
	osl_usage_free(&v);
	/* missing: an empty ledger, saved as any */
	osl_usage_init(&v, T0 + 500);
	ck_assert_int_eq(osl_ledger_take(&v, NULL, 0, ENOENT, err,
					 sizeof(err)), OSL_LEDGER_MISSING);
	ck_assert(!v.unread);
	free(osl_ledger_save(&v, &n));
	osl_usage_free(&v);
	free(txt);
	osl_usage_free(&u);
}
END_TEST

/* Buckets, and a campaign closed once over (§7 on the partition). */
START_TEST(test_stretch)
{
	osl_part_t p = mk_part(4);
	osl_stretch_t h = { 0 };
	osl_obs_t o = fin_q(1, A, 4, T0 + 10, T0 + 110, 3600);

	osl_stretch_add(&h, 1);
	osl_stretch_add(&h, 2.5);
	osl_stretch_add(&h, 1e9);
	ck_assert_uint_eq(h.bucket[0], 1);
	ck_assert_uint_eq(h.bucket[3], 1);
	ck_assert_uint_eq(h.bucket[OSL_STRETCH_NB - 1], 1);
	/* submitted at T0, waited 10 s, ran 100 s on the whole machine */
	osl_stretch_job(&h, &o, 100, 1, T0);
	ck_assert_int_eq(osl_stretch_close(&h, &p, T0 + 200, 600), 0);
	ck_assert_int_eq(osl_stretch_close(&h, &p, T0 + 800, 600), 1);
	ck_assert_uint_eq(h.count, 4);
	ck_assert_double_eq_tol(h.sum, 1 + 2.5 + 1e9 + 1.1, 1e-6);
	ck_assert_int_eq(h.n, 0);
	osl_stretch_free(&h);
	free_part(&p);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_accrual,
		test_unseen_runs,
		test_requeue,
		test_limit_cut,
		test_nolimit_accrual,
		test_nolimit_requeue,
		test_nolimit_cut,
		test_maxtime_bound,
		test_cancel_and_gone,
		test_het,
		test_restart,
		test_file,
		test_salvage_count,
		test_salvage_truncated,
		test_salvage_garbage,
		test_unread,
		test_stretch,
		NULL
	};

	return ost_check_tests("ledger", PLUG_TIMEOUT, tests);
}
