/*****************************************************************************\
 *  osl_billing.c - a job's width and a partition's capacity in billing
 *  units (doc/semantics.md §19), without Slurm: Slurm's
 *  assoc_mgr_tres_weighted() over arrays the adapter fills from the job
 *  and partition records (slurm/osl_tres.c), Dominant Resource Fairness,
 *  and the bill= text of the SystemComment.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "osl.h"

/*
 * The same sums, in the same order, as assoc_mgr_tres_weighted() of every
 * supported release (22.05 to 26.05), so that the double is Slurm's to the
 * last bit: B = Σ_other c_i w_i + node, where node = max_{cpu,mem,node,gres}
 * c_i w_i under MAX_TRES, with the GRES terms summed and added to that max
 * under MAX_TRES_GRES (25.11+), and Σ of them all otherwise.
 */
extern double osl_bill_weighted(int n, const osl_res_kind_t *kind,
				const double *w, const uint64_t *cnt,
				unsigned flags)
{
	double node = 0.0, global = 0.0, gres = 0.0;
	bool max = flags & (OSL_BILL_MAX_TRES | OSL_BILL_MAX_TRES_GRES);
	int i;

	for (i = 0; i < n; i++) {
		double v = (double) cnt[i];

		if (kind[i] == OSL_RES_SKIP || cnt[i] == OSL_NO_CONSUME)
			continue;
		v *= w[i];
		if (max && kind[i] != OSL_RES_OTHER) {
			if ((flags & OSL_BILL_MAX_TRES_GRES) &&
			    kind[i] == OSL_RES_GRES)
				gres += v;
			else
				node = node > v ? node : v;
		} else {
			global += v;
		}
	}
	if (flags & OSL_BILL_MAX_TRES_GRES)
		node += gres;
	return node + global;
}

extern uint32_t osl_bill_units(double b)
{
	uint64_t u;

	if (!(b >= 1.0))		/* NaN too */
		return 1;
	if (b >= (double) UINT32_MAX)
		return UINT32_MAX;
	u = (uint64_t) b;		/* Slurm's (uint64_t) conversion */
	return (uint32_t) u;
}

/* The tolerance of the dominant width's ceiling: capacity x share comes
 * out a hair above a whole number that it is (4/64 x 64). */
#define OSL_DOMINANT_EPS 1e-9

extern uint32_t osl_bill_dominant(int n, const osl_res_kind_t *kind,
				  const uint64_t *job, const uint64_t *total,
				  uint32_t capacity, int *dom)
{
	double best = 0.0, x;
	int i;

	if (dom)
		*dom = -1;
	for (i = 0; i < n; i++) {
		double share;

		if ((kind[i] != OSL_RES_CPU && kind[i] != OSL_RES_MEM &&
		     kind[i] != OSL_RES_GRES) || !total[i] ||
		    total[i] == OSL_NO_CONSUME || job[i] == OSL_NO_CONSUME)
			continue;
		share = (double) job[i] / (double) total[i];
		if (share > best) {
			best = share;
			if (dom)
				*dom = i;
		}
	}
	x = ceil((double) capacity * best - OSL_DOMINANT_EPS);
	if (!(x >= 1.0))
		return 1;
	return x >= (double) UINT32_MAX ? UINT32_MAX : (uint32_t) x;
}

extern int osl_bill_text(char *buf, size_t size, int n,
			 const char *const *label, const osl_res_kind_t *kind,
			 const double *w, const uint64_t *cnt)
{
	size_t len = 0;
	int i, k;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (kind[i] == OSL_RES_SKIP || cnt[i] == OSL_NO_CONSUME ||
		    !cnt[i] || !(w[i] > 0) || !label[i] || !*label[i])
			continue;
		k = w[i] == 1.0 ?
		    snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s%s:%llu",
			     len ? "," : "", label[i],
			     (unsigned long long) cnt[i]) :
		    snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s%s:%llux%g",
			     len ? "," : "", label[i],
			     (unsigned long long) cnt[i], w[i]);
		if (k < 0)
			return k;
		len += (size_t) k;
	}
	return (int) len;
}
