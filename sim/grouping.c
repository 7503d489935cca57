/*****************************************************************************\
 *  grouping.c - think-time grouping on recorded trace times (§2).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A job submitted at t joins its user's latest campaign c iff c has an
 *  unfinished job at t (some recorded end E_j > t) or t - E_c <= tau with
 *  E_c the last end of c.  Both say t <= max_j(E_j) + tau (completions
 *  come before submissions at one instant, so E_j = t is finished), so
 *  one running maximum per user is enough: O(1) per job.
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>

#include "grouping.h"

int sim_group_trace(sim_workload_t *w, double tau)
{
	uint32_t *seq = calloc(w->nusers + 1, sizeof(*seq));
	double *last_end = malloc((w->nusers + 1) * sizeof(*last_end));

	if (!seq || !last_end) {
		free(seq);
		free(last_end);
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++) {
		sim_job_t *j = &w->jobs[i];
		double end = j->rec_start + j->runtime;

		if (!seq[j->uidx] || j->submit > last_end[j->uidx] + tau) {
			seq[j->uidx]++;
			last_end[j->uidx] = end;
		} else {
			last_end[j->uidx] = fmax(last_end[j->uidx], end);
		}
		j->campaign = seq[j->uidx];
	}
	free(seq);
	free(last_end);
	return 0;
}
