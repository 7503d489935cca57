/*****************************************************************************\
 *  osl_catch_up.c - the catch-up, on the engine thread: it submits the
 *  records a submission had to defer (a save kept the cores away, or the
 *  record was not complete yet) right after, as their submission would
 *  have (osl_submit_new), and writes the lines that waited for an owner's
 *  name; what it cannot settle is left to a pass.
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
#include "osl_slurm.h"
#include "osl_vec.h"

/* Keep each of osl_eng.unseen[0..n) once.  RET how many are left */
static int _unique(int n)
{
	int i, m;

	qsort(osl_eng.unseen, n, sizeof(*osl_eng.unseen), osl_cmp_u32);
	for (i = 0, m = 0; i < n; i++)
		if (!m || osl_eng.unseen[i] != osl_eng.unseen[m - 1])
			osl_eng.unseen[m++] = osl_eng.unseen[i];
	return m;
}

/*
 * Submit the deferred job id as its submission would have been
 * (osl_submit_new).  RET 1 if it is settled, 0 if it stays for the pass: no
 * longer pending, known already (an update during a save; the pass checks
 * it as _known would; an array's task is not even this record), not ours,
 * or not settled.  *written: a value and a line were written, even
 * unsettled.  NOTE: job write lock, part read lock and osl_eng.lock held.
 */
static int _catch_up_one(uint32_t id, double now, bool *written)
{
	job_record_t *job_ptr = find_job_record(id);
	ost_job_info_t info;
	uint32_t prio = 0;
	osl_obs_t o;
	bool settled;

	if (!osl_eng.conf || osl_eng.stop || osl_eng.saving || !job_ptr ||
	    !IS_JOB_PENDING(job_ptr) || osl_ignored(job_ptr) ||
	    (osl_observe_first(job_ptr, &o) &&
	     !ost_job_get(osl_eng.parts[o.part].sched, o.key, &info)))
		return 0;
	settled = osl_submit_new(job_ptr, now, &prio) == OSL_WAKE_N;
	*written = *written || prio || osl_eng.site;
	if (!settled)
		return 0;
	if (job_ptr->array_recs) {	/* its tasks that ended: the pass's */
		osl_eng.caught = osl_grow(osl_eng.caught, &osl_eng.cap_caught,
					  osl_eng.ncaught + 1,
					  sizeof(*osl_eng.caught), 16);
		osl_eng.caught[osl_eng.ncaught++] = id;
	}
	return 1;
}

/* by owner, then job id: one name lookup per owner */
static int _nameless_cmp(const void *a, const void *b)
{
	const osl_nameless_t *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

/*
 * Give job_ptr, a pending record the engine knows, the line its submission
 * would have written had its owner's name been known (osl_comments_new),
 * with each observation's rank from the core.  RET whether it has one.
 * NOTE: job write lock (and part read lock) and osl_eng.lock held.
 */
static bool _line_now(job_record_t *job_ptr)
{
	osl_obs_vec_t vec = { 0 };
	osl_obs_t **obs;
	int i, j, k, lines = 0;

	osl_observe(&vec, job_ptr);
	obs = osl_obs_index(&vec);
	for (i = 0; i < vec.n; i = j) {
		osl_part_t *p = &osl_eng.parts[obs[i]->part];

		for (j = i; j < vec.n && obs[j]->part == obs[i]->part; j++)
			;
		for (k = i; k < j; k++) {
			uint64_t rank = 0;

			if (!ost_sched_rank(p->sched, obs[k]->key, &rank))
				obs[k]->rank = rank;
		}
		lines += osl_comments_new(p, obs + i, j - i,
					  &osl_comment_ops_now);
	}
	osl_tfree(obs, vec.n + 1, sizeof(*obs));
	osl_tfree(vec.v, vec.cap, sizeof(*vec.v));
	return lines > 0;
}

/*
 * The lines owed since submission to jobs whose owner's name no pass had
 * resolved (osl_eng.nameless).  A submission holds the job write lock and
 * may not wait on the name service (LDAP can take seconds); here each
 * owner's name is looked up on the engine thread holding no lock at all,
 * kept for the passes and submissions to come (osl_names.c), and only
 * then are the job locks taken, to write those few lines.  Without it
 * each new user's first submission woke a pass over every record.  A job
 * that still has no line (PrivateData=jobs, no longer pending, a
 * partition that did not rank it) is left to the pass it now wakes; one
 * that is gone is owed nothing.  O(k log k + k log n) for k jobs.
 */
static void _catch_up_lines(void)
{
	/* conf R, job W (comments), part R (osl_observe) */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK,
					     .tres = READ_LOCK };
	osl_nameless_t *v;
	char **name;
	int i, n, written = 0, left = 0;
	bool assoc;

	slurm_mutex_lock(&osl_eng.lock);
	v = osl_eng.nameless;
	n = osl_eng.nnameless;
	osl_eng.nameless = NULL;
	osl_eng.nnameless = osl_eng.cap_nameless = 0;
	slurm_mutex_unlock(&osl_eng.lock);
	if (!n) {
		free(v);		/* NULL, or room kept by an empty list */
		return;
	}

	qsort(v, n, sizeof(*v), _nameless_cmp);
	name = xcalloc(n, sizeof(*name));
	for (i = 0; i < n; i++)		/* no lock held */
		if (!i || v[i].uid != v[i - 1].uid)
			name[i] = xstrdup(uid_to_string_cached(v[i].uid));

	lock_slurmctld(job_write_lock);
	assoc = osl_lock_engine(&assoc_read_lock, false);
	for (i = 0; i < n; i++) {
		job_record_t *job_ptr;

		if (name[i])
			osl_name_put(v[i].uid, name[i]);
		if (!osl_eng.conf || osl_eng.stop || osl_eng.saving ||
		    !osl_eng.conf->system_comment ||
		    !(job_ptr = find_job_record(v[i].job_id)) ||
		    osl_ignored(job_ptr))
			continue;
		if (IS_JOB_PENDING(job_ptr) && _line_now(job_ptr))
			written++;
		else
			left++;
	}
	if (left) {
		osl_eng.woken[OSL_WAKE_NO_LINE] += (uint32_t) left;
		osl_eng.wake = true;
	}
	if (written)
		last_job_update = time(NULL);
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: %d jobs without a line for want of their owner's name: %d lines written once it was resolved, %d left to the next pass",
		     n, written, left);
	osl_unlock_engine(&assoc_read_lock, assoc);
	unlock_slurmctld(job_write_lock);
	for (i = 0; i < n; i++)
		xfree(name[i]);
	xfree(name);
	free(v);
}

