/*****************************************************************************\
 *  osl_usnap.c - the usage snapshot as text, both ways (osl_usnap.h):
 *
 *    ostrich-usage 2
 *    snapshot time=T
 *    part name=P unit=U capacity=X active_users=N campaigns=N pending=N
 *         since=T pass_seconds=X hold_seconds=X hold_max_seconds=X
 *    user name=U uid=N charged=X share=X active=0|1
 *    acct name=A parent=P share=X norm=X frac=X active=0|1
 *    leaf user=U uid=N account=A weight=X frac=X active=0|1
 *    bucket le=X count=N
 *    stretch sum=X count=N
 *    end
 *
 *  (a part line is one line; acct and leaf lines only in format 2, which
 *  is written only when there are some); user, acct, leaf, bucket and
 *  stretch lines belong to the part line above them, and every part ends
 *  with its stretch line.  Fields "key=value", one space apart, in any
 *  order; unknown keys are skipped.
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
#include "osl_text.h"
#include "osl_usnap.h"

#define OSL_USNAP_MAGIC "ostrich-usage "
#define T_MAX 1e13			/* |time|, seconds */

extern bool osl_usnap_name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n >= OSL_USNAP_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '=' || s[i] == '"' ||
		    s[i] == '\\')
			return false;
	return true;
}

/* Room for one more of size bytes in v (n used, cap allocated), zeroed
 * into *item.  RET the array (maybe moved), NULL: out of memory (v
 * untouched) */
static void *_add(void *v, int *n, int *cap, size_t size, void **item)
{
	if (*n == *cap) {
		size_t c = (size_t) *cap;
		void *nv;

		/* no more than an int counts, before v may move */
		if (ost_grow_cap(c, c + 1, 8) > INT_MAX ||
		    !(nv = ost_grow(v, &c, c + 1, size, 8)))
			return NULL;
		v = nv;
		*cap = (int) c;
	}
	*item = memset((char *) v + (size_t) (*n)++ * size, 0, size);
	return v;
}

/* fn: a new zeroed element at the end of owner's array arr (count n,
 * allocated cap), NULL when out of memory. */
#define ADDER(fn, T, O, arr, n, cap)					\
	extern T *fn(O *o)						\
	{								\
		void *item = NULL, *v = _add(o->arr, &o->n, &o->cap,	\
					     sizeof(*o->arr), &item);	\
									\
		return v ? (o->arr = v, item) : NULL;			\
	}

ADDER(osl_usnap_part_add, osl_usnap_part_t, osl_usnap_t, parts, nparts,
      cap_parts)
ADDER(osl_usnap_user_add, osl_usnap_user_t, osl_usnap_part_t, users, nusers,
      cap_users)
ADDER(osl_usnap_acct_add, osl_usnap_acct_t, osl_usnap_part_t, accts, naccts,
      cap_accts)
ADDER(osl_usnap_leaf_add, osl_usnap_leaf_t, osl_usnap_part_t, leaves,
      nleaves, cap_leaves)

extern void osl_usnap_part_free(osl_usnap_part_t *p)
{
	free(p->users);
	free(p->accts);
	free(p->leaves);
}

extern void osl_usnap_free(osl_usnap_t *s)
{
	int i;

	for (i = 0; i < s->nparts; i++)
		osl_usnap_part_free(&s->parts[i]);
	free(s->parts);
	memset(s, 0, sizeof(*s));
}

/* One partition's lines into t. */
static void _format_part(osl_text_t *t, const osl_usnap_part_t *p)
{
	int i;

	osl_text_put(t, "part name=%s unit=%s capacity=%.17g active_users=%"PRIu64" campaigns=%"PRIu64" pending=%"PRIu64" since=%.17g pass_seconds=%.17g hold_seconds=%.17g hold_max_seconds=%.17g\n",
		     p->name, p->unit, p->capacity, p->active_users,
		     p->campaigns, p->pending, p->since, p->pass_s, p->hold_s,
		     p->hold_max_s);
	for (i = 0; i < p->nusers; i++) {
		osl_text_put(t, "user name=%s uid=%"PRIu32" charged=%.17g share=%.17g",
			     p->users[i].name, p->users[i].uid,
			     p->users[i].charged, p->users[i].share);
		/* an older writer's line had no active=: printed as read */
		if (p->users[i].active != OSL_USNAP_UNKNOWN)
			osl_text_put(t, " active=%"PRIu32, p->users[i].active);
		osl_text_put(t, "\n");
	}
	for (i = 0; i < p->naccts; i++)
		osl_text_put(t, "acct name=%s parent=%s share=%.17g norm=%.17g frac=%.17g active=%"PRIu32"\n",
			     p->accts[i].name, p->accts[i].parent,
			     p->accts[i].share, p->accts[i].norm,
			     p->accts[i].frac, p->accts[i].active);
	for (i = 0; i < p->nleaves; i++)
		osl_text_put(t, "leaf user=%s uid=%"PRIu32" account=%s weight=%.17g frac=%.17g active=%"PRIu32"\n",
			     p->leaves[i].user, p->leaves[i].uid,
			     p->leaves[i].account, p->leaves[i].weight,
			     p->leaves[i].frac, p->leaves[i].active);
	for (i = 0; i < p->nb; i++)
		osl_text_put(t, "bucket le=%.17g count=%"PRIu64"\n", p->le[i],
			     p->count[i]);
	osl_text_put(t, "stretch sum=%.17g count=%"PRIu64"\n", p->sum,
		     p->total);
}

