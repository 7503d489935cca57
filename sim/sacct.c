/*****************************************************************************\
 *  sacct.c - reader of sacct dumps (§17): the output of
 *
 *	sacct --allusers --allocations --parsable2 --format=JobIDRaw,User,
 *	      Account,Partition,Submit,Start,End,Timelimit,ReqTRES,
 *	      AllocTRES,State
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The header line names the columns (any order, unknown ones ignored);
 *  every later line is one row.  A row becomes one job; rows that are not
 *  finished allocations are counted by reason (sim_sacct_skip), malformed
 *  ones as in SWF (§8).  Users and accounts are names: a user whose name
 *  is a number (sacct prints the uid of a user it cannot name) keeps it as
 *  id; the other names get the ids above the largest such number, in
 *  name order, so one dump always gives the same ids.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lines.h"
#include "ost_grow.h"
#include "slurmfmt.h"
#include "workload.h"

enum col {
	C_ID = 0, C_USER, C_ACCOUNT, C_PART, C_SUBMIT, C_START, C_END,
	C_LIMIT, C_ALLOC, C_STATE, C_NCOL
};

static const struct {
	const char *name;
	bool required;
} _cols[C_NCOL] = {
	{ "JobIDRaw", true }, { "User", true }, { "Account", false },
	{ "Partition", false }, { "Submit", true }, { "Start", true },
	{ "End", true }, { "Timelimit", true }, { "AllocTRES", true },
	{ "State", true },
};

/* Names in the order first met (ids of the rows while reading), with a
 * sorted permutation for lookup. */
struct names {
	char **v;
	size_t *sorted;
	size_t n, cap, scap;
};

struct sacct {
	int pos[C_NCOL];            /* column of each field, -1 if absent */
	size_t nfields;
	char **f;                   /* the fields of the current row */
	size_t fcap;
	struct names users, accounts, parts;
	uint32_t *part_of;          /* partition (names index) of each job */
	size_t pcap;
};

/* The index of s in t, added when new.  RET: the index, or -1 (memory
 * short).  O(log n) for a known name. */
static long _name_id(struct names *t, const char *s)
{
	size_t lo = 0, hi = t->n;
	char **nv;
	size_t *ns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(t->v[t->sorted[mid]], s);

		if (!c)
			return (long) t->sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!(nv = ost_grow(t->v, &t->cap, t->n + 1, sizeof(*nv), 64)))
		return -1;
	t->v = nv;
	if (!(ns = ost_grow(t->sorted, &t->scap, t->n + 1, sizeof(*ns), 64)))
		return -1;
	t->sorted = ns;
	if (!(t->v[t->n] = strdup(s)))
		return -1;
	memmove(ns + lo + 1, ns + lo, (t->n - lo) * sizeof(*ns));
	ns[lo] = t->n;
	return (long) t->n++;
}

static void _names_free(struct names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->sorted);
}

/* Split line at '|' into st->f.  RET: the number of fields, or -1. */
static long _split(struct sacct *st, char *line)
{
	size_t n = 0;

	for (char *p = line;; p++) {
		char *bar = strchr(p, '|');
		char **nf = ost_grow(st->f, &st->fcap, n + 1, sizeof(*nf), 16);

		if (!nf)
			return -1;
		st->f = nf;
		st->f[n++] = p;
		if (!bar)
			break;
		*bar = '\0';
		p = bar;
	}
	return (long) n;
}

/* Read the header line into st->pos.  RET: 0, or -1 with *why. */
static int _header(struct sacct *st, char *line, const char **why)
{
	long n = _split(st, line);

	if (n < 0) {
		*why = "out of memory";
		return -1;
	}
	for (int c = 0; c < C_NCOL; c++)
		st->pos[c] = -1;
	for (long i = 0; i < n; i++)
		for (int c = 0; c < C_NCOL; c++)
			if (!strcasecmp(st->f[i], _cols[c].name) ||
			    (c == C_ID && st->pos[c] < 0 &&
			     !strcasecmp(st->f[i], "JobID")))
				st->pos[c] = (int) i;
	st->nfields = (size_t) n;
	for (int c = 0; c < C_NCOL; c++)
		if (_cols[c].required && st->pos[c] < 0) {
			*why = "not a sacct header line naming JobIDRaw, User, "
			       "Submit, Start, End, Timelimit, AllocTRES and "
			       "State (dump with --parsable2, without "
			       "--noheader)";
			return -1;
		}
	return 0;
}

