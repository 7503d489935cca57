/*****************************************************************************\
 *  osl_ledger_io.c - the usage ledger as text: the file ostrich_ledger.PART
 *  that osl_save.c writes with the engine state (doc/state-format.md,
 *  "The usage ledger").  Doubles in C99 hexadecimal, so that a reload
 *  charges exactly what was charged.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_aside.h"
#include "osl_text.h"
#include "osl_usage.h"
#include "osl_vec.h"

#define OSL_LEDGER_MAGIC "ostrich-ledger "

extern char *osl_ledger_save(const osl_usage_t *u, size_t *len)
{
	osl_text_t t = { .ok = true };
	int i, records = 1;

	*len = 0;
	if (u->unread)		/* its file may be intact: never over it */
		return NULL;
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

/* What a load found damaged (doc/state-format.md, salvage). */
typedef struct {
	int dropped;			/* record lines not loaded */
	int first;			/* the first of them, line number */
	const char *why;		/* and its reason */
	int dropped_users;		/* of them, user lines */
	int records;			/* record lines seen (kept or not) */
	const char *end;		/* the end line's fault, NULL: none */
	bool lost;			/* lines may be missing (no end line,
					 * a count above the lines, a damaged
					 * end line) */
	bool head;			/* line 2 (since, clock) unusable */
	bool order;			/* records out of order */
	int dups;			/* duplicates dropped */
} osl_salv_t;

/* Line lineno, a record line, was not loaded, for why. */
static void _drop(osl_salv_t *sv, int lineno, const char *why, bool user)
{
	if (!sv->dropped++) {
		sv->first = lineno;
		sv->why = why;
	}
	sv->dropped_users += user;
}

/* Does [p, end) begin with word?  (A line may lack its newline: never
 * read past end.) */
static bool _starts(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t) (end - p) >= n && !memcmp(p, word, n);
}

/* One record line into u; false with lp->why on error (u unchanged). */
static bool _record(osl_lp_t *lp, osl_usage_t *u)
{
	int nu = u->nusers, nr = u->nruns, nd = u->ndone;

	if (_starts(lp->p, lp->end, "user ") && (lp->p += 5))
		_user(lp, u);
	else if (_starts(lp->p, lp->end, "run ") && (lp->p += 4))
		_run(lp, u);
	else if (_starts(lp->p, lp->end, "done ") && (lp->p += 5))
		_done(lp, u);
	else
		lp->why = "an unknown record";
	if (!lp->why && lp->p != lp->end)
		lp->why = "trailing fields";
	if (lp->why) {			/* the line goes whole */
		u->nusers = nu;
		u->nruns = nr;
		u->ndone = nd;
	}
	return !lp->why;
}

static int _user_cmp(const void *a, const void *b)
{
	const osl_usage_user_t *x = a, *y = b;

	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->charged > y->charged) - (x->charged < y->charged);
}

static int _run_cmp(const void *a, const void *b)
{
	const osl_usage_run_t *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->run < y->run) - (x->run > y->run);	/* largest first */
}

static int _done_cmp(const void *a, const void *b)
{
	const osl_usage_done_t *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->start > y->start) - (x->start < y->start);
}

/*
 * Sort u's records and drop duplicates, never charging more than the
 * file did: a user twice keeps its smaller total, a run twice its larger
 * charge (so no time is charged again).  A saved file is sorted and has
 * none: finding any is damage.
 */
static void _sort(osl_usage_t *u, osl_salv_t *sv)
{
	int i, m;

#define OSL_SORT(v, n, cmp, same) do {					\
	for (i = 1; i < (n) && cmp(&(v)[i - 1], &(v)[i]) < 0; i++)	\
		;							\
	if (i < (n)) {							\
		sv->order = true;					\
		qsort((v), (n), sizeof(*(v)), cmp);			\
	}								\
	for (i = 0, m = 0; i < (n); i++)				\
		if (!m || !(same))					\
			(v)[m++] = (v)[i];				\
	sv->dups += (n) - m;						\
	(n) = m;							\
} while (0)
	OSL_SORT(u->users, u->nusers, _user_cmp,
		 u->users[m - 1].uid == u->users[i].uid);
	OSL_SORT(u->runs, u->nruns, _run_cmp,
		 u->runs[m - 1].key == u->runs[i].key);
	OSL_SORT(u->done, u->ndone, _done_cmp,
		 !_done_cmp(&u->done[m - 1], &u->done[i]));
#undef OSL_SORT
	if (sv->dups)
		sv->order = true;
}

/* The end line (after "end ") against the records seen. */
static void _end(osl_lp_t *lp, osl_salv_t *sv, bool last)
{
	int n = (int) _uint(lp, "records", INT32_MAX);

	sv->lost = lp->why || n > sv->records;
	if (lp->why)
		sv->end = "the end line is damaged";
	else if (lp->p != lp->end)
		sv->end = "the end line has trailing fields";
	else if (n != sv->records)
		sv->end = n > sv->records ?
			  "the record count is above the lines (lines lost)" :
			  "the record count is wrong";
	else if (!last)
		sv->end = "data after the end line";
}

