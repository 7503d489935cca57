/*****************************************************************************\
 *  osl_prio.c - the core's ranks as Slurm priorities: ranks from the walk,
 *  renumbering after a pass, the value of a job submitted between two
 *  passes, and the order of job_list that follows the priorities.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_job_prio.c); records are only
 *  compared, never read.  Values lie in [OSL_PRIO_LO, OSL_PRIO_TOP).
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_log.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_ptab.h"
#include "osl_vec.h"

/* The observations of a partition, by key, for the rank walk. */
typedef struct {
	osl_obs_t **obs;		/* sorted by key */
	int n;				/* entries in obs */
} osl_rank_ctx_t;

/* A record at its best rank. */
typedef struct {
	osl_obs_t *o;			/* the record's best-ranked obs */
	uint64_t rank;			/* its rank */
} osl_cell_t;

static int _obs_key_cmp(const void *a, const void *b)
{
	const osl_obs_t *x = *(osl_obs_t * const *) a;
	const osl_obs_t *y = *(osl_obs_t * const *) b;

	return (x->key > y->key) - (x->key < y->key);
}

static int _rank_visit(const ost_rank_info_t *r, void *arg)
{
	osl_rank_ctx_t *ctx = arg;
	osl_obs_t key = { .key = r->job_id }, *kp = &key, **hit;

	hit = bsearch(&kp, ctx->obs, ctx->n, sizeof(*ctx->obs), _obs_key_cmp);
	if (hit) {
		(*hit)->rank = r->rank;
		(*hit)->campaign = r->campaign;
	}
	return 0;
}

extern void osl_prio_rank(osl_part_t *p, osl_obs_t **obs, int n)
{
	osl_rank_ctx_t ctx = { .obs = obs, .n = n };

	(void) ost_sched_foreach_pending(p->sched, _rank_visit, &ctx);
}

