/*****************************************************************************\
 *  osl_ratelim.c - a repeated failure (an unwritable state directory: every
 *  save fails) is logged the first time, then at most once per period with
 *  the number of failures not logged, and its end is logged once.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_state_files.c): times are given.
\*****************************************************************************/

#include "osl_ratelim.h"

extern bool osl_ratelim_fail(osl_ratelim_t *r, double t, double period,
			     uint64_t *quiet)
{
	r->failures++;
	if (r->failing && t >= r->last && t - r->last < period) {
		r->quiet++;
		return false;
	}
	/* first failure, a period later, or the clock stepped back */
	*quiet = r->quiet;
	r->quiet = 0;
	r->failing = true;
	r->last = t;
	return true;
}

extern bool osl_ratelim_ok(osl_ratelim_t *r, uint64_t *failures)
{
	bool was = r->failing;

	*failures = r->failures;
	r->failing = false;
	r->failures = 0;
	r->quiet = 0;
	return was;
}