/* Field c of the current row ("" when the column is absent). */
static const char *_fld(const struct sacct *st, enum col c)
{
	return st->pos[c] < 0 ? "" : st->f[st->pos[c]];
}

/* JobIDRaw: N, N+K (a heterogeneous job's component) or N_K (JobID of an
 * array task); the job number is N.  RET: 0, or -1 when malformed. */
static int _job_id(const char *s, uint64_t *number)
{
	uint64_t v = 0;
	const char *p = s;

	while (isdigit((unsigned char) *p) && p - s < 18)
		v = v * 10 + (uint64_t) (*p++ - '0');
	if (p == s)
		return -1;
	if (*p == '+' || *p == '_') {
		const char *q = ++p;

		while (isdigit((unsigned char) *p) && p - q < 9)
			p++;
		if (p == q)
			return -1;
	}
	*number = v;
	return *p ? -1 : 0;
}

/* The reason a row is left out (§17), or -1 when it is replayed. */
static int _left_out(const struct sacct *st, const sim_input_t *in)
{
	const char *state = _fld(st, C_STATE);
	double t;

	if (strchr(_fld(st, C_ID), '.'))
		return SIM_SACCT_STEP;
	if (in->partition && st->pos[C_PART] >= 0 &&
	    strcmp(_fld(st, C_PART), in->partition))
		return SIM_SACCT_PARTITION;
	if (!strncmp(state, "PENDING", 7))
		return SIM_SACCT_PENDING;
	if (!strncmp(state, "RUNNING", 7))
		return SIM_SACCT_RUNNING;
	if (sim_slurm_date(_fld(st, C_START), &t))
		return SIM_SACCT_NEVER;
	if (sim_slurm_date(_fld(st, C_END), &t))
		return SIM_SACCT_RUNNING;
	return -1;
}

/* The estimate of a row whose run time is p (§17).  RET: 0, or -1 with
 * *why. */
static int _estimate(const struct sacct *st, const sim_input_t *in,
		     double p, double *e, const char **why)
{
	const char *s = _fld(st, C_LIMIT);
	const sim_partition_t *pt;

	if (!sim_slurm_duration(s, e))
		return 0;
	if (!strcmp(s, "Partition_Limit") &&
	    (pt = sim_partition_find(in->parts, _fld(st, C_PART))) &&
	    pt->max_time >= 0) {
		*e = pt->max_time;
		return 0;
	}
	if (!strcmp(s, "UNLIMITED") || !strcmp(s, "Partition_Limit")) {
		*e = in->unlimited >= 0 ? in->unlimited : p;
		return 0;
	}
	*why = "bad Timelimit";
	return -1;
}

/* Map the current (replayed) row to *j; the user and account are names
 * indexes, made ids later.  RET: 0, or -1 with *why (malformed, or
 * "out of memory"). */
static int _row_job(struct sacct *st, const sim_input_t *in, sim_job_t *j,
		    long *part, const char **why)
{
	const char *alloc = _fld(st, C_ALLOC);
	double start, end, q = 0;
	long u, a;

	memset(j, 0, sizeof(*j));
	if (_job_id(_fld(st, C_ID), &j->number)) {
		*why = "bad JobIDRaw";
		return -1;
	}
	if (sim_slurm_date(_fld(st, C_SUBMIT), &j->submit) ||
	    !ost_time_ok(j->submit)) {
		*why = "bad Submit";
		return -1;
	}
	sim_slurm_date(_fld(st, C_START), &start);
	sim_slurm_date(_fld(st, C_END), &end);
	j->trace_submit = j->submit;
	j->runtime = end - start;
	j->rec_start = fmax(start, j->submit);
	if (j->runtime > OST_DURATION_MAX) {
		*why = "run time above 1e12 s";
		return -1;
	}
	if (_estimate(st, in, j->runtime, &j->estimate, why))
		return -1;
	if (j->estimate > OST_DURATION_MAX) {
		*why = "Timelimit above 1e12 s";
		return -1;
	}
	if (sim_tres_get(alloc, strlen(alloc), "billing", &q) &&
	    sim_tres_get(alloc, strlen(alloc), "cpu", &q))
		q = 0;
	j->procs = (uint32_t) fmin(q, 0x1p31);
	j->start = j->end = NAN;
	u = _name_id(&st->users, _fld(st, C_USER));
	a = _name_id(&st->accounts, _fld(st, C_ACCOUNT));
	*part = _name_id(&st->parts, _fld(st, C_PART));
	if (u < 0 || a < 0 || *part < 0) {
		*why = "out of memory";
		return -1;
	}
	j->uid = (uint32_t) u;
	j->account = (uint32_t) a;
	return 0;
}