/*
 * Submit the deferred jobs (osl_eng.unseen): those submitted during the
 * save that just ended (after_save), and those incomplete at submission.
 * Each is submitted as its submission would have been (osl_submit_new), under
 * the job write lock for those few records, instead of by a pass: at 10^5
 * records a pass held the job locks ~0.3 s and, woken by each save in an
 * sbatch storm, came once per Interval.  A job _catch_up_one cannot settle
 * stays for the pass, which still comes (_mark_unseen); when every one was
 * settled and nothing else woke the engine, no pass is wanted before
 * Interval.  O(k log k + k log n) for k ids.
 */
extern void osl_catch_up(bool after_save)
{
	/* conf R, job W (priorities, comments), part R (osl_observe) */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK,
					     .tres = READ_LOCK };
	double now;
	bool assoc, others = false, written = false;
	int i, n, m, k = 0, r, done = 0;

	slurm_mutex_lock(&osl_eng.lock);
	osl_eng.catch_up = false;
	n = osl_eng.nunseen;
	slurm_mutex_unlock(&osl_eng.lock);
	_catch_up_lines();
	if (!n)
		return;

	lock_slurmctld(job_write_lock);
	assoc = osl_lock_engine(&assoc_read_lock, false);
	now = (double) time(NULL);
	/* each id once: a job whose priority_p_set ran twice during the save
	 * is submitted once, and then known */
	m = _unique(osl_eng.nunseen);
	for (i = 0; i < m; i++) {
		uint32_t id = osl_eng.unseen[i];

		if (_catch_up_one(id, now, &written))
			done++;
		else
			osl_eng.unseen[k++] = id;	/* for the pass */
	}
	osl_eng.nunseen = k;
	for (r = 0; r < OSL_WAKE_N; r++)
		others = others || (r != OSL_WAKE_SAVING &&
				    r != OSL_WAKE_INCOMPLETE &&
				    osl_eng.woken[r]);
	if (!k && !others) {
		osl_eng.wake = false;
		osl_eng.woken[OSL_WAKE_SAVING] = 0;
		osl_eng.woken[OSL_WAKE_INCOMPLETE] = 0;
	} else if (k) {
		osl_eng.wake = true;	/* the pass they are left to */
	}
	if (written)
		last_job_update = time(NULL);
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info(after_save ?
		     "ostrich: %d jobs submitted or updated during the save: %d submitted after it, %d left to the next pass" :
		     "ostrich: %d jobs incomplete at submission: %d submitted once complete, %d left to the next pass",
		     m, done, k);
	osl_unlock_engine(&assoc_read_lock, assoc);
	unlock_slurmctld(job_write_lock);
}
