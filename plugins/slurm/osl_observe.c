/*****************************************************************************\
 *  osl_observe.c - what a job record shows, as observations (osl_obs_t):
 *  the only file that reads job_record_t to see a job's state, times, size
 *  and owner.  One observation per partition the record concerns, and per
 *  task of a pending job array record.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <math.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/xmalloc.h"

#include "src/slurmctld/slurmctld.h"

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_compat.h"
#include "osl_conf.h"
#include "osl_obs.h"
#include "osl_slurm.h"
#include "osl_usage.h"
#include "ostrich_conf.h"

/* Minutes of a Slurm time limit as seconds, INFINITY if unset or
 * unlimited. */
static double _minutes(uint32_t lim)
{
	if (lim == NO_VAL || lim == INFINITE)
		return INFINITY;
	return (double) lim * 60.0;
}

/* The limit Slurm enforces on job_ptr in part_ptr, seconds (INFINITY:
 * none): its own, else the partition's MaxTime.  The bound of every charge
 * (§1, §18); its estimate is this, else DefaultEstimate. */
static double _limit(const job_record_t *job_ptr,
		     const part_record_t *part_ptr)
{
	return osl_enforced_limit(_minutes(job_ptr->time_limit),
				  _minutes(part_ptr->max_time));
}

/* CPUs: allocated once started, else the larger of min_cpus and the CPU
 * TRES requested. */
static uint32_t _procs(const job_record_t *job_ptr)
{
	uint32_t q = 0;

	if (!IS_JOB_PENDING(job_ptr) && job_ptr->total_cpus)
		q = job_ptr->total_cpus;
	else if (job_ptr->details) {
		q = job_ptr->details->min_cpus;
		if (job_ptr->tres_req_cnt &&
		    job_ptr->tres_req_cnt[TRES_ARRAY_CPU] > q &&
		    job_ptr->tres_req_cnt[TRES_ARRAY_CPU] < NO_VAL)
			q = job_ptr->tres_req_cnt[TRES_ARRAY_CPU];
	}
	return q ? q : 1;
}

/* The record's priority for slot (priority_array for a job submitted to
 * several partitions, else its priority). */
static uint32_t _cur_prio(const job_record_t *job_ptr, int slot)
{
	if (slot < 0)
		return job_ptr->priority;
	if (!job_ptr->part_ptr_list ||
	    slot >= list_count(job_ptr->part_ptr_list))
		return 0;
	return osl_prio_slot_get(job_ptr, slot);
}

/*
 * Can a pending job with this reason never start as Slurm is configured
 * (§9.13)?  Slurm keeps such jobs pending (EnforcePartLimits=NO, a
 * dependency that failed, an account or QOS removed) until an operator or
 * the owner changes something.
 */
static bool _cannot_run(uint32_t reason)
{
	switch (reason) {
	case WAIT_PART_NODE_LIMIT:	/* PartitionNodeLimit */
	case WAIT_PART_TIME_LIMIT:	/* PartitionTimeLimit */
	case WAIT_PART_CONFIG:		/* PartitionConfig */
	case FAIL_BAD_CONSTRAINTS:	/* BadConstraints */
	case WAIT_DEP_INVALID:		/* DependencyNeverSatisfied */
	case FAIL_ACCOUNT:		/* InvalidAccount */
	case FAIL_QOS:			/* InvalidQOS */
		return true;
	default:
		return false;
	}
}

/*
 * Jobs left alone (documented in ostrich.conf(5)): held (priority 0),
 * pending for a reason that lets them never start (_cannot_run), pending
 * in a reservation (the reservation, not the order, decides when it
 * starts), revoked (federation).  A pending job left alone holds no
 * place in the schedule and keeps no campaign open; when it is no longer
 * left alone it arrives anew (§9.12).  A job that runs is never left
 * alone, in a reservation or not: every second it runs is charged once
 * (§9.14), and moving it in or out of a reservation changes nothing.
 * Each component of a heterogeneous
 * job is a job of its own, ranked and charged as any (§1): slurmctld
 * calls priority_p_set for a component before it makes it one (het_job_id
 * is set after job_allocate()), so the engine cannot tell it apart then,
 * and must not drop it later.
 */
extern bool osl_ignored(const job_record_t *job_ptr)
{
	if (IS_JOB_REVOKED(job_ptr) || !job_ptr->details)
		return true;
	if (IS_JOB_PENDING(job_ptr) &&
	    (job_ptr->priority == 0 || _cannot_run(job_ptr->state_reason) ||
	     job_ptr->resv_name || job_ptr->resv_ptr))
		return true;
	return false;
}

/* A raw association Shares as a share of the core: [1e-6, 1e6] (0, which
 * Slurm gives no share, counts as the least). */
static double _assoc_share(uint32_t raw)
{
	if (raw == NO_VAL || raw == INFINITE)
		return 1.0;
	return fmax(fmin((double) raw, OST_WEIGHT_MAX), OST_WEIGHT_MIN);
}

