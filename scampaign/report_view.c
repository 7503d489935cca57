/*****************************************************************************\
 *  report_view.c - scampaign --report's view of the campaign report
 *  (report_view.h, doc/semantics.md §26): filter, sums per group, table,
 *  JSON, metrics.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_view.h"
#include "sc_list.h"

static int _by_end(const void *a, const void *b)
{
	const osl_report_camp_t *x = a, *y = b;
	int c = strcmp(x->part, y->part);

	if (c)
		return c;
	return (x->end > y->end) - (x->end < y->end);
}

void sc_report_filter(osl_report_file_t *f, const sc_report_filter_t *flt)
{
	int i, k = 0;

	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *c = &f->v[i];

		if (c->open || c->end < flt->since)
			continue;
		if (flt->partitions &&
		    !sc_in_list(flt->partitions, c->part, ~0u))
			continue;
		if (flt->users && !sc_in_list(flt->users, c->user, c->uid))
			continue;
		if (flt->own_only && c->uid != flt->uid)
			continue;
		f->v[k] = *c;
		if (!f->v[k].user[0])	/* no name the file could hold */
			snprintf(f->v[k].user, sizeof(f->v[k].user), "%u",
				 (unsigned) c->uid);
		k++;
	}
	f->n = k;
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), _by_end);
}

/* Add x to a running (n, sum, max, above) of stretches. */
static void _add(double x, uint64_t *n, double *sum, double *max,
		 double *above)
{
	(*n)++;
	*sum += x;
	if (x > *max)
		*max = x;
	if (x > 20)
		(*above)++;
}

void sc_report_sum(const osl_report_file_t *f, const char *part,
		   const char *user, const char *account, sc_report_sum_t *s)
{
	double sum = 0, vsum = 0;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *c = &f->v[i];

		if ((part && strcmp(part, c->part)) ||
		    (user && strcmp(user, c->user)) ||
		    (account && strcmp(account, c->account)))
			continue;
		_add(osl_report_stretch(c), &s->n, &sum, &s->max,
		     &s->above20);
		if (!isnan(c->vct))
			_add(osl_report_vstretch(c), &s->vn, &vsum, &s->vmax,
			     &s->vabove20);
	}
	s->mean = s->n ? sum / s->n : NAN;
	s->above20 = s->n ? s->above20 / s->n : NAN;
	s->max = s->n ? s->max : NAN;
	s->vmean = s->vn ? vsum / s->vn : NAN;
	s->vabove20 = s->vn ? s->vabove20 / s->vn : NAN;
	s->vmax = s->vn ? s->vmax : NAN;
}

/* Which key a group is by. */
typedef enum { K_PART, K_USER, K_ACCOUNT } sc_key_t;

/* The distinct (partition, key) groups of f, in order of first
 * appearance: calls fn for each.  O(n^2) over at most a few thousand
 * campaigns per partition (the ring). */
typedef void (*sc_group_f)(FILE *fp, const osl_report_file_t *f,
			   const osl_report_camp_t *first, sc_key_t k,
			   int nth, void *arg);

static const char *_key(const osl_report_camp_t *c, sc_key_t k)
{
	return k == K_USER ? c->user : k == K_ACCOUNT ? c->account : "";
}

static void _groups(FILE *fp, const osl_report_file_t *f, sc_key_t k,
		    sc_group_f fn, void *arg)
{
	int i, j, nth = 0;

	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *c = &f->v[i];

		if (k == K_ACCOUNT && !c->account[0])
			continue;	/* no account known */
		for (j = 0; j < i; j++)
			if (!strcmp(f->v[j].part, c->part) &&
			    !strcmp(_key(&f->v[j], k), _key(c, k)))
				break;
		if (j == i)
			fn(fp, f, c, k, nth++, arg);
	}
}

static void _sum_of(const osl_report_file_t *f, const osl_report_camp_t *c,
		    sc_key_t k, sc_report_sum_t *s)
{
	sc_report_sum(f, c->part, k == K_USER ? c->user : NULL,
		      k == K_ACCOUNT ? c->account : NULL, s);
}

/* A number for the table: "-" when there is none. */
static const char *_num(char *buf, size_t size, double x, const char *fmt)
{
	if (isnan(x))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, fmt, x);
	return buf;
}

static void _row(FILE *fp, const osl_report_file_t *f,
		 const osl_report_camp_t *c, sc_key_t k, int nth, void *arg)
{
	sc_report_sum_t s;
	char b[6][32];

	(void) nth;
	(void) arg;
	_sum_of(f, c, k, &s);
	fprintf(fp, "%-10s %-8s %-12s %9"PRIu64" %8s %8s %6s %8s %8s %6s\n",
		c->part, k == K_PART ? "all" : k == K_USER ? "user" : "account",
		k == K_PART ? "-" : _key(c, k), s.n,
		_num(b[0], 32, s.mean, "%.2f"), _num(b[1], 32, s.max, "%.2f"),
		_num(b[2], 32, 100 * s.above20, "%.0f%%"),
		_num(b[3], 32, s.vmean, "%.2f"), _num(b[4], 32, s.vmax, "%.2f"),
		_num(b[5], 32, 100 * s.vabove20, "%.0f%%"));
}

