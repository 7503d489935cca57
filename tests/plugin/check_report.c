/*****************************************************************************\
 *  check_report.c - the campaign report (plugins/lib/osl_report*.c, §26):
 *  §7's stretch of a record, the ring and the open campaigns, the file
 *  both ways, and a campaign followed through a real core, from its
 *  submission to its close.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE	/* asprintf */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_report_track.h"
#include "plug_util.h"

#define A 1001
#define B 1002

static osl_report_camp_t mk(double release, double end, double work,
			    double span, double m)
{
	osl_report_camp_t c = { .release = release, .start = release,
				.end = end, .work = work, .span = span,
				.capacity = m, .vct = NAN, .jobs = 1 };

	strcpy(c.part, "debug");
	return c;
}

/* §7: lb = max(W / m, max_j (t_j - t_c + p_j), 1 s); stretch =
 * max(flow, 1 s) / lb. */
START_TEST(test_stretch)
{
	/* 400 CPU-s on 4 CPUs: lb 100 s; flow 300 s: stretch 3 */
	osl_report_camp_t c = mk(T0, T0 + 300, 400, T0 + 50, 4);

	ck_assert_double_eq(osl_report_lower_bound(&c), 100);
	ck_assert_double_eq(osl_report_stretch(&c), 3);
	ck_assert(isnan(osl_report_vstretch(&c)));
	c.vct = T0 + 150;
	ck_assert_double_eq(osl_report_vstretch(&c), 1.5);
	/* a late job: its arrival + run bounds the flow (span term) */
	c.span = T0 + 250;
	ck_assert_double_eq(osl_report_lower_bound(&c), 250);
	ck_assert_double_eq(osl_report_stretch(&c), 300.0 / 250);
	/* 1 s floors: a campaign of jobs that failed at once, served at
	 * once, has stretch 1, not 0 */
	c = mk(T0, T0, 0, T0, 4);
	ck_assert_double_eq(osl_report_lower_bound(&c), 1);
	ck_assert_double_eq(osl_report_stretch(&c), 1);
	/* no capacity known: m taken as 1, never a division by 0 */
	c = mk(T0, T0 + 10, 5, T0 + 1, 0);
	ck_assert_double_eq(osl_report_lower_bound(&c), 5);
}
END_TEST

/* The ring keeps the last OSL_REPORT_KEEP, oldest first; the open ones
 * are found by (uid, seq) whatever the order they came in. */
START_TEST(test_ring)
{
	osl_report_t r = { 0 };
	osl_report_camp_t c = mk(T0, T0 + 10, 1, T0 + 1, 1), *o;
	int i;

	for (i = 0; i < OSL_REPORT_KEEP + 5; i++) {
		c.seq = (uint32_t) i + 1;
		ck_assert_int_eq(osl_report_push(&r, &c), 0);
	}
	ck_assert_int_eq(r.nring, OSL_REPORT_KEEP);
	ck_assert_uint_eq(r.closed, OSL_REPORT_KEEP + 5);
	ck_assert_uint_eq(osl_report_nth(&r, 0)->seq, 6);
	ck_assert_uint_eq(osl_report_nth(&r, OSL_REPORT_KEEP - 1)->seq,
			  OSL_REPORT_KEEP + 5);
	ck_assert(!osl_report_nth(&r, 3)->open);
	ck_assert_ptr_null(osl_report_open_get(&r, B, 2, false));
	ck_assert_ptr_nonnull(osl_report_open_get(&r, B, 2, true));
	ck_assert_ptr_nonnull(o = osl_report_open_get(&r, A, 7, true));
	ck_assert(o->open && isnan(o->vct) && isinf(o->release));
	o->work = 3;
	ck_assert_ptr_nonnull(osl_report_open_get(&r, A, 1, true));
	ck_assert_int_eq(r.nopen, 3);
	ck_assert_uint_eq(r.open[0].seq, 1);
	ck_assert_uint_eq(r.open[2].uid, B);
	ck_assert_double_eq(osl_report_open_get(&r, A, 7, false)->work, 3);
	osl_report_free(&r);
	ck_assert_int_eq(r.nring + r.nopen, 0);
}
END_TEST

