/*****************************************************************************\
 *  swf.c - Standard Workload Format reader (§8).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Field mapping (1-based SWF numbers): submit = 2, runtime p = 4,
 *  q = 5 if > 0 else 8, estimate e = 9 if > 0 else p, user = 12,
 *  recorded start = 2 + 3 (= 2 when 3 is unknown).  A line is skipped and
 *  counted by reason when it is malformed, p < 0, q <= 0 or q > m; only a
 *  file without a single good job is an error.  A line whose submit time,
 *  wait, runtime or estimate is out of the core's ranges (ostrich.h:
 *  |t| <= 1e13 s, durations <= 1e12 s) is malformed; a MaxProcs or
 *  MaxNodes header that is not -1 or a whole number in [1, 2^32-1] is an
 *  error, with its line number.
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "ost_grow.h"
#include "workload.h"

#define SWF_FIELDS 18

int sim_swf_parse_fields(const char *line, double f[SWF_FIELDS],
			 const char **why)
{
	const char *p = line;
	int n = 0;

	for (;;) {
		char *end;

		while (isspace((unsigned char) *p))
			p++;
		if (!*p)
			break;
		if (n == SWF_FIELDS) {
			*why = "more than 18 fields";
			return -1;
		}
		errno = 0;
		f[n] = strtod(p, &end);
		if (end == p || (*end && !isspace((unsigned char) *end))) {
			*why = "non-numeric field";
			return -1;
		}
		if (errno == ERANGE || !isfinite(f[n])) {
			*why = "field out of range";
			return -1;
		}
		n++;
		p = end;
	}
	if (n < SWF_FIELDS) {
		*why = "fewer than 18 fields";
		return -1;
	}
	return 0;
}

/* The archive's own logs annotate a header value: "MaxNodes: 338 (batch
 * partition; 512 total)" in CTC-SP2-1996-3.1-cln.  Such a comment follows
 * a blank after the number (num_end) and is the rest of the line, up to
 * its ")".  RET: whether rest, the text after those blanks, is one. */
static bool _swf_comment(const char *rest, const char *num_end)
{
	size_t n = strlen(rest);

	if (*rest != '(' || rest == num_end)
		return false;
	while (isspace((unsigned char) rest[n - 1]))
		n--;
	return rest[n - 1] == ')';
}

/* Header line "; Key: value": remember MaxProcs and MaxNodes, which must
 * be -1 (unknown) or a whole number of CPUs in [1, UINT32_MAX], optionally
 * followed by blanks and a comment in parentheses that ends the line.
 * RET: 0, or -1 with *why set. */
static int _swf_header(const char *line, long long *max_procs,
		       long long *max_nodes, const char **why)
{
	const char *p = line + 1, *v, *num_end;
	long long *out;
	unsigned long long x;
	char *end;

	while (isspace((unsigned char) *p))
		p++;
	if (!strncmp(p, "MaxProcs:", 9))
		out = max_procs;
	else if (!strncmp(p, "MaxNodes:", 9))
		out = max_nodes;
	else
		return 0;
	v = p + 9;
	while (isspace((unsigned char) *v))
		v++;
	if (!strncmp(v, "-1", 2)) {
		end = (char *) v + 2;
		x = 0;
	} else {
		errno = 0;
		x = isdigit((unsigned char) *v) ? strtoull(v, &end, 10) : 0;
		if (!isdigit((unsigned char) *v) || errno || x < 1 ||
		    x > UINT32_MAX) {
			*why = "must be -1 or a whole number of CPUs in "
			       "[1, 4294967295]";
			return -1;
		}
	}
	num_end = end;
	while (isspace((unsigned char) *end))
		end++;
	if (*end && !_swf_comment(end, num_end)) {
		*why = "must be -1 or a whole number of CPUs in "
		       "[1, 4294967295]";
		return -1;
	}
	*out = x ? (long long) x : -1;
	return 0;
}

/* The fields the replay uses, against the core's ranges.  RET: NULL or
 * why the line is malformed. */
static const char *_swf_ranges(const double f[SWF_FIELDS])
{
	if (!ost_time_ok(f[1]))
		return "submit time out of range (|t| <= 1e13 s)";
	if (f[2] > OST_DURATION_MAX)
		return "wait time above 1e12 s";
	if (f[3] > OST_DURATION_MAX)
		return "runtime above 1e12 s";
	if (f[8] > OST_DURATION_MAX)
		return "requested time above 1e12 s";
	return NULL;
}

/* Map the 18 fields of one line to a job (§8); validity is
 * checked later by sim_workload_filter, once m is known. */
static void _swf_job(const double f[SWF_FIELDS], sim_job_t *j)
{
	double q = f[4] > 0 ? f[4] : f[7];

	memset(j, 0, sizeof(*j));
	j->number = f[0] > 0 ? (uint64_t) fmin(f[0], 0x1p63) : 0;
	j->submit = j->trace_submit = f[1];
	j->runtime = f[3];
	j->procs = q > 0 ? (uint32_t) llround(fmin(fmax(q, 1.0), 0x1p31)) : 0;
	j->estimate = f[8] > 0 ? f[8] : f[3];
	j->uid = f[11] >= 0 ? (uint32_t) fmin(f[11], (double) UINT32_MAX) : 0;
	j->acct = f[12] >= 0 ? (uint32_t) fmin(f[12] + 1, (double) UINT32_MAX)
			     : 0;
	j->rec_start = f[1] + (f[2] >= 0 ? f[2] : 0);
	j->start = j->end = NAN;
}

int sim_swf_read(gzFile f, const char *path, uint32_t procs, bool exact,
		 sim_workload_t *w, FILE *log, char *err, size_t errlen)
{
	long long max_procs = -1, max_nodes = -1;
	long lineno = 0, len;
	char *buf = NULL;
	size_t cap = 0, jcap = 0;
	double fld[SWF_FIELDS];
	const char *why;
	sim_job_t j;

	while ((len = sim_getline(f, &buf, &cap)) >= 0) {
		const char *p = buf;

		lineno++;
		while (isspace((unsigned char) *p))
			p++;
		if ((why = sim_line_why(buf, len))) {
			w->skipped[SIM_SKIP_MALFORMED]++;
			if (log)
				fprintf(log, "%s:%ld: malformed line skipped: %s\n",
					path, lineno, why);
			continue;
		}
		if (!*p)
			continue;
		if (*p == ';') {
			if (_swf_header(p, &max_procs, &max_nodes, &why)) {
				snprintf(err, errlen, "%s:%ld: %.9s %s", path,
					 lineno, p + 1 + strspn(p + 1, " \t"),
					 why);
				free(buf);
				return -1;
			}
			continue;
		}
		if (sim_swf_parse_fields(p, fld, &why) ||
		    (why = _swf_ranges(fld))) {
			w->skipped[SIM_SKIP_MALFORMED]++;
			if (log)
				fprintf(log, "%s:%ld: malformed line skipped: %s\n",
					path, lineno, why);
			continue;
		}
		_swf_job(fld, &j);
		if (sim_workload_push(w, &jcap, &j)) {
			snprintf(err, errlen, "%s: out of memory", path);
			free(buf);
			return -1;
		}
	}
	free(buf);
	w->procs = max_procs > 0 ? (uint32_t) max_procs :
		   max_nodes > 0 ? (uint32_t) max_nodes : 0;
	if (!procs)
		procs = w->procs;
	if (!procs) {
		snprintf(err, errlen,
			 "%s: no MaxProcs/MaxNodes header: give --procs", path);
		return -1;
	}
	w->procs = procs;
	return sim_workload_finish(w, path, exact, err, errlen);
}
