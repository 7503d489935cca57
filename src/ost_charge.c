/*****************************************************************************\
 *  ost_charge.c - Charge=: Slurm's billable TRES, its rounding, and the
 *  dominant share (doc/semantics.md §19, §20; ost_charge.h)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdbool.h>

#include "ost_charge.h"

/*
 * The same sums, in the same order, as assoc_mgr_tres_weighted() of every
 * supported release (22.05 to 26.05), so that the double is Slurm's to the
 * last bit: B = Σ_other c_i w_i + node, where node = max_{cpu,mem,node,gres}
 * c_i w_i under MAX_TRES, with the GRES terms summed and added to that max
 * under MAX_TRES_GRES (25.11+), and Σ of them all otherwise.
 */
double ost_charge_billing(int n, const ost_res_t *kind, const double *w,
			  const uint64_t *cnt, unsigned flags)
{
	double node = 0.0, global = 0.0, gres = 0.0;
	bool max = flags & (OST_CHARGE_MAX_TRES | OST_CHARGE_MAX_TRES_GRES);
	int i;

	for (i = 0; i < n; i++) {
		double v = (double) cnt[i];

		if (kind[i] == OST_RES_SKIP || cnt[i] == OST_RES_NO_CONSUME)
			continue;
		v *= w[i];
		if (max && kind[i] != OST_RES_OTHER) {
			if ((flags & OST_CHARGE_MAX_TRES_GRES) &&
			    kind[i] == OST_RES_GRES)
				gres += v;
			else
				node = node > v ? node : v;
		} else {
			global += v;
		}
	}
	if (flags & OST_CHARGE_MAX_TRES_GRES)
		node += gres;
	return node + global;
}

uint32_t ost_charge_units(double b)
{
	uint64_t u;

	if (!(b >= 1.0))		/* NaN too */
		return 1;
	if (b >= (double) UINT32_MAX)
		return UINT32_MAX;
	u = (uint64_t) b;		/* Slurm's (uint64_t) conversion */
	return (uint32_t) u;
}

/* A share's distance above a whole number of units that still counts as
 * that number (§19: 4/64 x 64 is 4, not 5). */
#define OST_DOMINANT_EPS 1e-9

/* Resources a dominant share is taken over (§19: nodes, licenses and the
 * rest never dominate). */
static bool _shared(ost_res_t kind, uint64_t job, uint64_t total)
{
	return (kind == OST_RES_CPU || kind == OST_RES_MEM ||
		kind == OST_RES_GRES) && total && total != OST_RES_NO_CONSUME &&
	       job != OST_RES_NO_CONSUME;
}

/* ceil(c x j / t) with the tolerance, saturated at UINT32_MAX, in
 * integers: j = a t + b, so c j / t = c a + c b / t, and c b / t is
 * shifted in one bit of c at a time when c b overflows 64 bits (memory
 * counts of petabytes), the remainder kept below t. */
static uint32_t _ceil_share(uint32_t c, uint64_t j, uint64_t t)
{
	uint64_t a = j / t, b = j % t, q = 0, r = 0;
	int k;

	if (a && c && (a >= UINT32_MAX || (uint64_t) c * a >= UINT32_MAX))
		return UINT32_MAX;	/* c a alone saturates */
	if (!b || b <= UINT64_MAX / (c ? c : 1)) {
		q = (uint64_t) c * b / t;
		r = (uint64_t) c * b % t;
	} else {
		for (k = 31; k >= 0; k--) {
			q <<= 1;		/* 2 (q t + r) */
			if (r >= t - r) {
				r -= t - r;
				q++;
			} else {
				r += r;
			}
			if (!((c >> k) & 1))
				continue;
			if (r >= t - b) {	/* + b */
				r -= t - b;
				q++;
			} else {
				r += b;
			}
		}
	}
	q += (uint64_t) c * a;
	if (r && (double) r > OST_DOMINANT_EPS * (double) t)
		q++;
	return q >= UINT32_MAX ? UINT32_MAX : (uint32_t) q;
}

uint32_t ost_charge_dominant(int n, const ost_res_t *kind,
			     const uint64_t *job, const uint64_t *total,
			     uint32_t capacity, int *dom)
{
	double best = 0.0;
	uint32_t width = 1, x;
	int i;

	if (dom)
		*dom = -1;
	for (i = 0; i < n; i++) {
		double share;

		if (!_shared(kind[i], job[i], total[i]))
			continue;
		/* the width is exact; the double only names the resource */
		share = (double) job[i] / (double) total[i];
		if (share > best) {
			best = share;
			if (dom)
				*dom = i;
		}
		x = _ceil_share(capacity, job[i], total[i]);
		width = x > width ? x : width;
	}
	return width;
}

double ost_charge_dominant_raw(int n, const ost_res_t *kind,
			       const uint64_t *job, const uint64_t *total,
			       uint32_t capacity)
{
	double best = 0.0, v;
	int i;

	for (i = 0; i < n; i++) {
		if (!_shared(kind[i], job[i], total[i]))
			continue;
		v = (double) job[i] * capacity / (double) total[i];
		best = fmax(best, v);
	}
	return best;
}
