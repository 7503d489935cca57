/*****************************************************************************\
 *  check_job_prio.c - ranks as priorities: renumbering after a pass, the value
 *  of a job submitted between two passes, the order of job_list
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_ptab.h"
#include "osl_sync.h"

static fake_rec_t recs[64];

/* The priority table of a partition in rank order (osl_ptab_dump). */
typedef struct {
	int n;
	uint64_t rank[64];
	uint32_t prio[64];
} tab_t;

static tab_t _tab(const osl_part_t *p)
{
	tab_t t;

	ck_assert_int_le(p->prios.n, 64);
	t.n = osl_ptab_dump(&p->prios, t.rank, t.prio);
	ck_assert_int_eq(t.n, p->prios.n);
	return t;
}

/* Give the table of p the values of t (same ranks). */
static void _set_tab(osl_part_t *p, const tab_t *t)
{
	osl_ptab_build(&p->prios, t->rank, t->prio, t->n);
}

/* p's table by rank ascending, priorities strictly decreasing in
 * [LO, TOP); RET the first bad index, or -1. */
static int _bad_table(const osl_part_t *p)
{
	tab_t t = _tab(p);
	int i;

	for (i = 0; i < t.n; i++)
		if (t.prio[i] < OSL_PRIO_LO || t.prio[i] >= OSL_PRIO_TOP ||
		    (i && (t.rank[i] <= t.rank[i - 1] ||
			   t.prio[i] >= t.prio[i - 1])))
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
	ck_assert_int_eq(p.prios.n, 6);
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
	osl_ptab_free(&p.prios);

	/* a pass with nothing pending: an empty table, then a submission */
	osl_prio_renumber(&p, idx, 0);
	ck_assert_int_eq(p.prios.n, 0);
	osl_ptab_insert(&p.prios, 1, OSL_PRIO_TOP - 1);
	ck_assert_int_eq(p.prios.n, 1);
	osl_ptab_free(&p.prios);
}
END_TEST

/* Tasks of one array record: one value, at the best rank, on the
 * best-ranked observation; not writable, not pending or unranked
 * observations get none. */
START_TEST(test_renumber_records)
{
	osl_part_t p = { 0 };
	osl_obs_t obs[6], *idx[6];
	tab_t tab;
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
	tab = _tab(&p);
	ck_assert_int_eq(tab.n, 2);
	ck_assert_uint_eq(tab.rank[0], 2);
	ck_assert_uint_eq(tab.rank[1], 4);
	osl_ptab_free(&p.prios);
}
END_TEST

/* alice's campaign of three jobs in p, after a pass, with the table's
 * values set to first, 80M and 70M. */
static void _alice_three(osl_part_t *p, uint32_t first)
{
	static osl_obs_t obs[3];
	osl_obs_t *idx[3];
	tab_t tab;
	int i;

	for (i = 0; i < 3; i++) {
		obs[i] = pend(i + 1, 10, T0, &recs[i]);
		idx[i] = &obs[i];
	}
	ck_assert_int_eq(osl_sync(p, idx, 3, T0, OSL_SYNC_ALL, NULL), 3);
	osl_prio_rank(p, idx, 3);
	osl_prio_renumber(p, idx, 3);
	tab = _tab(p);
	ck_assert_int_eq(tab.n, 3);
	tab.prio[0] = first;
	tab.prio[1] = 80000000;
	tab.prio[2] = 70000000;
	_set_tab(p, &tab);
}

/* Submit *nw (its key, owner, time and record already set) to p between
 * two passes, as osl_job_priority does.  RET the ties osl_prio_new
 * counted. */
static int _submit(osl_part_t *p, osl_obs_t *nw)
{
	ck_assert_int_eq(osl_sync(p, &nw, 1, (double) nw->submit,
				  OSL_SYNC_NEW, NULL), 1);
	return osl_prio_new(p, &nw, 1);
}

/* A new job between two passes: halfway between its neighbours in the
 * last pass's table, which then holds it (later ranks move down). */
