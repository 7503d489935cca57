/*****************************************************************************\
 *  priority_ostrich.c - priority/ostrich: each job gets its OStrich rank as
 *  priority at submission; the engine (libostrich_slurm.so, shared with
 *  sched/ostrich) keeps the pending jobs' priorities current.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
 *
 *  This program is distributed in the hope that it will be useful, but WITHOUT
 *  ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 *  FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
 *  more details.
\*****************************************************************************/

#include "config.h"

#include <math.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/log.h"
#include "src/common/slurm_priority.h"
#include "src/common/xmalloc.h"

#include "src/slurmctld/slurmctld.h"

#include "ostrich_slurm.h"

const char plugin_name[] = "OStrich fair campaign priority plugin";
const char plugin_type[] = "priority/ostrich";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

extern int init(void)
{
	if (ost_slurm_init(OST_USER_PRIO) != SLURM_SUCCESS)
		return SLURM_ERROR;
	verbose("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	ost_slurm_fini(OST_USER_PRIO);
}

/*
 * Submission (and updates, release) of job_ptr.
 * NOTE: job write lock held by the caller.
 */
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	if (job_ptr->direct_set_prio && (job_ptr->priority > 1))
		return job_ptr->priority;
	return ost_slurm_job_priority(last_prio, job_ptr);
}

/* NOTE: may be called with slurmctld locks held: only sets a flag. */
extern void priority_p_reconfig(bool assoc_clear)
{
	(void) assoc_clear;
	ost_slurm_reconfig();
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	(void) assoc;
}

/* Classic fair-share factor, only for sshare's display. */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	if ((shares_norm <= 0.0) || fuzzy_equal(shares_norm, NO_VAL))
		return 0.0;
	return pow(2.0, -(usage_efctv / shares_norm));
}

extern List priority_p_get_priority_factors_list(
	priority_factors_request_msg_t *req_msg, uid_t uid)
{
	return ost_slurm_prio_factors(req_msg, uid);
}

/*
 * Give back the unused run time of the job to its QOS and associations
 * (GrpTRESRunMins), as every priority plugin must.
 * NOTE: job write lock held; only called with AccountingStorageEnforce.
 */
static void _release_run_secs(uint64_t *grp_used, const uint64_t *unused)
{
	int i;

	for (i = 0; i < slurmctld_tres_cnt; i++)
		grp_used[i] = (unused[i] > grp_used[i]) ? 0 :
			      grp_used[i] - unused[i];
}

extern void priority_p_job_end(job_record_t *job_ptr)
{
	uint64_t secs = (uint64_t) job_ptr->time_limit * 60, *unused;
	slurmdb_assoc_rec_t *assoc_ptr;
	/* assoc W, qos W: the run-seconds counters */
	assoc_mgr_lock_t locks = { .assoc = WRITE_LOCK, .qos = WRITE_LOCK };
	int i;

	if (!job_ptr->tres_alloc_cnt)
		return;
	unused = xcalloc(slurmctld_tres_cnt + 1, sizeof(uint64_t));
	for (i = 0; i < slurmctld_tres_cnt; i++)
		if (job_ptr->tres_alloc_cnt[i] != NO_CONSUME_VAL64)
			unused[i] = job_ptr->tres_alloc_cnt[i] * secs;
	assoc_mgr_lock(&locks);
	if (job_ptr->qos_ptr && job_ptr->qos_ptr->usage)
		_release_run_secs(job_ptr->qos_ptr->usage->grp_used_tres_run_secs,
				  unused);
	for (assoc_ptr = job_ptr->assoc_ptr; assoc_ptr && assoc_ptr->usage;
	     assoc_ptr = assoc_ptr->usage->parent_assoc_ptr)
		_release_run_secs(assoc_ptr->usage->grp_used_tres_run_secs,
				  unused);
	assoc_mgr_unlock(&locks);
	xfree(unused);
}
