/*****************************************************************************\
 *  osl_pass.c - the pass (every Interval, on the engine thread) and its
 *  small sibling at submission (priority_p_set): Slurm's job records in,
 *  the core's ranks out as priorities.  Step by step in doc/design.md,
 *  "The Slurm adapter".
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/run_in_daemon.h"

#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_slurm.h"
#include "ostrich_slurm.h"

/* Per-pass counts and times, for the DebugFlags=Priority line. */
typedef struct {
	double t0;			/* pass asked for the read locks */
	double lock;			/* read locks held */
	double obs;			/* job_list observed */
	double core;			/* every partition synced and ranked */
	double comm;			/* of which SystemComments */
	double unlock;			/* read locks let go */
	double wlock;			/* write locks held */
	double order;			/* priorities and comments written */
	double end;			/* job_list ordered */
	int njobs;			/* records in job_list */
	int events;			/* core events applied */
	int written;			/* writable pending records */
	int changed;			/* records whose priority changed */
	int lost;			/* records changed in the lock gap */
	int comments;			/* SystemComments written */
	uint64_t campaigns;		/* campaigns in all partitions */
	bool reordered;			/* job_list was reordered */
	uint32_t woke[OSL_WAKE_N];	/* wakes before the pass, by reason */
} osl_pass_stats_t;

/*
 * Take osl_eng.lock, and before it the assoc_mgr read lock when
 * Weights=assoc reads association shares (lock order: osl_slurm.h).
 * NOTE: the slurmctld locks the caller needs are held.
 * RET whether the assoc lock was taken (for _unlock_engine)
 */
static bool _lock_engine(assoc_mgr_lock_t *assoc_lock)
{
	bool assoc;

	slurm_mutex_lock(&osl_eng.lock);
	assoc = osl_eng.conf && osl_eng.conf->weights_assoc;
	if (assoc) {
		slurm_mutex_unlock(&osl_eng.lock);
		assoc_mgr_lock(assoc_lock);
		slurm_mutex_lock(&osl_eng.lock);
	}
	osl_eng.assoc_held = assoc;
	return assoc;
}

static void _unlock_engine(assoc_mgr_lock_t *assoc_lock, bool assoc)
{
	osl_eng.assoc_held = false;
	slurm_mutex_unlock(&osl_eng.lock);
	if (assoc)
		assoc_mgr_unlock(assoc_lock);
}

/* CPU counts change with nodes and reconfigure.  NOTE: part read lock. */
static void _refresh_parts(double now)
{
	list_itr_t *it = list_iterator_create(part_list);
	part_record_t *part_ptr;
	int i;

	while ((part_ptr = list_next(it))) {
		osl_part_t *p = osl_part_get(part_ptr->name,
					     part_ptr->total_cpus, &i);
		uint32_t procs = part_ptr->total_cpus ? part_ptr->total_cpus : 1;

		if (p && p->procs != procs)
			osl_part_reconfigure(p, procs, now);
	}
	list_iterator_destroy(it);
}

/* Sync, advance, rank, renumber and comment every schedule (also those
 * whose jobs are all gone); by_part from osl_obs_index(). */
static void _feed(osl_obs_t **by_part, int n, double now,
		  osl_pass_stats_t *ps)
{
	int i, a, b;

	for (i = 0, a = 0; i < osl_eng.nparts; i++, a = b) {
		osl_part_t *p = &osl_eng.parts[i];
		osl_evlog_rec_t r = { .op = OSL_LOG_ADVANCE, .part = p->name,
				      .t = now };
		ost_stats_t st;

		for (b = a; b < n && by_part[b]->part == i; b++)
			;
		(void) osl_clock_check(p, now, osl_eng.conf->interval,
				       osl_eng.evlog);
		ps->events += osl_sync(p, by_part + a, b - a, now,
				       OSL_SYNC_ALL, osl_eng.evlog);
		(void) ost_sched_advance(p->sched, now);
		osl_evlog_write(osl_eng.evlog, &r);
		osl_prio_rank(p, by_part + a, b - a);
		osl_prio_renumber(p, by_part + a, b - a);
		if (osl_eng.conf->system_comment) {
			double tc = osl_now_hr();

			osl_comments(p, by_part + a, b - a, &osl_comment_ops);
			ps->comm += osl_now_hr() - tc;
		}
		ost_sched_stats(p->sched, &st);
		ps->campaigns += st.campaigns;
	}
}

