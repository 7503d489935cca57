/*****************************************************************************\
 *  osl_globals.c - the adapter's global data: the engine's state (osl_eng),
 *  the one way to take its lock in the lock order, and the data symbols of
 *  slurmctld it reads.  Of the adapter's other files it calls only
 *  osl_tres.c (osl_tres_locks: which locks a pass needs), which calls
 *  only the Slurm-free library, so that every Slurm-bound file may use
 *  it without a circle of calls (tools/check-deps.sh).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <pthread.h>
#include <sys/time.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/macros.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_compat.h"
#include "osl_slurm.h"

/*
 * Data symbols of slurmctld that this library reads.  Inside slurmctld the
 * executable's definitions take precedence (symbol interposition); these
 * copies only let the priority plugin load in other programs (sshare).
 */
list_t *job_list = NULL;
list_t *part_list = NULL;
time_t last_job_update = (time_t) 0;
int slurmctld_tres_cnt = 0;
void *acct_db_conn = NULL;

/* Every field guarded by its lock; cond is initialized once, on the
 * monotonic clock, by the first init (osl_engine.c). */
osl_engine_t osl_eng = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.billed_parts = -1,
};

extern double osl_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

extern double osl_now_hr(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/*
 * Take osl_eng.lock, and before it the assoc_mgr read lock when
 * Weights=assoc reads association shares or Charge= the TRES (lock order:
 * osl_slurm.h).
 * NOTE: the slurmctld locks the caller needs are held.
 * RET whether the assoc lock was taken (for osl_unlock_engine)
 */
extern bool osl_lock_engine(assoc_mgr_lock_t *assoc_lock, bool pass)
{
	bool assoc, tres = false, node;

	slurm_mutex_lock(&osl_eng.lock);
	if (pass && osl_eng.conf)
		osl_tres_locks(osl_eng.conf, osl_eng.billed_parts, &tres,
			       &node);
	assoc = osl_eng.conf && (osl_eng.conf->weights_assoc || tres);
	if (assoc) {
		slurm_mutex_unlock(&osl_eng.lock);
		assoc_mgr_lock(assoc_lock);
		slurm_mutex_lock(&osl_eng.lock);
	}
	osl_eng.assoc_held = assoc;
	return assoc;
}

extern void osl_unlock_engine(assoc_mgr_lock_t *assoc_lock, bool assoc)
{
	osl_eng.assoc_held = false;
	slurm_mutex_unlock(&osl_eng.lock);
	if (assoc)
		assoc_mgr_unlock(assoc_lock);
}
