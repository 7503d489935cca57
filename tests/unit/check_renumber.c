/*****************************************************************************\
 *  check_renumber.c - ost_prio_renumber(): stable integer priorities
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Smallest gap of prio[0..n), the bounds counting as hi + 1 and lo - 1. */
static int64_t _min_gap(const uint32_t *prio, size_t n, uint32_t lo,
			uint32_t hi)
{
	int64_t m = INT64_MAX;

	for (size_t t = 0; t <= n; t++) {
		int64_t xa = t ? prio[t - 1] : (int64_t)hi + 1;
		int64_t xb = t < n ? prio[t] : (int64_t)lo - 1;

		if (xa - xb < m)
			m = xa - xb;
	}
	return m;
}

/* A dense spot in an even numbering: only a window around it moves, and
 * every gap ends at least B/16; an even numbering and a tiny range are
 * left alone. */
START_TEST(test_prio_spread_spot)
{
	enum { N = 100 };
	uint32_t p[N], q[N];
	size_t changed = 99;
	int moved = 0, first = -1, last = -1;

	ck_assert_int_eq(ost_prio_spread(p, 2, 5, 4, NULL), -OST_EINVAL);
	ck_assert_int_eq(ost_prio_spread(NULL, 0, 1, 10, &changed), 0);
	ck_assert_uint_eq(changed, 0);
	/* S = 100001 / 101 = 990: even gaps of 990 and 1000 stay */
	for (int i = 0; i < N; i++)
		p[i] = 100000 - 990 * (uint32_t)(i + 1);
	memcpy(q, p, sizeof(p));
	ck_assert_int_eq(ost_prio_spread(p, N, 1, 100000, &changed), 0);
	ck_assert_uint_eq(changed, 0);
	ck_assert_mem_eq(p, q, sizeof(p));
	/* 95 of them, and five bisections after the 51st leave a gap of 30 */
	for (int i = 0, j = 0; i < N; i++)
		p[i] = i > 50 && i < 56 ? p[i - 1] - (p[i - 1] - p[50] + 990) / 2
					: 100000 - 990 * (uint32_t)(++j);
	_assert_valid(p, N, 1, 100000);
	ck_assert_int_lt(_min_gap(p, N, 1, 100000), 990 / 16);
	memcpy(q, p, sizeof(p));
	ck_assert_int_eq(ost_prio_spread(p, N, 1, 100000, &changed), 0);
	_assert_valid(p, N, 1, 100000);
	ck_assert_int_ge(_min_gap(p, N, 1, 100000), 990 / 16);
	for (int i = 0; i < N; i++)
		if (p[i] != q[i]) {
			moved++;
			last = i;
			if (first < 0)
				first = i;
		}
	ck_assert_uint_eq(changed, (size_t)moved);
	/* one window, near the spot, a few times its size */
	ck_assert_int_gt(moved, 0);
	ck_assert_int_ge(first, 30);
	ck_assert_int_le(last, 75);
	/* S = 10 / 11 < 8: nothing to widen */
	for (int i = 0; i < 10; i++)
		p[i] = 10 - (uint32_t)i;
	ck_assert_int_eq(ost_prio_spread(p, 10, 1, 10, &changed), 0);
	ck_assert_uint_eq(changed, 0);
	ck_assert_uint_eq(p[9], 1);
}
END_TEST

/* Random numberings (what renumber makes of random values): valid, the
 * gaps as the contract says (every one >= B/16, or an even spread when the
 * band has shrunk below S/4), the count of changes honest, and a second
 * call changes nothing.  One assertion over all rounds. */
