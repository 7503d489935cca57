/*****************************************************************************\
 *  check_state_files.c - the state files' bad days: the version of a file, where
 *  an unusable file is kept (never over earlier evidence), how many corrupt
 *  copies stay, the rate-limited log of failed saves, the priority of a
 *  submission during a save
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "ostrich.h"
#include "osl_aside.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_ratelim.h"
#include "osl_vec.h"

#define PATH "/var/spool/slurm/ostrich_state.debug"

/* The version parser agrees with what the core writes. */
START_TEST(test_version)
{
	osl_part_t p = mk_part(4);
	char *buf = NULL;
	size_t len = 0;

	ost_config_t cfg;
	ost_sched_t *s;

	ck_assert_int_eq(ost_sched_save(p.sched, &buf, &len), 0);
	ck_assert_int_eq(osl_state_version(buf, len), 1);	/* flat */
	free(buf);
	free_part(&p);
	/* nested (§21): version 2 */
	ost_config_init(&cfg);
	cfg.procs = 4;
	cfg.hierarchy = OST_HIER_ACCOUNTS;
	s = ost_sched_create(&cfg);
	ck_assert_int_eq(ost_acct_declare(s, 1, 0, 1.0, 0), 0);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_int_eq(osl_state_version(buf, len), 2);
	free(buf);
	ost_sched_destroy(s);
	/* a lead or Overdue=restart (§24, §27): the newest, which a damaged
	 * file of is corrupt, not newer */
	ost_config_init(&cfg);
	cfg.procs = 4;
	cfg.lead = OST_LEAD_CAP;
	cfg.overdue = OST_OVERDUE_RESTART;
	s = ost_sched_create(&cfg);
	ck_assert_int_eq(ost_sched_save(s, &buf, &len), 0);
	ck_assert_int_eq(osl_state_version(buf, len), OSL_STATE_FORMAT);
	free(buf);
	ost_sched_destroy(s);

	ck_assert_int_eq(osl_state_version("ostrich-state 2\nx", 17), 2);
	ck_assert_int_eq(osl_state_version("ostrich-state 17\n", 17), 17);
	ck_assert_int_eq(osl_state_version("ostrich-state 1", 15), -1);
	ck_assert_int_eq(osl_state_version("ostrich-state \n", 15), -1);
	ck_assert_int_eq(osl_state_version("ostrich-state 1junk\n", 20), -1);
	ck_assert_int_eq(osl_state_version("ostrich-state -1\n", 17), -1);
	ck_assert_int_eq(osl_state_version("ostrich-state 1234567890\n", 25),
			 -1);
	ck_assert_int_eq(osl_state_version("garbage", 7), -1);
	ck_assert_int_eq(osl_state_version("", 0), -1);
}
END_TEST

/* osl_talloc, the save's memory: the state text of a real save, grown
 * through the block sizes on both sides of OSL_MAP_MIN and back, keeps
 * its bytes; the text a save hands back is the one ost_sched_save gives. */
START_TEST(test_talloc)
{
	static const size_t sizes[] = { 100, 4096, OSL_MAP_MIN - 1,
					OSL_MAP_MIN, 3 * OSL_MAP_MIN + 5,
					40 * OSL_MAP_MIN, OSL_MAP_MIN - 1, 64 };
	osl_part_t p = mk_part(4);
	char *ref = NULL, *buf = NULL;
	size_t rlen = 0, len = 0, cap = 0, old = 0, i, k;
	unsigned char *b = NULL;

	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		size_t keep = old < sizes[i] ? old : sizes[i];

		b = osl_talloc.resize(b, old, sizes[i], NULL);
		ck_assert_ptr_nonnull(b);
		for (k = 0; k < keep; k++)
			ck_assert_uint_eq(b[k], (unsigned char) (k * 7 + 1));
		for (k = keep; k < sizes[i]; k++)
			b[k] = (unsigned char) (k * 7 + 1);
		old = sizes[i];
	}
	osl_talloc.release(b, old, NULL);

	for (i = 0; i < 3000; i++) {	/* a text of ~300 KB: mapped */
		ost_job_desc_t d = { .id = 10 + i, .uid = 1 + i % 50,
				     .procs = 1, .estimate = 60 + i };

		ck_assert_int_eq(ost_job_submit(p.sched, &d, 1, NULL), 0);
	}
	ck_assert_int_eq(ost_sched_save(p.sched, &ref, &rlen), 0);
	ck_assert_int_eq(ost_sched_save_with(p.sched, &osl_talloc, &buf, &len,
					     &cap), 0);
	ck_assert_uint_gt(cap, OSL_MAP_MIN);
	ck_assert_uint_eq(len, rlen);
	ck_assert_int_eq(memcmp(buf, ref, len + 1), 0);
	osl_talloc.release(buf, cap, NULL);
	free(ref);
	free_part(&p);
}
END_TEST

/* Names taken, for _exists(). */
static const char *taken[8];

static bool _exists(const char *path)
{
	int i;

	for (i = 0; i < 8 && taken[i]; i++)
		if (!strcmp(taken[i], path))
			return true;
	return false;
}

/* A newer version goes to .vN; a corrupt file (bad magic, older or equal
 * version that failed to load) to .bad.WHEN, then .bad.WHEN.1, .2... when
 * earlier evidence has that name. */