/* A user name that is a uid.  RET: true and *uid. */
static bool _numeric(const char *s, uint32_t *uid)
{
	size_t n = strlen(s);

	if (!n || n > 10 || strspn(s, "0123456789") != n ||
	    strtoull(s, NULL, 10) > UINT32_MAX)
		return false;
	*uid = (uint32_t) strtoull(s, NULL, 10);
	return true;
}

/* Turn the rows' name indexes into ids and fill w's name tables.
 * RET: 0, or -1 with *why. */
static int _ids(struct sacct *st, sim_workload_t *w, const char **why)
{
	size_t nu = st->users.n, na = st->accounts.n;
	uint32_t *uid = malloc((nu + 1) * sizeof(*uid));
	uint32_t *acc = malloc((na + 1) * sizeof(*acc));
	uint64_t next = 0;
	int rc = -1;

	*why = "out of memory";
	w->unames = calloc(nu + 1, sizeof(*w->unames));
	w->accounts = calloc(na + 1, sizeof(*w->accounts));
	if (!uid || !acc || !w->unames || !w->accounts)
		goto out;
	for (size_t i = 0; i < nu; i++)
		if (_numeric(st->users.v[i], &uid[i]) && uid[i] >= next)
			next = (uint64_t) uid[i] + 1;
	for (size_t r = 0; r < nu; r++) {
		size_t i = st->users.sorted[r];

		if (_numeric(st->users.v[i], &uid[i]))
			continue;
		if (next > UINT32_MAX) {
			*why = "user ids above 4294967295";
			goto out;
		}
		uid[i] = (uint32_t) next++;
	}
	for (size_t r = 0; r < na; r++) {
		acc[st->accounts.sorted[r]] = (uint32_t) r;
		w->accounts[r] = st->accounts.v[st->accounts.sorted[r]];
	}
	for (size_t i = 0; i < nu; i++) {
		w->unames[i].uid = uid[i];
		w->unames[i].name = st->users.v[i];
	}
	/* the names now belong to w */
	w->nunames = nu;
	w->naccounts = (uint32_t) na;
	st->users.n = st->accounts.n = 0;
	for (size_t i = 0; i < w->njobs; i++) {
		w->jobs[i].uid = uid[w->jobs[i].uid];
		w->jobs[i].account = acc[w->jobs[i].account];
	}
	rc = 0;
out:
	free(uid);
	free(acc);
	return rc;
}

/* qsort order of struct sim_uname by uid. */
static int _uname_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct sim_uname *) a)->uid;
	uint32_t y = ((const struct sim_uname *) b)->uid;

	return x < y ? -1 : x > y;
}

/* m: --procs, else the sum of the sizes of the partitions the replayed
 * jobs ran in (§17); w->partitions names them.  RET: 0, or -1 with a
 * message in err. */
