/*****************************************************************************\
 *  wlread.c - reading a workload file: its format detected from its first
 *  bytes (closed-loop campaign file, sacct dump, SWF), the file handed to
 *  that reader, then the owners indexed (and --shares read against
 *  them).  Above the readers, which share
 *  workload.c and lines.c below them.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "shares.h"
#include "workload.h"

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
	/* the association shares name the users and accounts just read */
	if (!rc && in->shares && sim_shares_load(in->shares, w, log, err,
						 errlen))
		rc = -1;
	if (rc)
		sim_workload_free(w);
	return rc;
}
