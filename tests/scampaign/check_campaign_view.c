/*****************************************************************************\
 *  check_campaign_view.c - scampaign without Slurm: campaigns rebuilt from job
 *  summaries (grouping, order), the --explain text, -o and --json output
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ck_run.h"
#include "campaigns.h"
#include "print.h"

/* 2026-11-21 23:27:22 UTC: the scene of the live demo */
#define NOW 1795303642.0

/* One job of user u, campaign c, rank r of p pending (r = 0: running). */
static sc_job_t _job(uint32_t id, const char *part, sc_state_t st,
		     const char *u, uint32_t c, uint64_t r, uint64_t p,
		     double vct)
{
	sc_job_t j;

	memset(&j, 0, sizeof(j));
	j.job_id = id;
	snprintf(j.partition, sizeof(j.partition), "%s", part);
	j.state = st;
	j.has_summary = true;
	snprintf(j.sum.user, sizeof(j.sum.user), "%s", u);
	j.sum.campaign = c;
	j.sum.rank = r;
	j.sum.pending = p;
	j.sum.vct = vct;
	j.sum.share = 1.0 / 3;
	j.sum.mode = OST_MODE_OSTRICH;
	return j;
}

/*
 * The demo's queue in partition debug: alice's 8 running and 4 pending
 * jobs (ranks 6-9), bob's 2 (ranks 1-2), carol's 3 (ranks 3-5); plus one
 * finished job of alice's and one job of bob in partition other.
 */
static size_t _scene(sc_job_t *v)
{
	size_t n = 0;
	uint32_t i;

	for (i = 1; i <= 8; i++)
		v[n++] = _job(i, "debug", SC_RUNNING, "alice", 1, 0, 9,
			      NOW + 219);
	for (i = 9; i <= 12; i++)
		v[n++] = _job(i, "debug", SC_PENDING, "alice", 1, i - 3, 9,
			      NOW + 219);
	v[n++] = _job(13, "debug", SC_PENDING, "bob", 1, 1, 9, NOW + 41);
	v[n++] = _job(14, "debug", SC_PENDING, "bob", 1, 2, 9, NOW + 41);
	for (i = 15; i <= 17; i++)
		v[n++] = _job(i, "debug", SC_PENDING, "carol", 1, i - 12, 9,
			      NOW + 71);
	v[n++] = _job(18, "other", SC_PENDING, "bob", 1, 1, 1, NOW + 20);
	v[n++] = _job(19, "debug", SC_DONE, "alice", 1, 0, 3, NAN);
	v[n] = _job(20, "debug", SC_PENDING, "dave", 1, 1, 9, NOW);
	v[n++].has_summary = false;	/* held: no summary, not grouped */
	return n;
}

/* Run sc_explain on jobs[0..n) for job id; the text in a static buffer. */
static const char *_explain(const sc_job_t *jobs, size_t n, uint32_t id,
			    int *rc)
{
	static char *text = NULL;
	size_t len = 0, i;
	FILE *fp;

	free(text);
	text = NULL;
	fp = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(fp);
	for (i = 0; i < n && jobs[i].job_id != id; i++)
		;
	ck_assert_uint_lt(i, n);
	*rc = sc_explain(jobs, n, &jobs[i], NOW, fp);
	fclose(fp);
	return text;
}

START_TEST(test_group_counts_and_order)
{
	sc_job_t v[32];
	size_t n = _scene(v), nc;
	sc_campaign_t *cs;

	ck_assert_int_eq(sc_group(v, n, &cs, &nc), 0);
	ck_assert_uint_eq(nc, 4);
	/* debug by first rank: bob 1, carol 3, alice 6; then other */
	ck_assert_str_eq(cs[0].user, "bob");
	ck_assert_uint_eq(cs[0].pending, 2);
	ck_assert_uint_eq(cs[0].first_rank, 1);
	ck_assert_str_eq(cs[1].user, "carol");
	ck_assert_uint_eq(cs[1].first_rank, 3);
	ck_assert_str_eq(cs[2].user, "alice");
	ck_assert_uint_eq(cs[2].pending, 4);
	ck_assert_uint_eq(cs[2].running, 8);
	ck_assert_uint_eq(cs[2].done, 1);
	ck_assert_uint_eq(cs[2].first_rank, 6);
	ck_assert_uint_eq(cs[2].partition_pending, 9);
	/* a finished job's stale summary does not override the live ones */
	ck_assert_double_eq(cs[2].vct, NOW + 219);
	ck_assert_str_eq(cs[3].partition, "other");
	ck_assert_str_eq(cs[3].user, "bob");
	ck_assert_uint_eq(cs[3].partition_pending, 1);
	free(cs);
}
END_TEST

