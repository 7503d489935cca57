/*****************************************************************************\
 *  pendidx.c - pending jobs by estimate: a min-segment tree of procs over
 *  the jobs sorted by (estimate, index), in blocks of B jobs.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The jobs are known in advance, so their ranks by estimate are fixed
 *  once; a job's slot holds its procs while it is pending.  The jobs with
 *  now + e <= shadow are a prefix of that order (x -> now + x is
 *  non-decreasing in floating point too), found by binary search.  The
 *  tree's leaves are blocks of B consecutive ranks (one cache line of
 *  slots), so an update rescans one block and climbs a tree B times
 *  smaller than the workload: O(B + log(n/B)) per update and query, and
 *  about 24 bytes per job, whatever the queue length and m.
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "pendidx.h"

#define NONE UINT32_MAX
#define B SIM_PENDIDX_BLOCK

struct key {
	uint64_t bits;       /* the estimate's bits: ordered like e >= 0 */
	uint32_t job;
};

/* Sort k[0..n) by (bits, job), k being in job order: stable LSD radix
 * sort on bytes, skipping the bytes all keys share (the low mantissa
 * bytes of whole seconds).  O(8 n).  RET: 0 or -1 (memory short). */
static int _sort(struct key *k, size_t n)
{
	struct key *t = malloc((n ? n : 1) * sizeof(*t)), *src = k, *dst = t;

	if (!t)
		return -1;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t cnt[257] = { 0 };

		for (size_t i = 0; i < n; i++)
			cnt[((src[i].bits >> shift) & 0xff) + 1]++;
		if (n && cnt[((src[0].bits >> shift) & 0xff) + 1] == n)
			continue;
		for (int d = 0; d < 256; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i].bits >> shift) & 0xff]++] = src[i];
		struct key *s = src;
		src = dst;
		dst = s;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
	free(t);
	return 0;
}

int sim_pendidx_init(sim_pendidx_t *x, const sim_job_t *jobs, size_t njobs)
{
	size_t nb = (njobs + B - 1) / B;
	struct key *k;

	memset(x, 0, sizeof(*x));
	x->jobs = jobs;
	x->n = njobs;
	x->leaves = 1;
	while (x->leaves < nb)
		x->leaves *= 2;
	x->est = malloc((njobs ? njobs : 1) * sizeof(*x->est));
	x->job = malloc((njobs ? njobs : 1) * sizeof(*x->job));
	x->rank = malloc((njobs ? njobs : 1) * sizeof(*x->rank));
	x->val = malloc(x->leaves * B * sizeof(*x->val));
	x->min = malloc(2 * x->leaves * sizeof(*x->min));
	k = malloc((njobs ? njobs : 1) * sizeof(*k));
	if (!x->est || !x->job || !x->rank || !x->val || !x->min || !k) {
		free(k);
		sim_pendidx_free(x);
		return -1;
	}
	for (size_t i = 0; i < njobs; i++) {
		double e = jobs[i].estimate + 0.0;   /* -0 -> +0 */

		memcpy(&k[i].bits, &e, sizeof(e));
		k[i].job = (uint32_t) i;
	}
	if (_sort(k, njobs)) {
		free(k);
		sim_pendidx_free(x);
		return -1;
	}
	for (size_t r = 0; r < njobs; r++) {
		x->est[r] = jobs[k[r].job].estimate;
		x->job[r] = k[r].job;
		x->rank[k[r].job] = (uint32_t) r;
	}
	free(k);
	memset(x->val, 0xff, x->leaves * B * sizeof(*x->val));
	memset(x->min, 0xff, 2 * x->leaves * sizeof(*x->min));
	return 0;
}

void sim_pendidx_free(sim_pendidx_t *x)
{
	free(x->est);
	free(x->job);
	free(x->rank);
	free(x->val);
	free(x->min);
	memset(x, 0, sizeof(*x));
}

/* Smallest value of block b's slots [b B, b B + len). */
static uint32_t _block_min(const sim_pendidx_t *x, size_t b, size_t len)
{
	const uint32_t *v = &x->val[b * B];
	uint32_t m = NONE;

	for (size_t i = 0; i < len; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* Restore the minima above tree node i (a block) from its children. */
static void _climb(sim_pendidx_t *x, size_t i)
{
	for (i /= 2; i; i /= 2) {
		uint32_t a = x->min[2 * i], b = x->min[2 * i + 1];
		uint32_t m = a < b ? a : b;

		if (x->min[i] == m)
			break;
		x->min[i] = m;
	}
}

void sim_pendidx_add(sim_pendidx_t *x, uint32_t job)
{
	size_t r = x->rank[job], i = x->leaves + r / B;
	uint32_t v = x->jobs[job].procs;

	x->val[r] = v;
	/* a minimum can only fall: stop at the first node already <= v */
	for (; i && x->min[i] > v; i /= 2)
		x->min[i] = v;
}

void sim_pendidx_del(sim_pendidx_t *x, uint32_t job)
{
	size_t r = x->rank[job], i = x->leaves + r / B;
	uint32_t old = x->val[r];

	x->val[r] = NONE;
	/* only the slot holding the block's minimum can change it */
	if (old != x->min[i])
		return;
	x->min[i] = _block_min(x, r / B, B);
	if (x->min[i] != old)
		_climb(x, i);
}

size_t sim_pendidx_cut(const sim_pendidx_t *x, double now, double shadow)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (now + x->est[mid] <= shadow)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t sim_pendidx_min_procs(const sim_pendidx_t *x, size_t c)
{
	uint32_t best = _block_min(x, c / B, c % B);

	/* the whole blocks [0, c / B): bottom-up over a half-open range */
	for (size_t l = x->leaves, r = x->leaves + c / B; l < r;
	     l /= 2, r /= 2) {
		if (l & 1) {
			if (x->min[l] < best)
				best = x->min[l];
			l++;
		}
		if (r & 1) {
			r--;
			if (x->min[r] < best)
				best = x->min[r];
		}
	}
	return best;
}

struct collect {
	const sim_pendidx_t *x;
	size_t c, n, max;
	uint32_t a, f, *out;
};

/* Depth-first, left to right, into the subtrees holding a job that
 * qualifies: those whose minimum is <= f (if they start before the cut
 * c) or <= a; w is the node's width in blocks.  Each job found costs at
 * most one root-to-leaf path and one block scan. */
static void _collect(struct collect *k, size_t p, size_t lo, size_t w)
{
	uint32_t lim = lo * B < k->c ? k->f : k->a;

	if (k->n == k->max || k->x->min[p] > lim)
		return;
	if (w > 1) {
		_collect(k, 2 * p, lo, w / 2);
		_collect(k, 2 * p + 1, lo + w / 2, w / 2);
		return;
	}
	for (size_t r = lo * B; r < lo * B + B && k->n < k->max; r++)
		if (k->x->val[r] <= (r < k->c ? k->f : k->a))
			k->out[k->n++] = k->x->job[r];
}

size_t sim_pendidx_collect(const sim_pendidx_t *x, size_t c, uint32_t a,
			   uint32_t f, uint32_t *out, size_t max)
{
	struct collect k = {
		.x = x, .c = c, .max = max, .a = a, .f = f, .out = out,
	};

	if (x->n)
		_collect(&k, 1, 0, x->leaves);
	return k.n;
}
