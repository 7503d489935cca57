/*****************************************************************************\
 *  check_prio.c - ost_prio_renumber(): stable integer priorities
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdbool.h>
#include <string.h>

#include "util.h"

/* splitmix64: reproducible random numbers. */
static uint64_t _rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* prio[0..n) is strictly decreasing within [lo, hi].  One assertion for
 * the whole array (each Check assertion is a write to Check's pipe), whose
 * message names the first bad index. */
static void _assert_valid(const uint32_t *prio, size_t n, uint32_t lo,
			  uint32_t hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (prio[i] < lo || prio[i] > hi || (i && prio[i] >= prio[i - 1]))
			break;
	ck_assert_msg(i == n, "prio[%zu] = %u: not in [%u, %u] or not below "
		      "prio[%zu] = %u (n = %zu)", i, i < n ? prio[i] : 0, lo, hi,
		      i ? i - 1 : 0, i && i < n ? prio[i - 1] : 0, n);
}

START_TEST(test_prio_args)
{
	uint32_t p[4] = { 7, 6, 5, 4 };
	size_t changed = 99;

	ck_assert_int_eq(ost_prio_renumber(p, 0, 1, 10, &changed), 0);
	ck_assert_uint_eq(changed, 0);
	ck_assert_int_eq(ost_prio_renumber(p, 4, 5, 4, &changed),
			 -OST_EINVAL);
	/* 4 items need 4 values: [1, 3] is too small, p untouched */
	ck_assert_int_eq(ost_prio_renumber(p, 4, 1, 3, NULL), -OST_EINVAL);
	ck_assert_uint_eq(p[0], 7);
	ck_assert_uint_eq(p[3], 4);
	ck_assert_int_eq(ost_prio_renumber(NULL, 1, 1, 3, NULL), -OST_EINVAL);
	/* exactly enough room: the only answer */
	ck_assert_int_eq(ost_prio_renumber(p, 4, 1, 4, &changed), 0);
	ck_assert_uint_eq(p[0], 4);
	ck_assert_uint_eq(p[3], 1);
	ck_assert_uint_eq(changed, 4);
}
END_TEST

/* No current values: spread evenly over the range. */
START_TEST(test_prio_fresh)
{
	uint32_t p[4] = { 0 };
	size_t changed;

	ck_assert_int_eq(ost_prio_renumber(p, 4, 1, 100, &changed), 0);
	ck_assert_uint_eq(changed, 4);
	_assert_valid(p, 4, 1, 100);
	/* gaps of 20 in (0, 101) */
	ck_assert_uint_eq(p[0], 81);
	ck_assert_uint_eq(p[1], 61);
	ck_assert_uint_eq(p[2], 41);
	ck_assert_uint_eq(p[3], 21);
}
END_TEST

/* The steady state of a queue: jobs start from the head, the rest keep
 * their order, nothing is rewritten; a job inserted where there is room
 * is the only write. */
START_TEST(test_prio_stable)
{
	uint32_t p[5] = { 90, 70, 50, 30, 10 }, q[6];
	size_t changed;

	ck_assert_int_eq(ost_prio_renumber(p + 2, 3, 1, 100, &changed), 0);
	ck_assert_uint_eq(changed, 0);
	ck_assert_uint_eq(p[2], 50);
	q[0] = 90, q[1] = 70, q[2] = 0, q[3] = 50, q[4] = 30, q[5] = 10;
	ck_assert_int_eq(ost_prio_renumber(q, 6, 1, 100, &changed), 0);
	ck_assert_uint_eq(changed, 1);
	ck_assert_uint_eq(q[2], 60);
	/* two campaigns swap: the shorter run moves */
	q[0] = 30, q[1] = 90, q[2] = 70, q[3] = 60, q[4] = 50, q[5] = 10;
	ck_assert_int_eq(ost_prio_renumber(q, 6, 1, 100, &changed), 0);
	ck_assert_uint_eq(changed, 1);
	_assert_valid(q, 6, 1, 100);
	ck_assert_uint_eq(q[1], 90);
	ck_assert_uint_eq(q[5], 10);
}
END_TEST

/* Consecutive values leave no room: the fewest values move. */
START_TEST(test_prio_no_room)
{
	uint32_t p[4] = { 10, 0, 9, 8 };
	size_t changed;

	/* only 10 fits: 9 and 8 need 2 and 3 values above them */
	ck_assert_int_eq(ost_prio_renumber(p, 4, 1, 10, &changed), 0);
	_assert_valid(p, 4, 1, 10);
	ck_assert_uint_eq(p[0], 10);
	ck_assert_uint_eq(changed, 3);
	/* with room below, 10 and 9 stay and the new one cannot go between
	 * them: 9 moves down, or 10 up; one of them is rewritten */
	p[0] = 10, p[1] = 0, p[2] = 9, p[3] = 8;
	ck_assert_int_eq(ost_prio_renumber(p, 4, 1, 20, &changed), 0);
	_assert_valid(p, 4, 1, 20);
	ck_assert_uint_eq(changed, 2);
}
END_TEST

/* Brute force: the largest set of positions that can keep its values. */
static size_t _best_kept(const uint32_t *x, size_t n, uint32_t lo,
			 uint32_t hi)
{
	size_t best = 0;

	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		long prev = -1;
		int64_t xprev = (int64_t)hi + 1;
		size_t k = 0;
		bool ok = true;

		for (size_t j = 0; j <= n && ok; j++) {
			int64_t xj;

			if (j < n && !(mask & (1u << j)))
				continue;
			xj = j < n ? (int64_t)x[j] : (int64_t)lo - 1;
			if (j < n && (xj < lo || xj > hi))
				ok = false;
			/* j - prev - 1 distinct values strictly between */
			else if (xprev - xj - 1 < (int64_t)j - prev - 1)
				ok = false;
			prev = (long)j;
			xprev = xj;
			k += j < n;
		}
		if (ok && k > best)
			best = k;
	}
	return best;
}

