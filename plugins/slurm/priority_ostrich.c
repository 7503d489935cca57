/*****************************************************************************\
 *  priority_ostrich.c - priority/ostrich: each job gets its OStrich rank as
 *  priority at submission; the engine (libostrich_slurm.so, shared with
 *  sched/ostrich) keeps the pending jobs' priorities current.  sprio's
 *  factors are read here, as multifactor does.
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
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_combo.h"
#include "osl_compat.h"
#include "ostrich_slurm.h"

const char plugin_name[] = "OStrich fair campaign priority plugin";
const char plugin_type[] = "priority/ostrich";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

extern int init(void)
{
	/* priority/ostrich loads no site factor plugin: that one would be
	 * silently ignored, and it is a second writer of the order */
	if (running_in_slurmctld()) {
		osl_combo_t c = {
			.priority_type = slurm_conf.priority_type,
			.site_factor = slurm_conf.site_factor_plugin,
		};
		char err[512];

		if (osl_combo_prio(&c, err, sizeof(err)))
			fatal("ostrich: %s", err);
	}
	if (osl_init(OSL_PLUGIN_PRIO) != SLURM_SUCCESS)
		return SLURM_ERROR;
	verbose("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	osl_fini(OSL_PLUGIN_PRIO);
}

/*
 * Submission (and updates, release) of job_ptr.
 * NOTE: job write lock held by the caller.
 */
extern uint32_t priority_p_set(uint32_t last_prio, job_record_t *job_ptr)
{
	if (job_ptr->direct_set_prio && (job_ptr->priority > 1))
		return job_ptr->priority;
	return osl_job_priority(last_prio, job_ptr);
}

/* NOTE: may be called with slurmctld locks held: only sets a flag. */
extern void priority_p_reconfig(bool assoc_clear)
{
	(void) assoc_clear;
	osl_reconfig(OSL_PLUGIN_PRIO);
}

extern void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	(void) assoc;
}

/* Required by the 24.11+ loader only (osl_compat.h): no-ops. */
OSL_DEFINE_PRIO_24_11_SYMS

/* Classic fair-share factor, only for sshare's display (up to 24.11). */
extern double priority_p_calc_fs_factor(long double usage_efctv,
					long double shares_norm)
{
	if ((shares_norm <= 0.0) || fuzzy_equal(shares_norm, NO_VAL))
		return 0.0;
	return pow(2.0, -(usage_efctv / shares_norm));
}

/* ------------------------------------------------------------- sprio --- */

/* Is name one of the comma-separated names of csv? */
static bool _in_csv(const char *csv, const char *name)
{
	size_t n = strlen(name);
	const char *p = csv;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		if ((p = strchr(p, ',')))
			p++;
	}
	return false;
}

/*
 * One sprio row: the job's OStrich quantities in one partition
 * (doc/admin-guide.md, "sprio"):
 *   PRIORITY  (direct_prio) the priority the engine wrote for this
 *             partition (decreasing along the ranks; or an operator's
 *             value);
 *   FAIRSHARE (priority_fs) the owner's share of the partition in the
 *             virtual schedule now, times PriorityWeightFairshare, as
 *             multifactor stores weighted factors (sprio -n divides);
 *             0 when the viewer may not see it (show_share false:
 *             under PrivateData=jobs the share, a function of every
 *             active user's weight, is for operators only, as in the
 *             SystemComment's owner's view);
 *   SITE 0, NICE the job's nice (OStrich ignores both), TRES billing=W
 *             the job's width in billing units (semantics.md §19; none
 *             when the unit is CPUs), others 0.
 *   (24.11+: SITE = PRIORITY - FAIRSHARE, see osl_factors_new().)
 * NOTE: job and partition read locks held; the engine lock is taken.
 */
static void _add_factors(list_t *ret, osl_factors_req_t *req,
			 job_record_t *job_ptr, part_record_t *part_ptr,
			 uint32_t prio, bool show_share)
{
	double share, fs = 0.0;

	if (!part_ptr ||
	    (req && req->partitions && !_in_csv(req->partitions,
						part_ptr->name)))
		return;
	if (show_share &&
	    !osl_user_share(part_ptr->name, job_ptr->user_id, &share))
		fs = share * (double) slurm_conf.priority_weight_fs;
	list_append(ret, osl_factors_new(job_ptr, part_ptr->name, prio, fs,
					 job_ptr->details ?
					 job_ptr->details->nice : NICE_OFFSET,
					 osl_job_width(part_ptr->name,
						       job_ptr)));
}

static int _find_u32(void *x, void *key)
{
	return *(uint32_t *) x == *(uint32_t *) key;
}

/*
 * May uid see job_ptr?  The test squeue and multifactor's sprio apply
 * under PrivateData=jobs: owner, operators, coordinators of the job's
 * account (or the MCS label's owners with PrivateData in MCSParameters).
 */
static bool _visible(job_record_t *job_ptr, uid_t uid, bool operator)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    job_ptr->user_id == uid || operator)
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return !mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false);
	return osl_is_acct_coord(uid, job_ptr->account);
}

/*
 * sprio: one row per pending job and partition selected by req (job ids,
 * uids, partitions) that uid may see under PrivateData=jobs.
 * NOTE: no slurmctld lock held by the caller on 22.05; job, node, part
 * read locks held on 24.11+ (OSL_SPRIO_CALLER_LOCKS): never lock again.
 */
static list_t *_factors_list(osl_factors_req_t *req, uid_t uid)
{
	/* conf R (weights, PrivateData), job R (records), part R (names) */
	slurmctld_lock_t job_read_lock = {
		READ_LOCK, READ_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	list_t *ret = list_create(slurm_destroy_priority_factors_object);
	list_itr_t *it;
	job_record_t *job_ptr;
	bool operator = validate_operator(uid);
	bool show_share = operator ||
			  !(slurm_conf.private_data & PRIVATE_DATA_JOBS);

	if (!OSL_SPRIO_CALLER_LOCKS)
		lock_slurmctld(job_read_lock);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (!IS_JOB_PENDING(job_ptr) || job_ptr->priority == 0 ||
		    IS_JOB_REVOKED(job_ptr))
			continue;
		if (!_visible(job_ptr, uid, operator))
			continue;
		if (req && req->job_id_list &&
		    !list_find_first(req->job_id_list, _find_u32,
				     &job_ptr->job_id))
			continue;
		if (req && req->uid_list &&
		    !list_find_first(req->uid_list, _find_u32,
				     &job_ptr->user_id))
			continue;
		if (job_ptr->part_ptr_list && osl_prio_has_array(job_ptr)) {
			list_itr_t *pit =
				list_iterator_create(job_ptr->part_ptr_list);
			part_record_t *part_ptr;
			int i = 0;

			while ((part_ptr = list_next(pit)))
				_add_factors(ret, req, job_ptr, part_ptr,
					     osl_prio_slot_get(job_ptr, i++),
					     show_share);
			list_iterator_destroy(pit);
		} else {
			_add_factors(ret, req, job_ptr, job_ptr->part_ptr,
				     job_ptr->priority, show_share);
		}
	}
	list_iterator_destroy(it);
	if (!OSL_SPRIO_CALLER_LOCKS)
		unlock_slurmctld(job_read_lock);
	return ret;
}

OSL_DEFINE_FACTORS_LIST(_factors_list)

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
