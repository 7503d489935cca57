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

#include "osl_wait.h"

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

/*
 * The gap after a pass before one that a submission woke:
 *
 *	gap = min(interval, max(1, OSL_WAKE_DUTY * held))	[s]
 *
 * The pass holds slurmctld's job write lock for held seconds, which grows
 * with the job records (about 3 us each: 30 ms at 10^4, 250 ms at 10^5).
 * During an sbatch storm a submission wakes a pass every time, so with a
 * fixed 1-s gap the passes would hold the lock a quarter of the wall time
 * at 10^5 records and starve the submissions that woke them.  With the
 * gap above they hold it at most 1/OSL_WAKE_DUTY of the time; up to 10^4
 * records nothing changes (one pass per second).  A new job needs no pass
 * to be ranked (osl_prio_new), only to be renumbered and commented.
 */
extern void osl_wake_deadline(const struct timespec *begun, double held,
			      int interval, struct timespec *out)
{
	double gap = OSL_WAKE_DUTY * (held > 0 ? held : 0);
	long long ns;

	if (gap < 1)
		gap = 1;
	if (interval >= 1 && gap > interval)
		gap = interval;
	ns = (long long) (gap * 1e9);
	*out = *begun;
	out->tv_sec += ns / 1000000000;
	out->tv_nsec += ns % 1000000000;
	if (out->tv_nsec >= 1000000000) {
		out->tv_sec++;
		out->tv_nsec -= 1000000000;
	}
}
