/*****************************************************************************\
 *  osl_ratelim.h - the log of a repeated failure, rate-limited
 *  (osl_ratelim.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_RATELIM_H
#define _OSL_RATELIM_H

#include <stdbool.h>
#include <stdint.h>

/* A repeated failure's log, rate-limited.  Zero-initialize. */
typedef struct {
	bool failing;			/* failing since the last success */
	double last;			/* when a failure was last logged */
	uint64_t quiet;			/* failures since then, not logged */
	uint64_t failures;		/* failures since the last success */
} osl_ratelim_t;

/* Minimum time between two logs of the same repeated failure, seconds. */
#define OSL_RATELIM_PERIOD 600.0

/*
 * A failure at t (seconds): should it be logged?  True the first time,
 * then once `period` has passed since the last logged one (or the clock
 * went back); then *quiet is the number of failures not logged between.
 */
extern bool osl_ratelim_fail(osl_ratelim_t *r, double t, double period,
			     uint64_t *quiet);

/* A success: true if failures were being reported (log the recovery, with
 * *failures, their number), and the limiter starts afresh. */
extern bool osl_ratelim_ok(osl_ratelim_t *r, uint64_t *failures);

#endif /* _OSL_RATELIM_H */