static int _machine(struct sacct *st, const char *path, const sim_input_t *in,
		    sim_workload_t *w, char *err, size_t errlen)
{
	bool *used = calloc(st->parts.n + 1, sizeof(*used));
	size_t len = 1;
	uint64_t m = 0;

	if (!used) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (size_t i = 0; i < w->njobs; i++)
		used[st->part_of[i]] = true;
	for (size_t i = 0; i < st->parts.n; i++)
		len += used[i] ? strlen(st->parts.v[i]) + 1 : 0;
	if (!(w->partitions = calloc(1, len))) {
		free(used);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (size_t r = 0; r < st->parts.n; r++) {
		size_t i = st->parts.sorted[r];
		const sim_partition_t *pt;

		if (!used[i])
			continue;
		if (*w->partitions)
			strcat(w->partitions, ",");
		strcat(w->partitions, st->parts.v[i]);
		if (in->procs || !in->parts)
			continue;
		if (!(pt = sim_partition_find(in->parts, st->parts.v[i]))) {
			snprintf(err, errlen, "%s: partition '%.64s' is not "
				 "in the --partition-info file", path,
				 st->parts.v[i]);
			free(used);
			return -1;
		}
		m += pt->total;
	}
	free(used);
	if (in->procs)
		m = in->procs;
	if (!m || m > UINT32_MAX) {
		snprintf(err, errlen, m ? "%s: partitions above 4294967295 "
			 "CPUs: give --procs" : "%s: no machine size: give "
			 "--procs or --partition-info", path);
		return -1;
	}
	w->procs = (uint32_t) m;
	return 0;
}

/* Read the rows after the header into w (names as indexes).  RET: 0, or
 * -1 with a message in err. */
static int _rows(struct sacct *st, gzFile f, const char *path,
		 const sim_input_t *in, sim_workload_t *w, FILE *log,
		 char *err, size_t errlen)
{
	long lineno = 1, len;
	char *buf = NULL;
	size_t cap = 0, jcap = 0;
	int rc = 0;

	while (!rc && (len = sim_getline(f, &buf, &cap)) >= 0) {
		const char *why = NULL;
		long n, part;
		uint32_t *np;
		sim_job_t j;
		int r;

		lineno++;
		if (!len)
			continue;
		if ((why = sim_line_why(buf, len)))
			;
		else if ((n = _split(st, buf)) < 0)
			why = "out of memory";
		else if ((size_t) n != st->nfields)
			why = "not as many fields as the header";
		else if ((r = _left_out(st, in)) >= 0) {
			w->sacct_skipped[r]++;
			continue;
		} else if (!_row_job(st, in, &j, &part, &why)) {
			if (sim_workload_push(w, &jcap, &j) ||
			    !(np = ost_grow(st->part_of, &st->pcap, w->njobs,
					    sizeof(*np), 4096)))
				why = "out of memory";
			else
				(st->part_of = np)[w->njobs - 1] =
					(uint32_t) part;
		}
		if (why && !strcmp(why, "out of memory")) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -1;
		} else if (why) {
			w->skipped[SIM_SKIP_MALFORMED]++;
			if (log)
				fprintf(log, "%s:%ld: malformed line skipped: "
					"%s\n", path, lineno, why);
		}
	}
	free(buf);
	return rc;
}

int sim_sacct_read(gzFile f, const char *path, const sim_input_t *in,
		   sim_workload_t *w, FILE *log, char *err, size_t errlen)
{
	struct sacct st;
	char *buf = NULL;
	size_t cap = 0;
	const char *why = NULL;
	long len;
	int rc = -1;

	memset(&st, 0, sizeof(st));
	w->sacct = true;
	if ((len = sim_getline(f, &buf, &cap)) < 0 ||
	    (why = sim_line_why(buf, len)) || _header(&st, buf, &why)) {
		snprintf(err, errlen, "%s:1: %s", path,
			 why ? why : "empty file");
		goto out;
	}
	if (_rows(&st, f, path, in, w, log, err, errlen) ||
	    _machine(&st, path, in, w, err, errlen))
		goto out;
	if (_ids(&st, w, &why)) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	qsort(w->unames, w->nunames, sizeof(*w->unames), _uname_cmp);
	rc = sim_workload_finish(w, path, in->exact, err, errlen);
out:
	free(buf);
	free(st.f);
	free(st.part_of);
	_names_free(&st.users);
	_names_free(&st.accounts);
	_names_free(&st.parts);
	return rc;
}
