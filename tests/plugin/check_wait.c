/*****************************************************************************\
 *  check_wait.c - the engine thread's waits are timed on the monotonic
 *  clock, so a step of the wall clock cannot stretch or cut them
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "plug_util.h"
#include "osl_wait.h"

static double _secs(const struct timespec *ts)
{
	return ts->tv_sec + ts->tv_nsec / 1e9;
}

/*
 * A deadline 0.2 s ahead on the monotonic clock is honoured: the wait ends
 * with ETIMEDOUT no sooner than that.  On a CLOCK_REALTIME condition
 * variable the same deadline (seconds since boot) lies in 1970 and the
 * wait ends at once: this tells the two apart with a lower bound only, so
 * a loaded machine cannot make it fail.
 */
START_TEST(test_monotonic_deadline)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c;
	struct timespec t0, deadline, t1;
	int rc;

	ck_assert_int_eq(osl_cond_init_mono(&c), 0);
	osl_wait_now(true, &t0);
	deadline = t0;
	deadline.tv_nsec += 200000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&m);
	do	/* spurious wake-ups return 0 */
		rc = pthread_cond_timedwait(&c, &m, &deadline);
	while (rc == 0);
	pthread_mutex_unlock(&m);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_eq(rc, ETIMEDOUT);
	ck_assert_msg(_secs(&t1) - _secs(&t0) >= 0.2 - 1e-3,
		      "woke after %.3f s, deadline 0.2 s",
		      _secs(&t1) - _secs(&t0));
	pthread_cond_destroy(&c);
}
END_TEST

/* The base of the deadlines is the clock asked for. */
START_TEST(test_wait_now)
{
	struct timespec a, b, r;

	clock_gettime(CLOCK_MONOTONIC, &a);
	osl_wait_now(true, &b);
	clock_gettime(CLOCK_REALTIME, &r);
	ck_assert(_secs(&b) >= _secs(&a));
	ck_assert(_secs(&b) < _secs(&r) / 2);	/* not seconds since 1970 */
	osl_wait_now(false, &b);
	ck_assert(_secs(&b) >= _secs(&r));
}
END_TEST

/* The gap before a woken pass: one second while passes are short, then
 * OSL_WAKE_DUTY times the last pass's lock hold, never past Interval. */
START_TEST(test_wake_deadline)
{
	static const struct { double held; int interval; double gap; } c[] = {
		{ 0, 30, 1 }, { -5, 30, 1 }, { 0.03, 30, 1 },
		{ 0.1, 30, 1 }, { 0.25, 30, 2.5 }, { 0.2729, 30, 2.729 },
		{ 10, 30, 30 }, { 0.5, 3, 3 }, { 0.5, 0, 5 },
	};
	struct timespec begun = { .tv_sec = 1000, .tv_nsec = 900000000 }, out;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		osl_wake_deadline(&begun, c[i].held, c[i].interval, &out);
		ck_assert_msg(out.tv_nsec >= 0 && out.tv_nsec < 1000000000,
			      "case %zu: tv_nsec %ld", i, out.tv_nsec);
		ck_assert_msg(fabs(_secs(&out) - _secs(&begun) - c[i].gap) < 1e-6,
			      "case %zu: gap %.9f, want %.9f", i,
			      _secs(&out) - _secs(&begun), c[i].gap);
	}
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_monotonic_deadline,
		test_wait_now,
		test_wake_deadline,
		NULL
	};

	return ost_check_tests("wait", PLUG_TIMEOUT, tests);
}