/* prio[0..n) is strictly decreasing within [lo, hi] (no assertion). */
static bool _valid(const uint32_t *prio, size_t n, uint32_t lo, uint32_t hi)
{
	for (size_t i = 0; i < n; i++)
		if (prio[i] < lo || prio[i] > hi || (i && prio[i] >= prio[i - 1]))
			return false;
	return true;
}

/* Random small cases against the brute force, valid and deterministic.
 * The verdict is computed over every round, then asserted once with the
 * first bad round named. */
START_TEST(test_prio_optimal)
{
	uint64_t rng = 12345;
	int bad = -1;
	const char *why = "";

	for (int round = 0; round < 3000 && bad < 0; round++) {
		uint32_t x[9], p[9], p2[9], lo, hi;
		size_t n, changed = 0, kept = 0;

		n = 1 + _rand(&rng) % 9;
		lo = 1 + _rand(&rng) % 5;
		hi = lo + (uint32_t)n - 1 + _rand(&rng) % 25;
		for (size_t i = 0; i < n; i++)
			x[i] = _rand(&rng) % 4 ? (uint32_t)(
				_rand(&rng) % (hi + 5)) : 0;
		memcpy(p, x, sizeof(x));
		if (ost_prio_renumber(p, n, lo, hi, &changed) != 0) {
			bad = round, why = "returned an error";
			break;
		}
		for (size_t i = 0; i < n; i++)
			kept += p[i] == x[i];
		memcpy(p2, x, sizeof(x));
		ost_prio_renumber(p2, n, lo, hi, NULL);
		if (!_valid(p, n, lo, hi))
			bad = round, why = "not strictly decreasing in range";
		else if (kept != n - changed)
			bad = round, why = "changed count wrong";
		else if (kept != _best_kept(x, n, lo, hi))
			bad = round, why = "keeps fewer values than possible";
		else if (memcmp(p, p2, n * sizeof(*p)))
			bad = round, why = "not deterministic";
	}
	ck_assert_msg(bad < 0, "round %d of 3000: %s", bad, why);
}
END_TEST

/* A long queue over many passes (starts at the head, submissions at
 * random places, one campaign jumping ahead): valid every time, and
 * a pass rewrites about as many values as the order changed. */
START_TEST(test_prio_queue)
{
	enum { N = 20000, PASSES = 50 };
	uint32_t *p = calloc(N + 200, sizeof(*p));
	uint64_t rng = 99;
	size_t n = N, changed;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(ost_prio_renumber(p, n, 1, 99999999, &changed), 0);
	ck_assert_uint_eq(changed, N);
	for (int pass = 0; pass < PASSES; pass++) {
		/* 100 starts at the head */
		memmove(p, p + 100, (n - 100) * sizeof(*p));
		n -= 100;
		/* 100 submissions at random places */
		for (int k = 0; k < 100; k++) {
			size_t at = _rand(&rng) % (n + 1);

			memmove(p + at + 1, p + at, (n - at) * sizeof(*p));
			p[at] = 0;
			n++;
		}
		ck_assert_int_eq(ost_prio_renumber(p, n, 1, 99999999,
						   &changed), 0);
		_assert_valid(p, n, 1, 99999999);
		ck_assert_uint_eq(changed, 100);
	}
	free(p);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("prio");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	/* 50 renumberings of 20,000 items: about 0.1 s, 1 s under ASan
	 * with a busy core */
	TCase *q = ost_tcase("Queue", 60);

	tcase_add_test(tc, test_prio_args);
	tcase_add_test(tc, test_prio_fresh);
	tcase_add_test(tc, test_prio_stable);
	tcase_add_test(tc, test_prio_no_room);
	tcase_add_test(tc, test_prio_optimal);
	tcase_add_test(q, test_prio_queue);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, q);
	return s;
}

OST_TEST_MAIN
