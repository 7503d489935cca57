/*****************************************************************************\
 *  actual.c - the policy "actual" of ostrich-sim: what the site's own
 *  scheduler delivered, read from the workload's recorded start times (a
 *  sacct dump's Start, an SWF trace's submit + wait), measured by the same
 *  metrics as the replayed policies (tools/whatif.sh's "actual" column).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Nothing is simulated: the site's schedule ran on the site's machine,
 *  with its other partitions, reservations, failures and users who reacted
 *  to it, so it is the closed-loop truth the open-loop replays are put
 *  beside, not a replay under the same conditions (doc/semantics.md §17).
\*****************************************************************************/

#include <math.h>
#include <stdio.h>

#include "charge.h"
#include "grouping.h"
#include "simloop.h"

int sim_run_actual(sim_workload_t *w, const sim_opts_t *opts, char *err,
		   size_t errlen)
{
	if (w->closed) {
		snprintf(err, errlen, "a closed-loop workload has no recorded "
			 "start times: the policy actual needs a sacct dump or "
			 "an SWF trace");
		return -1;
	}
	if (opts->grouping != SIM_GROUP_TRACE || opts->feedback) {
		snprintf(err, errlen, "the policy actual takes its campaigns "
			 "from the recorded times: --grouping trace, no "
			 "--feedback");
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++) {
		sim_job_t *j = &w->jobs[i];

		j->width = sim_charge_width(&opts->charge, opts->procs,
					    opts->gpus, j->procs, j->gpus);
		j->charge = sim_charge_raw(&opts->charge, opts->procs,
					   opts->gpus, j->procs, j->gpus);
		j->campaign = 0;
		/* rec_start >= submit (swf.c, sacct.c) */
		j->start = j->rec_start;
		j->end = j->rec_start + j->runtime;
	}
	if (sim_group_trace(w, opts->core.think_time)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