START_TEST(test_group_campaigns_apart)
{
	sc_job_t v[4];
	size_t nc;
	sc_campaign_t *cs;

	/* alice's campaign 2 has nothing pending: after campaigns that do,
	 * then by (user, seq) */
	v[0] = _job(1, "debug", SC_RUNNING, "alice", 2, 0, 1, NOW + 9);
	v[1] = _job(2, "debug", SC_PENDING, "zoe", 1, 1, 1, NOW + 5);
	v[2] = _job(3, "debug", SC_DONE, "alice", 1, 0, 1, NOW);
	ck_assert_int_eq(sc_group(v, 3, &cs, &nc), 0);
	ck_assert_uint_eq(nc, 3);
	ck_assert_str_eq(cs[0].user, "zoe");
	ck_assert_str_eq(cs[1].user, "alice");
	ck_assert_uint_eq(cs[1].seq, 1);
	ck_assert_uint_eq(cs[1].done, 1);
	ck_assert_uint_eq(cs[2].seq, 2);
	ck_assert_uint_eq(cs[2].first_rank, 0);
	free(cs);
	ck_assert_int_eq(sc_group(v, 0, &cs, &nc), 0);
	ck_assert_uint_eq(nc, 0);
	free(cs);
}
END_TEST

START_TEST(test_explain_behind_other_campaign)
{
	sc_job_t v[32];
	size_t n = _scene(v);
	int rc;
	const char *t = _explain(v, n, 17, &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "Job 17 of carol waits in partition "
				     "debug: rank 5 of 9 pending jobs.\n"));
	ck_assert_ptr_nonnull(strstr(t, "It belongs to carol's campaign 1."));
	ck_assert_ptr_nonnull(strstr(t, "carol gets 33% of it and this "
				     "campaign would be complete at 23:28:33 "
				     "(in 71 s)."));
	ck_assert_ptr_nonnull(strstr(t, "\n  bob          campaign 1       2 "
				     "pending  would complete at 23:28:03\n"));
	/* alice's campaign is behind; bob's campaign in other is elsewhere */
	ck_assert_ptr_null(strstr(t, "alice"));
	ck_assert_ptr_null(strstr(t, "not visible"));
	ck_assert_ptr_nonnull(strstr(t, "reaches the head of the queue "
				     "around 23:28:03 (in 41 s)"));
}
END_TEST

/*
 * PrivateData=jobs: carol sees only her jobs, whose summaries (view=own)
 * rank them among her own: her third job is rank 3 of 3.  Nothing tells
 * how many of the others' jobs wait, nor anyone's share.
 */
START_TEST(test_explain_private_data)
{
	sc_job_t v[32], mine[8];
	size_t n = _scene(v), m = 0, i;
	int rc;
	const char *t;

	for (i = 0; i < n; i++)	/* what carol sees with PrivateData=jobs */
		if (!strcmp(v[i].sum.user, "carol")) {
			mine[m] = v[i];
			mine[m].own = true;
			mine[m].sum.rank = m + 1;
			mine[m].sum.pending = 3;
			mine[m++].sum.share = 0;
		}
	t = _explain(mine, m, 17, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "rank 3 of carol's 3 pending jobs"));
	ck_assert_ptr_nonnull(strstr(t, "2 of carol's own pending jobs"));
	ck_assert_ptr_null(strstr(t, "bob"));
	ck_assert_ptr_null(strstr(t, "Ahead of it"));
	ck_assert_ptr_null(strstr(t, " 9 "));
	ck_assert_ptr_null(strstr(t, "%"));
	ck_assert_ptr_null(strstr(t, "head of the queue"));
}
END_TEST

