/*****************************************************************************\
 *  osl_pass.c - the pass (every Interval, on the engine thread): Slurm's job
 *  records in, the core's ranks out as priorities.  Its small sibling at
 *  submission is osl_submit.c.  Step by step in doc/design.md, "The Slurm
 *  adapter".
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

#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_compat.h"
#include "ostrich.h"
#include "osl_clock.h"
#include "osl_comment.h"
#include "osl_evlog.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_report_track.h"
#include "osl_slurm.h"
#include "osl_stretch.h"
#include "osl_sync.h"
#include "osl_usage.h"
#include "osl_vec.h"

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
	int written;			/* writable pending records (site mode:
					 * ranked records staged) */
	int changed;			/* records whose priority changed */
	int lost;			/* records changed in the lock gap */
	int comments;			/* SystemComments written */
	uint64_t campaigns;		/* campaigns in all partitions */
	bool reordered;			/* job_list was reordered */
	uint32_t woke[OSL_WAKE_N];	/* wakes before the pass, by reason */
	int nfed;			/* partitions fed (a submission may add
					 * one in the lock gap) */
} osl_pass_stats_t;


/* Capacities change with nodes, TRES, weights and reconfigure (§19).  A
 * table that needs a lock this pass does not hold (osl_tres_build: the
 * partition gained TRESBillingWeights since the last pass) is kept as it
 * is, and the next pass, which takes that lock, builds it.
 * NOTE: conf and part read locks (node read, assoc_mgr TRES read as
 * osl_tres_locks said); osl_eng.lock. */
static void _refresh_parts(double now, bool node_locked)
{
	list_itr_t *it = list_iterator_create(part_list);
	part_record_t *part_ptr;
	int i, billed = 0;
	bool stale = false;

	while ((part_ptr = list_next(it))) {
		osl_part_t *p = osl_part_get(part_ptr->name,
					     part_ptr->total_cpus, &i);
		osl_tres_t *t;
		uint32_t procs;

		billed += part_ptr->billing_weights != NULL;
		if (!p)
			continue;
		if (!(t = osl_tres_build(part_ptr, osl_eng.conf,
					 osl_eng.assoc_held, node_locked))) {
			stale = true;
			continue;
		}
		osl_tres_free(p->tres);
		p->tres = t;
		p->unit = osl_tres_charge(p->tres);
		procs = osl_tres_capacity(p->tres);
		if (p->procs != procs)
			osl_part_reconfigure(p, procs, now);
	}
	list_iterator_destroy(it);
	osl_eng.billed_parts = billed;
	if (stale) {
		osl_eng.wake = true;
		osl_eng.woken[OSL_WAKE_CHANGED]++;
	}
}

/* The ledger's hook at a run's finish: its campaign, while the core still
 * knows the job (before the sync), for the stretch (§18). */
static void _ledger_fin(void *arg, const osl_obs_t *o, double run)
{
	osl_part_t *p = arg;
	ost_job_info_t info;

	if (ost_job_get(p->sched, o->key, &info))
		return;
	osl_stretch_job(&p->ledger->stretch, o, run, info.campaign,
			info.submit);
	osl_report_job(&p->ledger->report, o, run, info.campaign, info.submit,
		       o->rec ? o->rec->account : NULL);	/* §26 */
}

/* Charge every run of obs[0..n) to p's ledger (§18), before the sync
 * takes the finished jobs out of the core; close the campaigns over. */
static void _ledger(osl_part_t *p, osl_obs_t **obs, int n, double now)
{
	if (p->ledger->usage.unread)	/* a read error at first: again */
		osl_ledger_restore(p, false);
	(void) osl_usage_pass(&p->ledger->usage, obs, n, now, _ledger_fin, p);
	(void) osl_stretch_close(&p->ledger->stretch, p, now,
				 osl_eng.conf->core.think_time);
	(void) osl_report_close(&p->ledger->report, p->sched, p->procs, now,
				osl_eng.conf->core.think_time);
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
		_ledger(p, by_part + a, b - a, now);
		ps->events += osl_sync(p, by_part + a, b - a, now,
				       OSL_SYNC_ALL, osl_eng.evlog);
		(void) ost_sched_advance(p->sched, now);
		osl_evlog_write(osl_eng.evlog, &r);
		osl_prio_rank(p, by_part + a, b - a);
		osl_prio_renumber(p, by_part + a, b - a);
		osl_report_virtual(&p->ledger->report, p->sched, now);
		if (osl_eng.conf->system_comment) {
			double tc = osl_now_hr();

			osl_comments(p, by_part + a, b - a, &osl_comment_ops);
			ps->comm += osl_now_hr() - tc;
		}
		ost_sched_stats(p->sched, &st);
		ps->campaigns += st.campaigns;
	}
}


