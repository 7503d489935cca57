/*****************************************************************************\
 *  simloop.h - the discrete-event replay of one workload under one policy.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_SIMLOOP_H
#define OST_SIM_SIMLOOP_H

#include "sim.h"

/* Replay w under opts: sets every job's start, end, submit (closed loop)
 * and campaign (--grouping online).  At each instant the loop applies
 * completions, then submissions (replay order), then virtual-schedule
 * events (ost_sched_advance), then dispatch (§6).
 * RET: 0, or -1 with a message in err.  O((n + events) log n) plus the
 * dispatch walks. */
int sim_run(sim_workload_t *w, const sim_opts_t *opts, char *err,
	    size_t errlen);

/* Policy "actual" (actual.c): no replay, every job of w as the site's
 * scheduler ran it: start = its recorded start, end = start + runtime;
 * campaigns by --grouping trace on those times (§2).  The same metrics
 * then measure what the site delivered beside the replayed policies.
 * RET: 0, or -1 with a message in err (a closed-loop workload has no
 * recorded starts; --grouping online and --feedback replay, so refused). */
int sim_run_actual(sim_workload_t *w, const sim_opts_t *opts, char *err,
		   size_t errlen);

#endif /* OST_SIM_SIMLOOP_H */
