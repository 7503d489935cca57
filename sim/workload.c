/*****************************************************************************\
 *  workload.c - common part of the workload readers: line input through
 *  zlib (plain files pass through gzread unchanged), format detection,
 *  names and release.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "workload.h"

static const char *_skip_names[SIM_SKIP_COUNT] = {
	"malformed", "negative_runtime", "no_procs", "procs_above_m",
};

const char *sim_skip_name(enum sim_skip r)
{
	return (unsigned) r < SIM_SKIP_COUNT ? _skip_names[r] : "?";
}

void sim_workload_free(sim_workload_t *w)
{
	if (!w)
		return;
	free(w->jobs);
	free(w->camps);
	free(w->uids);
	memset(w, 0, sizeof(*w));
}

long sim_getline(gzFile f, char **buf, size_t *cap)
{
	size_t len = 0;
	char *nb = ost_grow(*buf, cap, 256, 1, 256);

	if (!nb)
		return -1;
	*buf = nb;
	for (;;) {
		if (!gzgets(f, *buf + len, (int) (*cap - len)))
			break;
		len += strlen(*buf + len);
		if (len && (*buf)[len - 1] == '\n')
			break;
		if (len + 1 < *cap)
			continue;       /* short read without newline: EOF */
		if (!(nb = ost_grow(*buf, cap, *cap + 1, 1, 256)))
			return -1;
		*buf = nb;
	}
	if (!len)
		return -1;
	while (len && ((*buf)[len - 1] == '\n' || (*buf)[len - 1] == '\r'))
		(*buf)[--len] = '\0';
	return (long) len;
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

int sim_workload_read(const char *path, uint32_t procs, bool exact,
		      sim_workload_t *w, FILE *log, char *err, size_t errlen)
{
	char head[32] = "";
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
		rc = sim_cwl_read(f, path, procs, exact, w, log, err, errlen);
	else
		rc = sim_swf_read(f, path, procs, exact, w, log, err, errlen);
	gzclose(f);
	if (!rc && _index_users(w)) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -1;
	}
	if (rc)
		sim_workload_free(w);
	return rc;
}
