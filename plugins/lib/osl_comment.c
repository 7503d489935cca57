/*****************************************************************************\
 *  osl_comment.c - the SystemComment of each job: the core's summary line
 *  (doc/summary.md), e.g. "ostrich campaign=alice/3 rank=2/14
 *  vct=2026-11-21T23:10:05Z share=0.33 mode=ostrich"; rank=0 for a running
 *  job.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_comment.c): the field is read
 *  and written through osl_comment_ops_t (osl_writeback.c in slurmctld).
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_charge.h"
#include "ostrich.h"
#include "osl_acct.h"
#include "osl_comment.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_vec.h"

/* A campaign of the partition, for its C~ and its user's share. */
typedef struct {
	uint32_t uid;			/* its user */
	uint32_t seq;			/* its sequence number */
	double vct;			/* C~, seconds since the epoch */
	double share;			/* its user's share of the partition */
	bool eligible;			/* started in V (§4) */
	double vstart;			/* not eligible: when it starts in V
					 * (the sweep's one projection, vst);
					 * 0 when eligible */
} osl_camp_t;

typedef struct {
	osl_camp_t *v;			/* sorted by (uid, seq) (malloc) */
	int n;				/* entries used */
	int cap;			/* entries allocated */
} osl_camp_vec_t;

static int _camp_visit(const ost_campaign_info_t *c, void *arg)
{
	osl_camp_vec_t *cv = arg;

	cv->v = osl_tgrow(cv->v, &cv->cap, cv->n + 1, sizeof(*cv->v), 32);
	cv->v[cv->n].uid = c->uid;
	cv->v[cv->n].seq = c->seq;
	cv->v[cv->n].vct = c->vct;
	cv->v[cv->n].eligible = c->eligible;
	/* the sweep's one projection (§24), never one per campaign */
	cv->v[cv->n].vstart = c->eligible ? 0 : c->vst;
	cv->n++;
	return 0;
}

static int _camp_cmp(const void *a, const void *b)
{
	const osl_camp_t *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Campaign (uid, seq) in cv, or NULL; O(log n). */
static osl_camp_t *_camp_find(const osl_camp_vec_t *cv, uint32_t uid,
			      uint32_t seq)
{
	osl_camp_t key = { .uid = uid, .seq = seq };

	if (!cv->n)
		return NULL;
	return bsearch(&key, cv->v, cv->n, sizeof(*cv->v), _camp_cmp);
}

extern double osl_share(const osl_part_t *p, uint32_t uid)
{
	double share = 0;

	if (ost_sched_user_share(p->sched, uid, &share))
		return 0;
	return share;
}

extern bool osl_comment_merge(const char *field, const char *line, char *out,
			      size_t size)
{
	size_t len = 0, ll = strlen(line), fl = field ? strlen(field) : 0;
	const char *ours = ost_summary_find(field, &len);
	int n;

	if (ours) {			/* ours, replaced in place */
		if (len == ll && !memcmp(ours, line, ll))
			return false;
		n = snprintf(out, size, "%.*s%s%s", (int) (ours - field),
			     field, line, ours + len);
	} else if (fl) {		/* someone else's: ours on a line after */
		n = snprintf(out, size, "%s%s%s", field,
			     field[fl - 1] == '\n' ? "" : "\n", line);
	} else {
		n = snprintf(out, size, "%s", line);
	}
	/* no room: never cut someone else's text, leave the field alone */
	return n >= 0 && (size_t) n < size;
}

extern uint64_t osl_comment_print(const char *field)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a 64 offset basis */
	size_t n = 0;

	if (!field)
		return 0;
	for (; field[n]; n++) {
		h ^= (unsigned char) field[n];
		h *= 0x100000001b3ULL;		/* FNV-1a 64 prime */
	}
	h ^= n;					/* "" and NUL-only texts */
	h *= 0x100000001b3ULL;
	return h ? h : 1;
}

