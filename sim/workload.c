/*****************************************************************************\
 *  workload.c - what the workload readers share below them: the
 *  open-loop readers' job list (push, filter, replay order), the names of
 *  skip reasons and users, and release.  Reading a file (format detection)
 *  is wlread.c's, above the readers; lines come from lines.c.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "workload.h"

static const char *_skip_names[SIM_SKIP_COUNT] = {
	"malformed", "negative_runtime", "no_procs", "procs_above_m",
	"gpus_above_machine",
};

static const char *_sacct_skip_names[SIM_SACCT_SKIP_COUNT] = {
	"steps", "never_started", "running", "pending", "other_partition",
};

const char *sim_skip_name(enum sim_skip r)
{
	return (unsigned) r < SIM_SKIP_COUNT ? _skip_names[r] : "?";
}

const char *sim_sacct_skip_name(enum sim_sacct_skip r)
{
	return (unsigned) r < SIM_SACCT_SKIP_COUNT ? _sacct_skip_names[r]
						    : "?";
}

/* bsearch order of struct sim_uname by uid. */
static int _uname_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct sim_uname *) a)->uid;
	uint32_t y = ((const struct sim_uname *) b)->uid;

	return x < y ? -1 : x > y;
}

const char *sim_user_name(const sim_workload_t *w, uint32_t uid,
			  char buf[16])
{
	struct sim_uname key = { .uid = uid }, *hit = NULL;

	if (w->nunames)
		hit = bsearch(&key, w->unames, w->nunames, sizeof(key),
			      _uname_cmp);
	if (hit)
		return hit->name;
	snprintf(buf, 16, "%u", uid);
	return buf;
}

void sim_workload_free(sim_workload_t *w)
{
	if (!w)
		return;
	free(w->jobs);
	free(w->camps);
	free(w->uids);
	for (size_t i = 0; i < w->nunames; i++)
		free(w->unames[i].name);
	free(w->unames);
	for (uint32_t i = 0; i < w->naccounts; i++)
		free(w->accounts[i]);
	free(w->accounts);
	free(w->partitions);
	free(w->ashare);
	free(w->ushare);
	memset(w, 0, sizeof(*w));
}

int sim_workload_push(sim_workload_t *w, size_t *cap, const sim_job_t *j)
{
	sim_job_t *nj = ost_grow(w->jobs, cap, w->njobs + 1, sizeof(*nj),
				 4096);

	if (!nj)
		return -1;
	w->jobs = nj;
	w->jobs[w->njobs++] = *j;
	return 0;
}

void sim_workload_filter(sim_workload_t *w, uint32_t m, bool exact)
{
	size_t out = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		sim_job_t *j = &w->jobs[i];

		if (j->runtime < 0)
			w->skipped[SIM_SKIP_RUNTIME]++;
		else if (j->procs == 0)
			w->skipped[SIM_SKIP_PROCS]++;
		else if (j->procs > m)
			w->skipped[SIM_SKIP_TOO_BIG]++;
		else {
			if (exact)
				j->estimate = j->runtime;
			w->jobs[out++] = *j;
		}
	}
	w->njobs = out;
}

/* Replay order: (submit, job number, position read).  The position is
 * held in camp_idx, which open-loop workloads do not use, while sorting. */
static int _job_cmp(const void *a, const void *b)
{
	const sim_job_t *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->camp_idx < y->camp_idx ? -1 : x->camp_idx > y->camp_idx;
}

int sim_workload_sort(sim_workload_t *w)
{
	if (w->njobs > UINT32_MAX)
		return -1;
	for (size_t i = 0; i < w->njobs; i++)
		w->jobs[i].camp_idx = (uint32_t) i;
	qsort(w->jobs, w->njobs, sizeof(*w->jobs), _job_cmp);
	for (size_t i = 0; i < w->njobs; i++)
		w->jobs[i].camp_idx = 0;
	return 0;
}

/* qsort order of uint32_t. */
int sim_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

size_t sim_u32_distinct(uint32_t *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), sim_u32_cmp);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

int sim_workload_finish(sim_workload_t *w, const char *path, bool exact,
			char *err, size_t errlen)
{
	sim_workload_filter(w, w->procs, exact);
	if (!w->njobs) {
		snprintf(err, errlen, "%s: no usable job", path);
		return -1;
	}
	if (sim_workload_sort(w)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	return 0;
}
