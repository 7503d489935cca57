/*****************************************************************************\
 *  osl_compat.h - every difference between the Slurm releases the adapter
 *  builds for (22.05, 24.11, 25.11, 26.05), and the only place in plugins/
 *  that tests SLURM_VERSION_NUMBER.  doc/slurm-versions.md is its
 *  specification; the section numbers below are that file's.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Include it after Slurm's slurm.h and src/slurmctld/slurmctld.h.  Only
 *  the releases that were read are tested: 24.11 (the first supported after
 *  22.05), 25.11 and 26.05; configure refuses anything in between, so
 *  "< 24.11" means 22.05.
\*****************************************************************************/

#ifndef _OSL_COMPAT_H
#define _OSL_COMPAT_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "slurm/slurm.h"
#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/plugin.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#define OSL_SLURM_24_11 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0))
#define OSL_SLURM_26_05 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))

/* section 2: the MCS and priority interfaces moved to src/interfaces/. */
#if OSL_SLURM_24_11
#include "src/interfaces/mcs.h"
#include "src/interfaces/priority.h"
#else
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_priority.h"
#endif

/*
 * section 2: and gres.h (GRES of a job or node, for ChargeWeights=), only
 * for the file that defines OSL_COMPAT_GRES (osl_tres.c): from 24.11 it
 * includes slurmstepd_job.h, whose #define _GNU_SOURCE (no value) would
 * clash with the command line's -D_GNU_SOURCE (1) under -Werror, so the
 * latter is dropped first (every system header is already in).
 */
#ifdef OSL_COMPAT_GRES
#if OSL_SLURM_24_11
#undef _GNU_SOURCE
#include "src/interfaces/gres.h"
#else
#include "src/common/gres.h"
#endif
#endif

/* section 11: 26.05 threads come from a pool, created and joined there. */
#if OSL_SLURM_26_05
#include "src/common/threadpool.h"
#endif

/* section 3: 24.11 spells List / ListIterator list_t * / list_itr_t *. */
#if !OSL_SLURM_24_11
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
#endif

/*
 * section 11: start the thread fn(NULL) named name into *id (fatal on failure, as
 * slurm_thread_create is); osl_thread_join() waits for it.
 */
#if OSL_SLURM_26_05
#define osl_thread_create(name, id, fn) \
	slurm_thread_create(name, id, fn, NULL)
#define osl_thread_join(id) slurm_thread_join(id)
#else
#define osl_thread_create(name, id, fn) slurm_thread_create(id, fn, NULL)
#define osl_thread_join(id) pthread_join(id, NULL)
#endif

/*
 * section 10: dlopen the plugin at path into *h.  RET SLURM_SUCCESS, else an error
 * and *errstr its text (static).
 */
static inline int osl_plugin_load(plugin_handle_t *h, const char *path,
				  const char **errstr)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0)
	int rc = plugin_load_from_file(h, path, true);
#elif OSL_SLURM_24_11
	int rc = plugin_load_from_file(h, path);
#else
	plugin_err_t err = plugin_load_from_file(h, path);
	int rc = (err == EPLUGIN_SUCCESS) ? SLURM_SUCCESS : SLURM_ERROR;

	*errstr = plugin_strerror(err);
	return rc;
#endif
#if OSL_SLURM_24_11
	*errstr = slurm_strerror(rc);
	return rc;
#endif
}

/* section 9: is uid a coordinator of acct?  (The assoc_mgr user lock not held.) */
static inline bool osl_is_acct_coord(uint32_t uid, char *acct)
{
#if OSL_SLURM_24_11
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid, acct, false);
#else
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid, acct);
#endif
}

/*
 * section 5: per-partition priorities of a job submitted to several partitions.
 * 22.05 keeps them in job_ptr->priority_array (index: position in
 * part_ptr_list); 24.11+ in job_ptr->prio_mult, indexed partition x QOS
 * (QOS inner, one QOS when qos_list is NULL), with the partition names.
 */

/* Number of QOS per partition slot (1 on 22.05 or with a single QOS). */
static inline int osl_prio_nqos(const job_record_t *job_ptr)
{
#if OSL_SLURM_24_11
	int n = job_ptr->qos_list ? list_count(job_ptr->qos_list) : 1;

	return (n > 0) ? n : 1;
#else
	(void) job_ptr;
	return 1;
#endif
}

/* The priority the job has in partition slot, or 0 if it has no array. */
static inline uint32_t osl_prio_slot_get(const job_record_t *job_ptr, int slot)
{
#if OSL_SLURM_24_11
	if (!job_ptr->prio_mult || !job_ptr->prio_mult->priority_array)
		return 0;
	return job_ptr->prio_mult->priority_array[slot *
						  osl_prio_nqos(job_ptr)];
#else
	if (!job_ptr->priority_array)
		return 0;
	return job_ptr->priority_array[slot];
#endif
}

