/*****************************************************************************\
 *  check_prio.c - ranks as priorities: renumbering after a pass, the value
 *  of a job submitted between two passes, the order of job_list
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"

static fake_rec_t recs[64];

/* p->prios[0..n) by rank ascending, priorities strictly decreasing in
 * [LO, TOP); RET the first bad index, or -1. */
static int _bad_table(const osl_part_t *p)
{
	int i;

	for (i = 0; i < p->nprios; i++)
		if (p->prios[i].prio < OSL_PRIO_LO ||
		    p->prios[i].prio >= OSL_PRIO_TOP ||
		    (i && (p->prios[i].rank <= p->prios[i - 1].rank ||
			   p->prios[i].prio >= p->prios[i - 1].prio)))
			return i;
	return -1;
}

/* n records ranked 1..n (in ranks[] order of records). */
static void _ranked(osl_obs_t *obs, osl_obs_t **idx, int n,
		    const uint64_t *ranks)
{
	int i;

	for (i = 0; i < n; i++) {
		obs[i] = pend(i + 1, 10, T0, &recs[i]);
		obs[i].rank = ranks[i];
		idx[i] = &obs[i];
	}
}

/* Fresh records get strictly decreasing values along the ranks; after a
 * change of order only the record that moved gets a new value. */
START_TEST(test_renumber_stable)
{
	osl_part_t p = { 0 };
	osl_obs_t obs[6], *idx[6];
	uint64_t ranks[6] = { 1, 2, 3, 4, 5, 6 };
	uint32_t first[6];
	int i, bad = -1;

	_ranked(obs, idx, 6, ranks);
	osl_prio_renumber(&p, idx, 6);
	for (i = 0; i < 6 && bad < 0; i++) {
		first[i] = obs[i].prio;
		if (first[i] < OSL_PRIO_LO || first[i] >= OSL_PRIO_TOP ||
		    (i && first[i] >= first[i - 1]))
			bad = i;
	}
	ck_assert_msg(bad < 0, "fresh values not decreasing at %d", bad);
	ck_assert_int_eq(p.nprios, 6);
	ck_assert_int_eq(_bad_table(&p), -1);

	/* the last record jumps to the front */
	for (i = 0; i < 6; i++) {
		ranks[i] = i == 5 ? 1 : i + 2;
		obs[i].cur_prio = first[i];
		obs[i].prio = 0;
	}
	_ranked(obs, idx, 6, ranks);
	for (i = 0; i < 6; i++)
		obs[i].cur_prio = first[i];
	osl_prio_renumber(&p, idx, 6);
	for (i = 0, bad = -1; i < 5 && bad < 0; i++)
		if (obs[i].prio != first[i])
			bad = i;
	ck_assert_msg(bad < 0, "record %d changed value without moving", bad);
	ck_assert_uint_gt(obs[5].prio, first[0]);
	ck_assert_int_eq(_bad_table(&p), -1);
	free(p.prios);
}
END_TEST

/* Tasks of one array record: one value, at the best rank, on the
 * best-ranked observation; not writable, not pending or unranked
 * observations get none. */
START_TEST(test_renumber_records)
{
	osl_part_t p = { 0 };
	osl_obs_t obs[6], *idx[6];
	int i;

	obs[0] = pend(1, 10, T0, &recs[0]);	/* task, rank 5 */
	obs[0].rank = 5;
	obs[1] = pend(2, 10, T0, &recs[0]);	/* task, rank 2 */
	obs[1].rank = 2;
	obs[2] = pend(3, 10, T0, &recs[1]);	/* operator's priority */
	obs[2].rank = 1;
	obs[2].writable = false;
	obs[3] = running(4, 10, T0, T0, &recs[2]);
	obs[3].rank = 3;
	obs[4] = pend(5, 10, T0, &recs[3]);	/* not ranked */
	obs[5] = pend(6, 10, T0, &recs[4]);
	obs[5].rank = 4;
	for (i = 0; i < 6; i++)
		idx[i] = &obs[i];
	osl_prio_renumber(&p, idx, 6);
	ck_assert_uint_eq(obs[0].prio, 0);
	ck_assert_uint_ne(obs[1].prio, 0);
	ck_assert_uint_eq(obs[2].prio, 0);
	ck_assert_uint_eq(obs[3].prio, 0);
	ck_assert_uint_eq(obs[4].prio, 0);
	ck_assert_uint_gt(obs[1].prio, obs[5].prio);
	ck_assert_int_eq(p.nprios, 2);
	ck_assert_uint_eq(p.prios[0].rank, 2);
	ck_assert_uint_eq(p.prios[1].rank, 4);
	free(p.prios);
}
END_TEST

/* A new job between two passes: halfway between its neighbours in the
 * last pass's table, which then holds it (later ranks move down). */
