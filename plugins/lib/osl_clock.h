/*****************************************************************************\
 *  osl_clock.h - clock steps and the age of state files (osl_clock.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_CLOCK_H
#define _OSL_CLOCK_H

#include <stdbool.h>
#include <stdio.h>

#include "osl_partition.h"

/* A wall clock behind the core's by more than this (seconds) stepped back. */
#define OSL_SKEW_BACK 60.0
/* Between two passes, a wall clock ahead by more than the larger of this
 * (seconds) and 10 Interval jumped forward. */
#define OSL_SKEW_FORWARD 3600.0
/* A state file whose clock is older than this (seconds: 7 days) is not
 * loaded; the partition is rebuilt from the job records. */
#define OSL_STATE_MAX_AGE (7 * 86400.0)

/*
 * The shift to rebase a schedule whose clock is core_now by, now being the
 * wall clock and interval the pass interval (seconds); continuous: a pass
 * of this process set core_now (so a gap is no downtime).  The rule is
 * above the definition (osl_clock.c).
 * RET seconds (< 0: back, > 0: forward), 0 for none
 */
extern double osl_clock_skew(double core_now, double now, double interval,
			     bool continuous);

/*
 * At the start of a pass of p at now: when osl_clock_skew() finds a step,
 * log it (osl_error), rebase p's core, log the rebase to evlog (may be
 * NULL).  Marks p as passed.
 * RET true if the schedule was rebased
 */
extern bool osl_clock_check(osl_part_t *p, double now, double interval,
			    FILE *evlog);

/* Is a state file whose clock is saved too old at now (OSL_STATE_MAX_AGE)? */
extern bool osl_state_stale(double saved, double now);

#endif /* _OSL_CLOCK_H */