START_TEST(test_prio_new_between)
{
	osl_part_t p = mk_part(8);
	osl_obs_t nw = pend(9, 20, T0 + 1, &recs[9]);
	osl_obs_t *np = &nw;
	tab_t tab;

	_alice_three(&p, 90000000);	/* round values to follow */

	/* bob's single short job comes first in the fair schedule */
	nw.estimate = 60;
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 1, OSL_SYNC_NEW, NULL), 1);
	ck_assert_int_eq(osl_prio_new(&p, &np, 1), 0);	/* no tie */
	ck_assert_uint_eq(nw.rank, 1);
	ck_assert_uint_eq(nw.prio, 95000000);	/* between TOP and 90M */
	tab = _tab(&p);
	ck_assert_int_eq(tab.n, 4);
	ck_assert_uint_eq(tab.rank[0], 1);
	ck_assert_uint_eq(tab.rank[1], 2);
	ck_assert_uint_eq(tab.prio[1], 90000000);
	ck_assert_uint_eq(tab.rank[3], 4);
	ck_assert_uint_eq(tab.prio[3], 70000000);
	ck_assert_int_eq(_bad_table(&p), -1);

	/* no room left above: a tie until the pass */
	tab.prio[0] = OSL_PRIO_TOP - 1;
	_set_tab(&p, &tab);
	nw = pend(10, 21, T0 + 2, &recs[10]);
	nw.estimate = 1;
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 2, OSL_SYNC_NEW, NULL), 1);
	ck_assert_int_eq(osl_prio_new(&p, &np, 1), 1);	/* says so */
	ck_assert_uint_eq(nw.rank, 1);
	ck_assert_uint_eq(nw.prio, OSL_PRIO_TOP - 1);
	free_part(&p);
}
END_TEST

/* A run of submissions at one place: bob's jobs join his campaign one
 * after the other, each ranked right after the one before, in a gap of
 * 200 values above alice's campaign.  The first takes the midpoint, the
 * next ones a sixteenth of the room left from the one before, so the
 * 30 of them find room (bisection would tie from the 8th on), in order. */
START_TEST(test_prio_new_run)
{
	osl_part_t p = mk_part(8);
	osl_obs_t nw;
	tab_t tab;
	int i, ties = 0, bad = -1;

	_alice_three(&p, OSL_PRIO_TOP - 201);

	for (i = 0; i < 30 && bad < 0; i++) {
		nw = pend(100 + i, 21, T0 + 1 + i, &recs[20 + i]);
		nw.estimate = 1;
		ties += _submit(&p, &nw);
		if (nw.rank != (uint64_t) i + 1 || _bad_table(&p) >= 0)
			bad = i;
	}
	ck_assert_msg(bad < 0, "submission %d out of place", bad);
	ck_assert_int_eq(ties, 0);
	tab = _tab(&p);
	ck_assert_int_eq(tab.n, 33);
	ck_assert_uint_eq(tab.prio[0], OSL_PRIO_TOP - 101);	/* midpoint */
	ck_assert_uint_eq(tab.prio[1], OSL_PRIO_TOP - 101 - 6);	/* 100/16 */
	ck_assert_uint_eq(tab.prio[30], OSL_PRIO_TOP - 201);	/* alice */
	free_part(&p);
}
END_TEST

/* No room below alice's last job (the lowest value): her next jobs take
 * its value, which Slurm's tie-break (submit time, then job id) orders
 * right after it, as ranked; no tie is counted and no pass is woken.  A
 * job that ranks first with no room below the top is out of order: that
 * tie is counted. */
START_TEST(test_prio_new_tie_above)
{
	osl_part_t p = mk_part(8);
	osl_obs_t nw;
	tab_t tab;
	int i;

	_alice_three(&p, 90000000);
	tab = _tab(&p);
	tab.prio[2] = OSL_PRIO_LO;
	_set_tab(&p, &tab);
	for (i = 0; i < 2; i++) {
		nw = pend(50 + i, 10, T0 + 1 + i, &recs[30 + i]);
		ck_assert_int_eq(_submit(&p, &nw), 0);
		ck_assert_uint_eq(nw.rank, 4 + (uint64_t) i);
		ck_assert_uint_eq(nw.prio, OSL_PRIO_LO);
	}
	tab = _tab(&p);
	ck_assert_int_eq(tab.n, 5);
	ck_assert_uint_eq(tab.prio[1], 80000000);
	ck_assert_uint_eq(tab.prio[4], OSL_PRIO_LO);

	tab.prio[0] = OSL_PRIO_TOP - 1;
	_set_tab(&p, &tab);
	nw = pend(60, 21, T0 + 5, &recs[40]);
	nw.estimate = 1;		/* bob's short job ranks first */
	ck_assert_int_eq(_submit(&p, &nw), 1);
	ck_assert_uint_eq(nw.rank, 1);
	free_part(&p);
}
END_TEST

/* A burst of submissions from many users: each value lies strictly
 * between its neighbours' and the table stays strictly decreasing. */
