/*****************************************************************************\
 *  osl_wait.c - the engine thread's condition variable, timed on the
 *  monotonic clock: on the default CLOCK_REALTIME a backward step of the
 *  wall clock (NTP, an operator's date) would push every deadline away by
 *  the step and stop passes and saves for as long.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_wait.c).  Slurm's
 *  slurm_cond_init() takes no attributes, hence pthread directly.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <time.h>

#include "osl_private.h"

extern int osl_cond_init_mono(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int rc;

	if ((rc = pthread_condattr_init(&attr)))
		return rc;
	if (!(rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)))
		rc = pthread_cond_init(cond, &attr);
	(void) pthread_condattr_destroy(&attr);
	return rc;
}

extern void osl_wait_now(bool mono, struct timespec *ts)
{
	clock_gettime(mono ? CLOCK_MONOTONIC : CLOCK_REALTIME, ts);
}