extern char *osl_usnap_format(const osl_usnap_t *s, size_t *len)
{
	osl_text_t t = { .ok = true };
	int i, version = 1;

	for (i = 0; i < s->nparts; i++)
		if (s->parts[i].naccts || s->parts[i].nleaves)
			version = OSL_USNAP_FORMAT;
	osl_text_put(&t, "%s%d\nsnapshot time=%.17g\n", OSL_USNAP_MAGIC,
		     version, s->time);
	for (i = 0; i < s->nparts; i++)
		_format_part(&t, &s->parts[i]);
	osl_text_put(&t, "end\n");
	if (!t.ok) {
		free(t.s);
		return NULL;
	}
	*len = t.len;
	return t.s;
}

/* ------------------------------------------------------------ parsing --- */

/* What a field holds and its range. */
typedef enum {
	F_NAME,				/* osl_usnap_name_ok */
	F_U32, F_U64,			/* decimal digits */
	F_NONNEG,			/* finite, >= 0 */
	F_SHARE,			/* [0, 1] */
	F_TIME,				/* finite, |t| <= T_MAX */
	F_LE,				/* > 0, or inf */
	F_BOOL,				/* 0 or 1, into a uint32_t */
} osl_ftype_t;

/* One field of a record: its key, type and place in the target; opt: a
 * later key that an older writer's file lacks. */
typedef struct {
	const char *key;
	osl_ftype_t type;
	size_t off;
	bool opt;
} osl_fdef_t;

#define FD(k, t, s, m) { k, t, offsetof(s, m), false }
#define FD_OPT(k, t, s, m) { k, t, offsetof(s, m), true }
static const osl_fdef_t f_snapshot[] = {
	{ "time", F_TIME, offsetof(osl_usnap_t, time), false }, { NULL, 0, 0, false } };
static const osl_fdef_t f_part[] = {
	FD("name", F_NAME, osl_usnap_part_t, name),
	FD("unit", F_NAME, osl_usnap_part_t, unit),
	FD("capacity", F_NONNEG, osl_usnap_part_t, capacity),
	FD("active_users", F_U64, osl_usnap_part_t, active_users),
	FD("campaigns", F_U64, osl_usnap_part_t, campaigns),
	FD("pending", F_U64, osl_usnap_part_t, pending),
	FD("since", F_TIME, osl_usnap_part_t, since),
	FD("pass_seconds", F_NONNEG, osl_usnap_part_t, pass_s),
	FD("hold_seconds", F_NONNEG, osl_usnap_part_t, hold_s),
	FD("hold_max_seconds", F_NONNEG, osl_usnap_part_t, hold_max_s),
	{ NULL, 0, 0, false } };
static const osl_fdef_t f_user[] = {
	FD("name", F_NAME, osl_usnap_user_t, name),
	FD("uid", F_U32, osl_usnap_user_t, uid),
	FD("charged", F_NONNEG, osl_usnap_user_t, charged),
	FD("share", F_SHARE, osl_usnap_user_t, share),
	FD_OPT("active", F_BOOL, osl_usnap_user_t, active),
	{ NULL, 0, 0, false } };

static const osl_fdef_t f_acct[] = {
	FD("name", F_NAME, osl_usnap_acct_t, name),
	FD("parent", F_NAME, osl_usnap_acct_t, parent),
	FD("share", F_NONNEG, osl_usnap_acct_t, share),
	FD("norm", F_SHARE, osl_usnap_acct_t, norm),
	FD("frac", F_SHARE, osl_usnap_acct_t, frac),
	FD("active", F_BOOL, osl_usnap_acct_t, active),
	{ NULL, 0, 0, false } };