/* The file both ways: exact, a newer format refused, damage said. */
START_TEST(test_file)
{
	osl_report_t r = { 0 };
	const osl_report_t *rp[1] = { &r };
	const char *names[1] = { "debug" };
	osl_report_camp_t c = mk(T0 + 0.25, T0 + 300, 400, T0 + 50, 4), *o;
	osl_report_file_t f;
	char err[256], *t, *t2, *bad;
	size_t len, len2;
	int newer;

	strcpy(c.user, "alice");
	strcpy(c.account, "physics");
	c.vct = T0 + 1.0 / 3;
	c.vseen = true;
	ck_assert_int_eq(osl_report_push(&r, &c), 0);
	o = osl_report_open_get(&r, B, 4, true);
	o->release = T0;
	ck_assert_ptr_nonnull(t = osl_report_format(rp, names, 1, T0, &len));
	ck_assert_int_eq(osl_report_parse(&f, t, len, &newer, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(f.n, 2);
	ck_assert(!f.v[0].open && f.v[1].open);
	ck_assert_str_eq(f.v[0].user, "alice");
	ck_assert_str_eq(f.v[0].account, "physics");
	ck_assert_double_eq(f.v[0].vct, c.vct);	/* exact */
	ck_assert_double_eq(f.v[0].release, c.release);
	ck_assert(f.v[0].vseen);
	ck_assert(isnan(f.v[1].start) && isinf(f.v[1].end));
	ck_assert_str_eq(f.v[1].user, "");
	/* the same bytes again, through the engine's stores */
	osl_report_free(&r);
	ck_assert_int_eq(osl_report_take(&r, &f, "debug"), 2);
	ck_assert_int_eq(osl_report_take(&r, &f, "other"), 0);
	ck_assert_int_eq(osl_report_take(&r, &f, "debug"), 2);
	ck_assert_ptr_nonnull(t2 = osl_report_format(rp, names, 1, T0,
						     &len2));
	ck_assert_uint_eq(len, len2);
	ck_assert_int_eq(memcmp(t, t2, len), 0);
	osl_report_file_free(&f);
	/* a newer format: refused, its version said */
	t[15] = '2';
	ck_assert_int_eq(osl_report_parse(&f, t, len, &newer, err,
					  sizeof(err)), -1);
	ck_assert_int_eq(newer, 2);
	ck_assert_ptr_nonnull(strstr(err, "newer"));
	/* a closed campaign that ends before its release */
	ck_assert_int_gt(asprintf(&bad, "ostrich-report 1\nreport time=1\ncamp part=p state=closed uid=1 seq=1 jobs=1 release=10 start=10 end=5 work=0 span=10 capacity=1 vct=nan vseen=0\nend\n"), 0);
	ck_assert_int_eq(osl_report_parse(&f, bad, strlen(bad), &newer, err,
					  sizeof(err)), -1);
	ck_assert_int_eq(newer, 0);
	ck_assert_ptr_nonnull(strstr(err, "line 3"));
	free(bad);
	free(t);
	free(t2);
	/* a name the file may not hold is left out, the file still parses */
	strcpy(osl_report_nth(&r, 0)->user, "bad name");
	strcpy(osl_report_nth(&r, 0)->account, "caf\xc3\xa9");
	ck_assert_ptr_nonnull(t = osl_report_format(rp, names, 1, T0, &len));
	ck_assert_int_eq(osl_report_parse(&f, t, len, &newer, err,
					  sizeof(err)), 0);
	ck_assert_str_eq(f.v[0].user, "");
	ck_assert_str_eq(f.v[0].account, "");
	osl_report_file_free(&f);
	free(t);
	osl_report_free(&r);
}
END_TEST

/* One pass of the engine on p at now over obs[0..n), as osl_pass.c does
 * it: fold the finished runs (ran seconds each), close, sync, advance,
 * follow V. */
static void _pass(osl_part_t *p, osl_report_t *r, osl_obs_t *obs, int n,
		  double now, double tau)
{
	char log[1024];
	int i;

	for (i = 0; i < n; i++) {
		ost_job_info_t info;

		if (obs[i].st == OSL_FINISHED && obs[i].ran &&
		    !ost_job_get(p->sched, obs[i].key, &info))
			osl_report_job(r, &obs[i], obs[i].runtime,
				       info.campaign, info.submit, "physics");
	}
	(void) osl_report_close(r, p->sched, p->procs, now, tau);
	(void) sync_log(p, obs, n, now, OSL_SYNC_ALL, log, sizeof(log));
	(void) ost_sched_advance(p->sched, now);
	osl_report_virtual(r, p->sched, now);
}

/* A campaign of two jobs on a core: its times, work and V's completion,
 * then closed once past the think time; one cancelled pending never goes
 * into the ring. */
START_TEST(test_track)
{
	osl_part_t p = mk_part(4);
	osl_report_t r = { 0 };
	osl_obs_t o[3];
	const osl_report_camp_t *c;

	o[0] = pend(1, A, T0, NULL);
	o[1] = pend(2, A, T0, NULL);
	o[2] = pend(3, B, T0, NULL);
	_pass(&p, &r, o, 3, T0, 3);
	ck_assert_int_eq(r.nopen, 2);		/* A's and B's campaigns */
	o[0] = running(1, A, T0, T0 + 1, NULL);
	o[1] = running(2, A, T0, T0 + 1, NULL);
	_pass(&p, &r, o, 2, T0 + 2, 3);		/* B's job cancelled */
	ck_assert_int_eq(r.nopen, 2);		/* the core still has it */
	c = osl_report_open_get(&r, A, 1, false);
	ck_assert_ptr_nonnull(c);
	ck_assert(isfinite(c->vct));
	o[0] = finished(1, A, T0, T0 + 1, T0 + 11, NULL);
	o[0].procs = 2;
	o[1] = running(2, A, T0, T0 + 1, NULL);
	_pass(&p, &r, o, 2, T0 + 12, 3);
	o[1] = finished(2, A, T0, T0 + 1, T0 + 21, NULL);
	_pass(&p, &r, o, 2, T0 + 22, 3);
	ck_assert_int_eq(r.nring, 0);		/* within the think time */
	_pass(&p, &r, o, 2, T0 + 24, 3);
	ck_assert_int_eq(r.nring, 0);
	_pass(&p, &r, o, 2, T0 + 30, 3);
	ck_assert_int_eq(r.nring, 1);		/* B's never: it never ran */
	ck_assert_int_eq(r.nopen, 1);
	ck_assert_uint_eq(r.open[0].jobs, 0);
	c = osl_report_nth(&r, 0);
	ck_assert_uint_eq(c->jobs, 2);
	ck_assert_double_eq(c->release, T0);
	ck_assert_double_eq(c->start, T0 + 1);
	ck_assert_double_eq(c->end, T0 + 21);
	ck_assert_double_eq(c->work, 2 * 10 + 1 * 20);
	ck_assert_double_eq(c->span, T0 + 20);
	ck_assert_double_eq(c->capacity, 4);
	ck_assert_str_eq(c->account, "physics");
	/* lb = max(40 / 4, 20, 1) = 20, flow 21 */
	ck_assert_double_eq(osl_report_stretch(c), 21.0 / 20);
	/* V ran A alone on 4 CPUs: its campaign of 40 CPU-s done in V by
	 * the time the pass saw it */
	ck_assert(c->vseen);
	ck_assert(c->vct >= T0 && c->vct <= T0 + 30);
	osl_report_free(&r);
	free_part(&p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_stretch);
	tcase_add_test(tc, test_ring);
	tcase_add_test(tc, test_file);
	tcase_add_test(tc, test_track);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