static int _cell_rec_cmp(const void *a, const void *b)
{
	const osl_cell_t *x = a, *y = b;
	uintptr_t px = (uintptr_t) x->o->rec, py = (uintptr_t) y->o->rec;

	if (px != py)
		return px < py ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int _cell_rank_cmp(const void *a, const void *b)
{
	const osl_cell_t *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

extern void osl_prio_renumber(osl_part_t *p, osl_obs_t **obs, int n)
{
	osl_cell_t *cell = osl_tcalloc(n + 1, sizeof(*cell));
	uint32_t *val;
	uint64_t *ranks;
	int i, m = 0, k;

	for (i = 0; i < n; i++) {
		if (obs[i]->st != OSL_PENDING || !obs[i]->writable ||
		    !obs[i]->rank)
			continue;
		cell[m].o = obs[i];
		cell[m++].rank = obs[i]->rank;
	}
	/* one cell per record: its best rank (array tasks share a record) */
	qsort(cell, m, sizeof(*cell), _cell_rec_cmp);
	for (i = 0, k = 0; i < m; i++)
		if (!k || cell[i].o->rec != cell[k - 1].o->rec)
			cell[k++] = cell[i];
	m = k;
	qsort(cell, m, sizeof(*cell), _cell_rank_cmp);

	val = osl_tcalloc(m + 1, sizeof(*val));
	for (i = 0; i < m; i++)
		val[i] = cell[i].o->cur_prio;
	if (ost_prio_renumber(val, m, OSL_PRIO_LO, OSL_PRIO_TOP - 1, NULL)) {
		/* more records than values: plain ranks, ties at the end */
		for (i = 0; i < m; i++)
			val[i] = cell[i].rank < OSL_PRIO_TOP - 1 ?
				 OSL_PRIO_TOP - (uint32_t) cell[i].rank : 1;
	} else {
		/* room for the submissions until the next pass: a dense spot
		 * would make them tie and wake passes (doc/design.md,
		 * "Submission storms"); without memory, the values stay valid */
		(void) ost_prio_spread(val, m, OSL_PRIO_LO, OSL_PRIO_TOP - 1,
				       NULL);
	}
	ranks = osl_tcalloc(m + 1, sizeof(*ranks));
	for (i = 0; i < m; i++) {
		cell[i].o->prio = val[i];
		ranks[i] = cell[i].rank;
	}
	osl_ptab_build(&p->prios, ranks, val, m);
	osl_tfree(ranks, m + 1, sizeof(*ranks));
	osl_tfree(val, m + 1, sizeof(*val));
	osl_tfree(cell, n + 1, sizeof(*cell));
}

/*
 * Priority for a job record just ranked at rank in p, before the next pass
 * renumbers: between those of its neighbours at that rank in the table of
 * the last pass, which then records it (later ranks move down by one).
 * Approximate (jobs may have started since the pass); the next pass puts
 * it right.  O(log P), P records in the table.
 *
 * The value: the midpoint of the neighbours' values, unless one neighbour
 * was itself submitted since the pass.  Then this is a run of submissions
 * at one place, typically a user's jobs joining the end of their campaign
 * one after the other, and the run goes on past this one: a step of 1/16
 * of the room from that neighbour leaves the rest to the next of the run,
 * which then finds room for about 16 ln(room) submissions instead of
 * log2(room) (doc/design.md, "Submission storms").
 *
 * No room left: the value of the neighbour above.  Slurm sorts equal
 * priorities by submit time, then job id (sort_job_queue2(), on every
 * supported release), so the new job, the latest, comes right after that
 * neighbour and before the one below, where it ranks: the order is the
 * pass's, only the values differ until the next pass.  When the two
 * neighbours already share a value, or there is none above, no value
 * puts the job in its place: that tie is counted, and wakes a pass.
 */
static uint32_t _prio_for_new(osl_part_t *p, uint64_t rank, int *ties)
{
	const osl_ptab_node_t *above, *below;
	uint32_t hi, lo, v;

	osl_ptab_neighbours(&p->prios, rank, &above, &below);
	hi = above ? above->prio : OSL_PRIO_TOP;
	lo = below ? below->prio : OSL_PRIO_LO - 1;
	if (hi > lo + 1) {
		bool after = above && osl_ptab_inserted(&p->prios, above);
		bool before = below && osl_ptab_inserted(&p->prios, below);
		uint32_t step = (hi - lo) / 16 ? (hi - lo) / 16 : 1;

		if (after && !before)
			v = hi - step;	/* next to the run above */
		else if (before && !after)
			v = lo + step;	/* next to the run below */
		else
			v = lo + (hi - lo) / 2;
	} else if (above && hi == lo + 1) {
		v = hi;		/* a tie that keeps the order: see above */
	} else {	/* a tie out of order, until the pass */
		v = hi - 1 >= OSL_PRIO_LO ? hi - 1 : OSL_PRIO_LO;
		(*ties)++;
	}
	osl_ptab_insert(&p->prios, rank, v);
	return v;
}

extern int osl_prio_new(osl_part_t *p, osl_obs_t **obs, int n)
{
	osl_cell_t *cell = osl_tcalloc(n + 1, sizeof(*cell));
	int i, m = 0, k, ties = 0;

	for (i = 0; i < n; i++) {
		uint64_t rank = 0;

		if (!ost_sched_rank(p->sched, obs[i]->key, &rank)) {
			obs[i]->rank = rank;
			cell[m].o = obs[i];
			cell[m++].rank = rank;
		}
	}
	/* one value per record, at its best rank (tasks of an array),
	 * inserted by rank so that each insertion sees the ranks before it */
	qsort(cell, m, sizeof(*cell), _cell_rec_cmp);
	for (i = 0, k = 0; i < m; i++)
		if (!k || cell[i].o->rec != cell[k - 1].o->rec)
			cell[k++] = cell[i];
	qsort(cell, k, sizeof(*cell), _cell_rank_cmp);
	for (i = 0; i < k; i++)
		cell[i].o->prio = _prio_for_new(p, cell[i].rank, &ties);
	osl_tfree(cell, n + 1, sizeof(*cell));
	return ties;
}

/* --------------------------------------------------- job_list order --- */

static int _qrec_cmp(const void *a, const void *b)
{
	const osl_qrec_t *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

static int _ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) *(void * const *) a;
	uintptr_t y = (uintptr_t) *(void * const *) b;

	return (x > y) - (x < y);
}

/*
 * The main scheduler and backfill build their queues by walking job_list
 * and then sort them (sort_job_queue, glibc's merge sort, whose comparator
 * reads both job records): a queue already in order costs about half the
 * comparisons, all between neighbours, as FIFO priorities get for free.
 * Jobs that start stay where they are, so the common pass (starts and ends
 * only) finds the list in order and changes nothing.  O(n log n).
 */
extern int osl_order(void *const *cur, int n, osl_qrec_t *q, int m,
		     void **want)
{
	void **sorted = osl_tcalloc(m + 1, sizeof(*sorted));
	int a, i, k = 0;
	bool differ = false;

	qsort(q, m, sizeof(*q), _qrec_cmp);
	for (i = 0; i < m; i++)
		sorted[i] = q[i].rec;
	qsort(sorted, m, sizeof(*sorted), _ptr_cmp);

	/* is the subsequence of written records already in order? */
	for (i = 0, a = 0; i < n; i++)
		if (bsearch(&cur[i], sorted, m, sizeof(*sorted), _ptr_cmp)) {
			if (a >= m || cur[i] != q[a].rec)
				differ = true;
			a++;
		} else {
			want[k++] = cur[i];
		}
	osl_tfree(sorted, m + 1, sizeof(*sorted));
	if (a != m || k + m != n) {	/* cannot happen under the lock */
		osl_error("ostrich: job_list holds %d of the %d records written: order left alone",
			  a, m);
		return -1;
	}
	if (!differ)
		return 0;
	for (i = 0; i < m; i++)
		want[k++] = q[i].rec;
	return 1;
}
