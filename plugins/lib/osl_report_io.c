/*****************************************************************************\
 *  osl_report_io.c - the campaign report file (StateSaveLocation/
 *  ostrich_report, §26) as text, both ways (osl_report.h):
 *
 *    ostrich-report 1
 *    report time=T
 *    camp part=P state=closed|open uid=N seq=N [user=U] [account=A] jobs=N
 *         release=T start=T end=T work=X span=T capacity=X vct=T vseen=0|1
 *    end
 *
 *  (a camp line is one line).  Fields "key=value", one space apart, in any
 *  order; keys a reader does not know are skipped, so that a later writer
 *  of format 1 may add some; a file of a newer format is refused.  Times
 *  are seconds since the epoch, %.17g (exact); an open campaign's start,
 *  end, span and vct may be nan or -inf (nothing yet), a closed one's
 *  vct nan (none known).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "osl_report.h"
#include "osl_text.h"

#define OSL_REPORT_MAGIC "ostrich-report "
#define T_MAX 1e13			/* |time| and amounts, seconds */

/* Is s a name the file may hold: 1..63 printable ASCII, no space, '=',
 * '"' or '\\' (as the usage snapshot's, so a Prometheus label as is). */
static bool _name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= OSL_REPORT_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '=' || s[i] == '"' ||
		    s[i] == '\\')
			return false;
	return true;
}

/* One record's line into t: a name the file may not hold is left out
 * (a reader takes the uid for the user), so that every file parses. */
static void _format_camp(osl_text_t *t, const osl_report_camp_t *c,
			 const char *part)
{
	osl_text_put(t, "camp part=%s state=%s uid=%"PRIu32" seq=%"PRIu32,
		     part, c->open ? "open" : "closed", c->uid, c->seq);
	if (_name_ok(c->user))
		osl_text_put(t, " user=%s", c->user);
	if (_name_ok(c->account))
		osl_text_put(t, " account=%s", c->account);
	osl_text_put(t, " jobs=%"PRIu32" release=%.17g start=%.17g end=%.17g work=%.17g span=%.17g capacity=%.17g vct=%.17g vseen=%d\n",
		     c->jobs, c->release, c->start, c->end, c->work, c->span,
		     c->capacity, c->vct, c->vseen ? 1 : 0);
}

extern char *osl_report_format(const osl_report_t *const *parts,
			       const char *const *names, int n, double now,
			       size_t *len)
{
	osl_text_t t = { .ok = true };
	int i, k;

	osl_text_put(&t, "%s%d\nreport time=%.17g\n", OSL_REPORT_MAGIC,
		     OSL_REPORT_FORMAT, now);
	for (i = 0; i < n; i++) {
		if (!_name_ok(names[i]))
			continue;	/* (Slurm's names are; as the snapshot) */
		for (k = 0; k < parts[i]->nring; k++)
			_format_camp(&t, osl_report_nth(parts[i], k),
				     names[i]);
		for (k = 0; k < parts[i]->nopen; k++)
			_format_camp(&t, &parts[i]->open[k], names[i]);
	}
	osl_text_put(&t, "end\n");
	if (!t.ok) {
		free(t.s);
		return NULL;
	}
	*len = t.len;
	return t.s;
}

/* ------------------------------------------------------------ parsing --- */

/* A double: finite within +-T_MAX, or (nan_ok) nan / -inf / inf. */
static const char *_num(const char *v, double *x, bool nan_ok)
{
	char *e;

	errno = 0;
	*x = strtod(v, &e);
	if (e == v || *e || errno == ERANGE)
		return "a malformed number";
	if (isfinite(*x) ? fabs(*x) > T_MAX : !nan_ok)
		return "a number out of range";
	return NULL;
}

static const char *_u32(const char *v, uint32_t *x)
{
	unsigned long long u;
	char *e;

	if (*v < '0' || *v > '9')
		return "a malformed integer";
	errno = 0;
	u = strtoull(v, &e, 10);
	if (*e || errno || u > UINT32_MAX)
		return "an integer malformed or out of range";
	*x = (uint32_t) u;
	return NULL;
}

/* The keys of a camp line; REQ: those every record has. */
enum { K_PART, K_STATE, K_UID, K_SEQ, K_USER, K_ACCOUNT, K_JOBS, K_RELEASE,
       K_START, K_END, K_WORK, K_SPAN, K_CAPACITY, K_VCT, K_VSEEN, K_N };
static const char *const keys[K_N] = {
	"part", "state", "uid", "seq", "user", "account", "jobs", "release",
	"start", "end", "work", "span", "capacity", "vct", "vseen"
};
#define REQ (((1u << K_N) - 1) & ~(1u << K_USER) & ~(1u << K_ACCOUNT))

/* One value v of key k into c.  RET why not */
static const char *_field(osl_report_camp_t *c, int k, const char *v)
{
	double *num[K_N] = {
		[K_RELEASE] = &c->release, [K_START] = &c->start,
		[K_END] = &c->end, [K_WORK] = &c->work, [K_SPAN] = &c->span,
		[K_CAPACITY] = &c->capacity, [K_VCT] = &c->vct };
	char *name[K_N] = { [K_PART] = c->part, [K_USER] = c->user,
			    [K_ACCOUNT] = c->account };

	if (name[k]) {
		if (!_name_ok(v))
			return "a bad name";
		strcpy(name[k], v);
		return NULL;
	}
	if (num[k])	/* nan or inf allowed here, checked by state below */
		return _num(v, num[k], true);
	switch (k) {
	case K_STATE:
		if (strcmp(v, "open") && strcmp(v, "closed"))
			return "a state neither open nor closed";
		c->open = !strcmp(v, "open");
		return NULL;
	case K_VSEEN:
		if ((v[0] != '0' && v[0] != '1') || v[1])
			return "a flag not 0 or 1";
		c->vseen = v[0] == '1';
		return NULL;
	case K_UID:
		return _u32(v, &c->uid);
	case K_SEQ:
		return _u32(v, &c->seq);
	default:
		return _u32(v, &c->jobs);
	}
}

