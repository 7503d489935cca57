/*****************************************************************************\
 *  osl_globals.c - the adapter's global data: the engine's state (osl_eng)
 *  and the data symbols of slurmctld it reads.  A leaf: it calls nothing,
 *  so that every Slurm-bound file may use it without an import circle.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <pthread.h>
#include <sys/time.h>
#include <time.h>

#include "slurm/slurm.h"

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
};

extern double osl_now_hr(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}