static const osl_fdef_t f_leaf[] = {
	FD("user", F_NAME, osl_usnap_leaf_t, user),
	FD("uid", F_U32, osl_usnap_leaf_t, uid),
	FD("account", F_NAME, osl_usnap_leaf_t, account),
	FD("weight", F_NONNEG, osl_usnap_leaf_t, weight),
	FD("frac", F_SHARE, osl_usnap_leaf_t, frac),
	FD("active", F_BOOL, osl_usnap_leaf_t, active),
	{ NULL, 0, 0, false } };

/* A bucket or the stretch line, parsed into this. */
typedef struct {
	double le, sum;
	uint64_t count;
} osl_hrec_t;
static const osl_fdef_t f_bucket[] = {
	FD("le", F_LE, osl_hrec_t, le), FD("count", F_U64, osl_hrec_t, count),
	{ NULL, 0, 0, false } };
static const osl_fdef_t f_stretch[] = {
	FD("sum", F_NONNEG, osl_hrec_t, sum),
	FD("count", F_U64, osl_hrec_t, count), { NULL, 0, 0, false } };

/* Parse the value v (NUL-terminated) of type ty into dst.  RET why not */
static const char *_value(const char *v, osl_ftype_t ty, void *dst)
{
	char *e;
	double x;

	if (ty == F_NAME) {
		if (!osl_usnap_name_ok(v))
			return "a bad name";
		strcpy(dst, v);
		return NULL;
	}
	if (ty == F_BOOL) {
		if ((v[0] != '0' && v[0] != '1') || v[1])
			return "a flag not 0 or 1";
		*(uint32_t *) dst = (uint32_t) (v[0] - '0');
		return NULL;
	}
	if (ty == F_U32 || ty == F_U64) {
		unsigned long long u;

		if (*v < '0' || *v > '9')
			return "a malformed integer";
		errno = 0;
		u = strtoull(v, &e, 10);
		if (*e || errno || (ty == F_U32 && u > UINT32_MAX))
			return "an integer malformed or out of range";
		if (ty == F_U32)
			*(uint32_t *) dst = (uint32_t) u;
		else
			*(uint64_t *) dst = u;
		return NULL;
	}
	if (*v == '+' || !*v)
		return "a malformed number";
	x = strtod(v, &e);
	if (*e || isnan(x) || (ty != F_LE && !isfinite(x)) ||
	    (ty == F_NONNEG && x < 0) || (ty == F_SHARE && (x < 0 || x > 1)) ||
	    (ty == F_TIME && fabs(x) > T_MAX) || (ty == F_LE && !(x > 0)))
		return "a number malformed or out of range";
	*(double *) dst = x;
	return NULL;
}

/* The fields of line[0..n) (after the record name) into base by defs:
 * every field of defs once, unknown keys skipped.  RET why not */
static const char *_fields(const char *line, size_t n,
			   const osl_fdef_t *defs, void *base)
{
	char tok[256];
	const char *why;
	uint32_t seen = 0, all = 0;
	size_t i = 0, j;
	int d;

	for (d = 0; defs[d].key; d++)
		if (!defs[d].opt)
			all |= 1u << d;
	while (i < n) {
		const char *v;

		if ((why = osl_text_field(line, n, &i, tok, sizeof(tok), &v)))
			return why;
		for (j = 0; defs[j].key && strcmp(defs[j].key, tok); j++)
			;
		if (!defs[j].key)
			continue;		/* a later version's key */
		if (seen & (1u << j))
			return "a field given twice";
		seen |= 1u << j;
		if ((why = _value(v, defs[j].type,
				  (char *) base + defs[j].off)))
			return why;
	}
	return (seen & all) == all ? NULL : "a field is missing";
}

/* The parse under way. */
typedef struct {
	osl_usnap_t *s;
	int version;			/* of the file, 1 or 2 */
	bool snapshot;			/* the snapshot line was read */
	bool stretch;			/* the last part's stretch line was */
} osl_uparse_t;

/* A bucket line into p: increasing bounds, at most OSL_USNAP_NB_MAX. */
static const char *_bucket(osl_usnap_part_t *p, const osl_hrec_t *h)
{
	if (p->nb == OSL_USNAP_NB_MAX)
		return "too many buckets";
	if (p->nb && !(h->le > p->le[p->nb - 1]))
		return "buckets out of order";
	p->le[p->nb] = h->le;
	p->count[p->nb++] = h->count;
	return NULL;
}