/* t as 2026-11-21T23:10:05Z, "-" when not finite. */
static const char *_iso(char *buf, size_t size, double t)
{
	time_t tt = isfinite(t) ? (time_t) t : 0;	/* |t| <= 1e13 */
	struct tm tm;

	if (!isfinite(t) || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "-");
	return buf;
}

void sc_report_table(FILE *fp, const osl_report_file_t *f, bool campaigns,
		     bool noheader, bool own_only)
{
	char b[5][32];
	int i;

	if (!noheader)
		fprintf(fp, "%-10s %-8s %-12s %9s %8s %8s %6s %8s %8s %6s\n",
			"PARTITION", "BY", "NAME", "CAMPAIGNS", "MEAN", "MAX",
			">20", "V_MEAN", "V_MAX", "V>20");
	if (!own_only)
		_groups(fp, f, K_PART, _row, NULL);
	_groups(fp, f, K_USER, _row, NULL);
	if (!own_only)
		_groups(fp, f, K_ACCOUNT, _row, NULL);
	if (!campaigns)
		return;
	fprintf(fp, "\n");
	if (!noheader)
		fprintf(fp, "%-10s %-12s %-12s %5s %4s %-20s %-20s %-20s %8s %-20s %8s\n",
			"PARTITION", "USER", "ACCOUNT", "SEQ", "JOBS",
			"RELEASE", "START", "END", "STRETCH", "VIRTUAL_END",
			"V_STRETCH");
	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *c = &f->v[i];

		fprintf(fp, "%-10s %-12s %-12s %5"PRIu32" %4"PRIu32" %-20s %-20s %-20s %8.2f %-20s %8s%s\n",
			c->part, c->user, c->account[0] ? c->account : "-",
			c->seq, c->jobs, _iso(b[0], 32, c->release),
			_iso(b[1], 32, c->start), _iso(b[2], 32, c->end),
			osl_report_stretch(c), _iso(b[3], 32, c->vct),
			_num(b[4], 32, osl_report_vstretch(c), "%.2f"),
			isnan(c->vct) || c->vseen ? "" : " (projected)");
	}
}

/* A JSON number, null when not finite. */
static void _jnum(FILE *fp, const char *key, double x, bool comma)
{
	if (isfinite(x))
		fprintf(fp, "\"%s\":%.15g%s", key, x, comma ? "," : "");
	else
		fprintf(fp, "\"%s\":null%s", key, comma ? "," : "");
}

static void _jsum(FILE *fp, const sc_report_sum_t *s)
{
	fprintf(fp, "\"campaigns\":%"PRIu64",\"stretch\":{", s->n);
	_jnum(fp, "mean", s->mean, true);
	_jnum(fp, "max", s->max, true);
	_jnum(fp, "above20", s->above20, false);
	fprintf(fp, "},\"virtual\":{\"campaigns\":%"PRIu64",", s->vn);
	_jnum(fp, "mean", s->vmean, true);
	_jnum(fp, "max", s->vmax, true);
	_jnum(fp, "above20", s->vabove20, false);
	fprintf(fp, "}");
}

static void _jgroup(FILE *fp, const osl_report_file_t *f,
		    const osl_report_camp_t *c, sc_key_t k, int nth, void *arg)
{
	sc_report_sum_t s;

	(void) arg;
	_sum_of(f, c, k, &s);
	fprintf(fp, "%s{\"partition\":\"%s\",", nth ? "," : "", c->part);
	if (k == K_USER)
		fprintf(fp, "\"user\":\"%s\",\"uid\":%"PRIu32",", c->user,
			c->uid);
	else if (k == K_ACCOUNT)
		fprintf(fp, "\"account\":\"%s\",", c->account);
	_jsum(fp, &s);
	fprintf(fp, "}");
}

static void _jcamp(FILE *fp, const osl_report_camp_t *c, bool comma)
{
	fprintf(fp, "%s{\"partition\":\"%s\",\"user\":\"%s\",\"uid\":%"PRIu32",\"account\":\"%s\",\"seq\":%"PRIu32",\"jobs\":%"PRIu32",",
		comma ? "," : "", c->part, c->user, c->uid, c->account,
		c->seq, c->jobs);
	_jnum(fp, "release", c->release, true);
	_jnum(fp, "start", c->start, true);
	_jnum(fp, "end", c->end, true);
	_jnum(fp, "work", c->work, true);
	_jnum(fp, "capacity", c->capacity, true);
	_jnum(fp, "lower_bound", osl_report_lower_bound(c), true);
	_jnum(fp, "stretch", osl_report_stretch(c), true);
	_jnum(fp, "vct", c->vct, true);
	fprintf(fp, "\"vct_seen\":%s,", c->vseen ? "true" : "false");
	_jnum(fp, "vstretch", osl_report_vstretch(c), false);
	fprintf(fp, "}");
}

