/*****************************************************************************\
 *  osl_stretch.h - the stretch (doc/semantics.md §7) of the campaigns that
 *  finished since the engine started (osl_stretch.c), for the usage
 *  snapshot's histogram.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_STRETCH_H
#define _OSL_STRETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "osl_obs.h"
#include "osl_partition.h"

/* Upper bounds of the stretch histogram's buckets (the last: +inf). */
#define OSL_STRETCH_NB 10
extern const double osl_stretch_le[OSL_STRETCH_NB];

/* A campaign that has finished jobs, until it is over (osl_stretch.c). */
typedef struct {
	uint32_t uid, seq;		/* the campaign: its user, number */
	double t_c;			/* earliest submission of its jobs that
					 * ran (s) */
	double work;			/* sum of q x p charged (width x s) */
	double span;			/* max over its jobs of submit + p (s) */
	double last_end;		/* latest end of its jobs (s) */
	bool open;			/* the core holds a job of it
					 * (osl_stretch_close) */
} osl_scamp_t;

/* The stretch (§7) of the campaigns over since the engine started. */
typedef struct {
	osl_scamp_t *v;			/* open campaigns (malloc) */
	int n, cap;
	uint64_t bucket[OSL_STRETCH_NB];/* campaigns by bucket (not
					 * cumulative): stretch <= le[b] and
					 * > le[b - 1] */
	double sum;			/* sum of their stretches */
	uint64_t count;			/* campaigns over */
} osl_stretch_t;

/* Count one campaign of stretch x in h. */
extern void osl_stretch_add(osl_stretch_t *h, double x);

/*
 * Fold a finished run into its campaign's account: o its observation
 * (uid, width, end), run the seconds charged, campaign and submit what the
 * core knew of the job before the pass (§18).
 */
extern void osl_stretch_job(osl_stretch_t *h, const osl_obs_t *o, double run,
			    uint32_t campaign, double submit);

/*
 * Close the campaigns of h that are over at now: none of their jobs is
 * pending or running in p's core, and no job can join them any more (now
 * past their last end by more than the think time tau, §2).  Each adds
 * its stretch flow / lower_bound (§7) on p->procs.
 * RET campaigns closed
 */
extern int osl_stretch_close(osl_stretch_t *h, const osl_part_t *p,
			     double now, double tau);

/* Release h's open campaigns (the histogram stays). */
extern void osl_stretch_free(osl_stretch_t *h);

#endif /* _OSL_STRETCH_H */
