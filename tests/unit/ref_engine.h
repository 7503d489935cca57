/*****************************************************************************\
 *  ref_engine.h - a naive reference implementation of §2-5
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Used only by check_property: plain arrays, everything recomputed from
 *  scratch at every event, as the thesis and the 2014 plugins do (W by
 *  summing the active users, breakpoints by scanning, every campaign's tags
 *  re-derived, the order by sorting, C~ by simulating the fluid forward).
 *  It shares no code with the engine.
 *
 *  Why bench/naive.c is a second naive engine, and not this one: they
 *  answer different questions.  This one is the oracle: it covers every
 *  variant of semantics.md (modes, capacities, gates, intra orders,
 *  weights, cancels, resizes, requeues, §12-§14, §24's gate/lead), is
 *  written for obviousness (each event re-derives every tag by scanning
 *  every job: O(C J) per event, O(C J) per order), holds at most MAXU
 *  users, MAXC campaigns and MAXJ jobs ever submitted, and computes C~ its
 *  own way (compared within 1e-6).  bench/naive.c is the cost baseline of
 *  bench_engine: one configuration only, sized for 10^6 jobs and 10^4
 *  users, every pass at the cost of the 2014 plugins (re-sort the users,
 *  fluid sweep, qsort the jobs), with the engine's floating-point
 *  operations so that ranks are compared bit for bit at that scale.
 *  Neither can replace the other: this one cannot hold even the smallest
 *  bench row (10k pending jobs) and its per-event scans would make the
 *  bench measure a quadratic straw man; that one lacks most variants.
 *  What they share is the rules, not the code.
\*****************************************************************************/

#ifndef OST_REF_ENGINE_H
#define OST_REF_ENGINE_H

#include "ostrich.h"

typedef struct ref ref_t;

ref_t *ref_create(const ost_config_t *cfg);
void ref_destroy(ref_t *r);
void ref_set_weight(ref_t *r, uint32_t uid, double w);
/* Returns the campaign sequence number. */
uint32_t ref_submit(ref_t *r, uint64_t id, uint32_t uid, uint32_t q, double e,
		    double t);
/* Same, into explicit campaign seq (joins the newest when seq is its
 * number, else opens seq); seq >= the user's newest. */
uint32_t ref_submit_in(ref_t *r, uint64_t id, uint32_t uid, uint32_t q,
		       double e, double t, uint32_t seq);
void ref_start(ref_t *r, uint64_t id, double t);
/* Start on q CPUs (the allocated width). */
void ref_start_alloc(ref_t *r, uint64_t id, double t, uint32_t q);
/* Pending job id now q CPUs wide with estimate e. */
void ref_update(ref_t *r, uint64_t id, uint32_t q, double e, double t);
void ref_finish(ref_t *r, uint64_t id, double t, double p);
void ref_cancel(ref_t *r, uint64_t id, double t);
/* Running job id requeued at t: pending again, its run q (t - start)
 * joining its campaign at once (§9.4) as a join of that area (§3.4), not
 * a submission: A_est is unchanged. */
void ref_requeue(ref_t *r, uint64_t id, double t);
void ref_advance(ref_t *r, double t);

/* Pending job ids in rank order into ids (eligible flags into elig);
 * returns the count (at most max). */
size_t ref_order(ref_t *r, uint64_t *ids, bool *elig, size_t max);

/* Tags of campaign (uid, seq): returns false if unknown. */
bool ref_campaign(const ref_t *r, uint32_t uid, uint32_t seq, double *S,
		  double *F, double *D);

/* C~ by forward fluid simulation, for a virtual time x. */
double ref_vct(const ref_t *r, double x);

/* A_c of campaign (uid, seq) (estimates, corrected); NAN if unknown. */
double ref_area(const ref_t *r, uint32_t uid, uint32_t seq);

double ref_vtime(const ref_t *r);

#endif /* OST_REF_ENGINE_H */