/*
 * Under PrivateData=jobs the owner sees only their own jobs (squeue), so
 * the line must not tell more: rank=R/P counts the owner's pending jobs of
 * the partition only, and share (w_u / W, which gives away the others'
 * weights) becomes view=own (doc/summary.md).
 */
static void _own_view(char *buf)
{
	static const char view[] = " view=own";
	char *sh = strstr(buf, " share="), *rest;

	if (!sh)
		return;
	rest = sh + strcspn(sh + 1, " ") + 1;	/* " mode=..." or "" */
	if ((size_t) (rest - sh) < sizeof(view) - 1)
		return;				/* cannot happen: %.2f */
	memmove(sh + sizeof(view) - 1, rest, strlen(rest) + 1);
	memcpy(sh, view, sizeof(view) - 1);
}

extern int osl_bill_text(char *buf, size_t size, int n,
			 const char *const *label, const ost_res_t *kind,
			 const double *w, const uint64_t *cnt)
{
	size_t len = 0;
	int i, k;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (kind[i] == OST_RES_SKIP || cnt[i] == OST_RES_NO_CONSUME ||
		    !cnt[i] || !(w[i] > 0) || !label[i] || !*label[i])
			continue;
		k = w[i] == 1.0 ?
		    snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s%s:%llu",
			     len ? "," : "", label[i],
			     (unsigned long long) cnt[i]) :
		    snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s%s:%llux%g",
			     len ? "," : "", label[i],
			     (unsigned long long) cnt[i], w[i]);
		if (k < 0)
			return k;
		len += (size_t) k;
	}
	return (int) len;
}

extern size_t osl_comment_width(char *buf, size_t len, size_t size,
				uint32_t width, ost_charge_t unit,
				const char *bill)
{
	size_t lim = size < OST_SUMMARY_MAX ? size : OST_SUMMARY_MAX;
	int n, m = 0;

	n = snprintf(NULL, 0, " width=%u unit=%s", (unsigned) width,
		     ost_charge_name(unit));
	if (bill && *bill)
		m = snprintf(NULL, 0, " bill=%s", bill);
	if (n < 0 || m < 0 || len + (size_t) n >= lim)
		return len;
	len += (size_t) snprintf(buf + len, lim - len, " width=%u unit=%s",
				 (unsigned) width, ost_charge_name(unit));
	if (m && len + (size_t) m < lim)
		len += (size_t) snprintf(buf + len, lim - len, " bill=%s",
					 bill);
	return len;
}

extern size_t osl_comment_account(char *buf, size_t len, size_t size,
				  const char *account)
{
	size_t lim = size < OST_SUMMARY_MAX ? size : OST_SUMMARY_MAX;
	int n;

	if (!account || !*account)
		return len;
	n = snprintf(NULL, 0, " account=%s", account);
	if (n < 0 || len + (size_t) n >= lim)
		return len;
	return len + (size_t) snprintf(buf + len, lim - len, " account=%s",
				       account);
}

/* The account o counts in in p's schedule (§23): the one it names if the
 * core knows it, else its owner's own; NULL: the root, or no accounts. */
static const char *_account(const osl_part_t *p, const osl_obs_t *o)
{
	uint32_t id = o->own;

	if (!ost_sched_nested(p->sched))
		return NULL;
	if (o->account && (int) o->account <= p->nacct &&
	    p->acct[o->account - 1].declared)
		id = o->account;
	return osl_acct_name(id);
}

/* A pending observation's place among its owner's: (uid, rank). */
typedef struct {
	uint32_t uid;
	uint64_t rank;
} osl_own_t;