/* The width of §19 read back and put in words: billing terms with their
 * weights, CPUs, the dominant share; a summary without it has none. */
START_TEST(test_summary_width)
{
	sc_job_t j;
	char buf[256];

	memset(&j, 0, sizeof(j));
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=1/2 vct=none "
				  "share=0.50 mode=ostrich width=17 "
				  "unit=billing bill=cpu:1,gpu:4x4", &j));
	ck_assert_uint_eq(j.width, 17);
	ck_assert_str_eq(sc_width_str(&j, buf, sizeof(buf)),
			 "17 billing units: 1 CPU + 4 GPU \u00d7 4");
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=0/2 "
				  "mode=ostrich width=4 unit=cpu", &j));
	ck_assert_str_eq(sc_width_str(&j, buf, sizeof(buf)), "4 CPUs");
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=0/2 "
				  "mode=ostrich width=16 unit=dominant "
				  "bill=gpu:4/16", &j));
	ck_assert_str_eq(sc_width_str(&j, buf, sizeof(buf)),
			 "16 dominant units: 4/16 GPU of the partition's, "
			 "its dominant share");
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=0/2 "
				  "mode=ostrich width=1 unit=billing "
				  "bill=mem:1000x0.001", &j));
	ck_assert_str_eq(sc_width_str(&j, buf, sizeof(buf)),
			 "1 billing unit: 1000 MB of memory \u00d7 0.001");
	/* cut to fit, never past the buffer */
	ck_assert_str_eq(sc_width_str(&j, buf, 8), "1 billi");
	/* older lines, and a width= without a unit */
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=1/9 vct=none "
				  "share=0.50 mode=ostrich", &j));
	ck_assert_uint_eq(j.width, 0);
	ck_assert_str_eq(sc_width_str(&j, buf, sizeof(buf)), "");
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=1/9 vct=none "
				  "share=0.50 mode=ostrich width=x3 unit=cpu",
				  &j));
	ck_assert_uint_eq(j.width, 0);
}
END_TEST

/* --explain says the width only when it is not CPUs: a running job in
 * billing units gets a second line, in CPUs the one line it always had. */
START_TEST(test_explain_width)
{
	sc_job_t j;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	memset(&j, 0, sizeof(j));
	j.job_id = 7;
	j.state = SC_RUNNING;
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=0/2 "
				  "mode=ostrich width=17 unit=billing "
				  "bill=cpu:1,gpu:4x4", &j));
	fp = open_memstream(&text, &len);
	ck_assert_int_eq(sc_explain(&j, 1, &j, 0, fp), 0);
	fclose(fp);
	ck_assert_str_eq(text, "Job 7 (alice, campaign 1) is running.\n"
			 "Its width: 17 billing units: 1 CPU + 4 GPU "
			 "\u00d7 4.\n");
	free(text);
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=0/2 "
				  "mode=ostrich width=4 unit=cpu", &j));
	text = NULL;
	fp = open_memstream(&text, &len);
	ck_assert_int_eq(sc_explain(&j, 1, &j, 0, fp), 0);
	fclose(fp);
	ck_assert_str_eq(text, "Job 7 (alice, campaign 1) is running.\n");
	free(text);
}
END_TEST

/* site_factor/ostrich (semantics.md §25): the site factor against the
 * rest of the priority, the shadow mode's 0 said as such, nothing for a
 * running job or a view=own summary. */
START_TEST(test_explain_site)
{
	sc_job_t j;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	memset(&j, 0, sizeof(j));
	j.job_id = 17;
	j.state = SC_PENDING;
	j.priority = 6252500;
	j.site = 6250000;
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=7/16 "
				  "vct=none share=0.33 mode=ostrich", &j));
	fp = open_memstream(&text, &len);
	sc_explain_site(&j, fp);
	fclose(fp);
	ck_assert_str_eq(text, "Its priority 6252500 under "
			 "priority/multifactor: 6250000 from the OStrich site "
			 "factor (site_factor/ostrich: its weight \u00d7 0.625, "
			 "rank 7 of 16 normalised, as of multifactor's last "
			 "PriorityCalcPeriod) and 2500 from multifactor's other "
			 "factors (age, fair-share, job size, partition, QOS, "
			 "TRES, nice; sprio -j 17 lists them).\n");
	free(text);
	j.priority = 2500;
	j.site = 0;
	text = NULL;
	fp = open_memstream(&text, &len);
	sc_explain_site(&j, fp);
	fclose(fp);
	ck_assert_str_eq(text, "Its site factor is 0 (site_factor/ostrich in "
			 "shadow mode, weight=0, or before its first "
			 "PriorityCalcPeriod): its priority 2500 is "
			 "priority/multifactor's alone (sprio -j 17 lists the "
			 "factors).\n");
	free(text);
	j.state = SC_RUNNING;
	text = NULL;
	fp = open_memstream(&text, &len);
	sc_explain_site(&j, fp);
	fclose(fp);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