/* Remember job id (an array's job id for its tasks) as submitted while a
 * save kept the core away.  NOTE: osl_eng.lock held. */
static void _note_unseen(uint32_t id)
{
	osl_eng.unseen = osl_grow(osl_eng.unseen, &osl_eng.cap_unseen,
				  osl_eng.nunseen + 1, sizeof(*osl_eng.unseen),
				  16);
	osl_eng.unseen[osl_eng.nunseen++] = id;
}

static int _u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

/* Mark the observations of the jobs submitted during a save (unseen by
 * the core), then forget the list: the pass that follows a save sees
 * every one of them.  O(k log k + n log k) for k such jobs. */
static void _mark_unseen(osl_obs_vec_t *vec)
{
	int i;

	if (!osl_eng.nunseen)
		return;
	qsort(osl_eng.unseen, osl_eng.nunseen, sizeof(*osl_eng.unseen),
	      _u32_cmp);
	for (i = 0; i < vec->n; i++) {
		osl_obs_t *o = &vec->v[i];
		uint32_t id = o->group ? (uint32_t) o->group :
					 (uint32_t) o->key;

		o->unseen = bsearch(&id, osl_eng.unseen, osl_eng.nunseen,
				    sizeof(*osl_eng.unseen), _u32_cmp);
	}
	osl_eng.nunseen = 0;
}

/* Write the priorities of every writable record of vec (osl_refind has
 * marked those lost in the lock gap). */
static void _write_all(const osl_obs_vec_t *vec, osl_pass_stats_t *ps)
{
	int a, i;

	for (a = 0; a < vec->n; a = i) {
		i = osl_rec_end(vec, a);
		if (!vec->v[a].writable)
			continue;
		ps->written++;
		if (osl_write_job(vec->v, a, i))
			ps->changed++;
	}
}

/*
 * The pass in two halves, so that the job write lock is held only to
 * write (doc/design.md, "The pass and its two locks"):
 *   1. job read lock: observe job_list, sync, advance, rank and renumber
 *      the cores, merge the SystemComments (staged, not written);
 *   2. job write lock: find the records again by job id, write their
 *      priorities and comments, order job_list.
 * osl_eng.lock is let go between the halves (lock order: osl_slurm.h):
 * a submission then gets its value from the renumbered table
 * (osl_prio_new), consistent with what half 2 writes; a record changed
 * meanwhile is left to the next pass (osl_refind).
 */
