/*****************************************************************************\
 *  charge.c - charging units (§20): cpu, billing, dominant.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm computes billable TRES as a double (assoc_mgr_tres_weighted():
 *  sum of count x weight in TRES order, CPU first; the MAX of the node
 *  TRES with PriorityFlags=MAX_TRES) and stores it in the uint64_t
 *  `billing` TRES count by plain conversion, i.e. truncated; its
 *  fair-share decay thread charges the double.  We do the same: the core
 *  gets the truncated width (at least 1, the core's q >= 1), fairshare
 *  the double.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "charge.h"

static const char *_modes[] = { "cpu", "billing", "dominant" };

void sim_charge_init(sim_charge_t *c)
{
	*c = (sim_charge_t) { .mode = SIM_CHARGE_BILLING, .w_cpu = 1 };
}

int sim_charge_mode_parse(const char *s, sim_charge_mode_t *out)
{
	for (int i = 0; i < 3; i++)
		if (!strcasecmp(s, _modes[i])) {
			*out = (sim_charge_mode_t) i;
			return 0;
		}
	return -1;
}

const char *sim_charge_mode_name(sim_charge_mode_t mode)
{
	return (unsigned) mode < 3 ? _modes[mode] : "?";
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

/* Billing of q CPUs and g GPUs, in Slurm's order of operations. */
static double _billing(const sim_charge_t *c, uint32_t q, uint32_t g)
{
	double a = (double) q * c->w_cpu, b = (double) g * c->w_gpu;

	return c->max_tres ? fmax(a, b) : a + b;
}

double sim_charge_raw(const sim_charge_t *c, uint32_t m, uint32_t G,
		      uint32_t q, uint32_t g)
{
	switch (c->mode) {
	case SIM_CHARGE_BILLING:
		return _billing(c, q, g);
	case SIM_CHARGE_DOMINANT:
		return G ? fmax((double) q, (double) g * m / G) : (double) q;
	default:
		return (double) q;
	}
}

uint32_t sim_charge_width(const sim_charge_t *c, uint32_t m, uint32_t G,
			  uint32_t q, uint32_t g)
{
	double b;
	uint64_t d;

	switch (c->mode) {
	case SIM_CHARGE_BILLING:
		b = floor(_billing(c, q, g));
		return b < 1 ? 1 : b >= UINT32_MAX ? UINT32_MAX : (uint32_t) b;
	case SIM_CHARGE_DOMINANT:
		/* ceil(g m / G) in integers: exact, so a job holding every
		 * GPU is charged m, not m + 1 */
		d = G ? ((uint64_t) g * m + G - 1) / G : 0;
		return d > q ? (uint32_t) d : (q ? q : 1);
	default:
		return q ? q : 1;
	}
}

int sim_charge_capacity(const sim_charge_t *c, uint32_t m, uint32_t G,
			uint32_t *out)
{
	double b;

	if (c->mode != SIM_CHARGE_BILLING) {
		*out = m;
		return 0;
	}
	b = floor((double) m * c->w_cpu + (double) G * c->w_gpu);
	if (b >= 0x1p32)
		return -1;
	*out = b < 1 ? 1 : (uint32_t) b;
	return 0;
}
