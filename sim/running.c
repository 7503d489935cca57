/*****************************************************************************\
 *  running.c - running jobs sorted by (estimated end, job index).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "running.h"

static inline int _cmp(double t, uint32_t job, const sim_run_t *r)
{
	if (t != r->est_end)
		return t < r->est_end ? -1 : 1;
	return job < r->job ? -1 : job > r->job;
}

/* First position whose entry is >= (t, job). */
static size_t _lower(const sim_running_t *rs, double t, uint32_t job)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (_cmp(t, job, &rs->r[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void sim_running_init(sim_running_t *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void sim_running_free(sim_running_t *rs)
{
	free(rs->r);
	sim_running_init(rs);
}

int sim_running_add(sim_running_t *rs, sim_run_t run)
{
	sim_run_t *nr = ost_grow(rs->r, &rs->cap, rs->n + 1, sizeof(*nr), 64);
	size_t at;

	if (!nr)
		return -1;
	rs->r = nr;
	at = _lower(rs, run.est_end, run.job);
	memmove(&rs->r[at + 1], &rs->r[at], (rs->n - at) * sizeof(*rs->r));
	rs->r[at] = run;
	rs->n++;
	rs->busy += run.procs;
	rs->gbusy += run.gpus;
	return 0;
}

int sim_running_del(sim_running_t *rs, double est_end, uint32_t job)
{
	size_t at = _lower(rs, est_end, job);

	if (at == rs->n || _cmp(est_end, job, &rs->r[at]))
		return -1;
	rs->busy -= rs->r[at].procs;
	rs->gbusy -= rs->r[at].gpus;
	memmove(&rs->r[at], &rs->r[at + 1], (rs->n - at - 1) * sizeof(*rs->r));
	rs->n--;
	return 0;
}

double sim_running_shadow(const sim_running_t *rs, double now, uint64_t free,
			  uint64_t need, uint64_t *extra)
{
	sim_res_t x;
	double t = sim_running_shadow_res(rs, now, (sim_res_t) { free, 0 },
					  (sim_res_t) { need, 0 }, &x);

	*extra = x.procs;
	return t;
}

/* Both resources of a cover need. */
static inline bool _enough(sim_res_t a, sim_res_t need)
{
	return a.procs >= need.procs && a.gpus >= need.gpus;
}

double sim_running_shadow_res(const sim_running_t *rs, double now,
			      sim_res_t free, sim_res_t need,
			      sim_res_t *extra)
{
	sim_res_t avail = free;
	size_t i = 0;

	*extra = (sim_res_t) { 0, 0 };
	if (_enough(avail, need)) {
		*extra = (sim_res_t) { avail.procs - need.procs,
				       avail.gpus - need.gpus };
		return now;
	}
	while (i < rs->n) {
		double t = fmax(rs->r[i].est_end, now);

		while (i < rs->n && fmax(rs->r[i].est_end, now) == t) {
			avail.procs += rs->r[i].procs;
			avail.gpus += rs->r[i++].gpus;
		}
		if (_enough(avail, need)) {
			*extra = (sim_res_t) { avail.procs - need.procs,
					       avail.gpus - need.gpus };
			return t;
		}
	}
	return INFINITY;
}