/* account= of the summary (§23) is the account the job counts in: it
 * replaces Slurm's, which is kept when the line has none. */
START_TEST(test_summary_account)
{
	sc_job_t j;

	memset(&j, 0, sizeof(j));
	strcpy(j.account, "slurmacct");
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=1/2 "
				  "mode=ostrich", &j));
	ck_assert_str_eq(j.account, "slurmacct");
	ck_assert(sc_summary_read("ostrich campaign=alice/1 rank=1/2 "
				  "mode=ostrich account=solo", &j));
	ck_assert_str_eq(j.account, "solo");
}
END_TEST

/* The summary is found among others' lines of the field; view=own is
 * read; a line that only mentions ostrich is not a summary. */
START_TEST(test_summary_in_field)
{
	sc_job_t j;

	memset(&j, 0, sizeof(j));
	ck_assert(sc_summary_read("11/23/26 10:00:00 burst_buffer/lua: "
				  "setup: no space\nostrich campaign=carol/2 "
				  "rank=3/3 vct=none view=own mode=ostrich\n"
				  "admin: ostrich campaign=x/1 rank=1/1", &j));
	ck_assert_str_eq(j.sum.user, "carol");
	ck_assert_uint_eq(j.sum.campaign, 2);
	ck_assert_uint_eq(j.sum.rank, 3);
	ck_assert(j.own);
	ck_assert(sc_summary_read("ostrich campaign=bob/1 rank=1/9 vct=none "
				  "share=0.50 mode=ostrich", &j));
	ck_assert(!j.own);
	ck_assert(!sc_summary_read("ostrich is a bird", &j));
	ck_assert(!j.has_summary);
	ck_assert(!sc_summary_read("note: ostrich campaign=x/1 rank=1/1",
				   &j));
	ck_assert(!sc_summary_read(NULL, &j));
}
END_TEST

START_TEST(test_explain_head_and_own_campaign)
{
	sc_job_t v[32];
	size_t n = _scene(v);
	int rc;
	const char *t = _explain(v, n, 13, &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "rank 1 of 9"));
	ck_assert_ptr_nonnull(strstr(t, "Its campaign is at the head of the "
				     "queue"));
	t = _explain(v, n, 14, &rc);
	ck_assert_ptr_nonnull(strstr(t, "Ahead of it are only earlier jobs of "
				     "its own campaign."));
	ck_assert_ptr_null(strstr(t, "not visible"));
}
END_TEST

START_TEST(test_explain_not_pending)
{
	sc_job_t v[32];
	size_t n = _scene(v);
	int rc;
	const char *t = _explain(v, n, 3, &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(t, "Job 3 (alice, campaign 1) is running.\n");
	t = _explain(v, n, 19, &rc);
	ck_assert_str_eq(t, "Job 19 (alice, campaign 1) is finished.\n");
	t = _explain(v, n, 20, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(t, "Job 20 has no OStrich summary"));
}
END_TEST

START_TEST(test_explain_stalled)
{
	sc_job_t v[2];
	int rc;
	const char *t;

	/* the virtual schedule is stalled: no completion time anywhere */
	v[0] = _job(1, "debug", SC_PENDING, "bob", 1, 1, 2, NAN);
	v[1] = _job(2, "debug", SC_PENDING, "carol", 4, 2, 2, NAN);
	v[1].sum.mode = OST_MODE_FAIRCAMP;
	t = _explain(v, 2, 2, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "would be complete at unknown (at an "
				     "unknown time)"));
	ck_assert_ptr_nonnull(strstr(t, "Ahead of it, by deadline:\n"));
	ck_assert_ptr_nonnull(strstr(t, "around unknown (at an unknown "
				     "time)"));
}
END_TEST

