/*****************************************************************************\
 *  check_wait.c - the engine thread's waits are timed on the monotonic
 *  clock, so a step of the wall clock cannot stretch or cut them
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "plug_util.h"

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

static Suite *suite(void)
{
	Suite *s = suite_create("wait");
	TCase *tc = ost_tcase("MonotonicWaits", PLUG_TIMEOUT);

	tcase_add_test(tc, test_monotonic_deadline);
	tcase_add_test(tc, test_wait_now);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
