/*****************************************************************************\
 *  ost_charge.h - Charge=: the width a job is charged and the capacity of
 *  its partition, in one unit (doc/semantics.md §19, §20)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The one place of the charge rule, shared by the simulator (sim/charge.c,
 *  a CPU and a GPU count) and the plugins (slurm/osl_tres.c, Slurm's TRES
 *  arrays): the modes, Slurm's weighted sum under MAX_TRES and
 *  MAX_TRES_GRES, its rounding to a width, and the dominant share.  Pure
 *  arithmetic, no Slurm and no I/O; the callers fill the arrays.  Part of
 *  the tree's core library, not of the installed API (ostrich.h).
\*****************************************************************************/

#ifndef OST_CHARGE_H
#define OST_CHARGE_H

#include <stdint.h>

/* Charge= (plugins) and --charge (simulator).  A zeroed value is cpu: the
 * width is the CPU count, as before §19. */
typedef enum {
	OST_CHARGE_CPU = 0,	/* the CPUs, everything else ignored */
	OST_CHARGE_BILLING,	/* Slurm's billable TRES (the default of both) */
	OST_CHARGE_DOMINANT,	/* capacity x the largest share (DRF) */
} ost_charge_t;

/* "cpu", "billing", "dominant"; "?" for a value out of range. */
const char *ost_charge_name(ost_charge_t c);

/* Any case.  RET: 0 and *out set, or -OST_EINVAL (s NULL or no mode;
 * *out unchanged). */
int ost_charge_parse(const char *s, ost_charge_t *out);

/* How Slurm's assoc_mgr_tres_weighted() treats a resource under
 * PriorityFlags=MAX_TRES (and MAX_TRES_GRES): the "node" ones join a
 * maximum, the others a sum; and which ones a dominant share looks at. */
typedef enum {
	OST_RES_OTHER = 0,	/* summed always: license, bb, energy, fs, ic,
				 * vmem, pages; never dominant */
	OST_RES_CPU,		/* node TRES: cpu */
	OST_RES_MEM,		/* node TRES: mem (MB) */
	OST_RES_NODE,		/* node TRES: node; never dominant */
	OST_RES_GRES,		/* node TRES: gres/... (a GPU) */
	OST_RES_SKIP,		/* the billing TRES itself: ignored */
} ost_res_t;

/* PriorityFlags bits as ost_charge_billing() takes them (the plugins map
 * Slurm's, slurm/osl_compat.h says which release has which). */
#define OST_CHARGE_MAX_TRES 0x1u
#define OST_CHARGE_MAX_TRES_GRES 0x2u

/* Slurm's NO_CONSUME_VAL64: a count that is not consumed (skipped). */
#define OST_RES_NO_CONSUME UINT64_C(0xfffffffffffffffd)

/*
 * The billable TRES of counts cnt[0..n) under weights w[0..n), resource i
 * of kind[i], with flags (OST_CHARGE_MAX_TRES*): Slurm's
 * assoc_mgr_tres_weighted(), the same operations in the same order, so the
 * same double to the last bit (§19).  The unrounded charge (what Slurm's
 * decay thread and the simulator's fairshare accrue per second).
 * n >= 0; weights finite and >= 0.
 */
double ost_charge_billing(int n, const ost_res_t *kind, const double *w,
			  const uint64_t *cnt, unsigned flags);

/*
 * A width (or capacity) in billing units from a billable TRES b: Slurm's
 * (uint64_t) b, the billing= it records in AllocTRES (truncation), but at
 * least 1 (the core's widths are >= 1; NaN too) and at most UINT32_MAX.
 */
uint32_t ost_charge_units(double b);

/*
 * Dominant Resource Fairness (§19, §20): ceil(capacity x max_i
 * job[i]/total[i]) over the CPU, memory and GRES resources with a total
 * (> 0, consumed), computed in integers, a share within 1e-9 of a whole
 * number of units counting as it; at least 1, at most UINT32_MAX.
 * OUT dom - the index of the largest share, the first of equal ones; -1
 *           if no resource has a total (NULL ok)
 */
uint32_t ost_charge_dominant(int n, const ost_res_t *kind,
			     const uint64_t *job, const uint64_t *total,
			     uint32_t capacity, int *dom);

/*
 * The same, unrounded and not raised to 1: max_i job[i] x capacity /
 * total[i] in doubles, 0 when no resource has a total.  The simulator's
 * fairshare charge (§20); job[i] x capacity is exact below 2^53.
 */
double ost_charge_dominant_raw(int n, const ost_res_t *kind,
			       const uint64_t *job, const uint64_t *total,
			       uint32_t capacity);

#endif /* OST_CHARGE_H */
