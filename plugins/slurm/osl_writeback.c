/*****************************************************************************\
 *  osl_writeback.c - what the engine writes into Slurm's job records: the
 *  priorities (priority, priority_array), the SystemComment, and the order
 *  of job_list.  The values come from osl_prio.c and osl_comment.c.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <string.h>

#include "slurm/slurm.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_comment.h"
#include "osl_compat.h"
#include "osl_names.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_slurm.h"
#include "osl_vec.h"

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

/*
 * The pass merges the SystemComments under the job read lock and writes
 * them under the write lock (osl_pass.c): _comment_set stages the new
 * field with the fingerprint of the one it was merged from,
 * osl_comments_write() puts it in place if the record's field still has
 * that fingerprint.  Used by the engine thread only, under osl_eng.lock.
 *
 * Memory (doc/design.md, "Memory"): every pass changes most lines (rank=R/P
 * moves with each submission), so a line is copied into the buffer the
 * record already has whenever it fits, and the staged lines share one
 * buffer that the pass frees whole.  A new buffer per line and per pass
 * left the engine thread's arena a mix of live lines and holes that
 * malloc_trim() cannot give back.
 */
typedef struct {
	uint32_t job_id;		/* the record */
	uint64_t seen;			/* osl_comment_print() of its field
					 * when merged */
	size_t text;			/* the new field: offset in stext */
	size_t len;			/* its length, NUL excluded */
} osl_staged_t;

static osl_staged_t *staged;
static int nstaged, cap_staged;
static char *stext;			/* the staged fields, NUL-ended */
static int ntext, cap_text;		/* bytes used, allocated */

/*
 * Bytes to ask xmalloc for a field of len bytes (NUL excluded): what the
 * malloc chunk holds anyway (xmalloc adds two words, malloc one, and
 * chunks are multiples of 16 bytes), with at least 8 bytes to spare, so
 * that a line a few digits longer (rank=R/P) fits in place.
 */
static size_t _room(size_t len)
{
	size_t over = 2 * sizeof(size_t) + sizeof(size_t);

	return ((len + 1 + 8 + over + 15) & ~(size_t) 15) - over;
}

/* Make the record's SystemComment text (len bytes, NUL excluded): in its
 * buffer when it fits.  NOTE: job write lock held. */
static void _comment_put(job_record_t *job_ptr, const char *text, size_t len)
{
	char *f = job_ptr->system_comment;

	if (!f || xsize(f) <= len) {
		xfree(job_ptr->system_comment);
		f = job_ptr->system_comment = xmalloc_nz(_room(len));
	}
	memcpy(f, text, len + 1);
}

/* The pass asks the name service (Slurm caches the answer) and keeps a
 * copy for the submissions (osl_names.c). */
static const char *_user_name(uint32_t uid)
{
	const char *name = uid_to_string_cached(uid);

	osl_name_put(uid, name);
	return name;
}

static const char *_comment_get(const job_record_t *job_ptr)
{
	return job_ptr->system_comment;
}

/* NOTE: job read lock and osl_eng.lock held. */
static void _comment_set(job_record_t *job_ptr, const char *text)
{
	int len = (int) strlen(text) + 1;
	osl_staged_t *st;

	staged = osl_tgrow(staged, &cap_staged, nstaged + 1, sizeof(*staged),
			   256);
	stext = osl_tgrow(stext, &cap_text, ntext + len, 1, 32768);
	st = &staged[nstaged++];
	st->job_id = job_ptr->job_id;
	st->seen = osl_comment_print(job_ptr->system_comment);
	st->text = (size_t) ntext;
	st->len = (size_t) len - 1;
	memcpy(stext + ntext, text, len);
	ntext += len;
}

extern int osl_comments_write(void)
{
	int i, n = 0;

	for (i = 0; i < nstaged; i++) {
		job_record_t *job_ptr = find_job_record(staged[i].job_id);

		/* someone else wrote the field meanwhile: theirs stays,
		 * the next pass merges into it */
		if (job_ptr &&
		    osl_comment_print(job_ptr->system_comment) ==
		    staged[i].seen) {
			_comment_put(job_ptr, stext + staged[i].text,
				     staged[i].len);
			n++;
		}
	}
	osl_tfree(staged, cap_staged, sizeof(*staged));
	osl_tfree(stext, cap_text, 1);
	staged = NULL;
	stext = NULL;
	nstaged = cap_staged = ntext = cap_text = 0;
	return n;
}

