/*****************************************************************************\
 *  charge.h - the width a job is charged in the virtual schedule and by
 *  the fairshare baseline, and the machine's capacity in the same unit
 *  (doc/semantics.md §20): the rule is the core's (ost_charge.h), this
 *  is its reading of a machine of m CPUs and G GPUs.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_CHARGE_H
#define OST_SIM_CHARGE_H

#include <stdbool.h>
#include <stdint.h>

#include "ost_charge.h"

/* A zeroed sim_charge_t is cpu mode: the width is q, as before GPUs. */
typedef struct sim_charge {
	ost_charge_t mode;       /* --charge (the names: ost_charge_parse) */
	double w_cpu, w_gpu;     /* billing weights (default 1 and 0) */
	bool max_tres;           /* billing: Slurm's PriorityFlags=MAX_TRES */
} sim_charge_t;

/* Defaults: billing, CPU=1 and nothing for GPUs, so that the width is
 * the CPU count, as Slurm's billing without TRESBillingWeights. */
void sim_charge_init(sim_charge_t *c);

/* --charge-weights: a comma-separated list of KEY=WEIGHT with KEY "CPU"
 * or "GRES/gpu" (any case), WEIGHT a finite number >= 0.  As in Slurm's
 * TRESBillingWeights a key left out weighs 0; at least one weight must
 * be > 0.  RET: 0 and c's weights set, or -1 (c unchanged). */
int sim_charge_weights_parse(const char *s, sim_charge_t *c);

/* The unrounded charge of a job of q CPUs and g GPUs on a machine of m
 * CPUs and G GPUs (g <= G; G may be 0): q (cpu); w_cpu q + w_gpu g, or
 * max(w_cpu q, w_gpu g) with max_tres (billing); max(q, g m / G)
 * (dominant).  What fairshare accrues per second. */
double sim_charge_raw(const sim_charge_t *c, uint32_t m, uint32_t G,
		      uint32_t q, uint32_t g);

/* The width given to the core, an integer >= 1: billing truncates the
 * raw charge as Slurm does when it stores billable TRES as the `billing`
 * count; dominant rounds it up; both are raised to 1 when below.  For
 * q <= m, g <= G it is at most the capacity of the same machine. */
uint32_t sim_charge_width(const sim_charge_t *c, uint32_t m, uint32_t G,
			  uint32_t q, uint32_t g);

/* The machine's capacity in the unit of the widths: m (cpu, dominant),
 * the width of a job holding the whole machine (billing, summed even
 * with max_tres: the widths of the running jobs can add up to it).
 * RET: 0, or -1 when it is above 2^32-1 (*out unchanged). */
int sim_charge_capacity(const sim_charge_t *c, uint32_t m, uint32_t G,
			uint32_t *out);

#endif /* OST_SIM_CHARGE_H */