/* Is id in v[0..n) (sorted)? */
static bool _listed(uint32_t id, const uint32_t *v, int n)
{
	return n && bsearch(&id, v, n, sizeof(*v), osl_cmp_u32);
}

/*
 * Mark the observations the core cannot have seen: those of the jobs
 * deferred at submission (osl_eng.unseen: during a save, or incomplete)
 * and of the arrays the catch-up submitted (osl_eng.caught), submitted
 * since the last pass; then forget both lists.  A record submitted before
 * the last pass was seen by it: an owner's update during a save defers an
 * array the core knows, and its tasks that ended long ago were charged
 * and forgotten, not to be charged again.  A task that ran and ended
 * before the catch-up submitted its array is charged by this pass.
 * O((k + n) log k) for k ids.
 */
static void _mark_unseen(osl_obs_vec_t *vec)
{
	int i;

	if (!osl_eng.nunseen && !osl_eng.ncaught)
		return;
	qsort(osl_eng.unseen, osl_eng.nunseen, sizeof(*osl_eng.unseen),
	      osl_cmp_u32);
	qsort(osl_eng.caught, osl_eng.ncaught, sizeof(*osl_eng.caught),
	      osl_cmp_u32);
	for (i = 0; i < vec->n; i++) {
		osl_obs_t *o = &vec->v[i];
		uint32_t id = o->group ? (uint32_t) o->group :
					 (uint32_t) o->key;

		o->unseen = (_listed(id, osl_eng.unseen, osl_eng.nunseen) ||
			     _listed(id, osl_eng.caught, osl_eng.ncaught)) &&
			    (double) o->submit >= osl_eng.parts[o->part].last_pass;
	}
	osl_eng.nunseen = 0;
	osl_eng.ncaught = 0;
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

/* The node lock a pass needs (osl_tres_locks), decided before the
 * slurmctld locks are taken; a reconfigure in between makes _refresh_parts
 * keep the tables for the next pass. */
static lock_level_t _node_lock(void)
{
	bool tres = false, node = false;

	slurm_mutex_lock(&osl_eng.lock);
	if (osl_eng.conf)
		osl_tres_locks(osl_eng.conf, osl_eng.billed_parts, &tres,
			       &node);
	slurm_mutex_unlock(&osl_eng.lock);
	return node ? READ_LOCK : NO_LOCK;
}

/*
 * First half, under the job read lock: observe job_list into vec, then
 * sync, advance, rank and renumber every core, and merge the
 * SystemComments (staged, not written).
 * RET the observations by partition (osl_obs_index)
 */
static osl_obs_t **_pass_read(osl_obs_vec_t *vec, double *now,
			      osl_pass_stats_t *ps)
{
	/* conf R (slurm_conf strings), job R, node R only for the GRES of
	 * ChargeWeights= (osl_tres_locks), part R */
	slurmctld_lock_t job_read_lock = {
		READ_LOCK, READ_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	/* association shares for Weights=assoc, TRES for Charge= */
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK,
					     .tres = READ_LOCK };
	osl_obs_t **by_part;
	list_itr_t *it;
	job_record_t *job_ptr;
	bool assoc;

	job_read_lock.node = _node_lock();
	lock_slurmctld(job_read_lock);
	assoc = osl_lock_engine(&assoc_read_lock, true);
	ps->lock = osl_now_hr();
	*now = (double) time(NULL);
	memcpy(ps->woke, osl_eng.woke, sizeof(ps->woke));

	_refresh_parts(*now, job_read_lock.node == READ_LOCK);
	ps->njobs = list_count(job_list);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		osl_observe(vec, job_ptr);
	list_iterator_destroy(it);
	_mark_unseen(vec);
	by_part = osl_obs_index(vec);
	ps->obs = osl_now_hr();

	_feed(by_part, vec->n, *now, ps);
	if (osl_eng.site)	/* the pass log's "pending records" */
		ps->written = osl_site_stage(vec);
	ps->nfed = osl_eng.nparts;
	ps->core = osl_now_hr();
	osl_unlock_engine(&assoc_read_lock, assoc);
	unlock_slurmctld(job_read_lock);
	ps->unlock = osl_now_hr();
	return by_part;
}

/*
 * Second half, under the job write lock: find the records of vec again by
 * job id, write their priorities and comments, order job_list.
 */
static void _pass_write(osl_obs_vec_t *vec, double now, osl_pass_stats_t *ps)
{
	/* conf R, job W (priorities, comments, job_list), part R */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	int i;

	lock_slurmctld(job_write_lock);
	slurm_mutex_lock(&osl_eng.lock);
	ps->wlock = osl_now_hr();
	if (osl_eng.site) {
		/* site_factor/ostrich: no priority is ours; the ranks go to
		 * multifactor's next PriorityCalcPeriod (osl_site_update),
		 * published with the lines that show them */
		osl_site_publish();
	} else {
		ps->lost = osl_refind(vec);
		_write_all(vec, ps);
	}
	ps->comments = osl_comments_write();
	/* only now: a reader that sees the pass line in the event log sees
	 * the priorities it stands for (tests/live: snapshot) */
	for (i = 0; i < ps->nfed; i++) {
		osl_evlog_rec_t r = { .op = OSL_LOG_PASS,
				      .part = osl_eng.parts[i].name, .t = now };

		osl_evlog_write(osl_eng.evlog, &r);
	}
	if (osl_eng.evlog)
		fflush(osl_eng.evlog);
	osl_eng.passes++;
	if (ps->changed)
		last_job_update = time(NULL);
	ps->order = osl_now_hr();
	/* under multifactor job_list's order is not ours either */
	ps->reordered = !osl_eng.site && osl_order_job_list(vec);
	ps->end = osl_now_hr();
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(job_write_lock);
}

/* DebugFlags=Priority: one line per pass, at info level. */
static void _pass_log(const osl_pass_stats_t *ps, int nobs)
{
	if (!(slurm_conf.debug_flags & DEBUG_FLAG_PRIO))
		return;
	info("ostrich: pass %"PRIu64" took %.3f ms: %d job records, %d observations, %d events, %d pending records, %d priorities changed, %d comments written, %d records changed meanwhile, %d partitions, %"PRIu64" campaigns; job_list %s; job read lock held %.3f ms (scan %.3f, core %.3f, comments %.3f); job write lock held %.3f ms (priorities and comments %.3f, job_list %.3f); locks held %.3f ms, waited %.3f ms; woken by %u ties, %u unranked, %u without a line, %u during a save, %u changed jobs, %u watched submissions, %u incomplete submissions",
	     osl_eng.passes, (ps->end - ps->t0) * 1e3, ps->njobs, nobs,
	     ps->events, ps->written, ps->changed, ps->comments, ps->lost,
	     osl_eng.nparts, ps->campaigns,
	     ps->reordered ? "reordered" : "in order",
	     (ps->core - ps->lock) * 1e3, (ps->obs - ps->lock) * 1e3,
	     (ps->core - ps->obs - ps->comm) * 1e3, ps->comm * 1e3,
	     (ps->end - ps->wlock) * 1e3, (ps->order - ps->wlock) * 1e3,
	     (ps->end - ps->order) * 1e3,
	     (ps->core - ps->lock + ps->end - ps->wlock) * 1e3,
	     (ps->lock - ps->t0 + ps->wlock - ps->unlock) * 1e3,
	     ps->woke[OSL_WAKE_TIE], ps->woke[OSL_WAKE_UNSETTLED],
	     ps->woke[OSL_WAKE_NO_LINE], ps->woke[OSL_WAKE_SAVING],
	     ps->woke[OSL_WAKE_CHANGED], ps->woke[OSL_WAKE_WATCH],
	     ps->woke[OSL_WAKE_INCOMPLETE]);
}

/*
 * The pass in two halves, so that the job write lock is held only to
 * write (doc/design.md, "The pass"): _pass_read, then
 * _pass_write.  osl_eng.lock is let go between the halves (lock order:
 * osl_slurm.h): a submission then gets its value from the renumbered
 * table (osl_prio_new), consistent with what the second half writes; a
 * record changed meanwhile is left to the next pass (osl_refind).
 */
extern double osl_pass(void)
{
	osl_pass_stats_t ps = { .t0 = osl_now_hr() };
	osl_obs_vec_t vec = { 0 };
	osl_obs_t **by_part;
	double now;

	by_part = _pass_read(&vec, &now, &ps);
	_pass_write(&vec, now, &ps);
	/* a new order asks for a main cycle as a submission does, batched
	 * with theirs (batch_sched_delay): a cycle forced here came on top
	 * of theirs and, at 10^5 records, held the job write lock ~0.2 s
	 * more per woken pass in an sbatch storm */
	if (ps.changed)
		queue_job_scheduler();
	_pass_log(&ps, vec.n);
	osl_tfree(by_part, vec.n + 1, sizeof(*by_part));
	osl_tfree(vec.v, vec.cap, sizeof(*vec.v));
	return ps.core - ps.lock + ps.end - ps.wlock;
}