/* Does the job carry per-partition priorities? */
static inline bool osl_prio_has_array(const job_record_t *job_ptr)
{
#if OSL_SLURM_24_11
	return job_ptr->prio_mult && job_ptr->prio_mult->priority_array;
#else
	return job_ptr->priority_array != NULL;
#endif
}

/*
 * Set the priority of partition slot (0 <= slot < nslots, nslots the length
 * of part_ptr_list) to v for every QOS of the job, allocating the array
 * (freed by slurmctld with the job) on first use.  RET whether it changed.
 */
static inline bool osl_prio_slot_set(job_record_t *job_ptr, int nslots,
				     int slot, uint32_t v)
{
	int nq = osl_prio_nqos(job_ptr), q;
	uint32_t *a;
	bool changed = false;

#if OSL_SLURM_24_11
	if (!job_ptr->prio_mult)
		job_ptr->prio_mult = xmalloc(sizeof(*job_ptr->prio_mult));
	if (!job_ptr->prio_mult->priority_array) {
		job_ptr->prio_mult->priority_array =
			xcalloc((size_t) nslots * nq + 1, sizeof(uint32_t));
		xfree(job_ptr->prio_mult->priority_array_names);
		job_ptr->prio_mult->priority_array_names =
			part_list_to_xstr(job_ptr->part_ptr_list);
		job_ptr->prio_mult->last_update = time(NULL);
	}
	a = job_ptr->prio_mult->priority_array;
#else
	if (!job_ptr->priority_array)
		job_ptr->priority_array = xcalloc(nslots + 1, sizeof(uint32_t));
	a = job_ptr->priority_array;
#endif
	for (q = 0; q < nq; q++)
		if (a[slot * nq + q] != v) {
			a[slot * nq + q] = v;
			changed = true;
		}
	return changed;
}

/*
 * section 8: sprio.  22.05 hands the plugin a request (job ids, uids, partitions)
 * and holds no lock; 24.11+ hands only the uid, filters in the client, and
 * calls with job/node/part read (and assoc QOS read) locks held.
 */
#if OSL_SLURM_24_11
/* The request of 22.05, which 24.11+ never sends: always NULL there. */
typedef struct {
	list_t *job_id_list;
	char *partitions;
	list_t *uid_list;
} osl_factors_req_t;
#define OSL_SPRIO_CALLER_LOCKS true
/*
 * Define priority_p_get_priority_factors_list() over
 * fn(osl_factors_req_t *req, uid_t uid).
 */
#define OSL_DEFINE_FACTORS_LIST(fn) \
	extern list_t *priority_p_get_priority_factors_list(uid_t uid) \
	{ \
		return fn(NULL, uid); \
	}
#else
typedef priority_factors_request_msg_t osl_factors_req_t;
#define OSL_SPRIO_CALLER_LOCKS false
#define OSL_DEFINE_FACTORS_LIST(fn) \
	extern list_t *priority_p_get_priority_factors_list( \
		priority_factors_request_msg_t *req, uid_t uid) \
	{ \
		return fn(req, uid); \
	}
#endif

/*
 * One sprio row, to be freed by slurm_destroy_priority_factors_object: job
 * job_ptr in partition part (copied where the destructor frees it), shown
 * priority prio, FAIRSHARE fs (already weighted), nice the job's nice (with
 * NICE_OFFSET).
 *   22.05: PRIORITY = direct_prio = prio; FAIRSHARE fs; SITE 0.
 *   24.11+: sprio shows every factor as 0 when direct_prio is set, so
 *   direct_prio stays 0 and PRIORITY is the sum of the factors:
 *   fs + (site - NICE_OFFSET) - (nice - NICE_OFFSET).  SITE carries the
 *   rest, prio - floor(fs), so that sprio's truncated sum is prio.
 * width (semantics.md §19), when not 0, is shown as the TRES factor
 * billing=W (sprio -l, %T): TRES index TRES_ARRAY_BILLING, weight 1 (sprio
 * names it from assoc_mgr_tres_name_array); 24.11+ sums it into PRIORITY,
 * so SITE gives it back.
 */
static inline void osl_factors_width(double **tres, double **weights,
				     uint32_t *cnt, uint32_t width)
{
	int i;

	*cnt = TRES_ARRAY_BILLING + 1;
	*tres = xcalloc(*cnt, sizeof(double));
	*weights = xcalloc(*cnt, sizeof(double));
	for (i = 0; i < (int) *cnt; i++)
		(*weights)[i] = 1.0;
	(*tres)[TRES_ARRAY_BILLING] = width;
}