START_TEST(test_prio_new_between)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[3], *idx[3], nw = pend(9, 20, T0 + 1, &recs[9]);
	osl_obs_t *np = &nw;
	int i;

	for (i = 0; i < 3; i++) {	/* alice's campaign of three */
		obs[i] = pend(i + 1, 10, T0, &recs[i]);
		idx[i] = &obs[i];
	}
	ck_assert_int_eq(osl_sync(&p, idx, 3, T0, OSL_SYNC_ALL, NULL), 3);
	osl_prio_rank(&p, idx, 3);
	osl_prio_renumber(&p, idx, 3);
	ck_assert_int_eq(p.nprios, 3);
	p.prios[0].prio = 90000000;	/* round values to follow */
	p.prios[1].prio = 80000000;
	p.prios[2].prio = 70000000;

	/* bob's single short job comes first in the fair schedule */
	nw.estimate = 60;
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 1, OSL_SYNC_NEW, NULL), 1);
	osl_prio_new(&p, &np, 1);
	ck_assert_uint_eq(nw.rank, 1);
	ck_assert_uint_eq(nw.prio, 95000000);	/* between TOP and 90M */
	ck_assert_int_eq(p.nprios, 4);
	ck_assert_uint_eq(p.prios[0].rank, 1);
	ck_assert_uint_eq(p.prios[1].rank, 2);
	ck_assert_uint_eq(p.prios[1].prio, 90000000);
	ck_assert_uint_eq(p.prios[3].rank, 4);
	ck_assert_uint_eq(p.prios[3].prio, 70000000);
	ck_assert_int_eq(_bad_table(&p), -1);

	/* no room left above: a tie until the pass */
	p.prios[0].prio = OSL_PRIO_TOP - 1;
	nw = pend(10, 21, T0 + 2, &recs[10]);
	nw.estimate = 1;
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 2, OSL_SYNC_NEW, NULL), 1);
	osl_prio_new(&p, &np, 1);
	ck_assert_uint_eq(nw.rank, 1);
	ck_assert_uint_eq(nw.prio, OSL_PRIO_TOP - 1);
	free_part(&p);
}
END_TEST

/* A burst of submissions from many users: each value lies strictly
 * between its neighbours' and the table stays strictly decreasing. */
START_TEST(test_prio_new_burst)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[4], *idx[4], nw, *np = &nw;
	int i, bad = -1;

	for (i = 0; i < 4; i++) {
		obs[i] = pend(i + 1, 10, T0, &recs[i]);
		idx[i] = &obs[i];
	}
	osl_sync(&p, idx, 4, T0, OSL_SYNC_ALL, NULL);
	osl_prio_rank(&p, idx, 4);
	osl_prio_renumber(&p, idx, 4);
	for (i = 0; i < 40 && bad < 0; i++) {
		uint32_t hi, lo;
		int a;

		nw = pend(100 + i, 20 + i % 7, T0 + 1 + i, &recs[20 + i % 40]);
		nw.estimate = 60 * (1 + i % 5);
		osl_sync(&p, &np, 1, T0 + 1 + i, OSL_SYNC_NEW, NULL);
		osl_prio_new(&p, &np, 1);
		for (a = 0; a < p.nprios && p.prios[a].rank != nw.rank; a++)
			;
		hi = a > 0 ? p.prios[a - 1].prio : OSL_PRIO_TOP;
		lo = a + 1 < p.nprios ? p.prios[a + 1].prio : OSL_PRIO_LO - 1;
		if (!nw.rank || a == p.nprios || p.prios[a].prio != nw.prio ||
		    nw.prio >= hi || nw.prio <= lo || _bad_table(&p) >= 0)
			bad = i;
	}
	ck_assert_msg(bad < 0, "submission %d out of place", bad);
	ck_assert_int_eq(p.nprios, 44);
	free_part(&p);
}
END_TEST

/* job_list order: nothing when the written records are in priority
 * order, else the others first, then them by priority (ties by job id). */
START_TEST(test_order)
{
	void *cur[6], *want[6];
	osl_qrec_t q[3];
	int i;

	for (i = 0; i < 6; i++)
		cur[i] = &recs[i];
	q[0] = (osl_qrec_t) { .rec = &recs[1], .prio = 90, .job_id = 2 };
	q[1] = (osl_qrec_t) { .rec = &recs[3], .prio = 80, .job_id = 4 };
	q[2] = (osl_qrec_t) { .rec = &recs[4], .prio = 80, .job_id = 5 };
	ck_assert_int_eq(osl_order(cur, 6, q, 3, want), 0);

	q[0].prio = 70;			/* record 1 now last */
	ck_assert_int_eq(osl_order(cur, 6, q, 3, want), 1);
	ck_assert_ptr_eq(want[0], &recs[0]);
	ck_assert_ptr_eq(want[1], &recs[2]);
	ck_assert_ptr_eq(want[2], &recs[5]);
	ck_assert_ptr_eq(want[3], &recs[3]);
	ck_assert_ptr_eq(want[4], &recs[4]);
	ck_assert_ptr_eq(want[5], &recs[1]);

	q[0] = (osl_qrec_t) { .rec = &recs[9], .prio = 99, .job_id = 10 };
	stub_nerrors = 0;
	ck_assert_int_eq(osl_order(cur, 6, q, 3, want), -1);
	ck_assert_int_eq(stub_nerrors, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("prio");
	TCase *tc = tcase_create("priorities");

	tcase_set_timeout(tc, PLUG_TIMEOUT);
	tcase_add_test(tc, test_renumber_stable);
	tcase_add_test(tc, test_renumber_records);
	tcase_add_test(tc, test_prio_new_between);
	tcase_add_test(tc, test_prio_new_burst);
	tcase_add_test(tc, test_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