START_TEST(test_aside_names)
{
	/* one past the newest this core reads (OSL_STATE_FORMAT = 5) */
	const char *newer = "ostrich-state 6\nwhatever follows\n";
	const char *corrupt = "ostrich-state 1\nconfig procs=\xff\n";
	char *n;

	memset(taken, 0, sizeof(taken));
	ck_assert_int_eq(OSL_STATE_FORMAT + 1, 6);
	n = osl_aside_path(PATH, newer, strlen(newer), 1700000000, _exists);
	ck_assert_str_eq(n, PATH ".v6");
	free(n);
	/* a damaged file of a version this core writes (3: a lowering, 4: a
	 * lead, 5: Lead=cap) is evidence, not a newer format */
	n = osl_aside_path(PATH, "ostrich-state 3\nconfig procs=\xff\n", 31,
			   1700000000, _exists);
	ck_assert_str_eq(n, PATH ".bad.1700000000");
	free(n);

	n = osl_aside_path(PATH, corrupt, strlen(corrupt), 1700000000,
			   _exists);
	ck_assert_str_eq(n, PATH ".bad.1700000000");
	free(n);
	n = osl_aside_path(PATH, "\0\0\0", 3, 1700000000, _exists);
	ck_assert_str_eq(n, PATH ".bad.1700000000");
	free(n);

	taken[0] = PATH ".bad.1700000000";
	taken[1] = PATH ".bad.1700000000.1";
	n = osl_aside_path(PATH, corrupt, strlen(corrupt), 1700000000,
			   _exists);
	ck_assert_str_eq(n, PATH ".bad.1700000000.2");
	free(n);
	/* a newer-version copy is not evidence: replaced by the newest */
	taken[2] = PATH ".v6";
	n = osl_aside_path(PATH, newer, strlen(newer), 1700000000, _exists);
	ck_assert_str_eq(n, PATH ".v6");
	free(n);
}
END_TEST

/* The oldest corrupt copies go first, by time then by counter. */
START_TEST(test_aside_prune)
{
	char *names[] = {
		PATH ".bad.300", PATH ".bad.100.2", PATH ".bad.200",
		PATH ".bad.100", PATH ".bad.100.1", PATH ".bad.1000",
	};
	const char *want[] = {
		PATH ".bad.100", PATH ".bad.100.1", PATH ".bad.100.2",
		PATH ".bad.200", PATH ".bad.300", PATH ".bad.1000",
	};
	int i, bad = -1;

	ck_assert_int_eq(osl_aside_prune(names, 6, 5), 1);
	for (i = 0; i < 6 && bad < 0; i++)
		if (strcmp(names[i], want[i]))
			bad = i;
	ck_assert_msg(bad < 0, "position %d: %s", bad, names[bad]);
	ck_assert_int_eq(osl_aside_prune(names, 6, 2), 4);
	ck_assert_int_eq(osl_aside_prune(names, 3, 5), 0);
	ck_assert_int_eq(osl_aside_prune(NULL, 0, 5), 0);
}
END_TEST

/*
 * A save failing every second for an hour is logged 7 times (at 0, 600,
 * ... 3600 s), each later message with the 599 failures not logged; the
 * recovery once, with the count; a new failure after it at once.
 */
START_TEST(test_ratelim)
{
	osl_ratelim_t r = { 0 };
	uint64_t quiet = 99, failures = 0, q[16];
	int t, logged = 0, bad = -1;

	ck_assert(!osl_ratelim_ok(&r, &failures));
	for (t = 0; t <= 3600; t++)
		if (osl_ratelim_fail(&r, T0 + t, OSL_RATELIM_PERIOD,
				     &quiet)) {
			ck_assert_int_lt(logged, 16);
			q[logged++] = quiet;
		}
	ck_assert_int_eq(logged, 7);
	for (t = 1; t < logged && bad < 0; t++)
		if (q[t] != 599)
			bad = t;
	ck_assert_msg(q[0] == 0 && bad < 0, "message %d: %llu quiet", bad,
		      (unsigned long long) q[bad < 0 ? 0 : bad]);
	ck_assert(osl_ratelim_ok(&r, &failures));
	ck_assert_uint_eq(failures, 3601);
	ck_assert(!osl_ratelim_ok(&r, &failures));
	ck_assert(osl_ratelim_fail(&r, T0 + 3601, OSL_RATELIM_PERIOD,
				   &quiet));
	ck_assert_uint_eq(quiet, 0);
	/* a clock stepped back does not silence the log */
	ck_assert(osl_ratelim_fail(&r, T0, OSL_RATELIM_PERIOD, &quiet));
}
END_TEST

/* During a save a submission keeps a value a pass gave it, else ranks
 * below every ranked job until the pass. */
START_TEST(test_deferred_priority)
{
	ck_assert_uint_eq(osl_prio_deferred(0), OSL_PRIO_LO - 1);
	ck_assert_uint_eq(osl_prio_deferred(1), OSL_PRIO_LO - 1);
	ck_assert_uint_eq(osl_prio_deferred(0xfffeffffu), OSL_PRIO_LO - 1);
	ck_assert_uint_eq(osl_prio_deferred(OSL_PRIO_TOP), OSL_PRIO_LO - 1);
	ck_assert_uint_eq(osl_prio_deferred(OSL_PRIO_LO), OSL_PRIO_LO);
	ck_assert_uint_eq(osl_prio_deferred(OSL_PRIO_TOP - 1),
			  OSL_PRIO_TOP - 1);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_version,
		test_talloc,
		test_aside_names,
		test_aside_prune,
		test_ratelim,
		test_deferred_priority,
		NULL
	};

	return ost_check_tests("state_files", PLUG_TIMEOUT, tests);
}
