/*****************************************************************************\
 *  pendidx.c - pending jobs by estimate: a min-segment tree of procs over
 *  the jobs sorted by (estimate, index).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The jobs are known in advance, so their ranks by estimate are fixed
 *  once; a job's leaf holds its procs while it is pending.  The jobs with
 *  now + e <= shadow are a prefix of that order (x -> now + x is
 *  non-decreasing in floating point too), found by binary search, and the
 *  prefix minimum is a walk up the tree: O(log n) per query and update,
 *  and about 24 bytes per job, whatever the queue length and m.
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "pendidx.h"

#define NONE UINT32_MAX

struct key {
	double e;
	uint32_t job;
};

static int _by_estimate(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

int sim_pendidx_init(sim_pendidx_t *x, const sim_job_t *jobs, size_t njobs)
{
	struct key *k;

	memset(x, 0, sizeof(*x));
	x->jobs = jobs;
	x->n = njobs;
	x->leaves = 1;
	while (x->leaves < njobs)
		x->leaves *= 2;
	x->est = malloc((njobs ? njobs : 1) * sizeof(*x->est));
	x->job = malloc((njobs ? njobs : 1) * sizeof(*x->job));
	x->rank = malloc((njobs ? njobs : 1) * sizeof(*x->rank));
	x->min = malloc(2 * x->leaves * sizeof(*x->min));
	k = malloc((njobs ? njobs : 1) * sizeof(*k));
	if (!x->est || !x->job || !x->rank || !x->min || !k) {
		free(k);
		sim_pendidx_free(x);
		return -1;
	}
	for (size_t i = 0; i < njobs; i++)
		k[i] = (struct key) { jobs[i].estimate, (uint32_t) i };
	qsort(k, njobs, sizeof(*k), _by_estimate);
	for (size_t r = 0; r < njobs; r++) {
		x->est[r] = k[r].e;
		x->job[r] = k[r].job;
		x->rank[k[r].job] = (uint32_t) r;
	}
	free(k);
	memset(x->min, 0xff, 2 * x->leaves * sizeof(*x->min));
	return 0;
}

void sim_pendidx_free(sim_pendidx_t *x)
{
	free(x->est);
	free(x->job);
	free(x->rank);
	free(x->min);
	memset(x, 0, sizeof(*x));
}

/* Set the leaf of job to v and restore the minima above it. */
static void _set(sim_pendidx_t *x, uint32_t job, uint32_t v)
{
	size_t i = x->leaves + x->rank[job];

	x->min[i] = v;
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
	_set(x, job, x->jobs[job].procs);
}

void sim_pendidx_del(sim_pendidx_t *x, uint32_t job)
{
	_set(x, job, NONE);
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
	uint32_t best = NONE;

	/* minimum over the leaves [0, c): bottom-up over half-open range */
	for (size_t l = x->leaves, r = x->leaves + c; l < r; l /= 2, r /= 2) {
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
 * c) or <= a.  Each job found costs at most one root-to-leaf path. */
static void _collect(struct collect *k, size_t p, size_t lo, size_t w)
{
	uint32_t lim = lo < k->c ? k->f : k->a;

	if (k->n == k->max || k->x->min[p] > lim)
		return;
	if (w == 1) {
		k->out[k->n++] = k->x->job[lo];
		return;
	}
	_collect(k, 2 * p, lo, w / 2);
	_collect(k, 2 * p + 1, lo + w / 2, w / 2);
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