/* What a record must satisfy: a closed one ran (finite times, work >= 0,
 * start and end not before its release, m > 0); an open one's amounts are
 * not negative.  RET why not */
static const char *_check(const osl_report_camp_t *c)
{
	if (!(c->work >= 0) || !isfinite(c->work))
		return "a negative or unusable work";
	if (c->open)
		return isnan(c->release) ? "an open campaign without release"
					 : NULL;
	if (!isfinite(c->release) || !isfinite(c->start) ||
	    !isfinite(c->end) || !isfinite(c->span) || !c->jobs)
		return "a closed campaign without its times or runs";
	if (!(c->capacity > 0) || !isfinite(c->capacity))
		return "a closed campaign without its capacity";
	if (c->end < c->release || c->start > c->end)
		return "a closed campaign that ends before it starts";
	return isinf(c->vct) ? "an infinite virtual completion" : NULL;
}

/* One camp line's fields l[0..n) into c.  RET why not */
static const char *_camp(osl_report_camp_t *c, const char *l, size_t n)
{
	char tok[256];
	unsigned seen = 0;
	size_t i = 0;
	const char *why;
	int k;

	while (i < n) {
		const char *v;

		if ((why = osl_text_field(l, n, &i, tok, sizeof(tok), &v)))
			return why;
		for (k = 0; k < K_N && strcmp(keys[k], tok); k++)
			;
		if (k == K_N)
			continue;		/* a later writer's key */
		if (seen & (1u << k))
			return "a field given twice";
		seen |= 1u << k;
		if ((why = _field(c, k, v)))
			return why;
	}
	if ((seen & REQ) != REQ)
		return "a field is missing";
	return _check(c);
}

/* Room for one more record in f, zeroed.  NULL: out of memory. */
static osl_report_camp_t *_add(osl_report_file_t *f)
{
	size_t cap = (size_t) f->cap;
	void *v;

	if (f->n == INT_MAX ||
	    !(v = ost_grow(f->v, &cap, (size_t) f->n + 1, sizeof(*f->v), 64)))
		return NULL;
	f->v = v;
	f->cap = cap > INT_MAX ? INT_MAX : (int) cap;
	return memset(&f->v[f->n++], 0, sizeof(*f->v));
}

/* Every line after the magic one.  RET NULL or why not, *lineno the line */
static const char *_lines(osl_report_file_t *f, const char *buf, size_t len,
			  int *lineno)
{
	const char *p = memchr(buf, '\n', len) + 1, *end = buf + len, *why;
	bool head = false;
	char tok[64];

	for (*lineno = 2; p < end; (*lineno)++) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n;
		osl_report_camp_t *c;

		if (!nl)
			return "a line without its end";
		n = (size_t) (nl - p);
		if (memchr(p, '\0', n))
			return "a NUL byte";
		if (n == 3 && !memcmp(p, "end", 3))
			return !head ? "no report line" :
			       nl + 1 == end ? NULL : "data after the end line";
		if (n > 12 && !memcmp(p, "report time=", 12) && !head) {
			if (n - 12 >= sizeof(tok))
				return "an overlong time";
			memcpy(tok, p + 12, n - 12);
			tok[n - 12] = '\0';
			if ((why = _num(tok, &f->time, false)))
				return why;
			head = true;
		} else if (n > 5 && !memcmp(p, "camp ", 5) && head) {
			if (!(c = _add(f)))
				return "out of memory";
			if ((why = _camp(c, p + 5, n - 5)))
				return why;
		} else {
			return head ? "an unknown record" :
				      "no report line first";
		}
		p = nl + 1;
	}
	return "no end line";
}

extern int osl_report_parse(osl_report_file_t *f, const char *buf, size_t len,
			    int *newer, char *err, size_t size)
{
	size_t m = sizeof(OSL_REPORT_MAGIC) - 1, i;
	const char *why;
	int lineno = 1;
	long v = 0;

	memset(f, 0, sizeof(*f));
	*newer = 0;
	for (i = m; i < len && i < m + 9 && buf[i] >= '0' && buf[i] <= '9';
	     i++)
		v = v * 10 + (buf[i] - '0');
	if (len <= m || memcmp(buf, OSL_REPORT_MAGIC, m) || i == m ||
	    i >= len || buf[i] != '\n' || v < 1) {
		snprintf(err, size, "line 1: not a campaign report");
		return -1;
	}
	if (v > OSL_REPORT_FORMAT) {
		*newer = (int) v;
		snprintf(err, size, "line 1: a campaign report of format %ld, newer than this reader's %d",
			 v, OSL_REPORT_FORMAT);
		return -1;
	}
	f->version = (int) v;
	if ((why = _lines(f, buf, len, &lineno))) {
		snprintf(err, size, "line %d: %s", lineno, why);
		osl_report_file_free(f);
		return -1;
	}
	return 0;
}

extern void osl_report_file_free(osl_report_file_t *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