static int _own_cmp(const void *a, const void *b)
{
	const osl_own_t *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Rank of (uid, rank) among uid's in own[0..n) (sorted), and their count
 * in *count; rank 0 (running): 0. */
static uint64_t _own_rank(const osl_own_t *own, int n, uint32_t uid,
			  uint64_t rank, uint64_t *count)
{
	int lo = 0, hi = n, a, b;

	while (lo < hi) {		/* first entry of uid */
		int mid = lo + (hi - lo) / 2;

		if (own[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	a = lo;
	for (b = a; b < n && own[b].uid == uid; b++)
		;
	*count = (uint64_t) (b - a);
	if (!rank)
		return 0;
	lo = a;
	hi = b;
	while (lo < hi) {		/* first entry of rank >= rank */
		int mid = lo + (hi - lo) / 2;

		if (own[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint64_t) (lo - a) + 1;
}

/*
 * vstart= of pending o's line (§24): when its campaign starts in V if
 * later than now (its user's previous campaign was served ahead of V),
 * else 0 (none).  c: its campaign in the pass's sweep, which projected
 * every campaign's start at once (ost_campaign_info_t.vst: a call per
 * campaign would cost O(active users) each, under the job read lock);
 * NULL: a submission, one O(U) call for the one job.
 */
static double _vstart(osl_part_t *p, const osl_obs_t *o,
		      const osl_camp_t *c)
{
	double t = 0;

	if (c)			/* the sweep's projection */
		t = c->eligible ? 0 : c->vstart;
	else if (ost_sched_job_vstart(p->sched, o->key, &t))
		t = 0;
	return t > ost_sched_now(p->sched) ? t : 0;	/* NAN: none */
}

/*
 * The SystemComment of the record of o (written only when it changed).
 * C~ and the share come from cv, the pass's sweep over every campaign;
 * without one (a submission), from the core for this job alone.
 * RET false when the core does not know the job or the line cannot be
 * made, true when the field holds the line (written or already there).
 */
static bool _comment(osl_part_t *p, osl_obs_t *o, const osl_camp_vec_t *cv,
		     uint64_t pending, const osl_comment_ops_t *ops,
		     const osl_own_t *own, int nown)
{
	osl_camp_t *c = NULL;
	const char *user;
	ost_summary_t sum;
	ost_job_info_t info;
	double vct = NAN;
	char buf[OST_SUMMARY_MAX], out[OSL_COMMENT_MAX], bill[OST_SUMMARY_MAX];
	int len;

	memset(&sum, 0, sizeof(sum));
	if (o->st == OSL_PENDING && o->campaign) {	/* from the walk */
		info.uid = o->uid;
		info.campaign = o->campaign;
	} else if (ost_job_get(p->sched, o->key, &info)) {
		return false;
	}
	user = ops->user_name(info.uid);
	snprintf(sum.user, sizeof(sum.user), "%s", user ? user : "");
	sum.campaign = info.campaign;
	sum.rank = o->st == OSL_PENDING ? o->rank : 0;
	sum.pending = pending;
	if (cv) {
		c = _camp_find(cv, info.uid, info.campaign);
		vct = c ? c->vct : NAN;
		sum.share = c ? c->share : osl_share(p, info.uid);
	} else {
		(void) ost_sched_job_vct(p->sched, o->key, &vct);
		sum.share = osl_share(p, info.uid);
	}
	sum.vct = isfinite(vct) ? vct : NAN;
	sum.mode = ost_sched_config(p->sched)->mode;
	if (o->st == OSL_PENDING)
		sum.vstart = _vstart(p, o, c);
	if (own)
		sum.rank = _own_rank(own, nown, info.uid, sum.rank,
				     &sum.pending);
	if ((len = ost_summary_format(buf, sizeof(buf), &sum)) < 0)
		return false;
	if (own)
		_own_view(buf);
	bill[0] = '\0';
	if (ops->bill)
		ops->bill(p, o->rec, bill, sizeof(bill));
	len = (int) osl_comment_width(buf, strlen(buf), sizeof(buf),
				      o->procs, p->unit, bill);
	len = (int) osl_comment_account(buf, (size_t) len, sizeof(buf),
					_account(p, o));
	/* a submission's line: its rank, share and C~ are of this moment,
	 * the others' of the last pass, which a reader must not mix
	 * (doc/summary.md); the next pass's line has no new=1 */
	if (!cv && (size_t) len + sizeof(" new=1") <= sizeof(buf))
		snprintf(buf + len, sizeof(buf) - (size_t) len, " new=1");
	if (osl_comment_merge(ops->get(o->rec), buf, out, sizeof(out)))
		ops->set(o->rec, out);
	return true;
}

/* Is o to be given no line (finished, unranked, or a second partition of
 * its record)? */
static bool _no_line(const osl_obs_t *o)
{
	return o->st == OSL_FINISHED || (o->st == OSL_PENDING && !o->rank) ||
	       o->slot > 0;
}

/*
 * The observation whose line the record of obs[i] gets: the record's best-
 * ranked pending task.  Only a pending array's own record (its job id is
 * the array's) has several observations, and they need not be adjacent:
 * sorted by key, a task split off into a record of its own stands between
 * them.  They all lie in the run of the array's keys, obs[i..end).
 */
static osl_obs_t *_best_task(osl_obs_t **obs, int i, int end)
{
	osl_obs_t *o = obs[i];
	int j;

	for (j = i + 1; j < end; j++)
		if (obs[j]->rec == o->rec && obs[j]->rank &&
		    obs[j]->rank < o->rank)
			o = obs[j];
	return o;
}

/* Each record of obs[0..n) once: its best-ranked pending task, or its
 * running job; its first partition only.  RET the records given a line. */
static int _each_record(osl_part_t *p, osl_obs_t **obs, int n,
			const osl_camp_vec_t *cv, uint64_t pending,
			const osl_comment_ops_t *ops, const osl_own_t *own,
			int nown)
{
	int i, j, end, done = 0;

	for (i = 0; i < n; i = end) {
		uint64_t group = obs[i]->group;
		bool array_done = false;

		for (end = i + 1; group && end < n && obs[end]->group == group;
		     end++)
			;
		for (j = i; j < end; j++) {
			osl_obs_t *o = obs[j];
			bool array_rec = group && o->rec_id == (uint32_t) group;

			if (_no_line(o) || (array_rec && array_done))
				continue;
			if (array_rec) {
				array_done = true;
				o = _best_task(obs, j, end);
			}
			done += _comment(p, o, cv, pending, ops, own, nown);
		}
	}
	return done;
}

extern int osl_comments_new(osl_part_t *p, osl_obs_t **obs, int n,
			    const osl_comment_ops_t *ops)
{
	ost_stats_t st;

	/* rank=R/P among the owner's jobs needs them all: the pass's */
	if (ops->private_jobs && ops->private_jobs())
		return 0;
	ost_sched_stats(p->sched, &st);
	return _each_record(p, obs, n, NULL, st.pending, ops, NULL, 0);
}

extern void osl_comments(osl_part_t *p, osl_obs_t **obs, int n,
			 const osl_comment_ops_t *ops)
{
	osl_camp_vec_t cv = { 0 };
	osl_own_t *own = NULL;
	ost_stats_t st;
	int i, nown = 0;

	ost_sched_stats(p->sched, &st);
	if (ops->private_jobs && ops->private_jobs()) {
		own = osl_tcalloc(n, sizeof(*own));
		for (i = 0; i < n; i++)
			if (obs[i]->st == OSL_PENDING && obs[i]->rank) {
				own[nown].uid = obs[i]->uid;
				own[nown++].rank = obs[i]->rank;
			}
		if (nown)
			qsort(own, nown, sizeof(*own), _own_cmp);
	}
	(void) ost_sched_foreach_campaign(p->sched, _camp_visit, &cv);
	if (cv.n)
		qsort(cv.v, cv.n, sizeof(*cv.v), _camp_cmp);
	for (i = 0; i < cv.n; i++)
		cv.v[i].share = osl_share(p, cv.v[i].uid);
	(void) _each_record(p, obs, n, &cv, st.pending, ops, own, nown);
	osl_tfree(own, n, sizeof(*own));	/* NULL: nothing */
	osl_tfree(cv.v, cv.cap, sizeof(*cv.v));
}