/* NOTE: conf read lock (the pass and a submission hold it; a requeue,
 * which may also submit a record anew, reads one int without it). */
static bool _private_jobs(void)
{
	return slurm_conf.private_data & PRIVATE_DATA_JOBS;
}

/* NOTE: job read lock and osl_eng.lock held. */
static void _bill(const osl_part_t *p, const job_record_t *job_ptr, char *buf,
		  size_t size)
{
	(void) osl_tres_text(p->tres, job_ptr, buf, size);
}

const osl_comment_ops_t osl_comment_ops = {
	.user_name = _user_name,
	.set = _comment_set,
	.get = _comment_get,
	.private_jobs = _private_jobs,
	.bill = _bill,
};

/* NOTE: job write lock and osl_eng.lock held. */
static void _comment_set_now(job_record_t *job_ptr, const char *text)
{
	_comment_put(job_ptr, text, strlen(text));
}

const osl_comment_ops_t osl_comment_ops_now = {
	.user_name = osl_name_get,	/* no lookup under the write lock */
	.set = _comment_set_now,
	.get = _comment_get,
	.private_jobs = _private_jobs,
	.bill = _bill,
};

/* ---------------------------------------------------- the lock gap --- */

extern int osl_refind(osl_obs_vec_t *vec)
{
	int a, i, j, lost = 0;

	for (a = 0; a < vec->n; a = i) {
		job_record_t *job_ptr, *was = vec->v[a].rec;

		i = osl_rec_end(vec, a);
		if (!vec->v[a].writable)
			continue;
		job_ptr = find_job_record(vec->v[a].rec_id);
		if (job_ptr && job_ptr == was && IS_JOB_PENDING(job_ptr) &&
		    !job_ptr->direct_set_prio &&
		    job_ptr->priority == vec->v[a].rec_prio)
			continue;
		for (j = a; j < i; j++) {
			vec->v[j].rec = NULL;
			vec->v[j].writable = false;
		}
		lost++;
	}
	return lost;
}

/* ------------------------------------------------------- job_list order --- */

/*
 * Nothing but the queues of the main scheduler and backfill depends on the
 * order of job_list (records are found through a hash table); see
 * osl_order() for why it follows the priorities.
 */
extern bool osl_order_job_list(const osl_obs_vec_t *vec)
{
	osl_qrec_t *q = osl_tcalloc(vec->n + 1, sizeof(*q));
	void **cur, **want;
	list_itr_t *it;
	job_record_t *job_ptr;
	int a, i, m = 0, n = 0, count = list_count(job_list);
	bool differ;

	/* the written records */
	for (a = 0; a < vec->n; a = i) {
		i = osl_rec_end(vec, a);
		job_ptr = vec->v[a].rec;
		if (!job_ptr || !vec->v[a].writable ||
		    !IS_JOB_PENDING(job_ptr))
			continue;
		q[m].rec = job_ptr;
		q[m].prio = job_ptr->priority;
		q[m++].job_id = job_ptr->job_id;
	}

	cur = osl_tcalloc(count + 1, sizeof(*cur));
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)) && n < count)
		cur[n++] = job_ptr;
	list_iterator_destroy(it);

	want = osl_tcalloc(n + 1, sizeof(*want));
	differ = osl_order(cur, n, q, m, want) == 1;
	/*
	 * One pop (the head: a record of the old order) then one append
	 * (the next of the new), n times: the list is then want[0..n).  The
	 * node each pop frees is the one the append takes (glibc's
	 * per-thread cache), so the nodes stay where slurmctld made them
	 * instead of all moving into the engine thread's arena.
	 * list_pop() unlinks without the destructor.
	 */
	if (differ)
		for (i = 0; i < n; i++) {
			(void) list_pop(job_list);
			list_append(job_list, want[i]);
		}
	osl_tfree(want, n + 1, sizeof(*want));
	osl_tfree(cur, count + 1, sizeof(*cur));
	osl_tfree(q, vec->n + 1, sizeof(*q));
	return differ;
}
