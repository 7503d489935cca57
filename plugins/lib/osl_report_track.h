/*****************************************************************************\
 *  osl_report_track.h - the engine's side of the campaign report (§26,
 *  osl_report_track.c): fold each finished run into its campaign, follow
 *  each campaign in the virtual schedule, close the campaigns over into
 *  the ring.  Slurm-free; the pass (slurm/osl_pass.c) calls it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_REPORT_TRACK_H
#define _OSL_REPORT_TRACK_H

#include "ostrich.h"
#include "osl_obs.h"
#include "osl_report.h"

/*
 * Fold a finished run into its open campaign of r: o its observation
 * (uid, width, Slurm's start and end), run the seconds the ledger charged
 * (§18), campaign and submit what the core knew of the job before the
 * pass (its campaign, its arrival t_j, §9.12), account its Slurm account
 * (NULL or "": unknown).
 */
extern void osl_report_job(osl_report_t *r, const osl_obs_t *o, double run,
			   uint32_t campaign, double submit,
			   const char *account);

/*
 * Follow every campaign of s with unfinished jobs in the virtual
 * schedule at now, after the pass advanced s to now: while v < F_c its
 * vct is the core's projection C~_c (the last finite one while v is
 * stalled, C = 0); at the first pass that sees
 * v >= F_c it is min(the last projection, now), and stays (§26).  A
 * campaign that grows again (v < F_c) is followed again.  An open
 * campaign that never ran is forgotten once the core no longer tracks it.
 * O(n log n).
 */
extern void osl_report_virtual(osl_report_t *r, const ost_sched_t *s,
			       double now);

/*
 * Close the open campaigns of r that are over at now, by §18's rule: the
 * core holds none of their jobs and none can join them (now past their
 * last end by more than tau, §2).  Each one that ran goes into the ring
 * with the capacity m; one that never ran (its jobs cancelled pending)
 * is forgotten.  One walk over the core's jobs, only when some campaign
 * may close.
 * RET campaigns put into the ring
 */
extern int osl_report_close(osl_report_t *r, const ost_sched_t *s, double m,
			    double now, double tau);

/*
 * Replace r's contents by the records of partition part in f (a parsed
 * report file): the closed ones into the ring, in file order, the open
 * ones as open.  RET records taken
 */
extern int osl_report_take(osl_report_t *r, const osl_report_file_t *f,
			   const char *part);

#endif /* _OSL_REPORT_TRACK_H */
