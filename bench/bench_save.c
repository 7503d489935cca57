/*****************************************************************************\
 *  bench_save.c - how long a submission waits for the engine lock while
 *  the state of 10^5 jobs is saved: the old protocol (ost_sched_save under
 *  the lock) against the adapter's (plugins/slurm/osl_save.c: under the lock
 *  only a flag; the core serialized with no lock while submissions, seeing
 *  the flag, make no core call).  Slurm-free model of the two protocols on
 *  the real core; `make -C bench bench-save-run`.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The submitter stands for priority_p_set: it takes the lock (in
 *  slurmctld it then holds the job write lock, which stalls every RPC for
 *  as long as it waits), submits one job and ranks it, or with the flag set
 *  only takes osl_prio_deferred()'s value.  Reported: the submitter's
 *  longest and mean wait for the lock while saves run, and the ratio of the
 *  old protocol's to the new one's.  Saves are 0.1 s apart (passes run in
 *  between).  A ratio, never a pass/fail timing.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"
#include "ostrich.h"
#include "osl_prio.h"

#define NJOBS 100000
#define NUSERS 200
#define NSAVES 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool saving;			/* guarded by lock */
static ost_sched_t *sched;		/* guarded by lock unless saving */
static atomic_bool done;
static uint64_t id = 10 * (uint64_t)NJOBS;	/* submitted ids */

typedef struct {
	double max, sum;		/* waits for the lock, seconds */
	uint64_t n, deferred;		/* submissions, of which deferred */
} wait_stats_t;

static void *_submitter(void *arg)
{
	wait_stats_t *w = arg;
	uint64_t rng = 7;
	struct timespec pause = { 0, 200000 };	/* 0.2 ms between RPCs */

	while (!atomic_load(&done)) {
		double t0 = bench_now(), dt;
		uint32_t prio;

		pthread_mutex_lock(&lock);
		dt = bench_now() - t0;
		if (saving) {
			prio = osl_prio_deferred(0);
			w->deferred++;
		} else {
			ost_job_desc_t d = {
				.id = ++id, .uid = bench_rand(&rng) % NUSERS,
				.procs = 1, .estimate = 60,
			};
			uint64_t rank = 0;
			int rc = ost_job_submit(sched, &d, ost_sched_now(sched),
						NULL);

			if (rc || (rc = ost_sched_rank(sched, d.id, &rank))) {
				fprintf(stderr, "bench-save: submit: %s\n",
					ost_strerror(rc));
				exit(1);
			}
			prio = (uint32_t)rank;
		}
		pthread_mutex_unlock(&lock);
		(void)prio;
		if (dt > w->max)
			w->max = dt;
		w->sum += dt;
		w->n++;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* NSAVES saves with the old or the new protocol while a submitter runs;
 * the mean time of one serialization in *save. */
static wait_stats_t _run(bool off_lock, double *save)
{
	wait_stats_t w = { 0 };
	pthread_t th;
	double total = 0;
	/* the passes between two saves: submissions go to the core */
	struct timespec gap = { 0, 100000000 };
	int i;

	atomic_store(&done, false);
	pthread_create(&th, NULL, _submitter, &w);
	for (i = 0; i < NSAVES; i++) {
		char *buf = NULL;
		size_t len = 0;
		double t0;
		int rc;

		pthread_mutex_lock(&lock);
		if (off_lock) {
			saving = true;
			pthread_mutex_unlock(&lock);
		}
		t0 = bench_now();
		rc = ost_sched_save(sched, &buf, &len);
		total += bench_now() - t0;
		if (off_lock) {
			pthread_mutex_lock(&lock);
			saving = false;
		}
		pthread_mutex_unlock(&lock);
		if (rc) {
			fprintf(stderr, "bench-save: save failed\n");
			exit(1);
		}
		free(buf);
		nanosleep(&gap, NULL);
	}
	atomic_store(&done, true);
	pthread_join(th, NULL);
	*save = total / NSAVES;
	return w;
}

int main(void)
{
	ost_config_t cfg;
	wait_stats_t old, new;
	double s_old, s_new;
	uint64_t rng = 1, i;

	ost_config_init(&cfg);
	cfg.procs = 1024;
	sched = ost_sched_create(&cfg);
	for (i = 1; i <= NJOBS; i++) {
		ost_job_desc_t d = {
			.id = i, .uid = bench_rand(&rng) % NUSERS,
			.procs = 1 + bench_rand(&rng) % 4,
			.estimate = 60 + bench_rand(&rng) % 3600,
		};

		if (!sched || ost_job_submit(sched, &d, 1e9 + i / 100.0,
					     NULL)) {
			fprintf(stderr, "bench-save: cannot build the core\n");
			return 1;
		}
	}
	old = _run(false, &s_old);
	new = _run(true, &s_new);
	printf("| protocol | save (ms) | submissions | deferred | longest wait (ms) | mean wait (µs) |\n");
	printf("|---|---|---|---|---|---|\n");
	printf("| save under the lock | %.1f | %llu | 0 | %.3f | %.1f |\n",
	       s_old * 1e3, (unsigned long long)old.n, old.max * 1e3,
	       old.sum / old.n * 1e6);
	printf("| serialize off-lock | %.1f | %llu | %llu | %.3f | %.1f |\n",
	       s_new * 1e3, (unsigned long long)new.n,
	       (unsigned long long)new.deferred, new.max * 1e3,
	       new.sum / new.n * 1e6);
	printf("\n%d jobs, %d saves each: the longest wait of a submission is "
	       "%.0f times shorter off-lock (mean: %.0f times).\n", NJOBS,
	       NSAVES, old.max / (new.max > 0 ? new.max : 1e-9),
	       (old.sum / old.n) / (new.sum / new.n > 0 ? new.sum / new.n :
				    1e-12));
	ost_sched_destroy(sched);
	return 0;
}
