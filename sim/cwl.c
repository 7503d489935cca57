/*****************************************************************************\
 *  cwl.c - closed-loop campaign workload reader (doc/workload-format.md).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The file lists, per user, a sequence of campaigns; the simulator
 *  releases a user's campaign `think` seconds after the previous one
 *  completes in the simulation (the papers' model), so submit times are
 *  not in the file.  Lines:
 *
 *	%ostrich-campaigns 1
 *	procs M                      m (optional if --procs is given)
 *	gpus G                       G, the machine's GPUs (default 0)
 *	think T                      default think time (s; default 0)
 *	user UID [start T] [class NAME] [account A]
 *	campaign UID [think T]       opens UID's next campaign
 *	job PROCS RUNTIME [ESTIMATE] [gpus N]
 *	                             a job of the last opened campaign
 *
 *  '#' starts a comment.  Bad lines are skipped and counted as in SWF,
 *  with their line number on the log.  Numbers are within the core's
 *  ranges (ostrich.h): think times, runtimes and estimates in [0, 1e12] s,
 *  start times |T| <= 1e13 s, M a whole number in [1, 2^32-1], G and N
 *  whole numbers in [0, 2^32-1].
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "ost_grow.h"
#include "workload.h"

#define CWL_MAXTOK 8

struct cwl_state {
	sim_workload_t *w;
	size_t jcap, ccap;
	double think;             /* default think time */
	struct cwl_user {
		uint32_t count;   /* campaigns seen */
		double start;     /* first release */
		uint32_t last;    /* last campaign index, or UINT32_MAX */
		uint32_t account; /* its jobs' account (§21), 0: none */
	} *users;                 /* per uid (dense) */
	size_t nusers;            /* size of users */
	bool have_camp;
};

/* Split s in place into at most CWL_MAXTOK blank-separated tokens,
 * stopping at a '#'.  RET: the count, or -1 when there are more. */
static int _split(char *s, char **tok)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (*t == '#')
			break;
		if (n == CWL_MAXTOK)
			return -1;
		tok[n++] = t;
	}
	return n;
}

/* Parse a whole token as a finite number.  RET: 0 or -1. */
static int _num(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return (end == s || *end || !isfinite(*out)) ? -1 : 0;
}

/* Grow the per-uid array to hold uid.  RET: 0 or -1 (memory short). */
static int _user_slot(struct cwl_state *st, uint32_t uid)
{
	size_t n = st->nusers;
	struct cwl_user *u = ost_grow(st->users, &n, (size_t) uid + 1,
				      sizeof(*u), 16);

	if (!u)
		return -1;
	for (size_t i = st->nusers; i < n; i++)
		u[i] = (struct cwl_user) { .last = UINT32_MAX };
	st->users = u;
	st->nusers = n;
	return 0;
}

/* Parse a user id (an integer in [0, 10^6]: the per-user arrays are
 * dense).  RET: 0 or -1. */
static int _uid(const char *s, uint32_t *uid)
{
	double v;

	if (_num(s, &v) || v < 0 || v > 1e6 || v != floor(v))
		return -1;
	*uid = (uint32_t) v;
	return 0;
}

/* "campaign UID [think T]": open the user's next campaign.
 * RET: NULL, or a static reason the line is bad. */
static const char *_campaign(struct cwl_state *st, char **tok, int n)
{
	sim_workload_t *w = st->w;
	uint32_t uid;
	double think = st->think;

	if (n != 2 && !(n == 4 && !strcmp(tok[2], "think")))
		return "usage: campaign UID [think T]";
	if (_uid(tok[1], &uid))
		return "bad user id";
	if (n == 4 && (_num(tok[3], &think) || !ost_duration_ok(think)))
		return "bad think time (0 to 1e12 s)";
	if (_user_slot(st, uid))
		return "out of memory";
	sim_camp_t *c = ost_grow(w->camps, &st->ccap, w->ncamps + 1,
				 sizeof(*c), 256);
	if (!c)
		return "out of memory";
	w->camps = c;
	w->camps[w->ncamps++] = (sim_camp_t) {
		.uid = uid, .think = think, .first = w->njobs,
		.next = UINT32_MAX,
	};
	st->have_camp = true;
	return NULL;
}

