/*****************************************************************************\
 *  check_clock.c - the wall clock against the core's: when a step is a
 *  rebase, that the rebase is applied, logged and written to the event
 *  log, and which state files are too old to load
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "ostrich.h"
#include "osl_clock.h"
#include "osl_evlog.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_sync.h"

static fake_rec_t recs[4];

/* The decision, as a pure function of the two clocks. */
START_TEST(test_skew_rule)
{
	static const struct {
		double core, now, interval;
		bool continuous;
		double want;
	} c[] = {
		{ T0, T0, 30, true, 0 },
		{ T0, T0 - 59, 30, true, 0 },		/* within tolerance */
		{ T0, T0 - 61, 30, true, -61 },		/* stepped back */
		{ T0, T0 - 86400, 30, false, -86400 },	/* even after a load */
		{ T0, T0 + 30, 30, true, 0 },		/* one Interval */
		{ T0, T0 + 3600, 30, true, 0 },		/* at the bound */
		{ T0, T0 + 86400, 30, true, 86400 - 30 },	/* jumped */
		{ T0, T0 + 86400, 30, false, 0 },	/* downtime */
		{ T0, T0 + 5000, 600, true, 0 },	/* < 10 Interval */
		{ T0, T0 + 7000, 600, true, 6400 },
		{ -INFINITY, T0, 30, true, 0 },		/* no event yet */
		{ T0, NAN, 30, true, 0 },
	};
	size_t i;
	int bad = -1;

	for (i = 0; i < sizeof(c) / sizeof(c[0]) && bad < 0; i++)
		if (osl_clock_skew(c[i].core, c[i].now, c[i].interval,
				   c[i].continuous) != c[i].want)
			bad = (int) i;
	ck_assert_msg(bad < 0, "case %d: shift %g", bad, bad < 0 ? 0 :
		      osl_clock_skew(c[bad].core, c[bad].now, c[bad].interval,
				     c[bad].continuous));
}
END_TEST

/* A schedule whose clock ran a day ahead (a forward jump, corrected) is
 * rebased at the next pass: its clock is the wall clock again, the jobs'
 * times moved with it, the step logged as an error and as a "rebase"
 * record; the next check finds nothing. */
START_TEST(test_clock_check_rebases)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[] = { pend(1, 10, T0 + 86400, &recs[1]) };
	ost_job_info_t info;
	char log[512], line[256];
	FILE *f = tmpfile();
	osl_evlog_rec_t r;

	ck_assert_ptr_nonnull(f);
	sync_log(&p, obs, 1, T0 + 86400, OSL_SYNC_ALL, log, sizeof(log));
	(void) ost_sched_advance(p.sched, T0 + 86400);
	ck_assert(ost_sched_now(p.sched) == T0 + 86400);
	stub_nerrors = 0;
	ck_assert(osl_clock_check(&p, T0, 30, f));
	ck_assert_int_eq(stub_nerrors, 1);
	ck_assert_msg(strstr(stub_last_error, "stepped back"), "%s",
		      stub_last_error);
	ck_assert(ost_sched_now(p.sched) == T0);
	ck_assert_int_eq(ost_job_get(p.sched, 1, &info), 0);
	ck_assert(info.submit == T0);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_REBASE);
	ck_assert(r.x == -86400 && r.t == T0);
	fclose(f);
	ck_assert(!osl_clock_check(&p, T0 + 30, 30, NULL));
	ck_assert_int_eq(stub_nerrors, 1);
	free_part(&p);
}
END_TEST

/*
 * A state saved by a clock a day ahead, restored after the clock was
 * corrected: the first pass rebases, and a job that ended while slurmctld
 * was down (after the save, on the corrected clock) is still charged: the
 * restored clock moved with the rebase.  Without the shift its end is
 * before the restored clock, and it would pass for charged and forgotten.
 */
START_TEST(test_clock_rebase_restored)
{
	osl_part_t p = mk_part(8);
	osl_obs_t seed[] = { pend(1, 10, T0 + 86400, &recs[1]) };
	osl_obs_t obs[] = { finished(2, 11, T0 - 20, T0 - 10, T0 - 5, &recs[2]) };
	char log[512];

	sync_log(&p, seed, 1, T0 + 86400, OSL_SYNC_ALL, log, sizeof(log));
	(void) ost_sched_advance(p.sched, T0 + 86400);
	p.restored_at = T0 + 86400 - 60;	/* saved a minute before */
	p.passed = false;			/* a new process */
	p.last_pass = 0;
	ck_assert(osl_clock_check(&p, T0, 30, NULL));
	ck_assert(p.restored_at == T0 - 60);
	(void) sync_log(&p, obs, 1, T0, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_msg(strstr(log, "submit:2 start:2 finish:2"), "%s", log);
	free_part(&p);
}
END_TEST

/* A state file saved more than a week ago is not loaded. */
START_TEST(test_state_stale)
{
	ck_assert(!osl_state_stale(T0, T0));
	ck_assert(!osl_state_stale(T0, T0 + 6 * 86400.0));
	ck_assert(osl_state_stale(T0, T0 + 8 * 86400.0));
	ck_assert(osl_state_stale(T0 - 90 * 86400.0, T0));
	ck_assert(!osl_state_stale(-INFINITY, T0));	/* never advanced */
	ck_assert(!osl_state_stale(T0 + 86400, T0));	/* ahead: a rebase */
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_skew_rule,
		test_clock_check_rebases,
		test_clock_rebase_restored,
		test_state_stale,
		NULL
	};

	return ost_check_tests("clock", PLUG_TIMEOUT, tests);
}