/* A summary whose C~ is past year 9999 (vct=never) is explained as such,
 * not as "no summary". */
START_TEST(test_explain_never)
{
	sc_job_t v[2];
	ost_summary_t sum;
	int rc;
	const char *t;

	ck_assert_int_eq(ost_summary_parse("ostrich campaign=bob/1 rank=2/2 "
					   "vct=never share=0.50 mode=ostrich",
					   &sum), 0);
	v[0] = _job(1, "debug", SC_PENDING, "alice", 1, 1, 2, NOW + 60);
	v[1] = _job(2, "debug", SC_PENDING, "bob", 1, 2, 2, 0);
	v[1].sum = sum;
	t = _explain(v, 2, 2, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "would be complete at never (not in "
				     "this millennium at the current rate)"));
}
END_TEST

/*
 * vstart= (§24): alice's second campaign ranks behind carol's, whose C~
 * is later, because it starts in the fair schedule only at 23:30:00, when
 * V reaches the finish of alice's first campaign, served ahead of it.
 * --explain says so, from the line as the engine writes it; never: "when
 * the fair schedule catches up"; a vstart already past, or none: nothing.
 */
START_TEST(test_explain_lead)
{
	sc_job_t v[2];
	const char *t;
	int rc;

	v[0] = _job(1, "debug", SC_PENDING, "carol", 1, 1, 2, NOW + 3600);
	ck_assert(sc_summary_read("ostrich campaign=alice/2 rank=2/2 "
				  "vct=2026-11-21T23:31:00Z share=0.50 "
				  "mode=ostrich vstart=2026-11-21T23:30:00Z "
				  "width=1 unit=cpu", &v[1]));
	v[1].job_id = 2;
	v[1].state = SC_PENDING;
	snprintf(v[1].partition, sizeof(v[1].partition), "debug");
	ck_assert_uint_eq(v[1].width, 1);
	t = _explain(v, 2, 2, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(t, "alice's previous campaign was served ahead "
			     "of its fair share; this one starts in the fair "
			     "schedule at 23:30:00 (in 3 min).\n"), "%s", t);
	ck_assert_ptr_nonnull(strstr(t, "Ahead of it, by virtual completion "
				     "time"));
	v[1].sum.vstart = INFINITY;
	t = _explain(v, 2, 2, &rc);
	ck_assert_ptr_nonnull(strstr(t, "this one starts in the fair "
				     "schedule when the fair schedule catches "
				     "up.\n"));
	v[1].sum.vstart = NOW - 1;
	t = _explain(v, 2, 2, &rc);
	ck_assert_ptr_null(strstr(t, "previous campaign"));
	t = _explain(v, 2, 1, &rc);	/* carol's: none */
	ck_assert_ptr_null(strstr(t, "previous campaign"));
	/* PrivateData=jobs: the same line for the owner */
	v[1].own = true;
	v[1].sum.vstart = NOW + 60;
	t = _explain(v, 2, 2, &rc);
	ck_assert_ptr_nonnull(strstr(t, "this one starts in the fair "
				     "schedule at 23:28:22 (in 60 s).\n"));
}
END_TEST

/*
 * Between two passes: dave submits after the pass (new=1) a job that his
 * line ranks 2 of 10, with his share of that moment (1/4) and a C~; the
 * others' lines are the pass's (9 pending, shares 1/3).  The campaigns
 * keep the pass's numbers, dave's shows none and counts his job apart;
 * his --explain says so; nobody's says a job is invisible.
 */
