/*
 * decay_probe.c - preloaded into slurmctld by bench/site-factor-cost.sh:
 * times each cycle of priority/multifactor's decay thread (the thread
 * named "decay"), the cycle that calls site_factor_p_update() every
 * PriorityCalcPeriod and recomputes every pending job's priority.
 *
 * The thread sleeps between two cycles in pthread_cond_timedwait(): a
 * cycle runs from its return to the next call.  Within it the probe sums
 * the time the thread waited for read-write locks (slurmctld's job, node,
 * partition and config locks, the association manager's), the time it held
 * at least one of them, and the time spent in site_factor_g_update() (the
 * site factor plugin's update, site_factor/none or ostrich), and the CPU
 * time the thread itself used (CLOCK_THREAD_CPUTIME_ID: neither the time
 * it waited for a lock or a disk nor the time other processes had the
 * CPU, which on a shared machine make the wall time noisy).  Each cycle
 * appends a line to the file named by OST_DECAY_PROBE:
 *
 *     cycle WALL_US WAIT_US HELD_US SITE_US CPU_US
 *
 * The first cycle after a start (before any wait) is not recorded.  No
 * Slurm header: the interposed functions are libc's and libslurmfull's.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static __thread int _kind;	/* 0 unknown, 1 the decay thread, 2 another */
static __thread double _t_cycle, _cpu0, _wait, _held, _held_since, _site;
static __thread int _depth;

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double _cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A thread is named after the process ("slurmctld") until it names
 * itself: only a name of its own is final. */
static int _decay(void)
{
	char name[17] = { 0 };

	if (_kind)
		return _kind == 1;
	if (prctl(PR_GET_NAME, name, 0, 0, 0))
		return 0;
	if (!strcmp(name, "decay"))
		_kind = 1;
	else if (strcmp(name, "slurmctld"))
		_kind = 2;
	return _kind == 1;
}

static void *_real(const char *name, const char *version)
{
	void *f = version ? dlvsym(RTLD_NEXT, name, version) : NULL;

	if (!f)
		f = dlsym(RTLD_NEXT, name);
	if (!f)
		abort();
	return f;
}

static void _record(double wall, double cpu)
{
	const char *path = getenv("OST_DECAY_PROBE");
	char line[160];
	int fd, n;

	if (!path)
		return;
	n = snprintf(line, sizeof(line), "cycle %.0f %.0f %.0f %.0f %.0f\n",
		     wall, _wait, _held, _site, cpu);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, n) != n) {
		/* a bench aid: a short write loses one line */
	}
	close(fd);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			   const struct timespec *abstime)
{
	static int (*real)(pthread_cond_t *, pthread_mutex_t *,
			   const struct timespec *);
	int rc;

	if (!real)
		real = _real("pthread_cond_timedwait", "GLIBC_2.3.2");
	if (!_decay())
		return real(c, m, abstime);
	if (_t_cycle > 0)
		_record(_now() - _t_cycle, _cpu() - _cpu0);
	rc = real(c, m, abstime);
	_t_cycle = _now();
	_cpu0 = _cpu();
	_wait = _held = _site = 0;
	_depth = 0;
	return rc;
}

static int _lock(int (*real)(pthread_rwlock_t *), pthread_rwlock_t *l)
{
	double t0, t1;
	int rc;

	if (!_decay() || _t_cycle <= 0)
		return real(l);
	t0 = _now();
	rc = real(l);
	t1 = _now();
	_wait += t1 - t0;
	if (!rc && !_depth++)
		_held_since = t1;
	return rc;
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	static int (*real)(pthread_rwlock_t *);

	if (!real)
		real = _real("pthread_rwlock_wrlock", "GLIBC_2.34");
	return _lock(real, l);
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	static int (*real)(pthread_rwlock_t *);

	if (!real)
		real = _real("pthread_rwlock_rdlock", "GLIBC_2.34");
	return _lock(real, l);
}

int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	static int (*real)(pthread_rwlock_t *);
	int rc;

	if (!real)
		real = _real("pthread_rwlock_unlock", "GLIBC_2.34");
	rc = real(l);
	if (_kind == 1 && _t_cycle > 0 && _depth > 0 && !--_depth)
		_held += _now() - _held_since;
	return rc;
}

/* libslurmfull's driver of the site factor plugin */
void site_factor_g_update(void)
{
	static void (*real)(void);
	double t0;

	if (!real)
		real = _real("site_factor_g_update", NULL);
	t0 = _now();
	real();
	if (_kind == 1)
		_site += _now() - t0;
}
