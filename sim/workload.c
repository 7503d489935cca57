/*****************************************************************************\
 *  workload.c - common part of the workload readers: line input through
 *  zlib (plain files pass through gzread unchanged), format detection,
 *  the open-loop readers' job list (push, filter, replay order), names and
 *  release.
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

long sim_getline(gzFile f, char **buf, size_t *cap)
{
	size_t len = 0;
	char *nb = ost_grow(*buf, cap, 256, 1, 256);

	if (!nb)
		return -1;
	*buf = nb;
	for (;;) {
		size_t end = *cap - 1;

		/* gzgets gives no length and copies a NUL byte of the line
		 * like any other: fill the room with non-NUL bytes, so the
		 * last NUL is its terminator.  strlen would stop at the
		 * line's own NUL, and the next read would overwrite the
		 * rest of the line with the next one. */
		memset(*buf + len, 0xff, *cap - len);
		if (!gzgets(f, *buf + len, (int) (*cap - len)))
			break;
		while (end > len && (*buf)[end])
			end--;
		len = end;
		if (len && (*buf)[len - 1] == '\n')
			break;
		if (len + 1 < *cap)
			continue;       /* short read without newline: EOF */
		if (!(nb = ost_grow(*buf, cap, *cap + 1, 1, 256)))
			return -1;
		*buf = nb;
	}
	/* a gzgets at end of file leaves the room as filled above */
	(*buf)[len] = '\0';
	if (!len)
		return -1;
	while (len && ((*buf)[len - 1] == '\n' || (*buf)[len - 1] == '\r'))
		(*buf)[--len] = '\0';
	return (long) len;
}

const char *sim_line_why(const char *buf, long len)
{
	return strlen(buf) < (size_t) len ? "NUL byte in the line" : NULL;
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

/* Fill w->uids with the distinct owners and every job's dense uidx. */
static int _index_users(sim_workload_t *w)
{
	uint32_t *u = malloc((w->njobs + 1) * sizeof(*u));
	size_t n;

	if (!u)
		return -1;
	for (size_t i = 0; i < w->njobs; i++)
		u[i] = w->jobs[i].uid;
	n = sim_u32_distinct(u, w->njobs);
	w->uids = u;
	w->nusers = (uint32_t) n;
	for (size_t i = 0; i < w->njobs; i++) {
		uint32_t *hit = bsearch(&w->jobs[i].uid, u, n, sizeof(*u),
					sim_u32_cmp);
		w->jobs[i].uidx = (uint32_t) (hit - u);
	}
	return 0;
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

/* The first line of head (NUL terminated) has a '|': a sacct dump. */
static bool _looks_sacct(const char *head)
{
	size_t n = strcspn(head, "\n");

	return memchr(head, '|', n) != NULL;
}

int sim_workload_read(const char *path, uint32_t procs, bool exact,
		      sim_workload_t *w, FILE *log, char *err, size_t errlen)
{
	sim_input_t in = { .procs = procs, .gpus = SIM_GPUS_FILE,
			   .exact = exact, .unlimited = -1 };

	return sim_workload_read_in(path, &in, w, log, err, errlen);
}

int sim_workload_read_in(const char *path, const sim_input_t *in,
			 sim_workload_t *w, FILE *log, char *err,
			 size_t errlen)
{
	char head[512] = "";
	gzFile f;
	int rc;

	memset(w, 0, sizeof(*w));
	if (!(f = gzopen(path, "rb"))) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	gzbuffer(f, 1 << 17);
	if (gzread(f, head, sizeof(head) - 1) < 0)
		head[0] = '\0';
	gzrewind(f);
	if (!strncmp(head, "%ostrich-campaigns", 18))
		rc = sim_cwl_read(f, path, in->procs, in->gpus, in->exact, w,
				  log, err, errlen);
	else {
		if (_looks_sacct(head))
			rc = sim_sacct_read(f, path, in, w, log, err, errlen);
		else
			rc = sim_swf_read(f, path, in->procs, in->exact, w,
					  log, err, errlen);
		if (!rc)	/* their jobs ask for no GPU */
			w->gpus = in->gpus == SIM_GPUS_FILE ? 0 : in->gpus;
	}
	gzclose(f);
	if (!rc && _index_users(w)) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -1;
	}
	if (rc)
		sim_workload_free(w);
	return rc;
}
