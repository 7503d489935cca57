/*****************************************************************************\
 *  feedback.h - replaying a trace with its users' feedback (§16): a
 *  campaign that followed its predecessor closely in the trace is
 *  submitted its observed think time after that predecessor completes in
 *  the simulation; the others keep their trace times.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_FEEDBACK_H
#define OST_SIM_FEEDBACK_H

#include "ost_heap.h"
#include "sim.h"

/* One campaign of the trace (fixed) and its release in the replay. */
typedef struct sim_fb_camp {
	uint32_t first, last;  /* its first and last job (replay order) */
	uint32_t next;         /* the owner's next campaign, or UINT32_MAX */
	uint32_t left;         /* jobs not finished in the replay */
	double t0;             /* trace submit of its first job, t_c */
	double think;          /* t_c - E_prev in the trace; < 0: independent */
	double release;        /* replay submit of its first job; NAN: not
				  decided yet */
	bool moved;            /* release != t0: jobs at release + (t_j - t0) */
	bool head;             /* the owner's first campaign */
} sim_fb_camp_t;

/* The state of one feedback replay. */
typedef struct sim_fb {
	sim_fb_camp_t *camps;
	uint32_t ncamps;
	uint32_t *camp_of;     /* job -> its campaign */
	uint32_t *next_job;    /* job -> next job of its campaign, or NONE */
	ost_heap_t due;        /* (submit, job): the next job of each released
				  campaign with jobs left to submit */
	ost_hkey_t *due_of;    /* campaign -> its element of due */
	uint32_t dependent;    /* campaigns with think >= 0 */
} sim_fb_t;

/* Build the campaigns of w (job.campaign set by trace grouping, jobs in
 * replay order, job.submit = trace submit) and release every campaign
 * whose time does not depend on the replay: each user's first one and
 * the independent ones that follow a released one.  threshold: a
 * campaign whose trace gap to its predecessor's end is <= threshold (s)
 * is dependent.  RET: 0, or -1 when memory is short (release with
 * sim_fb_free).  O(n + c log c). */
int sim_fb_init(sim_fb_t *fb, const sim_workload_t *w, double threshold);

/* Replay submit time of the next job to submit, INFINITY if none is due
 * yet.  O(1). */
double sim_fb_next(const sim_fb_t *fb);

/* Take the next job due at or before now into *job; the next job of its
 * campaign becomes due.  RET: 1, 0 when none is due, -1 when memory is
 * short.  O(log c). */
int sim_fb_pop(sim_fb_t *fb, const sim_workload_t *w, double now,
	       uint32_t *job);

/* Job finished at now.  When it was the last of its campaign, a
 * dependent next campaign is released think seconds later (and the
 * independent ones after it).  RET: 0, or -1 when memory is short.
 * O(log c) amortized. */
int sim_fb_finish(sim_fb_t *fb, const sim_workload_t *w, uint32_t job,
		  double now);

/* Release what sim_fb_init allocated.  A zeroed fb is fine. */
void sim_fb_free(sim_fb_t *fb);

#endif /* OST_SIM_FEEDBACK_H */