void sc_report_json(FILE *fp, const osl_report_file_t *f, double since,
		    bool own_only)
{
	int i;

	fprintf(fp, "{\"report\":{");
	_jnum(fp, "time", f->time, true);
	_jnum(fp, "since", since, true);
	fprintf(fp, "\"partitions\":[");
	if (!own_only)
		_groups(fp, f, K_PART, _jgroup, NULL);
	fprintf(fp, "],\"users\":[");
	_groups(fp, f, K_USER, _jgroup, NULL);
	fprintf(fp, "],\"accounts\":[");
	if (!own_only)
		_groups(fp, f, K_ACCOUNT, _jgroup, NULL);
	fprintf(fp, "],\"campaigns\":[");
	for (i = 0; i < f->n; i++)
		_jcamp(fp, &f->v[i], i > 0);
	fprintf(fp, "]}}\n");
}

/* The metric families: what of a sum each gives. */
static const struct {
	const char *name, *help;
} sc_mfam[] = {
	{ "campaigns", "Campaigns finished in the report (the last 4096 per partition)." },
	{ "stretch_mean", "Mean stretch (flow / lower bound) the site's scheduler delivered to the finished campaigns." },
	{ "stretch_max", "Largest stretch the site's scheduler delivered to a finished campaign." },
	{ "stretch_above20_ratio", "Share of finished campaigns with a stretch above 20." },
	{ "virtual_stretch_mean", "Mean stretch ostrich's virtual completion implies for the same campaigns." },
	{ "virtual_stretch_max", "Largest stretch ostrich's virtual completion implies for them." },
};
#define SC_NFAM (sizeof(sc_mfam) / sizeof(sc_mfam[0]))

static double _fam(const sc_report_sum_t *s, size_t m)
{
	switch (m) {
	case 0: return (double) s->n;
	case 1: return s->mean;
	case 2: return s->max;
	case 3: return s->above20;
	case 4: return s->vmean;
	default: return s->vmax;
	}
}

/* One family m of the groups by k. */
typedef struct {
	size_t m;
	const char *prefix;
} sc_mgroup_t;

static void _msample(FILE *fp, const osl_report_file_t *f,
		     const osl_report_camp_t *c, sc_key_t k, int nth,
		     void *arg)
{
	const sc_mgroup_t *g = arg;
	sc_report_sum_t s;
	double x;

	(void) nth;
	_sum_of(f, c, k, &s);
	if (isnan(x = _fam(&s, g->m)))
		return;		/* no virtual completion known: no sample */
	fprintf(fp, "%s_%s{partition=\"%s\"", g->prefix, sc_mfam[g->m].name,
		c->part);
	if (k != K_PART)
		fprintf(fp, ",%s=\"%s\"", k == K_USER ? "user" : "account",
			_key(c, k));
	fprintf(fp, "} %.15g\n", x);
}

void sc_report_metrics(FILE *fp, const osl_report_file_t *f, bool no_users,
		       bool own_only)
{
	static const char *const prefix[3] = {
		"ostrich_report", "ostrich_report_user", "ostrich_report_account"
	};
	int k;
	size_t m;

	for (k = K_PART; k <= K_ACCOUNT; k++) {
		if ((k != K_USER && own_only) || (k != K_PART && no_users))
			continue;
		for (m = 0; m < SC_NFAM; m++) {
			sc_mgroup_t g = { .m = m, .prefix = prefix[k] };

			fprintf(fp, "# HELP %s_%s %s%s\n# TYPE %s_%s gauge\n",
				prefix[k], sc_mfam[m].name, sc_mfam[m].help,
				k == K_USER ? " Per user." :
				k == K_ACCOUNT ? " Per account." : "",
				prefix[k], sc_mfam[m].name);
			_groups(fp, f, (sc_key_t) k, _msample, &g);
		}
	}
}

int sc_report_window(const char *text, double *seconds)
{
	static const char units[] = "smhdw";
	static const double mult[] = { 1, 60, 3600, 86400, 604800 };
	char *end;
	double x = strtod(text, &end);
	const char *u;

	if (end == text || !(x > 0) || !isfinite(x))
		return -1;
	if (!*end) {
		*seconds = x;
		return 0;
	}
	if (end[1] || !(u = strchr(units, *end)) || !*end)
		return -1;
	*seconds = x * mult[u - units];
	return 0;
}
