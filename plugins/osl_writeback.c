/*****************************************************************************\
 *  osl_writeback.c - what the engine writes into Slurm's job records: the
 *  priorities (priority, priority_array), the SystemComment, and the order
 *  of job_list.  The values come from osl_prio.c and osl_comment.c.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include "slurm/slurm.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_compat.h"
#include "osl_private.h"

extern bool osl_write_job(osl_obs_t *obs, int a, int b)
{
	job_record_t *job_ptr = obs[a].rec;
	uint32_t best = 0, *slot_prio = NULL;
	bool changed = false;
	int i, nslots = 0;

	if (job_ptr->part_ptr_list)
		nslots = list_count(job_ptr->part_ptr_list);
	if (nslots)
		slot_prio = xcalloc(nslots, sizeof(uint32_t));
	for (i = a; i < b; i++) {
		uint32_t prio;

		if (!obs[i].prio)
			continue;
		prio = obs[i].prio;
		if (slot_prio && obs[i].slot >= 0 && obs[i].slot < nslots &&
		    prio > slot_prio[obs[i].slot])
			slot_prio[obs[i].slot] = prio;
		if (prio > best)
			best = prio;
	}
	if (best && slot_prio) {
		for (i = 0; i < nslots; i++) {
			uint32_t v = slot_prio[i] ? slot_prio[i] : 1;

			if (osl_prio_slot_set(job_ptr, nslots, i, v))
				changed = true;
		}
	}
	if (best && job_ptr->priority != best) {
		job_ptr->priority = best;
		changed = true;
	}
	xfree(slot_prio);
	return changed;
}

/* ------------------------------------------------------ SystemComment --- */

static const char *_user_name(uint32_t uid)
{
	return uid_to_string_cached(uid);
}

static const char *_comment_get(const job_record_t *job_ptr)
{
	return job_ptr->system_comment;
}

static void _comment_set(job_record_t *job_ptr, const char *text)
{
	xfree(job_ptr->system_comment);
	job_ptr->system_comment = xstrdup(text);
}

const osl_comment_ops_t osl_comment_ops = {
	.user_name = _user_name,
	.set = _comment_set,
	.get = _comment_get,
};

/* ------------------------------------------------------- job_list order --- */

/*
 * Nothing but the queues of the main scheduler and backfill depends on the
 * order of job_list (records are found through a hash table); see
 * osl_order() for why it follows the priorities.
 */
extern bool osl_order_job_list(const osl_obs_vec_t *vec)
{
	osl_qrec_t *q = xcalloc(vec->n + 1, sizeof(*q));
	void **cur, **want;
	list_itr_t *it;
	job_record_t *job_ptr;
	int a, i, m = 0, n = 0;
	bool differ;

	/* the written records (observations of a record are contiguous) */
	for (a = 0; a < vec->n; a = i) {
		for (i = a + 1; i < vec->n && vec->v[i].rec == vec->v[a].rec;
		     i++)
			;
		job_ptr = vec->v[a].rec;
		if (!vec->v[a].writable || !IS_JOB_PENDING(job_ptr))
			continue;
		q[m].rec = job_ptr;
		q[m].prio = job_ptr->priority;
		q[m++].job_id = job_ptr->job_id;
	}

	cur = xcalloc(list_count(job_list) + 1, sizeof(*cur));
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		cur[n++] = job_ptr;
	list_iterator_destroy(it);

	want = xcalloc(n + 1, sizeof(*want));
	differ = osl_order(cur, n, q, m, want) == 1;
	if (differ) {
		/* list_pop() unlinks without the destructor */
		while (list_pop(job_list))
			;
		for (i = 0; i < n; i++)
			list_append(job_list, want[i]);
	}
	xfree(want);
	xfree(cur);
	xfree(q);
	return differ;
}
