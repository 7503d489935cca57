/*****************************************************************************\
 *  ost_prio.c - integer priorities for a ranking, changing as few of the
 *  current ones as possible
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A scheduler that writes "top - rank" rewrites the priority of every job
 *  behind any start: all ranks shift by one.  Inside slurmctld each write
 *  is a job record change (last_job_update, a new scheduling cycle, an
 *  aborted backfill cycle).  Only the order matters, so this module keeps
 *  every priority whose place in the new order still fits and gives new
 *  values to the others only.
 *
 *  The math.  Positions 0..n-1 (best first) hold current values x_i; the
 *  result must be strictly decreasing within [lo, hi].  Keeping x_i and x_j
 *  (i < j) leaves j - i - 1 positions between them, which need distinct
 *  integers in (x_j, x_i):
 *
 *      x_i - x_j >= j - i   <=>   x_i + i >= x_j + j
 *
 *  and the bounds need x_i <= hi - i and x_i >= lo + (n - 1 - i).  So with
 *  y_i = x_i + i, a set of positions can be kept exactly when it is a
 *  non-increasing subsequence of y among the positions within bounds: the
 *  most values kept is the longest such subsequence (patience sorting,
 *  O(n log n)).  Each gap between kept neighbours (or a bound) is then
 *  filled evenly, which leaves room for later insertions on both sides.
\*****************************************************************************/

#include <stdlib.h>

#include "ostrich.h"

/* First k in [0, len) with tails[k] < y; tails is non-increasing. */
static size_t _place(const uint64_t *tails, size_t len, uint64_t y)
{
	size_t a = 0, b = len;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (tails[m] >= y)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/*
 * Fill positions (i, j) exclusive with values evenly spread in (xi, xj):
 * v_{i+t} = xi - floor(t (xi - xj) / (k + 1)), t = 1..k, k = j - i - 1.
 * xi - xj >= k + 1 makes consecutive values differ by at least 1.
 * i may be -1 (xi = hi + 1), j may be n (xj = lo - 1).
 */
static size_t _fill(uint32_t *prio, long i, long j, int64_t xi, int64_t xj)
{
	uint64_t k = (uint64_t)(j - i - 1), d = (uint64_t)(xi - xj);
	size_t changed = 0;

	for (uint64_t t = 1; t <= k; t++) {
		uint32_t v = (uint32_t)(xi - (int64_t)(t * d / (k + 1)));
		size_t at = (size_t)i + t;

		if (prio[at] != v) {
			prio[at] = v;
			changed++;
		}
	}
	return changed;
}

int ost_prio_renumber(uint32_t *prio, size_t n, uint32_t lo, uint32_t hi,
		      size_t *changed)
{
	uint64_t *tails;
	size_t *tail_at, *pred, len = 0, nchanged = 0;
	long prev = -1;
	int64_t xprev = (int64_t)hi + 1;

	if (changed)
		*changed = 0;
	if (lo > hi || (n && n - 1 > (size_t)(hi - lo)) || (n && !prio))
		return -OST_EINVAL;
	if (!n)
		return 0;
	tails = malloc(n * sizeof(*tails));
	tail_at = malloc(n * sizeof(*tail_at));
	pred = malloc(n * sizeof(*pred));
	if (!tails || !tail_at || !pred) {
		free(tails);
		free(tail_at);
		free(pred);
		return -OST_ENOMEM;
	}

	/* longest non-increasing subsequence of y_i = x_i + i in bounds */
	for (size_t i = 0; i < n; i++) {
		uint64_t x = prio[i], y = x + i;
		size_t k;

		pred[i] = SIZE_MAX;
		if (x > (uint64_t)hi - i || x < (uint64_t)lo + (n - 1 - i))
			continue;
		k = _place(tails, len, y);
		tails[k] = y;
		tail_at[k] = i;
		if (k)
			pred[i] = tail_at[k - 1];
		if (k == len)
			len++;
	}

	/* mark the kept positions (pred chain), reusing tails as flags */
	for (size_t i = 0; i < n; i++)
		tails[i] = 0;
	for (size_t i = len ? tail_at[len - 1] : SIZE_MAX; i != SIZE_MAX;
	     i = pred[i])
		tails[i] = 1;

	for (size_t j = 0; j < n; j++) {
		if (!tails[j])
			continue;
		nchanged += _fill(prio, prev, (long)j, xprev, prio[j]);
		prev = (long)j;
		xprev = prio[j];
	}
	nchanged += _fill(prio, prev, (long)n, xprev, (int64_t)lo - 1);

	free(tails);
	free(tail_at);
	free(pred);
	if (changed)
		*changed = nchanged;
	return 0;
}
