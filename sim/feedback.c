/*****************************************************************************\
 *  feedback.c - campaign releases of a feedback replay (§16).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Campaign c of a user, trace submit t_c (its first job), follows c' whose
 *  recorded end is E_c' (max over its jobs of recorded start + runtime).
 *  Its gap is g_c = t_c - E_c' (> tau by the grouping of §2).  c is
 *  dependent iff g_c <= H (the threshold): released at C_c' + g_c, C_c'
 *  being c' 's completion in the replay.  Otherwise it keeps t_c, or, if
 *  c' 's last job is submitted later than t_c in the replay, that instant
 *  (a user's campaigns are submitted in order).  A job j of c is submitted
 *  at t_j when c keeps t_c (bit for bit the open-loop time), else at
 *  R_c + (t_j - t_c): offsets inside a campaign are kept.
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "feedback.h"
#include "ost_grow.h"

#define NONE UINT32_MAX

/* Replay submit time of job j of released campaign c. */
static double _job_time(const sim_fb_camp_t *c, const sim_workload_t *w,
			uint32_t j)
{
	double t = w->jobs[j].trace_submit;

	return c->moved ? c->release + (t - c->t0) : t;
}

/* Release campaign k with its first job at r (>= now) and, in turn, the
 * independent campaigns after it.  RET: 0 or -1 (memory). */
static int _release(sim_fb_t *fb, const sim_workload_t *w, uint32_t k,
		    double r)
{
	for (;;) {
		sim_fb_camp_t *c = &fb->camps[k];

		c->release = r;
		c->moved = r != c->t0;
		if (ost_hkey_push(&fb->due, &fb->due_of[k], r, c->first))
			return -1;
		if (c->next == NONE || fb->camps[c->next].think >= 0)
			return 0;
		double last = _job_time(c, w, c->last);
		k = c->next;
		r = fmax(fb->camps[k].t0, last);
	}
}

/* Campaigns from the grouped jobs: bounds, job chains, gaps.
 * RET: 0 or -1 (memory). */
static int _build(sim_fb_t *fb, const sim_workload_t *w, double threshold)
{
	uint32_t *cur = malloc((w->nusers + 1) * sizeof(*cur));
	double *end = malloc((w->nusers + 1) * sizeof(*end));
	size_t cap = 0;

	if (!cur || !end)
		goto out_nomem;
	for (uint32_t u = 0; u < w->nusers; u++)
		cur[u] = NONE;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		double e = j->rec_start + j->runtime;
		uint32_t k = cur[j->uidx];

		fb->next_job[i] = NONE;
		if (k != NONE && w->jobs[fb->camps[k].first].campaign ==
				 j->campaign) {
			fb->next_job[fb->camps[k].last] = (uint32_t) i;
			fb->camps[k].last = (uint32_t) i;
			fb->camps[k].left++;
			end[j->uidx] = fmax(end[j->uidx], e);
			fb->camp_of[i] = k;
			continue;
		}
		sim_fb_camp_t *p = ost_grow(fb->camps, &cap, fb->ncamps + 1,
					    sizeof(*p), 1024);
		if (!p)
			goto out_nomem;
		fb->camps = p;
		uint32_t n = fb->ncamps++;
		double gap = k != NONE ? j->trace_submit - end[j->uidx] : -1;
		fb->camps[n] = (sim_fb_camp_t) {
			.first = (uint32_t) i, .last = (uint32_t) i,
			.next = NONE, .left = 1, .t0 = j->trace_submit,
			.think = gap >= 0 && gap <= threshold ? gap : -1,
			.release = NAN, .head = k == NONE,
		};
		fb->dependent += fb->camps[n].think >= 0;
		if (k != NONE)
			fb->camps[k].next = n;
		cur[j->uidx] = n;
		end[j->uidx] = e;
		fb->camp_of[i] = n;
	}
	free(cur);
	free(end);
	return 0;
out_nomem:
	free(cur);
	free(end);
	return -1;
}

int sim_fb_init(sim_fb_t *fb, const sim_workload_t *w, double threshold)
{
	memset(fb, 0, sizeof(*fb));
	ost_heap_init(&fb->due, ost_hkey_less);
	fb->camp_of = malloc((w->njobs + 1) * sizeof(*fb->camp_of));
	fb->next_job = malloc((w->njobs + 1) * sizeof(*fb->next_job));
	if (!fb->camp_of || !fb->next_job || _build(fb, w, threshold))
		return -1;
	/* after _build: the heap holds pointers into due_of */
	if (!(fb->due_of = calloc(fb->ncamps + 1, sizeof(*fb->due_of))))
		return -1;
	for (uint32_t k = 0; k < fb->ncamps; k++)
		ost_hnode_init(&fb->due_of[k].node);
	for (uint32_t k = 0; k < fb->ncamps; k++)
		if (fb->camps[k].head && _release(fb, w, k, fb->camps[k].t0))
			return -1;
	return 0;
}

double sim_fb_next(const sim_fb_t *fb)
{
	const ost_hkey_t *e = ost_hkey_top(&fb->due);

	return e ? e->key : INFINITY;
}

int sim_fb_pop(sim_fb_t *fb, const sim_workload_t *w, double now,
	       uint32_t *job)
{
	ost_hkey_t *top = ost_hkey_top(&fb->due);
	uint32_t j, nj;

	if (!top || top->key > now)
		return 0;
	j = (uint32_t) top->tie;
	ost_hkey_remove(&fb->due, top);
	*job = j;
	if ((nj = fb->next_job[j]) == NONE)
		return 1;
	/* the same campaign's next job: its element again */
	return ost_hkey_push(&fb->due, top, _job_time(&fb->camps[fb->camp_of[nj]],
						      w, nj), nj) ? -1 : 1;
}

int sim_fb_finish(sim_fb_t *fb, const sim_workload_t *w, uint32_t job,
		  double now)
{
	sim_fb_camp_t *c = &fb->camps[fb->camp_of[job]];

	if (--c->left || c->next == NONE || fb->camps[c->next].think < 0)
		return 0;
	return _release(fb, w, c->next, now + fb->camps[c->next].think);
}

void sim_fb_free(sim_fb_t *fb)
{
	free(fb->camps);
	free(fb->camp_of);
	free(fb->next_job);
	free(fb->due_of);
	ost_heap_free(&fb->due);
	memset(fb, 0, sizeof(*fb));
}