START_TEST(test_between_passes)
{
	sc_job_t v[40];
	size_t n = _scene(v), nc, i;
	sc_campaign_t *cs;
	char *tab = NULL;
	size_t len = 0;
	FILE *fp;
	const char *t;
	int rc;

	v[n] = _job(30, "debug", SC_PENDING, "dave", 1, 2, 10, NAN);
	v[n].fresh = true;
	v[n++].sum.share = 0.25;
	v[n] = _job(31, "debug", SC_PENDING, "carol", 1, 3, 11, NOW + 80);
	v[n].fresh = true;		/* carol's second, same campaign */
	v[n++].sum.share = 0.25;
	ck_assert_int_eq(sc_group(v, n, &cs, &nc), 0);
	ck_assert_uint_eq(sc_unranked(v, n, "debug"), 2);
	ck_assert_uint_eq(sc_unranked(v, n, "other"), 0);
	for (i = 0; i < nc; i++) {
		if (!strcmp(cs[i].user, "carol")) {
			ck_assert_uint_eq(cs[i].pending, 4);
			ck_assert_uint_eq(cs[i].unranked, 1);
			ck_assert_uint_eq(cs[i].first_rank, 3);
			ck_assert_double_eq_tol(cs[i].share, 1.0 / 3, 1e-9);
			ck_assert_double_eq(cs[i].vct, NOW + 71);
		}
		if (!strcmp(cs[i].user, "dave")) {
			ck_assert(!cs[i].passed);
			ck_assert_uint_eq(cs[i].first_rank, 0);
		}
	}
	fp = open_memstream(&tab, &len);
	sc_print_table(fp, "%u %R %v %s", true, cs, nc, NOW);
	fclose(fp);
	ck_assert_msg(strstr(tab, "dave - - -\n") && !strstr(tab, "25%") &&
		      !strstr(tab, "unknown"), "%s", tab);
	free(tab);
	free(cs);
	t = _explain(v, n, 30, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(t, "Job 30 of dave (campaign 1) was "
				     "submitted after the engine's last pass"));
	ck_assert_ptr_nonnull(strstr(t, "ranked 2 of 10 pending jobs"));
	ck_assert_ptr_null(strstr(t, "%"));
	for (i = 9; i <= 17; i++) {
		t = _explain(v, n, (uint32_t) i, &rc);
		ck_assert_ptr_null(strstr(t, "not visible"));
		ck_assert_ptr_nonnull(strstr(t, "2 jobs submitted since the "
					     "last pass, not yet ranked"));
	}
	/* carol's last at the pass, rank 5: bob's 2 and her 2 ahead, as
	 * before; her new job is not one of them */
	t = _explain(v, n, 17, &rc);
	ck_assert_ptr_nonnull(strstr(t, "bob          campaign 1       2 "));
	ck_assert_ptr_null(strstr(t, "not listed"));
}
END_TEST

/* Jobs ahead at the pass that the caller cannot list (a job array's
 * tasks, jobs started since) are said so, never as invisible: without
 * view=own every job is visible to every caller. */
