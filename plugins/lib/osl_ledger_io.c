/*****************************************************************************\
 *  osl_ledger_io.c - the usage ledger as text: the file ostrich_ledger.PART
 *  that osl_state.c writes with the engine state (doc/state-format.md,
 *  "The usage ledger").  Doubles in C99 hexadecimal, so that a reload
 *  charges exactly what was charged.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "osl.h"
#include "osl_text.h"

#define OSL_LEDGER_MAGIC "ostrich-ledger "

extern char *osl_ledger_save(const osl_usage_t *u, size_t *len)
{
	osl_text_t t = { .ok = true };
	int i, records = 1;

	osl_text_put(&t, "%s%d\nsince=%a clock=%a\n", OSL_LEDGER_MAGIC,
	     OSL_LEDGER_FORMAT, u->since, u->clock);
	for (i = 0; i < u->nusers; i++, records++)
		osl_text_put(&t, "user uid=%"PRIu32" charged=%a\n", u->users[i].uid,
		     u->users[i].charged);
	for (i = 0; i < u->nruns; i++, records++) {
		const osl_usage_run_t *r = &u->runs[i];

		osl_text_put(&t, "run key=%"PRIu64" uid=%"PRIu32" q=%"PRIu32" start=%"PRId64" run=%a cap=%a\n",
		     r->key, r->uid, r->q, r->start, r->run, r->cap);
	}
	for (i = 0; i < u->ndone; i++, records++)
		osl_text_put(&t, "done key=%"PRIu64" start=%"PRId64"\n", u->done[i].key,
		     u->done[i].start);
	osl_text_put(&t, "end records=%d\n", records);
	if (!t.ok) {
		free(t.s);
		return NULL;
	}
	*len = t.len;
	return t.s;
}

/* ------------------------------------------------------------ loading --- */

/* The line being parsed: fields "key=value" separated by one space. */
typedef struct {
	const char *p, *end;		/* what is left of the line */
	const char *why;		/* the first error, NULL: none */
} osl_lp_t;

/* The value of the next field, which must be called key; NULL on error. */
static const char *_field(osl_lp_t *lp, const char *key, size_t *vlen)
{
	size_t k = strlen(key);
	const char *v, *sp;

	if (lp->why)
		return NULL;
	if ((size_t) (lp->end - lp->p) <= k || memcmp(lp->p, key, k) ||
	    lp->p[k] != '=') {
		lp->why = "a field is missing or out of order";
		return NULL;
	}
	v = lp->p + k + 1;
	sp = memchr(v, ' ', lp->end - v);
	*vlen = (sp ? sp : lp->end) - v;
	lp->p = sp ? sp + 1 : lp->end;
	if (!*vlen)
		lp->why = "an empty value";
	return lp->why ? NULL : v;
}

/* The value of field key into buf (NUL-terminated), if it begins as a
 * decimal integer does (a digit, or '-' when sign).  RET false, with
 * lp->why */
static bool _digits(osl_lp_t *lp, const char *key, bool sign, char *buf,
		    size_t size)
{
	size_t n;
	const char *v = _field(lp, key, &n);

	if (!v)
		return false;
	if (n >= size || !((v[0] >= '0' && v[0] <= '9') ||
			   (sign && v[0] == '-'))) {
		lp->why = "a malformed integer";
		return false;
	}
	memcpy(buf, v, n);
	buf[n] = '\0';
	errno = 0;
	return true;
}

/* An unsigned decimal of at most max. */
static uint64_t _uint(osl_lp_t *lp, const char *key, uint64_t max)
{
	char buf[32], *e;
	unsigned long long x;

	if (!_digits(lp, key, false, buf, sizeof(buf)))
		return 0;
	x = strtoull(buf, &e, 10);
	if (*e || errno || x > max)
		lp->why = "an integer malformed or out of range";
	return x;
}

/* A signed decimal time, |t| <= 10^13. */
static int64_t _time(osl_lp_t *lp, const char *key)
{
	char buf[32], *e;
	long long x;

	if (!_digits(lp, key, true, buf, sizeof(buf)))
		return 0;
	x = strtoll(buf, &e, 10);
	if (*e || errno || x > 10000000000000LL || x < -10000000000000LL)
		lp->why = "a time malformed or out of range";
	return x;
}

/* A double in [lo, hi] (inf allowed when hi is), strtod's syntax. */
static double _real(osl_lp_t *lp, const char *key, double lo, double hi)
{
	char buf[64], *e;
	size_t n;
	const char *v = _field(lp, key, &n);
	double x;

	if (!v)
		return 0;
	if (n >= sizeof(buf) || v[0] == ' ' || v[0] == '+') {
		lp->why = "a malformed number";
		return 0;
	}
	memcpy(buf, v, n);
	buf[n] = '\0';
	x = strtod(buf, &e);
	if (*e || isnan(x) || x < lo || x > hi)
		lp->why = "a number malformed or out of range";
	return x;
}

#define OSL_T_MAX 1e13			/* |time| in seconds */
#define OSL_W_MAX 1e300			/* width x seconds */