START_TEST(test_prio_new_burst)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[4], *idx[4], nw, *np = &nw;
	tab_t tab;
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
		tab = _tab(&p);
		for (a = 0; a < tab.n && tab.rank[a] != nw.rank; a++)
			;
		hi = a > 0 ? tab.prio[a - 1] : OSL_PRIO_TOP;
		lo = a + 1 < tab.n ? tab.prio[a + 1] : OSL_PRIO_LO - 1;
		if (!nw.rank || a == tab.n || tab.prio[a] != nw.prio ||
		    nw.prio >= hi || nw.prio <= lo || _bad_table(&p) >= 0)
			bad = i;
	}
	ck_assert_msg(bad < 0, "submission %d out of place", bad);
	ck_assert_int_eq(p.prios.n, 44);
	free_part(&p);
}
END_TEST


/* A small deterministic generator (tests must not depend on libc's). */
static uint64_t _rng = 88172645463325252ull;

static uint64_t _rand(uint64_t n)
{
	_rng ^= _rng << 13;
	_rng ^= _rng >> 7;
	_rng ^= _rng << 17;
	return _rng % n;
}

/* The table against the obvious sorted array (insert by memmove, later
 * ranks + 1) through 3000 insertions at random ranks from a table of 200:
 * same ranks, same values, and a balanced tree throughout. */
START_TEST(test_ptab_reference)
{
	enum { N0 = 200, INS = 3000, MAX = N0 + INS };
	static uint64_t rr[MAX], dr[MAX];
	static uint32_t rp[MAX], dp[MAX];
	osl_ptab_t t = { 0 };
	int n = N0, i, k, bad = -1;

	for (i = 0; i < N0; i++) {
		rr[i] = 3 * (uint64_t) i + 1 + _rand(3);
		rp[i] = OSL_PRIO_TOP - 1 - (uint32_t) i;
	}
	osl_ptab_build(&t, rr, rp, N0);
	for (k = 0; k < INS && bad < 0; k++, n++) {
		uint64_t r = 1 + _rand(rr[n - 1] + 2);
		uint32_t v = (uint32_t) (7 * k + 1);
		int a;

		for (a = 0; a < n && rr[a] < r; a++)
			;
		memmove(&rr[a + 1], &rr[a], (n - a) * sizeof(*rr));
		memmove(&rp[a + 1], &rp[a], (n - a) * sizeof(*rp));
		rr[a] = r;
		rp[a] = v;
		for (i = a + 1; i <= n; i++)
			rr[i]++;
		osl_ptab_insert(&t, r, v);
		if (osl_ptab_dump(&t, dr, dp) != n + 1 ||
		    osl_ptab_height(&t) > 1.45 * log2(n + 3.0) + 1)
			bad = k;
		for (i = 0; i <= n && bad < 0; i++)
			if (dr[i] != rr[i] || dp[i] != rp[i])
				bad = k;
	}
	ck_assert_msg(bad < 0, "insertion %d: table differs from the reference",
		      bad);
	osl_ptab_free(&t);
}
END_TEST

/* The cost of a submission does not grow with the pending jobs: with
 * 10^5 records in the table, each of 10^4 insertions visits at most
 * c log2 n nodes (nothing is moved), and finding its neighbours as
 * many. */
START_TEST(test_ptab_cost)
{
	enum { N0 = 100000, INS = 10000 };
	uint64_t *rank = malloc(N0 * sizeof(*rank));
	uint32_t *prio = malloc(N0 * sizeof(*prio));
	osl_ptab_t t = { 0 };
	uint64_t worst = 0;
	double bound;
	int i;

	ck_assert_ptr_nonnull(rank);
	ck_assert_ptr_nonnull(prio);
	for (i = 0; i < N0; i++) {
		rank[i] = 2 * (uint64_t) i + 1;
		prio[i] = OSL_PRIO_TOP - 1 - (uint32_t) i;
	}
	osl_ptab_build(&t, rank, prio, N0);
	for (i = 0; i < INS; i++) {
		const osl_ptab_node_t *above, *below;
		uint64_t w0 = t.work, r = 1 + _rand(2 * N0 + i);

		osl_ptab_neighbours(&t, r, &above, &below);
		osl_ptab_insert(&t, r, 1);
		if (t.work - w0 > worst)
			worst = t.work - w0;
	}
	/* AVL height <= 1.45 log2(n + 2); two descents, <= 2 rotations */
	bound = 2 * (1.45 * log2(N0 + INS + 2.0) + 1) + 2;
	ck_assert_msg(worst <= bound, "an insertion cost %llu steps (bound %.0f)",
		      (unsigned long long) worst, bound);
	ck_assert_int_eq(t.n, N0 + INS);
	osl_ptab_free(&t);
	free(rank);
	free(prio);
}
END_TEST

