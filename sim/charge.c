/*****************************************************************************\
 *  charge.c - charging units (§20): --charge-weights, and the machine's
 *  CPUs and GPUs handed to the charge rule of the core (src/ost_charge.c,
 *  the plugins' too).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The core gets the truncated width (at least 1, the core's q >= 1),
 *  fairshare the unrounded double, as Slurm's decay thread charges it.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "charge.h"

void sim_charge_init(sim_charge_t *c)
{
	*c = (sim_charge_t) { .mode = OST_CHARGE_BILLING, .w_cpu = 1 };
}

/* One KEY=WEIGHT item into *cpu or *gpu.  RET: 0 or -1. */
static int _weight(const char *item, double *cpu, double *gpu)
{
	const char *eq = strchr(item, '=');
	char *end;
	double v;

	if (!eq)
		return -1;
	errno = 0;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || errno || !isfinite(v) || v < 0)
		return -1;
	if ((size_t) (eq - item) == 3 && !strncasecmp(item, "CPU", 3))
		*cpu = v;
	else if ((size_t) (eq - item) == 8 && !strncasecmp(item, "GRES/gpu", 8))
		*gpu = v;
	else
		return -1;
	return 0;
}

int sim_charge_weights_parse(const char *s, sim_charge_t *c)
{
	char *dup = strdup(s), *save = NULL;
	double cpu = 0, gpu = 0;
	int n = 0, rc = 0;

	if (!dup)
		return -1;
	for (char *t = strtok_r(dup, ",", &save); t && !rc;
	     t = strtok_r(NULL, ",", &save), n++)
		rc = _weight(t, &cpu, &gpu);
	free(dup);
	if (rc || !n || (cpu == 0 && gpu == 0))
		return -1;
	c->w_cpu = cpu;
	c->w_gpu = gpu;
	return 0;
}

/* The simulator's two resources as the core's arrays: CPUs then GPUs, in
 * Slurm's TRES order (cpu first, gres/gpu after). */
static const ost_res_t _kind[2] = { OST_RES_CPU, OST_RES_GRES };

/* Billing of q CPUs and g GPUs (max_tres: Slurm's MAX_TRES). */
static double _billing(const sim_charge_t *c, uint32_t q, uint32_t g,
		       bool max_tres)
{
	const double w[2] = { c->w_cpu, c->w_gpu };
	const uint64_t cnt[2] = { q, g };

	return ost_charge_billing(2, _kind, w, cnt,
				  max_tres ? OST_CHARGE_MAX_TRES : 0);
}

double sim_charge_raw(const sim_charge_t *c, uint32_t m, uint32_t G,
		      uint32_t q, uint32_t g)
{
	const uint64_t job[2] = { q, g }, total[2] = { m, G };

	switch (c->mode) {
	case OST_CHARGE_BILLING:
		return _billing(c, q, g, c->max_tres);
	case OST_CHARGE_DOMINANT:
		return ost_charge_dominant_raw(2, _kind, job, total, m);
	default:
		return (double) q;
	}
}

uint32_t sim_charge_width(const sim_charge_t *c, uint32_t m, uint32_t G,
			  uint32_t q, uint32_t g)
{
	const uint64_t job[2] = { q, g }, total[2] = { m, G };

	switch (c->mode) {
	case OST_CHARGE_BILLING:
		return ost_charge_units(_billing(c, q, g, c->max_tres));
	case OST_CHARGE_DOMINANT:
		return ost_charge_dominant(2, _kind, job, total, m, NULL);
	default:
		return q ? q : 1;
	}
}

int sim_charge_capacity(const sim_charge_t *c, uint32_t m, uint32_t G,
			uint32_t *out)
{
	double b;

	if (c->mode != OST_CHARGE_BILLING) {
		*out = m;
		return 0;
	}
	/* summed even with max_tres (§20) */
	b = _billing(c, m, G, false);
	if (b >= 0x1p32)
		return -1;
	*out = ost_charge_units(b);
	return 0;
}