extern double osl_pass(void)
{
	/* conf R (slurm_conf strings), job R, part R */
	slurmctld_lock_t job_read_lock = {
		READ_LOCK, READ_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	/* conf R, job W (priorities, comments, job_list), part R */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	/* association shares for Weights=assoc */
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK };
	osl_pass_stats_t ps = { .t0 = osl_now_hr() };
	osl_obs_vec_t vec = { 0 };
	osl_obs_t **by_part;
	list_itr_t *it;
	job_record_t *job_ptr;
	double now;
	bool assoc = false;
	int i, nfed;

	lock_slurmctld(job_read_lock);
	assoc = _lock_engine(&assoc_read_lock);
	ps.lock = osl_now_hr();
	now = (double) time(NULL);
	memcpy(ps.woke, osl_eng.woke, sizeof(ps.woke));

	_refresh_parts(now);
	ps.njobs = list_count(job_list);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		osl_observe(&vec, job_ptr);
	list_iterator_destroy(it);
	_mark_unseen(&vec);
	by_part = osl_obs_index(&vec);
	ps.obs = osl_now_hr();

	_feed(by_part, vec.n, now, &ps);
	nfed = osl_eng.nparts;	/* a submission may add one in the gap */
	ps.core = osl_now_hr();
	_unlock_engine(&assoc_read_lock, assoc);
	unlock_slurmctld(job_read_lock);
	ps.unlock = osl_now_hr();

	lock_slurmctld(job_write_lock);
	slurm_mutex_lock(&osl_eng.lock);
	ps.wlock = osl_now_hr();
	ps.lost = osl_refind(&vec);
	_write_all(&vec, &ps);
	ps.comments = osl_comments_write();
	/* only now: a reader that sees the pass line in the event log sees
	 * the priorities it stands for (tests/live: snapshot) */
	for (i = 0; i < nfed; i++) {
		osl_evlog_rec_t r = { .op = OSL_LOG_PASS,
				      .part = osl_eng.parts[i].name, .t = now };

		osl_evlog_write(osl_eng.evlog, &r);
	}
	if (osl_eng.evlog)
		fflush(osl_eng.evlog);
	osl_eng.passes++;
	if (ps.changed)
		last_job_update = time(NULL);
	ps.order = osl_now_hr();
	ps.reordered = osl_order_job_list(&vec);
	ps.end = osl_now_hr();
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(job_write_lock);

	/* a new order asks for a main cycle as a submission does, batched
	 * with theirs (batch_sched_delay): a cycle forced here came on top
	 * of theirs and, at 10^5 records, held the job write lock ~0.2 s
	 * more per woken pass in an sbatch storm */
	if (ps.changed)
		queue_job_scheduler();
	/* DebugFlags=Priority: one line per pass, at info level */
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: pass %"PRIu64" took %.3f ms: %d job records, %d observations, %d events, %d pending records, %d priorities changed, %d comments written, %d records changed meanwhile, %d partitions, %"PRIu64" campaigns; job_list %s; job read lock held %.3f ms (scan %.3f, core %.3f, comments %.3f); job write lock held %.3f ms (priorities and comments %.3f, job_list %.3f); locks held %.3f ms, waited %.3f ms; woken by %u ties, %u unranked, %u without a line, %u during a save, %u changed jobs, %u watched submissions",
		     osl_eng.passes, (ps.end - ps.t0) * 1e3, ps.njobs, vec.n,
		     ps.events, ps.written, ps.changed, ps.comments, ps.lost,
		     osl_eng.nparts, ps.campaigns,
		     ps.reordered ? "reordered" : "in order",
		     (ps.core - ps.lock) * 1e3, (ps.obs - ps.lock) * 1e3,
		     (ps.core - ps.obs - ps.comm) * 1e3, ps.comm * 1e3,
		     (ps.end - ps.wlock) * 1e3, (ps.order - ps.wlock) * 1e3,
		     (ps.end - ps.order) * 1e3,
		     (ps.core - ps.lock + ps.end - ps.wlock) * 1e3,
		     (ps.lock - ps.t0 + ps.wlock - ps.unlock) * 1e3,
		     ps.woke[OSL_WAKE_TIE], ps.woke[OSL_WAKE_UNSETTLED],
		     ps.woke[OSL_WAKE_NO_LINE], ps.woke[OSL_WAKE_SAVING],
		     ps.woke[OSL_WAKE_CHANGED], ps.woke[OSL_WAKE_WATCH]);
	osl_tfree(by_part, vec.n + 1, sizeof(*by_part));
	osl_tfree(vec.v, vec.cap, sizeof(*vec.v));
	return ps.core - ps.lock + ps.end - ps.wlock;
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
 * what the core knows (a resize, a requeue) wakes a pass, which applies
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
	    info.estimate != o.estimate)
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
 * values, a partition that does not rank it, PrivateData=jobs, an owner
 * whose name no pass has resolved) wakes one.
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
 * Submit job_ptr, a pending record the engine does not know, as a pass
 * would: the record is observed like in a pass, and the same pipeline
 * (osl_sync, scope OSL_SYNC_NEW) submits it; it then gets one value between
 * its neighbours' (osl_prio_new) until the next pass renumbers, and its
 * line (osl_comments_new).  *prio: its priority after, when it was written.
 * RET why a pass is still wanted, OSL_WAKE_N for none.
 * NOTE: job write lock (and part read lock) and osl_eng.lock held.
 */