/* A whole number in [0, 2^32-1] (a GPU count).  RET: 0 or -1. */
static int _count(const char *s, uint32_t *out)
{
	double v;

	if (_num(s, &v) || v < 0 || v > UINT32_MAX || v != floor(v))
		return -1;
	*out = (uint32_t) v;
	return 0;
}

/* "job PROCS RUNTIME [ESTIMATE] [gpus N]": add a job to the last
 * campaign, or count it as skipped.  RET: NULL, or a static reason the
 * line is bad. */
static const char *_job(struct cwl_state *st, char **tok, int n, bool exact)
{
	sim_workload_t *w = st->w;
	double q, p, e;
	uint32_t g = 0;

	if (n >= 5 && !strcmp(tok[n - 2], "gpus")) {
		if (_count(tok[n - 1], &g))
			return "bad GPU count (a whole number, 0 to "
			       "4294967295)";
		n -= 2;
	}
	if (n != 3 && n != 4)
		return "usage: job PROCS RUNTIME [ESTIMATE] [gpus N]";
	if (!st->have_camp)
		return "job before any campaign";
	if (_num(tok[1], &q) || _num(tok[2], &p) ||
	    (n == 4 && _num(tok[3], &e)))
		return "non-numeric field";
	if (p > OST_DURATION_MAX)
		return "runtime above 1e12 s";
	if (n == 4 && e > OST_DURATION_MAX)
		return "estimate above 1e12 s";
	if (n == 3 || e <= 0 || exact)
		e = p;
	if (q > 0x1p31)
		q = 0x1p31;         /* above any m: skipped as procs_above_m */
	if (p < 0) {
		w->skipped[SIM_SKIP_RUNTIME]++;
		return NULL;
	}
	if (q < 1) {
		w->skipped[SIM_SKIP_PROCS]++;
		return NULL;
	}
	sim_job_t *j = ost_grow(w->jobs, &st->jcap, w->njobs + 1, sizeof(*j),
				4096);
	if (!j)
		return "out of memory";
	w->jobs = j;
	sim_camp_t *c = &w->camps[w->ncamps - 1];
	w->jobs[w->njobs++] = (sim_job_t) {
		.number = w->njobs + 1, .uid = c->uid,
		.procs = (uint32_t) llround(q), .gpus = g, .runtime = p,
		.estimate = e, .camp_idx = (uint32_t) (w->ncamps - 1),
		.start = NAN, .end = NAN, .submit = NAN, .rec_start = NAN,
		.trace_submit = NAN,
	};
	c->njobs++;
	return NULL;
}

/* One line of the file.  RET: NULL, or a static reason it is bad. */
static const char *_line(struct cwl_state *st, char *buf, bool exact)
{
	char *tok[CWL_MAXTOK];
	int n = _split(buf, tok);
	double v;
	uint32_t uid;

	if (n < 0)
		return "too many fields";
	if (n == 0 || tok[0][0] == '%')
		return NULL;
	if (!strcmp(tok[0], "job"))
		return _job(st, tok, n, exact);
	if (!strcmp(tok[0], "campaign"))
		return _campaign(st, tok, n);
	if (!strcmp(tok[0], "procs")) {
		if (n != 2 || _num(tok[1], &v) || v < 1 || v > UINT32_MAX ||
		    v != floor(v))
			return "usage: procs M (a whole number, 1 to "
			       "4294967295)";
		st->w->procs = (uint32_t) v;
		return NULL;
	}
	if (!strcmp(tok[0], "gpus")) {
		if (n != 2 || _count(tok[1], &st->w->gpus))
			return "usage: gpus G (a whole number, 0 to "
			       "4294967295)";
		return NULL;
	}
	if (!strcmp(tok[0], "think")) {
		if (n != 2 || _num(tok[1], &v) || !ost_duration_ok(v))
			return "usage: think T (0 to 1e12 s)";
		st->think = v;
		return NULL;
	}
	if (!strcmp(tok[0], "user")) {
		static const char use[] = "usage: user UID [start T] "
					  "[class NAME] [account A]";

		if (n < 2 || _uid(tok[1], &uid) || _user_slot(st, uid))
			return use;
		for (int i = 2; i + 1 < n; i += 2) {
			if (!strcmp(tok[i], "start") && !_num(tok[i + 1], &v) &&
			    ost_time_ok(v))
				st->users[uid].start = v;
			else if (!strcmp(tok[i], "account") &&
				 !_num(tok[i + 1], &v) && v >= 0 &&
				 v < UINT32_MAX && v == floor(v))
				st->users[uid].account = (uint32_t) v;
			else if (strcmp(tok[i], "class"))
				return use;
		}
		return (n % 2) ? use : NULL;
	}
	return "unknown keyword";
}

