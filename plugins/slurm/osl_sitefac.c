/*****************************************************************************\
 *  osl_sitefac.c - site_factor/ostrich's side of the engine (doc/semantics.md
 *  §25): each pass stages the ranks of the pending records, publishes them
 *  with its SystemComments, and multifactor's decay thread copies them into
 *  the records' site_factor (osl_site_update).  The engine never writes a
 *  priority in this mode.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  LOCKS: _lock is a leaf, after osl_eng.lock in the order of osl_slurm.h:
 *  nothing is taken while it is held.  osl_site_update() runs in
 *  multifactor's decay thread holding the job write lock and takes only
 *  _lock: it never waits for the engine thread, whose passes hold
 *  osl_eng.lock for their core work.
\*****************************************************************************/

#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/xmalloc.h"

#include "src/slurmctld/slurmctld.h"

#include "ostrich.h"
#include "osl_compat.h"
#include "osl_obs.h"
#include "osl_site.h"
#include "osl_slurm.h"
#include "osl_vec.h"
#include "ostrich_slurm.h"

static pthread_mutex_t _lock = PTHREAD_MUTEX_INITIALIZER;
/* guarded by _lock */
static uint32_t _weight;		/* PrioritySiteFactorParameters */
static osl_site_ent_t *_tab;		/* the last pass's, one per record */
static int _ntab, _cap_tab;
static bool _published;			/* a pass published since start */
/* the engine thread's, under osl_eng.lock: staged by the pass's first
 * half, published by its second */
static osl_site_ent_t *_stage;
static int _nstage, _cap_stage;

extern void osl_site_weight_set(uint32_t weight)
{
	slurm_mutex_lock(&_lock);
	_weight = weight;
	slurm_mutex_unlock(&_lock);
}

extern uint32_t osl_site_weight(void)
{
	uint32_t w;

	slurm_mutex_lock(&_lock);
	w = _weight;
	slurm_mutex_unlock(&_lock);
	return w;
}

extern int osl_site_stage(const osl_obs_vec_t *vec)
{
	uint64_t *pend = osl_tcalloc(osl_eng.nparts + 1, sizeof(*pend));
	int a, i, k;

	for (k = 0; k < osl_eng.nparts; k++) {
		ost_stats_t st;

		ost_sched_stats(osl_eng.parts[k].sched, &st);
		pend[k] = st.pending;
	}
	_nstage = 0;
	for (a = 0; a < vec->n; a = i) {
		osl_site_ent_t e = { 0 };

		i = osl_rec_end(vec, a);
		for (k = a; k < i; k++) {
			const osl_obs_t *o = &vec->v[k];
			uint64_t p = pend[o->part];

			if (o->st != OSL_PENDING || !o->rank || o->rank > p)
				continue;
			if (!e.rank ||
			    osl_site_better(o->rank, p, e.rank, e.pending)) {
				e.rank = o->rank;
				e.pending = p;
			}
		}
		if (!e.rank)
			continue;
		e.job_id = vec->v[a].rec_id;
		_stage = osl_grow(_stage, &_cap_stage, _nstage + 1,
				  sizeof(*_stage), 256);
		_stage[_nstage++] = e;
	}
	osl_tfree(pend, osl_eng.nparts + 1, sizeof(*pend));
	/* for osl_site_carry at publication: job_list's order is already
	 * the ids', but for arrays split late and wrapped ids */
	osl_site_sort(_stage, _nstage);
	return _nstage;
}

extern void osl_site_publish(void)
{
	osl_site_ent_t *t;
	int cap;

	slurm_mutex_lock(&_lock);
	/* what the updates wrote stays known: O(records), no record read */
	osl_site_carry(_stage, _nstage, _tab, _ntab);
	t = _tab;
	cap = _cap_tab;
	_tab = _stage;
	_ntab = _nstage;
	_cap_tab = _cap_stage;
	_published = true;
	slurm_mutex_unlock(&_lock);
	/* the old table's room is the next stage's */
	_stage = t;
	_cap_stage = cap;
	_nstage = 0;
}

extern void osl_site_job(job_record_t *job_ptr, uint64_t rank,
			 uint64_t pending)
{
	osl_site_ent_t *e;

	slurm_mutex_lock(&_lock);
	job_ptr->site_factor = NICE_OFFSET +
			       osl_site_value(_weight, rank, pending);
	/* a record back to pending (requeued) may still be in the table:
	 * the next update must look it up again (osl_site_update) */
	e = osl_site_find(_tab, _ntab, job_ptr->job_id);
	if (e)
		e->applied = 0;
	slurm_mutex_unlock(&_lock);
}

/*
 * A record whose value is the one the last update found in it is not
 * looked up again: its site factor is still that (only the update and the
 * submission write a ranked job's, osl_site_carry), so a queue whose ranks
 * did not move costs no record read.  Every other record costs one hash
 * lookup.
 */
extern void osl_site_update(void)
{
	double t0 = osl_now_hr();
	int i, kept = 0, looked = 0, changed = 0, n;
	uint32_t w;
	bool published;

	slurm_mutex_lock(&_lock);
	w = _weight;
	n = _ntab;
	published = _published;
	for (i = 0; i < _ntab; i++) {
		job_record_t *job_ptr;
		uint32_t v = NICE_OFFSET + osl_site_value(w, _tab[i].rank,
							  _tab[i].pending);

		if (_tab[i].applied == v) {
			kept++;
			continue;
		}
		_tab[i].applied = 0;
		job_ptr = find_job_record(_tab[i].job_id);
		if (!job_ptr || !IS_JOB_PENDING(job_ptr))
			continue;
		looked++;
		if (job_ptr->site_factor != v) {
			job_ptr->site_factor = v;
			changed++;
		}
		_tab[i].applied = v;
	}
	slurm_mutex_unlock(&_lock);
	if (changed)
		last_job_update = time(NULL);
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: site factors: weight %u, %d ranked records%s, %d as the last update left them, %d looked up, %d pending written, %d changed, %.3f ms",
		     w, n, published ? "" : " (no pass yet)", kept,
		     n - kept, looked, changed, (osl_now_hr() - t0) * 1e3);
}

extern void osl_site_free(void)
{
	slurm_mutex_lock(&_lock);
	free(_tab);
	_tab = NULL;
	_ntab = _cap_tab = 0;
	_published = false;
	slurm_mutex_unlock(&_lock);
	free(_stage);
	_stage = NULL;
	_nstage = _cap_stage = 0;
}
