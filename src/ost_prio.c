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
#include <string.h>

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

/*
 * ost_prio_spread.  Gap t (t = 0..n) lies between x_{t-1} and x_t, with
 * x_{-1} = hi + 1 and x_n = lo - 1.  The thresholds follow the band the
 * items occupy, B = (x_0 - x_{n-1}) / (n - 1), not the whole range: jobs
 * start from the top and new ones arrive further down, so the band drifts
 * and leaves an empty stretch above it that no local window would reach.
 * A gap below B/16 would leave a later bisection at most log2(B/16)
 * insertions before a tie (5 at 10^5 items in 5·10^7 values); its window
 * [a, b] of gaps doubles until x_{a-1} - x_b >= (b - a + 1) B/8 (the
 * band itself always does, but for rounding), and the b - a positions
 * inside get values spread evenly (_fill), whose gaps are then at least
 * floor(B/8).  Each window costs its own width and the scan resumes
 * after it.  Wider thresholds (B/4 and B/2) rewrote two to three times as
 * many values per pass in a simulation of the plugin's passes (starts at
 * the top, insertions by bisection, campaigns moving down), and left no
 * tie either.  Once the band has
 * shrunk below a quarter of the range's mean S = (hi - lo + 2) / (n + 1),
 * every item is spread over the whole range again: one rewrite of all,
 * after the band has lost three quarters of its room.
 */
int ost_prio_spread(uint32_t *prio, size_t n, uint32_t lo, uint32_t hi,
		    size_t *changed)
{
	int64_t mean, band, gmin, want, top = (int64_t)hi + 1;
	int64_t bot = (int64_t)lo - 1;
	uint32_t *was = NULL;

	if (changed)
		*changed = 0;
	if (lo > hi || (n && n - 1 > (size_t)(hi - lo)) || (n && !prio))
		return -OST_EINVAL;
	if (n < 2)
		return 0;
	mean = (top - bot) / (int64_t)(n + 1);
	band = ((int64_t)prio[0] - prio[n - 1]) / (int64_t)(n - 1);
	if (mean < 8)
		return 0;	/* no room to make: every gap is >= 1 */
	if (band < mean / 4)
		band = 0;	/* spread all over the range, below */
	gmin = band / 16;
	want = band / 8;
	if (changed) {	/* a later window may grow over an earlier one */
		was = malloc(n * sizeof(*was));
		if (!was)
			return -OST_ENOMEM;
		memcpy(was, prio, n * sizeof(*was));
	}
	for (size_t t = 0; band && t <= n; t++) {
		int64_t xa, xb;
		/* an end gap joins a window only when it is the tight one:
		 * spreading into the empty stretch above the band would widen
		 * the band, and with it the thresholds of the next call */
		size_t amin = t == 0 ? 0 : 1, bmax = t == n ? n : n - 1;
		size_t a = t, b = t, w = 1;

		xa = t ? prio[t - 1] : top;
		xb = t < n ? prio[t] : bot;
		if (xa - xb >= gmin)
			continue;
		/* grow [a, b] around t, doubling, until its mean is >= want */
		for (;;) {
			xa = a ? prio[a - 1] : top;
			xb = b < n ? prio[b] : bot;
			if (xa - xb >= (int64_t)(b - a + 1) * want)
				break;
			if (a == amin && b == bmax) {
				/* rounding, or the band itself: the range */
				a = 0, b = n, xa = top, xb = bot;
				break;
			}
			a = a > amin + w ? a - w : amin;
			b = b + w < bmax ? b + w : bmax;
			w *= 2;
		}
		(void) _fill(prio, (long)a - 1, (long)b, xa, xb);
		t = b;
	}
	/* a window at an end moves that end inward: the band can only have
	 * shrunk, and if it fell below S/4 now, spread now, so that the next
	 * call finds nothing to do */
	if (((int64_t)prio[0] - prio[n - 1]) / (int64_t)(n - 1) < mean / 4)
		(void) _fill(prio, -1, (long)n, top, bot);
	if (was) {
		for (size_t i = 0; i < n; i++)
			*changed += prio[i] != was[i];
		free(was);
	}
	return 0;
}