/* Drop jobs above m CPUs or G GPUs and empty campaigns; number
 * campaigns per user and chain each to the user's next one. */
static void _cwl_finish(struct cwl_state *st, uint32_t m, uint32_t G)
{
	sim_workload_t *w = st->w;
	size_t jout = 0, cout = 0;

	for (size_t c = 0; c < w->ncamps; c++) {
		sim_camp_t cp = w->camps[c];
		size_t first = jout;

		for (size_t i = cp.first; i < cp.first + cp.njobs; i++) {
			if (w->jobs[i].procs > m) {
				w->skipped[SIM_SKIP_TOO_BIG]++;
				continue;
			}
			if (w->jobs[i].gpus > G) {
				w->skipped[SIM_SKIP_GPUS]++;
				continue;
			}
			w->jobs[jout] = w->jobs[i];
			w->jobs[jout].camp_idx = (uint32_t) cout;
			w->jobs[jout].number = jout + 1;
			jout++;
		}
		if (jout == first)
			continue;
		cp.first = first;
		cp.njobs = jout - first;
		struct cwl_user *u = &st->users[cp.uid];
		cp.seq = ++u->count;
		cp.start = u->start;
		if (u->last != UINT32_MAX)
			w->camps[u->last].next = (uint32_t) cout;
		u->last = (uint32_t) cout;
		w->camps[cout++] = cp;
	}
	for (size_t i = 0; i < jout; i++) {
		w->jobs[i].campaign = w->camps[w->jobs[i].camp_idx].seq;
		w->jobs[i].acct = st->users[w->jobs[i].uid].account;
	}
	w->njobs = jout;
	w->ncamps = cout;
}

int sim_cwl_read(gzFile f, const char *path, uint32_t procs, uint32_t gpus,
		 bool exact, sim_workload_t *w, FILE *log, char *err,
		 size_t errlen)
{
	struct cwl_state st = { .w = w };
	char *buf = NULL;
	size_t cap = 0;
	long lineno = 0, len;
	int rc = -1;

	w->closed = true;
	while ((len = sim_getline(f, &buf, &cap)) >= 0) {
		const char *why;

		lineno++;
		if ((why = sim_line_why(buf, len)) ||
		    (why = _line(&st, buf, exact))) {
			if (!strcmp(why, "out of memory")) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out_free;
			}
			w->skipped[SIM_SKIP_MALFORMED]++;
			if (log)
				fprintf(log, "%s:%ld: malformed line skipped: %s\n",
					path, lineno, why);
		}
	}
	if (procs)
		w->procs = procs;
	if (gpus != SIM_GPUS_FILE)
		w->gpus = gpus;
	if (!w->procs) {
		snprintf(err, errlen, "%s: no 'procs' line: give --procs", path);
		goto out_free;
	}
	_cwl_finish(&st, w->procs, w->gpus);
	if (!w->njobs) {
		snprintf(err, errlen, "%s: no usable job", path);
		goto out_free;
	}
	rc = 0;
out_free:
	free(buf);
	free(st.users);
	return rc;
}