/* A submission among 10^5 pending jobs: an array of 10^4 tasks is one
 * record and gets one value (one insertion, O(log n) steps), on its
 * best-ranked task only; then single jobs, each as cheap. */
START_TEST(test_prio_new_cost)
{
	enum { PEND = 100000, TASKS = 10000 };
	osl_part_t p = mk_part(64);
	osl_obs_t *obs = calloc(PEND, sizeof(*obs));
	osl_obs_t *arr = calloc(TASKS, sizeof(*arr));
	osl_obs_t **idx = calloc(PEND, sizeof(*idx));
	osl_obs_t **aidx = calloc(TASKS, sizeof(*aidx));
	static fake_rec_t many[64], array_rec;
	uint64_t w0, worst = 0;
	double bound = 2 * (1.45 * log2(PEND + 64.0) + 1) + 2;
	int i, with_prio = 0;

	ck_assert_ptr_nonnull(obs);
	ck_assert_ptr_nonnull(arr);
	ck_assert_ptr_nonnull(idx);
	ck_assert_ptr_nonnull(aidx);
	for (i = 0; i < PEND; i++) {	/* keys ascending: sorted */
		obs[i] = pend(i + 1, 10 + i % 50, T0, &many[i % 64]);
		obs[i].rec = (void *) &obs[i];	/* one record each */
		idx[i] = &obs[i];
	}
	ck_assert_int_eq(osl_sync(&p, idx, PEND, T0, OSL_SYNC_ALL, NULL),
			 PEND);
	osl_prio_rank(&p, idx, PEND);
	osl_prio_renumber(&p, idx, PEND);
	ck_assert_int_eq(p.prios.n, PEND);

	for (i = 0; i < TASKS; i++) {
		arr[i] = pend(OSL_ARRAY_KEY(PEND + 1, i), 99, T0 + 1,
			      &array_rec);
		arr[i].group = PEND + 1;
		aidx[i] = &arr[i];
	}
	ck_assert_int_eq(osl_sync(&p, aidx, TASKS, T0 + 1, OSL_SYNC_NEW, NULL),
			 TASKS);
	w0 = p.prios.work;
	osl_prio_new(&p, aidx, TASKS);
	ck_assert_msg(p.prios.work - w0 <= bound,
		      "the array cost %llu steps (bound %.0f)",
		      (unsigned long long) (p.prios.work - w0), bound);
	ck_assert_int_eq(p.prios.n, PEND + 1);
	for (i = 0; i < TASKS; i++)
		with_prio += arr[i].prio != 0;
	ck_assert_int_eq(with_prio, 1);

	for (i = 0; i < 64; i++) {
		osl_obs_t nw = pend(PEND + 2 + i, 200 + i, T0 + 2 + i, &many[i]);
		osl_obs_t *np = &nw;

		osl_sync(&p, &np, 1, T0 + 2 + i, OSL_SYNC_NEW, NULL);
		w0 = p.prios.work;
		osl_prio_new(&p, &np, 1);
		if (p.prios.work - w0 > worst)
			worst = p.prios.work - w0;
	}
	ck_assert_msg(worst <= bound, "a submission cost %llu steps (bound %.0f)",
		      (unsigned long long) worst, bound);
	free_part(&p);
	free(obs);
	free(arr);
	free(idx);
	free(aidx);
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
	Suite *s = suite_create("job_prio");
	TCase *tc = ost_tcase("priorities", PLUG_TIMEOUT);

	tcase_add_test(tc, test_renumber_stable);
	tcase_add_test(tc, test_renumber_records);
	tcase_add_test(tc, test_prio_new_between);
	tcase_add_test(tc, test_prio_new_burst);
	tcase_add_test(tc, test_prio_new_run);
	tcase_add_test(tc, test_prio_new_tie_above);
	tcase_add_test(tc, test_order);
	suite_add_tcase(s, tc);
	/* 10^5 jobs through the core: well under a second idle, 300 s for a
	 * loaded machine under ASan */
	tc = ost_tcase("cost", 300);
	tcase_add_test(tc, test_ptab_reference);
	tcase_add_test(tc, test_ptab_cost);
	tcase_add_test(tc, test_prio_new_cost);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