/*
 * Every line after the magic one into u, salvaging: a line is kept when
 * it is whole (ends with its newline, no NUL) and parses on its own; any
 * other is dropped and counted in sv.  Lines after the end line are
 * dropped.
 */
static void _lines(osl_usage_t *u, const char *buf, size_t len,
		   osl_salv_t *sv)
{
	const char *p = memchr(buf, '\n', len) + 1, *end = buf + len;
	bool ended = false;
	int lineno;

	for (lineno = 2; p < end; lineno++) {
		const char *nl = memchr(p, '\n', end - p);
		osl_lp_t lp = { .p = p, .end = nl ? nl : end };

		if (!nl)
			lp.why = "a line without its end";
		else if (memchr(p, '\0', nl - p))
			lp.why = "a NUL byte";
		if (lineno == 2) {
			double since, clock;

			since = _real(&lp, "since", -OSL_T_MAX, OSL_T_MAX);
			clock = _real(&lp, "clock", -OSL_T_MAX, OSL_T_MAX);
			if (!lp.why && lp.p != lp.end)
				lp.why = "trailing fields";
			sv->records++;	/* counted by the end line */
			if (lp.why) {
				sv->head = true;
			} else {
				u->since = since;
				u->clock = clock;
			}
		} else if (ended) {
			_drop(sv, lineno, "data after the end line",
			      false);
		} else if (!lp.why && _starts(p, lp.end, "end ")) {
			lp.p += 4;
			ended = true;
			_end(&lp, sv, nl + 1 == end);
		} else {
			sv->records++;
			if (lp.why || !_record(&lp, u))
				_drop(sv, lineno, lp.why,
				      _starts(p, lp.end, "user "));
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!ended) {
		sv->end = "no end line";
		sv->lost = true;
	}
	_sort(u, sv);
}

/* What sv says was wrong, and what was kept, into err. */
static void _salvage_msg(const osl_usage_t *u, const osl_salv_t *sv,
			 char *err, size_t size)
{
	size_t n = 0;

#define OSL_PUT(...) do {						\
	if (n < size)							\
		n += snprintf(err + n, size - n, __VA_ARGS__);		\
} while (0)
	if (sv->head)
		OSL_PUT("line 2 (since, clock) unusable, the ledger begins now; ");
	if (sv->dropped)
		OSL_PUT("%d record lines dropped (%d of users), the first line %d: %s; ",
			sv->dropped, sv->dropped_users, sv->first, sv->why);
	if (sv->end)
		OSL_PUT("%s; ", sv->end);
	if (sv->order)
		OSL_PUT("records out of order or repeated, sorted, %d duplicates dropped; ",
			sv->dups);
	OSL_PUT("kept %d users, %d runs, %d done runs", u->nusers, u->nruns,
		u->ndone);
#undef OSL_PUT
}

extern long osl_ledger_load(osl_usage_t *u, const char *buf, size_t len,
			    char *err, size_t size)
{
	osl_usage_t nu;
	osl_salv_t sv = { 0 };
	long v = osl_magic_version(buf, len, OSL_LEDGER_MAGIC);

	if (v < 0 || v > OSL_LEDGER_FORMAT || v < 1) {
		snprintf(err, size, v > OSL_LEDGER_FORMAT ?
			 "line 1: format version %ld is newer than %d" :
			 "line 1: not a usage ledger", v, OSL_LEDGER_FORMAT);
		return v > OSL_LEDGER_FORMAT ? v : -1;
	}
	/* since, clock: u's own (the caller's now) unless line 2 says */
	osl_usage_init(&nu, u->since);
	_lines(&nu, buf, len, &sv);
	if (sv.head || sv.dropped || sv.end || sv.order) {
		/*
		 * A run or done line that may be lost (any line dropped but
		 * a user's, or lines missing): such a run, unknown now,
		 * would be charged again from its start.  It was charged up
		 * to the ledger's last pass: runs unknown are charged from
		 * there on (since = clock), never twice.
		 */
		if ((sv.dropped > sv.dropped_users || sv.lost) &&
		    nu.clock > nu.since)
			nu.since = nu.clock;
		_salvage_msg(&nu, &sv, err, size);
		v = OSL_LEDGER_SALVAGED;
	} else {
		v = 0;
	}
	osl_usage_free(u);
	*u = nu;
	return v;
}

extern long osl_ledger_take(osl_usage_t *u, const char *buf, size_t len,
			    int err_no, char *err, size_t size)
{
	if (!buf && err_no != ENOENT) {
		/* not known to be missing: the file may be intact, and a
		 * save would replace it with what this ledger has */
		snprintf(err, size, "%s", strerror(err_no));
		u->unread = true;
		return OSL_LEDGER_UNREAD;
	}
	u->unread = false;
	if (!buf) {
		snprintf(err, size, "%s", strerror(err_no));
		return OSL_LEDGER_MISSING;
	}
	return osl_ledger_load(u, buf, len, err, size);
}
