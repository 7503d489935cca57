/*****************************************************************************\
 *  osl_submit.c - a submission (priority_p_set) ranked at once, as a pass
 *  would rank it, without a pass over every record; or, when the cores are
 *  away (a save) or the record is not complete yet, deferred to the
 *  catch-up (osl_catch_up.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/run_in_daemon.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "ostrich.h"
#include "osl_comment.h"
#include "osl_names.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_site.h"
#include "osl_slurm.h"
#include "osl_sync.h"
#include "osl_vec.h"
#include "ostrich_slurm.h"

/* Remember job id (an array's job id for its tasks) for osl_catch_up: the
 * core has not seen it.  NOTE: osl_eng.lock held. */
static void _defer(uint32_t id)
{
	osl_eng.unseen = osl_grow(osl_eng.unseen, &osl_eng.cap_unseen,
				  osl_eng.nunseen + 1, sizeof(*osl_eng.unseen),
				  16);
	osl_eng.unseen[osl_eng.nunseen++] = id;
}

/* Remember job id, whose line waits for the name of its owner uid, for
 * osl_catch_up, and wake the engine thread for it (no pass).  NOTE:
 * osl_eng.lock held. */
static void _defer_line(uint32_t id, uint32_t uid)
{
	osl_eng.nameless = osl_grow(osl_eng.nameless, &osl_eng.cap_nameless,
				    osl_eng.nnameless + 1,
				    sizeof(*osl_eng.nameless), 16);
	osl_eng.nameless[osl_eng.nnameless].job_id = id;
	osl_eng.nameless[osl_eng.nnameless++].uid = uid;
	osl_eng.catch_up = true;
	slurm_cond_broadcast(&osl_eng.cond);
}

/* Wake the engine thread for a pass soon, for why (counted in the pass
 * log line).  NOTE: osl_eng.lock held. */
static void _wake(osl_wake_why_t why)
{
	osl_eng.wake = true;
	osl_eng.woken[why]++;
	slurm_cond_broadcast(&osl_eng.cond);
}

extern void osl_wake(void)
{
	slurm_mutex_lock(&osl_eng.lock);
	_wake(OSL_WAKE_WATCH);
	slurm_mutex_unlock(&osl_eng.lock);
}

/*
 * Is job_ptr already known to the engine?  Then nothing is done for it
 * here: slurmctld calls priority_p_set() after every update of a job,
 * failed ones included, and for each task an update splits off an array,
 * so this must stay O(1).  A record whose width, estimate or state is not
 * what the core knows (a resize, a requeue, a nice) wakes a pass, which applies
 * it.  *prio is then the record's priority to keep.
 * NOTE: job write lock and osl_eng.lock held.
 */
static bool _known(job_record_t *job_ptr, uint32_t *prio)
{
	ost_job_info_t info;
	osl_obs_t o;

	if (!osl_observe_first(job_ptr, &o) ||
	    ost_job_get(osl_eng.parts[o.part].sched, o.key, &info))
		return false;
	if (info.state != OST_JOB_PENDING || info.procs != o.procs ||
	    info.estimate != o.estimate || info.nice != o.nice)
		_wake(OSL_WAKE_CHANGED);
	if (job_ptr->priority && job_ptr->priority != NO_VAL)
		*prio = job_ptr->priority;
	return true;
}

/*
 * Did the submission leave its record, in the partition of obs[0..n), as
 * a pass would?  It did when the record got a value from the table the
 * last pass renumbered (osl_prio_new; one per record, at its best-ranked
 * task) that ties no neighbour, and when it got its SystemComment line
 * (osl_comments_new); the caller counts those two.  Then it wakes no
 * pass.
 * The other records' rank=R/P is then one behind until the regular pass
 * (Interval); in a storm of sbatch that is what keeps each submission
 * from waking a pass over every record (doc/design.md, "Submission
 * storms").  A record left unsettled (no room between its neighbours'
 * values, a partition that does not rank it, PrivateData=jobs) wakes one;
 * a line that waits only for its owner's name is the catch-up's
 * (_catch_up_lines).
 */
static bool _settled(osl_obs_t **obs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (obs[i]->writable && obs[i]->prio)
			return true;	/* the record's value here */
	return false;
}

/*
 * site_factor/ostrich: job_ptr's site_factor from the best rank its
 * observations vec got (osl_prio_new), each of its partition's pending
 * count now: what the next pass publishes for it, but for the jobs
 * submitted until then.  Unranked: left as Slurm made it.
 * NOTE: job write lock and osl_eng.lock held.
 */
static void _site_new(job_record_t *job_ptr, const osl_obs_vec_t *vec)
{
	uint64_t rank = 0, pending = 0;
	int i;

	for (i = 0; i < vec->n; i++) {
		const osl_obs_t *o = &vec->v[i];
		ost_stats_t st;

		if (o->st != OSL_PENDING || !o->rank)
			continue;
		ost_sched_stats(osl_eng.parts[o->part].sched, &st);
		if (o->rank > st.pending)
			continue;
		if (!rank || osl_site_better(o->rank, st.pending, rank,
					     pending)) {
			rank = o->rank;
			pending = st.pending;
		}
	}
	if (rank)
		osl_site_job(job_ptr, rank, pending);
}