/* The stretch line into p: its count is the buckets' sum. */
static const char *_stretch(osl_usnap_part_t *p, const osl_hrec_t *h)
{
	uint64_t c = 0;
	int i;

	for (i = 0; i < p->nb; i++) {
		if (p->count[i] > UINT64_MAX - c)
			return "bucket counts overflow";
		c += p->count[i];
	}
	if (c != h->count)
		return "the count is not the buckets' sum";
	p->sum = h->sum;
	p->total = h->count;
	return NULL;
}

/* One record line (without its newline).  RET why not */
static const char *_record(osl_uparse_t *ps, const char *l, size_t n)
{
	osl_usnap_part_t *p = ps->s->nparts ?
			      &ps->s->parts[ps->s->nparts - 1] : NULL;
	osl_usnap_user_t *u;
	osl_usnap_acct_t *a;
	osl_usnap_leaf_t *lf;
	osl_hrec_t h = { 0 };
	const char *why;

#define IS(w) (n > sizeof(w) - 1 && !memcmp(l, w, sizeof(w) - 1))
#define REST(w) l + sizeof(w) - 1, n - (sizeof(w) - 1)
	if (IS("snapshot ")) {
		if (ps->snapshot)
			return "a second snapshot line";
		ps->snapshot = true;
		return _fields(REST("snapshot "), f_snapshot, ps->s);
	}
	if (!ps->snapshot)
		return "no snapshot line first";
	if (IS("part ")) {
		if (p && !ps->stretch)
			return "a part without its stretch line";
		ps->stretch = false;
		if (!(p = osl_usnap_part_add(ps->s)))
			return "out of memory";
		return _fields(REST("part "), f_part, p);
	}
	if (!p)
		return "a record before any part";
	if (IS("user ")) {
		if (!(u = osl_usnap_user_add(p)))
			return "out of memory";
		u->active = OSL_USNAP_UNKNOWN;	/* an older writer's */
		return _fields(REST("user "), f_user, u);
	}
	if (IS("acct ") && ps->version >= 2) {
		if (!(a = osl_usnap_acct_add(p)))
			return "out of memory";
		return _fields(REST("acct "), f_acct, a);
	}
	if (IS("leaf ") && ps->version >= 2) {
		if (!(lf = osl_usnap_leaf_add(p)))
			return "out of memory";
		return _fields(REST("leaf "), f_leaf, lf);
	}
	if (IS("bucket ") && ps->stretch)
		return "a bucket after the stretch line";
	if (IS("bucket "))
		return (why = _fields(REST("bucket "), f_bucket, &h)) ? why :
		       _bucket(p, &h);
	if (IS("stretch ") && ps->stretch)
		return "a second stretch line";
	if (IS("stretch ") && (ps->stretch = true))
		return (why = _fields(REST("stretch "), f_stretch, &h)) ? why :
		       _stretch(p, &h);
	return "an unknown record";
#undef IS
#undef REST
}

/* Every line after the magic one.  RET NULL or why not, *lineno the line */
static const char *_lines(osl_uparse_t *ps, const char *buf, size_t len,
			  int *lineno)
{
	const char *p = memchr(buf, '\n', len) + 1, *end = buf + len, *why;

	for (*lineno = 2; p < end; (*lineno)++) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			return "a line without its end";
		if (memchr(p, '\0', nl - p))
			return "a NUL byte";
		if (nl - p == 3 && !memcmp(p, "end", 3) && ps->s->nparts &&
		    !ps->stretch)
			return "a part without its stretch line";
		if (nl - p == 3 && !memcmp(p, "end", 3))
			return nl + 1 == end ? NULL : "data after the end line";
		if ((why = _record(ps, p, nl - p)))
			return why;
		p = nl + 1;
	}
	return "no end line";
}

extern int osl_usnap_parse(osl_usnap_t *s, const char *buf, size_t len,
			   char *err, size_t size)
{
	size_t m = sizeof(OSL_USNAP_MAGIC) - 1;
	osl_uparse_t ps = { .s = s };
	const char *why;
	int lineno = 1;

	memset(s, 0, sizeof(*s));
	if (len <= m + 1 || memcmp(buf, OSL_USNAP_MAGIC, m) || buf[m] < '1' ||
	    buf[m] > '0' + OSL_USNAP_FORMAT || buf[m + 1] != '\n') {
		snprintf(err, size,
			 "line 1: not a usage snapshot of format 1 to %d",
			 OSL_USNAP_FORMAT);
		return -1;
	}
	ps.version = buf[m] - '0';
	if ((why = _lines(&ps, buf, len, &lineno))) {
		snprintf(err, size, "line %d: %s", lineno, why);
		osl_usnap_free(s);
		return -1;
	}
	return 0;
}