/*
 * Weights=assoc (§23): the account job association assoc counts in, as
 * Slurm's fairshare reads the tree: its fairshare parent (fs_assoc_ptr:
 * an account with Fairshare=parent is no level of its own, its children
 * join its own parent's level, as assoc_mgr and fair_tree.c do), then each
 * one's up to the root (excluded), placed with its raw Shares.
 * NOTE: assoc_mgr read lock (osl_eng.assoc_held).
 * RET its id, 0: the root
 */
static uint32_t _assoc_account(const slurmdb_assoc_rec_t *assoc)
{
	const slurmdb_assoc_rec_t *a, *chain[OSL_ACCT_DEPTH_MAX];
	uint32_t id = 0, parent = 0;
	int n = 0, i;

	for (a = assoc->usage ? assoc->usage->fs_assoc_ptr : NULL;
	     a && a->usage && a->usage->parent_assoc_ptr && a->acct &&
	     n < OSL_ACCT_DEPTH_MAX; a = a->usage->fs_assoc_ptr)
		chain[n++] = a;
	for (i = n - 1; i >= 0; i--) {	/* the root's child first */
		if (!(id = osl_acct_id(chain[i]->acct)))
			break;
		osl_acct_place(id, parent, _assoc_share(chain[i]->shares_raw));
		parent = id;
	}
	return parent;
}

/*
 * The account job_ptr names, if its owner may count there (§23): under
 * Weights=assoc, one Slurm found an association of the owner's for; under
 * Weights=config, one of the owner's UserAccounts= entries.  Anything
 * else is the user's word alone (Slurm takes any -A without
 * AccountingStorageEnforce=associations): counting it would let a user
 * make up accounts for shares of their own, so it is refused, logged once
 * per user and name.  RET the name, or NULL: none, or refused
 */
static const char *_trusted_account(const job_record_t *job_ptr)
{
	const char *name = job_ptr->account;

	if (!name || !*name)
		return NULL;
	if (osl_eng.conf->weights_assoc) {
		if (osl_eng.assoc_held && job_ptr->assoc_ptr)
			return name;
	} else if (osl_acct_given(job_ptr->user_id, name)) {
		return name;
	}
	if (osl_acct_refused_new(job_ptr->user_id, name))
		info("ostrich: job %u of uid %u names account %s, which %s: it counts in its owner's own account",
			 job_ptr->job_id, job_ptr->user_id, name,
			 osl_eng.conf->weights_assoc ?
			 "has no association for the user" :
			 "UserAccounts= does not give the user");
	return NULL;
}

/* Hierarchy=accounts (§23): the account o counts in and its owner's own. */
static void _accounts(osl_obs_t *o, const job_record_t *job_ptr)
{
	if (!ost_config_nested(&osl_eng.conf->core))
		return;
	o->own = osl_acct_user(job_ptr->user_id);
	if (!_trusted_account(job_ptr))
		o->account = 0;		/* the owner's own */
	else if (osl_eng.conf->weights_assoc)
		o->account = _assoc_account(job_ptr->assoc_ptr);
	else
		o->account = osl_acct_find(job_ptr->account);
	if (!o->own)	/* no UserAccounts= entry: the job's, else the root */
		o->own = o->account;
}

/* Hierarchy=users: the account whose AccountWeights= entry scales the
 * job's owner: the one it names if trusted, else its owner's own. */
static const char *_users_account(const job_record_t *job_ptr)
{
	const char *name = _trusted_account(job_ptr);

	return name ? name : osl_acct_name(osl_acct_user(job_ptr->user_id));
}

/* The job's nice as users give it (§22): Slurm keeps it plus NICE_OFFSET,
 * in [0, 2 * NICE_OFFSET), so the difference fits an int32_t. */
static int32_t _nice(const job_record_t *job_ptr)
{
	return (int32_t)((int64_t)job_ptr->details->nice -
			 (int64_t)NICE_OFFSET);
}