extern osl_wake_why_t osl_submit_new(job_record_t *job_ptr, double now,
				     uint32_t *prio)
{
	osl_obs_vec_t vec = { 0 };
	osl_obs_t **obs;
	int i, j, lines = 0, ties = 0;
	bool settled = true;
	osl_wake_why_t why = OSL_WAKE_N;

	osl_part_add_job(job_ptr);
	osl_observe(&vec, job_ptr);
	obs = osl_obs_index(&vec);
	for (i = 0; i < vec.n; i = j) {
		osl_part_t *p = &osl_eng.parts[obs[i]->part];

		for (j = i; j < vec.n && obs[j]->part == obs[i]->part; j++)
			;
		(void) osl_sync(p, obs + i, j - i, now, OSL_SYNC_NEW,
				osl_eng.evlog);
		ties += osl_prio_new(p, obs + i, j - i);
		if (osl_eng.conf->system_comment)
			lines += osl_comments_new(p, obs + i, j - i,
						  &osl_comment_ops_now);
		settled = settled && _settled(obs + i, j - i);
	}
	if (osl_eng.site)
		_site_new(job_ptr, &vec);	/* no priority of ours */
	else if (vec.n && vec.v[0].writable && osl_write_job(vec.v, 0, vec.n))
		*prio = job_ptr->priority;
	else if (vec.n && vec.v[0].writable && job_ptr->priority != NO_VAL &&
		 job_ptr->priority)
		*prio = job_ptr->priority;
	if (osl_eng.evlog)
		fflush(osl_eng.evlog);
	if (!settled)
		why = OSL_WAKE_UNSETTLED;
	else if (ties)
		why = OSL_WAKE_TIE;
	else if (osl_eng.conf->system_comment && !lines)
		why = OSL_WAKE_NO_LINE;
	osl_tfree(obs, vec.n + 1, sizeof(*obs));
	osl_tfree(vec.v, vec.cap, sizeof(*vec.v));
	return why;
}

/*
 * Is job_ptr, a pending record the engine does not know, incomplete at
 * this call?  slurmctld calls priority_p_set for a new array before it
 * makes the record an array (set_job_prio() comes before
 * _create_job_array() in job_mgr.c): ranked now it would be one job until
 * the next pass.  Slurm has found every other new job eligible, or not,
 * before this call (job_independent() sets begin_time), but not an array,
 * nor a job just released from a hold (begin_time reset to 0).  Such a
 * record is submitted by osl_catch_up, on the engine thread, once the
 * request that made it is over.
 */
static bool _incomplete(const job_record_t *job_ptr)
{
	return !job_ptr->details->begin_time && !job_ptr->array_recs &&
	       job_ptr->array_task_id == NO_VAL;
}

/* Wake the engine thread for osl_catch_up only.  NOTE: osl_eng.lock held. */
static void _wake_catch_up(void)
{
	osl_eng.catch_up = true;
	osl_eng.woken[OSL_WAKE_INCOMPLETE]++;
	slurm_cond_broadcast(&osl_eng.cond);
}

/*
 * At submission: osl_submit_new, unless the engine knows the record already
 * (it keeps its priority, _known), a save keeps the cores away, or the
 * record is incomplete (_incomplete): the job is then deferred to
 * osl_catch_up, with a priority just below every ranked job meanwhile.  A
 * job whose --begin is still to come gets that priority too, and a pass
 * submits it when its time has come (§9.12).  A job settled but for its
 * line, its owner's name not yet known, gets that line from osl_catch_up
 * too (_catch_up_lines).
 */
extern uint32_t osl_job_priority(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio = last_prio >= 2 ? last_prio - 1 : 1;
	/* association shares for Weights=assoc, TRES for Charge= */
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK,
					     .tres = READ_LOCK };
	time_t now = time(NULL);
	osl_wake_why_t why;
	bool assoc;

	if (!running_in_slurmctld())
		return prio;
	/* slurmctld holds no assoc_mgr lock when it calls priority_p_set */
	assoc = osl_lock_engine(&assoc_read_lock, false);
	if (!osl_eng.conf || osl_eng.stop || osl_ignored(job_ptr) ||
	    !IS_JOB_PENDING(job_ptr)) {
		osl_unlock_engine(&assoc_read_lock, assoc);
		return prio;
	}
	if (osl_eng.saving) {
		/* the cores are being serialized off-lock (osl_save_all):
		 * no core call, not even a lookup (a query may settle
		 * deferred tags); osl_catch_up submits the job after the
		 * save, or else the pass this wakes */
		prio = osl_prio_deferred(job_ptr->priority);
		_defer(job_ptr->array_job_id ? job_ptr->array_job_id :
		       job_ptr->job_id);
		_wake(OSL_WAKE_SAVING);
	} else if (_known(job_ptr, &prio)) {
		;
	} else if (job_ptr->details->begin_time > now) {
		prio = osl_prio_deferred(job_ptr->priority);
	} else if (_incomplete(job_ptr)) {
		prio = osl_prio_deferred(job_ptr->priority);
		_defer(job_ptr->job_id);
		_wake_catch_up();
	} else if ((why = osl_submit_new(job_ptr, (double) now, &prio)) ==
		   OSL_WAKE_NO_LINE && !osl_name_get(job_ptr->user_id)) {
		/* settled but for the line: the catch-up resolves the name
		 * off the locks and writes it, without a pass */
		_defer_line(job_ptr->job_id, job_ptr->user_id);
	} else if (why != OSL_WAKE_N) {
		_wake(why);
	}
	osl_unlock_engine(&assoc_read_lock, assoc);
	return prio;
}

extern void osl_site_set(job_record_t *job_ptr)
{
	/* the same path as priority/ostrich's, its value unused: in site
	 * mode osl_submit_new writes the site factor, never the priority */
	(void) osl_job_priority(1, job_ptr);
}