START_TEST(test_explain_unlisted_ahead)
{
	sc_job_t v[32];
	size_t n = _scene(v), i, m = 0;
	const char *t;
	int rc;

	for (i = 0; i < n; i++)	/* bob's two started since the pass */
		if (strcmp(v[i].sum.user, "bob") || strcmp(v[i].partition,
							    "debug"))
			v[m++] = v[i];
	t = _explain(v, m, 15, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_null(strstr(t, "not visible"));
	ck_assert_ptr_null(strstr(t, "PrivateData"));
	ck_assert_ptr_nonnull(strstr(t, "2 more pending jobs ahead of it at "
				     "the last pass are not listed"));
}
END_TEST

START_TEST(test_summary_new)
{
	sc_job_t j;

	ck_assert(sc_summary_read("ostrich campaign=a/1 rank=1/2 vct=none "
				  "share=0.50 mode=ostrich new=1", &j));
	ck_assert(j.fresh);
	ck_assert(sc_summary_read("ostrich campaign=a/1 rank=1/2 vct=none "
				  "share=0.50 mode=ostrich", &j));
	ck_assert(!j.fresh);
}
END_TEST

START_TEST(test_time_str)
{
	char b[32];

	ck_assert_str_eq(sc_time_str(NOW + 41, NOW, b), "23:28:03");
	ck_assert_str_eq(sc_time_str(NOW + 86400, NOW, b), "2026-11-22 23:27");
	ck_assert_str_eq(sc_time_str(NAN, NOW, b), "unknown");
	/* a summary's vct=never (past year 9999) */
	ck_assert_str_eq(sc_time_str(INFINITY, NOW, b), "never");
}
END_TEST

/* The text fp received, in a static buffer. */
static char *_printed(void (*fn)(FILE *, const sc_campaign_t *, size_t,
				 const char *), const sc_campaign_t *cs,
		      size_t n, const char *fmt)
{
	static char *text = NULL;
	size_t len = 0;
	FILE *fp;

	free(text);
	text = NULL;
	fp = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(fp);
	fn(fp, cs, n, fmt);
	fclose(fp);
	return text;
}

static void _table(FILE *fp, const sc_campaign_t *cs, size_t n,
		   const char *fmt)
{
	sc_print_table(fp, fmt, false, cs, n, NOW);
}

static void _json(FILE *fp, const sc_campaign_t *cs, size_t n,
		  const char *fmt)
{
	(void)fmt;
	sc_print_json(fp, cs, n);
}

START_TEST(test_format_and_json)
{
	sc_job_t v[32];
	size_t n = _scene(v), nc;
	sc_campaign_t *cs;
	const char *why = NULL;

	ck_assert_int_eq(sc_format_check(SC_DEFAULT_FORMAT, &why), 0);
	ck_assert_int_eq(sc_format_check("%-8u|%%|%3R", &why), 0);
	ck_assert_int_eq(sc_format_check("%Z", &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "unknown field"));
	ck_assert_int_eq(sc_group(v, n, &cs, &nc), 0);
	ck_assert_str_eq(_printed(_table, cs, 2, "%-6u|%3R|%s|%%"),
			 "USER  |RAN|SHARE|%\n"
			 "bob   |  1|33%|%\n"
			 "carol |  3|33%|%\n");
	strcpy(cs[0].user, "b\"o\\b");
	ck_assert_str_eq(_printed(_json, cs, 1, NULL),
			 "{\"campaigns\": [\n  {\"partition\": \"debug\", "
			 "\"user\": \"b\\\"o\\\\b\", \"campaign\": 1, "
			 "\"pending\": 2, \"running\": 0, \"done\": 0, "
			 "\"rank\": 1, \"partition_pending\": 9, "
			 "\"vct\": 1795303683, \"share\": 0.3333, "
			 "\"unranked\": 0, \"mode\": \"ostrich\"}\n]}\n");
	cs[0].vct = NAN;
	ck_assert_ptr_nonnull(strstr(_printed(_json, cs, 1, NULL),
				     "\"vct\": null"));
	ck_assert_str_eq(_printed(_json, cs, 0, NULL), "{\"campaigns\": []}\n");
	free(cs);
}
END_TEST

static Suite *_suite(void)
{
	Suite *s = suite_create("scampaign");
	TCase *g = ost_tcase("Grouping", OST_TIMEOUT_LIGHT);
	TCase *e = ost_tcase("Explain", OST_TIMEOUT_LIGHT);
	TCase *o = ost_tcase("Output", OST_TIMEOUT_LIGHT);

	tcase_add_test(g, test_group_counts_and_order);
	tcase_add_test(g, test_group_campaigns_apart);
	tcase_add_test(g, test_summary_in_field);
	tcase_add_test(e, test_explain_behind_other_campaign);
	tcase_add_test(e, test_explain_private_data);
	tcase_add_test(e, test_explain_head_and_own_campaign);
	tcase_add_test(e, test_explain_not_pending);
	tcase_add_test(e, test_explain_stalled);
	tcase_add_test(o, test_time_str);
	tcase_add_test(o, test_summary_width);
	tcase_add_test(o, test_summary_account);
	tcase_add_test(o, test_explain_width);
	tcase_add_test(o, test_explain_site);
	tcase_add_test(e, test_explain_never);
	tcase_add_test(e, test_explain_lead);
	tcase_add_test(o, test_format_and_json);
	tcase_add_test(e, test_between_passes);
	tcase_add_test(e, test_explain_unlisted_ahead);
	tcase_add_test(o, test_summary_new);
	suite_add_tcase(s, g);
	suite_add_tcase(s, e);
	suite_add_tcase(s, o);
	return s;
}

int main(void)
{
	setenv("TZ", "UTC0", 1);	/* the text shows local times */
	tzset();
	return ost_check_run(_suite());
}