START_TEST(test_prio_spread_random)
{
	uint64_t rng = 777;
	int bad = -1;
	const char *why = "";

	for (int round = 0; round < 3000 && bad < 0; round++) {
		uint32_t x[64], p[64], lo, hi;
		size_t n = _rand(&rng) % 65, changed = 0, diff = 0;
		int64_t mean, band, need;

		lo = 1 + (uint32_t)(_rand(&rng) % 50);
		hi = lo + (uint32_t)n + (uint32_t)(_rand(&rng) % 50000);
		for (size_t i = 0; i < n; i++)
			x[i] = (_rand(&rng) & 1) ? 0 :
			       lo + (uint32_t)(_rand(&rng) % (hi - lo + 1));
		/* some dense runs, as bisection leaves them */
		if (n > 8 && (_rand(&rng) & 1)) {
			size_t at = _rand(&rng) % (n - 4);

			for (size_t i = at; i < at + 4; i++)
				x[i] = 0;
		}
		if (ost_prio_renumber(x, n, lo, hi, NULL)) {
			bad = round, why = "renumber failed";
			break;
		}
		if (n > 8 && (_rand(&rng) & 1) &&	/* squeeze a spot */
		    x[n / 2 - 1] - x[n / 2 + 3] >= 16)
			for (size_t i = n / 2; i < n / 2 + 3; i++)
				x[i] = x[i - 1] - (x[i - 1] - x[n / 2 + 3]) / 2;
		if (!_valid(x, n, lo, hi)) {
			bad = round, why = "bad input";
			break;
		}
		memcpy(p, x, sizeof(x));
		mean = ((int64_t)hi - lo + 2) / (int64_t)(n + 1);
		band = n > 1 ? ((int64_t)x[0] - x[n - 1]) / (int64_t)(n - 1) : 0;
		need = mean < 8 || n < 2 ? 1 : band < mean / 4 ? mean : band / 16;
		if (ost_prio_spread(p, n, lo, hi, &changed))
			bad = round, why = "spread failed";
		else if (!_valid(p, n, lo, hi))
			bad = round, why = "not valid";
		else if (_min_gap(p, n, lo, hi) < need)
			bad = round, why = "a gap below what the contract says";
		else if ((mean < 8 || n < 2) && memcmp(p, x, sizeof(x)))
			bad = round, why = "moved without room to make";
		if (bad >= 0)
			break;
		for (size_t i = 0; i < n; i++)
			diff += p[i] != x[i];
		if (diff != changed)
			bad = round, why = "changed miscounted";
		else if (ost_prio_spread(p, n, lo, hi, &changed) || changed)
			bad = round, why = "a second spread moved values";
	}
	ck_assert_msg(bad < 0, "round %d of 3000: %s", bad, why);
}
END_TEST

/* What the plugin does between passes: new items take the midpoint of
 * their neighbours (bisection), always at the same few hot places, as a
 * user's new jobs join the end of the user's campaign.  With a spread
 * after each renumbering no insertion ever ties, and a pass rewrites a
 * bounded multiple of the insertions; without it, ties come within a few
 * passes. */
START_TEST(test_prio_spread_hot_spots)
{
	enum { N = 20000, PASSES = 40, SPOTS = 20, PER = 5 };
	const uint32_t lo = 50000000, hi = 99999999;
	uint32_t *p = calloc(N + PASSES * SPOTS * PER + 1, sizeof(*p));
	size_t n = N, changed, spread, most = 0;
	int ties[2] = { 0, 0 };

	ck_assert_ptr_nonnull(p);
	for (int with = 0; with < 2; with++) {
		uint64_t rng = 4242;

		n = N;
		memset(p, 0, N * sizeof(*p));
		ck_assert_int_eq(ost_prio_renumber(p, n, lo, hi, NULL), 0);
		for (int pass = 0; pass < PASSES; pass++) {
			for (int s = 0; s < SPOTS; s++) {
				size_t at = 1 + _rand(&rng) % (n - 1);

				for (int k = 0; k < PER; k++, at++) {
					uint32_t a = p[at - 1];
					uint32_t b = at < n ? p[at] : lo - 1;

					memmove(p + at + 1, p + at,
						(n - at) * sizeof(*p));
					n++;
					if (a > b + 1) {
						p[at] = b + (a - b) / 2;
					} else {
						p[at] = 0;	/* a tie */
						ties[with]++;
					}
				}
			}
			ck_assert_int_eq(ost_prio_renumber(p, n, lo, hi,
							   &changed), 0);
			spread = 0;
			if (with)
				ck_assert_int_eq(ost_prio_spread(p, n, lo, hi,
								 &spread), 0);
			_assert_valid(p, n, lo, hi);
			if (changed + spread > most)
				most = changed + spread;
		}
	}
	ck_assert_int_eq(ties[1], 0);
	ck_assert_int_gt(ties[0], 0);
	/* the inserted items themselves, and a few windows around them */
	ck_assert_uint_le(most, (size_t)(SPOTS * PER) * 8);
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
	tcase_add_test(tc, test_prio_spread_spot);
	tcase_add_test(tc, test_prio_spread_random);
	tcase_add_test(q, test_prio_queue);
	tcase_add_test(q, test_prio_spread_hot_spots);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, q);
	return s;
}

OST_TEST_MAIN