static inline priority_factors_object_t *
osl_factors_new(const job_record_t *job_ptr, const char *part, uint32_t prio,
		double fs, uint32_t nice, uint32_t width)
{
	priority_factors_object_t *f = xmalloc(sizeof(*f));

	f->user_id = job_ptr->user_id;
#if OSL_SLURM_24_11
	{
		priority_factors_t *pf = xmalloc(sizeof(*pf));
		int64_t site = (int64_t) NICE_OFFSET + prio -
			       (int64_t) fs + ((int64_t) nice - NICE_OFFSET) -
			       (int64_t) width;

		if (site < 0)
			site = 0;
		if (site > UINT32_MAX)
			site = UINT32_MAX;
		pf->priority_fs = fs;
		pf->priority_site = (uint32_t) site;
		pf->nice = nice;
		if (width)
			osl_factors_width(&pf->priority_tres,
					  &pf->tres_weights, &pf->tres_cnt,
					  width);
		f->prio_factors = pf;
		f->partition = xstrdup(part);
	}
#if OSL_SLURM_26_05
	f->step_id = STEP_ID_FROM_JOB_RECORD(job_ptr);
#else
	f->job_id = job_ptr->job_id;
#endif
#else
	f->job_id = job_ptr->job_id;
	f->partition = (char *) part;	/* not freed by the destructor */
	f->direct_prio = prio;
	f->priority_fs = fs;
	f->priority_site = NICE_OFFSET;
	f->nice = nice;
	if (width)
		osl_factors_width(&f->priority_tres, &f->tres_weights,
				  &f->tres_cnt, width);
#endif
	return f;
}

/*
 * Is this slurmctld the new process of a reconfigure?  From 24.11,
 * scontrol reconfigure stops the plugins (fini), then starts a new
 * slurmctld (SLURMCTLD_RECONF set) whose plugins start with init(); if that
 * one fails, the old process starts its plugins again.  22.05 calls
 * sched_p_reconfig / priority_p_reconfig instead: never.
 */
static inline bool osl_slurmctld_reconfiguring(void)
{
#if OSL_SLURM_24_11
	return getenv("SLURMCTLD_RECONF") != NULL;
#else
	return false;
#endif
}

/*
 * Keep the shared object holding addr mapped once its plugins are unloaded
 * (RTLD_NODELETE), so that its statics survive the plugins' fini/init of a
 * failed 24.11+ reconfigure in the same process.  No-op on 22.05.
 */
static inline void osl_pin_library(const void *addr)
{
#if OSL_SLURM_24_11
	Dl_info info;

	if (dladdr(addr, &info) && info.dli_fname &&
	    !dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
		error("ostrich: cannot pin %s: %s", info.dli_fname, dlerror());
#else
	(void) addr;
#endif
}

/*
 * section 7: the priority loader of 24.11+ also requires priority_p_recover and
 * priority_p_thread_start; 25.11+ no longer requires
 * priority_p_calc_fs_factor (exporting it stays harmless).  The engine owns
 * the priorities and starts its thread in init(), so both are no-ops.
 */
#if OSL_SLURM_24_11
#define OSL_DEFINE_PRIO_24_11_SYMS \
	extern uint32_t priority_p_recover(uint32_t prio_boost) \
	{ \
		(void) prio_boost; \
		return 0; \
	} \
	extern void priority_p_thread_start(void) \
	{ \
	}
#else
#define OSL_DEFINE_PRIO_24_11_SYMS
#endif

/*
 * section 19: multifactor calls site_factor_p_update() from its decay
 * thread.  22.05 starts that thread only with slurmdbd
 * (AccountingStorageType=accounting_storage/slurmdbd): without it a site
 * factor is set at submission and at a job's updates only, and would
 * freeze.  24.11+ start it in priority_p_thread_start() whatever the
 * accounting (the first PriorityCalcPeriod then calls no update).
 */
#define OSL_SITE_UPDATE_NEEDS_DBD (!OSL_SLURM_24_11)

/*
 * section 17: PriorityFlags=MAX_TRES_GRES (25.11+; 0 before, so that no
 * flag matches).  MAX_TRES is in every release.  assoc_mgr_tres_weighted
 * is otherwise the same in 22.05, 24.11, 25.11 and 26.05.
 */
#ifdef PRIORITY_FLAGS_MAX_TRES_GRES
#define OSL_PRIORITY_FLAGS_MAX_TRES_GRES PRIORITY_FLAGS_MAX_TRES_GRES
#else
#define OSL_PRIORITY_FLAGS_MAX_TRES_GRES 0
#endif

#endif /* _OSL_COMPAT_H */