static void _fill(osl_obs_t *o, job_record_t *job_ptr,
		  const part_record_t *part_ptr, int part, int slot,
		  uint64_t key, uint64_t group)
{
	o->key = key;
	o->part = part;
	o->slot = slot;
	o->rec = job_ptr;
	o->rec_id = job_ptr->job_id;
	o->rec_prio = job_ptr->priority;
	o->group = group;
	o->uid = job_ptr->user_id;
	o->procs = osl_tres_width(osl_eng.parts[part].tres, job_ptr,
				  _procs(job_ptr));
	o->limit = _limit(job_ptr, part_ptr);
	o->estimate = osl_estimate_of(o->limit,
				      osl_eng.conf->default_estimate);
	o->submit = job_ptr->details->submit_time;
	o->eligible = job_ptr->details->begin_time;
	o->nice = _nice(job_ptr);
	if (IS_JOB_PENDING(job_ptr)) {
		o->st = OSL_PENDING;
		/* requeued and still completing: its run's end (§18) */
		o->end = job_ptr->end_time;
		o->writable = !job_ptr->direct_set_prio;
		if (o->writable)
			o->cur_prio = _cur_prio(job_ptr, slot);
	} else if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) {
		o->st = OSL_RUNNING;
		o->start = job_ptr->start_time;
	} else {
		o->st = OSL_FINISHED;
		o->start = job_ptr->start_time;
		o->end = job_ptr->end_time;
		o->ran = job_ptr->nodes && job_ptr->nodes[0] &&
			 job_ptr->start_time;
		o->runtime = difftime(o->end, o->start) -
			     (double) job_ptr->tot_sus_time;
		if (!(o->runtime >= 0))
			o->runtime = 0;
	}
	/* shares only under Weights=assoc, and only under the assoc lock;
	 * an account's weight only where its owner may count (§23) */
	o->weight = osl_conf_weight(osl_eng.conf, job_ptr->user_id,
				    !ost_config_nested(&osl_eng.conf->core) ?
				    _users_account(job_ptr) : NULL,
				    osl_eng.conf->weights_assoc &&
				    osl_eng.assoc_held && job_ptr->assoc_ptr ?
				    job_ptr->assoc_ptr->shares_raw : NO_VAL);
	_accounts(o, job_ptr);
}

/* Observations of job_ptr in one partition. */
static void _observe_part(osl_obs_vec_t *vec, job_record_t *job_ptr,
			  part_record_t *part_ptr, int slot)
{
	uint64_t group = 0;
	int part;

	if (!part_ptr || !osl_part_find(part_ptr->name, &part))
		return;
	if (job_ptr->array_recs && job_ptr->array_task_id == NO_VAL) {
		bitstr_t *bm = job_ptr->array_recs->task_id_bitmap;
		int64_t t, last;

		if (!bm || !IS_JOB_PENDING(job_ptr))
			return;
		last = bit_fls(bm);
		for (t = bit_ffs(bm); t >= 0 && t <= last; t++)
			if (bit_test(bm, t))
				_fill(osl_obs_add(vec), job_ptr, part_ptr,
				      part, slot,
				      OSL_ARRAY_KEY(job_ptr->array_job_id, t),
				      job_ptr->array_job_id);
		return;
	}
	if (job_ptr->array_task_id != NO_VAL && job_ptr->array_job_id)
		group = job_ptr->array_job_id;
	_fill(osl_obs_add(vec), job_ptr, part_ptr, part, slot,
	      group ? OSL_ARRAY_KEY(job_ptr->array_job_id,
				    job_ptr->array_task_id) :
		      (uint64_t) job_ptr->job_id,
	      group);
}

extern bool osl_observe_first(job_record_t *job_ptr, osl_obs_t *o)
{
	part_record_t *part_ptr = job_ptr->part_ptr;
	int part;

	memset(o, 0, sizeof(*o));
	if (osl_ignored(job_ptr))
		return false;
	if (job_ptr->part_ptr_list && IS_JOB_PENDING(job_ptr))
		part_ptr = list_peek(job_ptr->part_ptr_list);
	if (!part_ptr || !osl_part_find(part_ptr->name, &part))
		return false;
	if (job_ptr->array_recs && job_ptr->array_task_id == NO_VAL) {
		bitstr_t *bm = job_ptr->array_recs->task_id_bitmap;
		int64_t t;

		if (!bm || !IS_JOB_PENDING(job_ptr) || (t = bit_ffs(bm)) < 0)
			return false;
		_fill(o, job_ptr, part_ptr, part, 0,
		      OSL_ARRAY_KEY(job_ptr->array_job_id, t),
		      job_ptr->array_job_id);
	} else if (job_ptr->array_task_id != NO_VAL && job_ptr->array_job_id) {
		_fill(o, job_ptr, part_ptr, part, 0,
		      OSL_ARRAY_KEY(job_ptr->array_job_id,
				    job_ptr->array_task_id),
		      job_ptr->array_job_id);
	} else {
		_fill(o, job_ptr, part_ptr, part, 0, job_ptr->job_id, 0);
	}
	return true;
}

extern void osl_observe(osl_obs_vec_t *vec, job_record_t *job_ptr)
{
	if (osl_ignored(job_ptr))
		return;
	if (job_ptr->part_ptr_list && IS_JOB_PENDING(job_ptr)) {
		list_itr_t *it = list_iterator_create(job_ptr->part_ptr_list);
		part_record_t *part_ptr;
		int slot = 0;

		while ((part_ptr = list_next(it)))
			_observe_part(vec, job_ptr, part_ptr, slot++);
		list_iterator_destroy(it);
	} else {
		_observe_part(vec, job_ptr, job_ptr->part_ptr, -1);
	}
}