static osl_wake_why_t _submit_new(job_record_t *job_ptr, double now,
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
	if (vec.n && vec.v[0].writable && osl_write_job(vec.v, 0, vec.n))
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
 * At submission: _submit_new, unless the engine knows the record already
 * (it keeps its priority, _known) or a save keeps the cores away (the job
 * is then noted unseen, for osl_catch_up).
 */
extern uint32_t osl_job_priority(uint32_t last_prio, job_record_t *job_ptr)
{
	uint32_t prio = last_prio >= 2 ? last_prio - 1 : 1;
	/* association shares for Weights=assoc */
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK };
	osl_wake_why_t why;
	bool assoc;

	if (!running_in_slurmctld())
		return prio;
	/* slurmctld holds no assoc_mgr lock when it calls priority_p_set */
	assoc = _lock_engine(&assoc_read_lock);
	if (!osl_eng.conf || osl_eng.stop || osl_ignored(job_ptr) ||
	    !IS_JOB_PENDING(job_ptr)) {
		_unlock_engine(&assoc_read_lock, assoc);
		return prio;
	}
	if (osl_eng.saving) {
		/* the cores are being serialized off-lock (osl_save_all):
		 * no core call, not even a lookup (a query may settle
		 * deferred tags); osl_catch_up submits the job after the
		 * save, or else the pass this wakes */
		prio = osl_prio_deferred(job_ptr->priority);
		_note_unseen(job_ptr->array_job_id ? job_ptr->array_job_id :
			     job_ptr->job_id);
		_wake(OSL_WAKE_SAVING);
		_unlock_engine(&assoc_read_lock, assoc);
		return prio;
	}
	if (_known(job_ptr, &prio)) {
		_unlock_engine(&assoc_read_lock, assoc);
		return prio;
	}
	why = _submit_new(job_ptr, (double) time(NULL), &prio);
	if (why != OSL_WAKE_N)
		_wake(why);
	_unlock_engine(&assoc_read_lock, assoc);
	return prio;
}

/*
 * After a save, the jobs submitted during it (osl_eng.unseen) are
 * submitted as their submissions would have been (_submit_new), under the
 * job write lock for those few records, instead of by the pass each of
 * them woke: at 10^5 records that pass held the job locks ~0.3 s and came
 * once per Interval in an sbatch storm, as the save does.  A job that is
 * no longer pending, that the core knew already (an update during the
 * save), or that _submit_new cannot settle stays for the pass, which
 * still comes (_mark_unseen); when every one was settled and nothing else
 * woke the engine, no pass is wanted before Interval.  O(k log k + k log n)
 * for k ids.
 */
extern void osl_catch_up(void)
{
	/* conf R, job W (priorities, comments), part R (osl_observe) */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK };
	double now;
	bool assoc, others = false;
	int i, n, m, k = 0, r, done = 0, written = 0;

	slurm_mutex_lock(&osl_eng.lock);
	n = osl_eng.nunseen;
	slurm_mutex_unlock(&osl_eng.lock);
	if (!n)
		return;

	lock_slurmctld(job_write_lock);
	assoc = _lock_engine(&assoc_read_lock);
	now = (double) time(NULL);
	/* each id once: a job whose priority_p_set ran twice during the save
	 * is submitted once, and then known */
	n = osl_eng.nunseen;
	qsort(osl_eng.unseen, n, sizeof(*osl_eng.unseen), _u32_cmp);
	for (i = 0, m = 0; i < n; i++)
		if (!m || osl_eng.unseen[i] != osl_eng.unseen[m - 1])
			osl_eng.unseen[m++] = osl_eng.unseen[i];
	for (i = 0; i < m; i++) {
		uint32_t id = osl_eng.unseen[i], prio = 0;
		job_record_t *job_ptr = find_job_record(id);
		ost_job_info_t info;
		osl_obs_t o;
		osl_wake_why_t why;

		/* known already: an update during the save (the pass checks
		 * it as _known would; an array's task is not even this
		 * record), or no longer pending, or not ours: for the pass */
		if (!osl_eng.conf || osl_eng.stop || osl_eng.saving ||
		    !job_ptr || !IS_JOB_PENDING(job_ptr) ||
		    osl_ignored(job_ptr) || !osl_observe_first(job_ptr, &o) ||
		    !ost_job_get(osl_eng.parts[o.part].sched, o.key, &info)) {
			osl_eng.unseen[k++] = id;
			continue;
		}
		why = _submit_new(job_ptr, now, &prio);
		if (prio)
			written++;	/* a value and a line, even unsettled */
		if (why != OSL_WAKE_N)
			osl_eng.unseen[k++] = id;	/* for the pass */
		else
			done++;
	}
	osl_eng.nunseen = k;
	for (r = 0; r < OSL_WAKE_N; r++)
		others = others || (r != OSL_WAKE_SAVING && osl_eng.woken[r]);
	if (!k && !others) {
		osl_eng.wake = false;
		osl_eng.woken[OSL_WAKE_SAVING] = 0;
	}
	if (written)
		last_job_update = time(NULL);
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: %d jobs submitted or updated during the save: %d submitted after it, %d left to the next pass",
		     m, done, k);
	_unlock_engine(&assoc_read_lock, assoc);
	unlock_slurmctld(job_write_lock);
}
