/*****************************************************************************\
 *  osl_wait.h - waits on the monotonic clock, and the pacing of woken
 *  passes (osl_wait.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_WAIT_H
#define _OSL_WAIT_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

/* Initialize cond, timed on CLOCK_MONOTONIC.  RET 0, or an errno value
 * (cond then not initialized). */
extern int osl_cond_init_mono(pthread_cond_t *cond);

/* Now, on CLOCK_MONOTONIC when mono (a cond of osl_cond_init_mono), else
 * CLOCK_REALTIME: the base of a pthread_cond_timedwait() deadline. */
extern void osl_wait_now(bool mono, struct timespec *ts);

/* Woken passes hold the job write lock at most 1/OSL_WAKE_DUTY of the
 * wall time (osl_wake_deadline). */
#define OSL_WAKE_DUTY 10

/* *out = begun + the gap before a pass woken by a submission may start:
 * max(1 s, OSL_WAKE_DUTY x held), at most interval seconds; held is how
 * long the last pass held slurmctld's locks (s, negative taken as 0). */
extern void osl_wake_deadline(const struct timespec *begun, double held,
			      int interval, struct timespec *out);

#endif /* _OSL_WAIT_H */