/* A user line (after "user ") into u. */
static void _user(osl_lp_t *lp, osl_usage_t *u)
{
	osl_usage_user_t x = { .uid = (uint32_t) _uint(lp, "uid", UINT32_MAX) };

	x.charged = _real(lp, "charged", 0, OSL_W_MAX);
	if (lp->why)
		return;
	u->users = osl_grow(u->users, &u->cap_users, u->nusers + 1,
			    sizeof(x), 16);
	u->users[u->nusers++] = x;
}

/* A run line (after "run ") into u. */
static void _run(osl_lp_t *lp, osl_usage_t *u)
{
	osl_usage_run_t *r;

	u->runs = osl_grow(u->runs, &u->cap_runs, u->nruns + 1, sizeof(*r), 16);
	r = &u->runs[u->nruns];
	r->key = _uint(lp, "key", UINT64_MAX);
	r->uid = (uint32_t) _uint(lp, "uid", UINT32_MAX);
	r->q = (uint32_t) _uint(lp, "q", UINT32_MAX);
	r->start = _time(lp, "start");
	r->run = _real(lp, "run", 0, OSL_T_MAX);
	r->cap = _real(lp, "cap", 0, INFINITY);
	u->nruns += !lp->why;
}

/* A done line (after "done ") into u. */
static void _done(osl_lp_t *lp, osl_usage_t *u)
{
	osl_usage_done_t *d;

	u->done = osl_grow(u->done, &u->cap_done, u->ndone + 1, sizeof(*d), 16);
	d = &u->done[u->ndone];
	d->key = _uint(lp, "key", UINT64_MAX);
	d->start = _time(lp, "start");
	u->ndone += !lp->why;
}

/* Is the last record of each kind after the one before it (uid, key,
 * (key, start) strictly increasing)? */
static bool _in_order(const osl_usage_t *u)
{
	const osl_usage_done_t *d = u->done + u->ndone;

	return (u->nusers < 2 ||
		u->users[u->nusers - 2].uid < u->users[u->nusers - 1].uid) &&
	       (u->nruns < 2 ||
		u->runs[u->nruns - 2].key < u->runs[u->nruns - 1].key) &&
	       (u->ndone < 2 || d[-2].key < d[-1].key ||
		(d[-2].key == d[-1].key && d[-2].start < d[-1].start));
}

/* One record line into u; false with lp->why on error. */
static bool _record(osl_lp_t *lp, osl_usage_t *u)
{
	if (!strncmp(lp->p, "user ", 5) && (lp->p += 5))
		_user(lp, u);
	else if (!strncmp(lp->p, "run ", 4) && (lp->p += 4))
		_run(lp, u);
	else if (!strncmp(lp->p, "done ", 5) && (lp->p += 5))
		_done(lp, u);
	else
		lp->why = "an unknown record";
	if (!lp->why && !_in_order(u))
		lp->why = "records out of order";
	if (!lp->why && lp->p != lp->end)
		lp->why = "trailing fields";
	return !lp->why;
}

/* Every line after the magic one into u.  RET NULL, or why not. */
static const char *_lines(osl_usage_t *u, const char *buf, size_t len,
			  int *lineno)
{
	const char *p = memchr(buf, '\n', len) + 1, *end = buf + len;
	int records = 0;

	for (*lineno = 2; p < end; (*lineno)++) {
		const char *nl = memchr(p, '\n', end - p);
		osl_lp_t lp = { .p = p, .end = nl };

		if (!nl)
			return "a line without its end";
		if (memchr(p, '\0', nl - p))
			return "a NUL byte";
		if (*lineno == 2) {
			u->since = _real(&lp, "since", -OSL_T_MAX, OSL_T_MAX);
			u->clock = _real(&lp, "clock", -OSL_T_MAX, OSL_T_MAX);
			if (!lp.why && lp.p != lp.end)
				lp.why = "trailing fields";
		} else if (!strncmp(p, "end ", 4)) {
			lp.p += 4;
			if ((int) _uint(&lp, "records", INT32_MAX) != records &&
			    !lp.why)
				lp.why = "the record count is wrong";
			if (!lp.why && (lp.p != lp.end || nl + 1 != end))
				lp.why = "data after the end line";
			return lp.why;
		} else {
			(void) _record(&lp, u);
		}
		if (lp.why)
			return lp.why;
		records++;
		p = nl + 1;
	}
	return "no end line";
}

extern long osl_ledger_load(osl_usage_t *u, const char *buf, size_t len,
			    char *err, size_t size)
{
	osl_usage_t nu;
	long v = osl_magic_version(buf, len, OSL_LEDGER_MAGIC);
	const char *why;
	int lineno = 1;

	if (v < 0 || v > OSL_LEDGER_FORMAT || v < 1) {
		snprintf(err, size, v > OSL_LEDGER_FORMAT ?
			 "line 1: format version %ld is newer than %d" :
			 "line 1: not a usage ledger", v, OSL_LEDGER_FORMAT);
		return v > OSL_LEDGER_FORMAT ? v : -1;
	}
	osl_usage_init(&nu, 0);
	if ((why = _lines(&nu, buf, len, &lineno))) {
		snprintf(err, size, "line %d: %s", lineno, why);
		osl_usage_free(&nu);
		return -1;
	}
	osl_usage_free(u);
	*u = nu;
	return 0;
}
