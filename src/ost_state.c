/*****************************************************************************\
 *  ost_state.c - save and load the engine state (doc/state-format.md)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A line-oriented text format: what cannot be derived (configuration,
 *  clock, v, users, campaigns' floors and lengths, jobs), doubles in C99
 *  hexadecimal so they round-trip bit for bit, records in a canonical order
 *  (uid, seq, job id) so equal states give equal bytes, and a closing line
 *  with the record count and the CRC-32 of everything before it.  Derived
 *  state (tags, deadlines, W, the order) is rebuilt by the same code that
 *  maintains it live.
 *
 *  Version 2 (written only when version 1 cannot hold the state: the nested
 *  schedule of §21) adds the accounts and the values of the nested
 *  schedule that are history rather than a function of the records: each
 *  node's v_n, the heaps of active children in their array order (sums
 *  over them round in that order), W_n, an account's F_n, and a
 *  campaign's projected key and gate (§21's keys keep the instant they
 *  were reached).  Version 3 (written only when a job's nice was
 *  lowered) adds each job's lowered= and the clock's (§22: which
 *  lowering came last, and the last number given).
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "ost_internal.h"

#define OST_STATE_MAGIC "ostrich-state"
#define OST_STATE_VERSION 3	/* the newest this code reads and writes */
#define OST_TIE_LEAF(u) ((uint32_t)((u)->tie >> 32))	/* acct idx of a
							 * -A leaf, else 0 */

/* CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320), bitwise: the state is
 * saved once per pass, so a table buys nothing worth its lines. */
static uint32_t _crc32(const char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= (unsigned char)p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

/* ---------------------------------------------------------------- save --- */

typedef struct {
	char *buf;
	size_t len, cap;
	bool failed;
	const ost_alloc_t *a;	/* where buf comes from */
} _out_t;

static void *_heap_resize(void *p, size_t old, size_t size, void *arg)
{
	(void)old;
	(void)arg;
	return realloc(p, size);
}

static void _heap_release(void *p, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	free(p);
}

/* ost_sched_save()'s: malloc's heap */
static const ost_alloc_t _heap = { _heap_resize, _heap_release, NULL };

static void _printf(_out_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = true;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		size_t cap = 2 * o->cap + (size_t)n + 1;
		char *b = o->a->resize(o->buf, o->cap, cap, o->a->arg);

		if (!b) {
			o->failed = true;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
}

static int _cmp_user(const void *a, const void *b)
{
	const ost_user_t *x = *(ost_user_t *const *)a;
	const ost_user_t *y = *(ost_user_t *const *)b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

static int _cmp_job(const void *a, const void *b)
{
	const ost_job_t *x = *(ost_job_t *const *)a;
	const ost_job_t *y = *(ost_job_t *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Collect the values of map m into a new sorted array of m->count + 1
 * pointers from a (NULL: memory). */
static void **_sorted(const ost_map_t *m, const ost_alloc_t *a,
		      int (*cmp)(const void *, const void *))
{
	void **v = a->resize(NULL, 0, (m->count + 1) * sizeof(*v), a->arg);
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; m->slots && i <= m->mask; i++)
		if (m->slots[i].key)
			v[n++] = m->slots[i].val;
	qsort(v, n, sizeof(*v), cmp);
	return v;
}

/* The record (uid, leaf) of a user: leaf is its account's id for a -A
 * leaf (§21), 0 for the uid's own record. */
static uint32_t _leaf_id(const ost_user_t *u)
{
	return OST_TIE_LEAF(u) ? u->acct_id : 0;
}

static void _save_campaign(_out_t *o, const ost_campaign_t *c, int version)
{
	size_t i;

	_printf(o, "campaign uid=%u ", c->user->uid);
	if (version >= 2)
		_printf(o, "leaf=%u ", _leaf_id(c->user));
	_printf(o, "seq=%u t_c=%a area=%a area_est=%a phi=%a "
		"len=%a last_end=%a max_e_done=%a k=%u done=%u groups=",
		c->seq, c->t_c, c->area, c->area_est, c->phi,
		c->len, c->last_end, c->max_e_done, c->k, c->n_done);
	for (i = 0; i < c->n_groups; i++)
		_printf(o, "%s%llu", i ? "," : "",
			(unsigned long long)c->groups[i]);
	_printf(o, "%s", c->n_groups ? "" : "-");
	if (version >= 2)	/* §21: the key as projected, the gate */
		_printf(o, " key=%a kfrom=%a gate=%a", c->key, c->kfrom,
			ost_hnode_linked(&c->gate.node) ? c->gate.key : NAN);
	_printf(o, "\n");
}

/* A user record and its campaigns; RET the number of lines. */
static size_t _save_user(_out_t *o, const ost_user_t *u, int version)
{
	const ost_campaign_t *c;
	size_t n = 1;

	if (version < 2)
		_printf(o, "user uid=%u weight=%a ", u->uid, u->weight);
	else if (!OST_TIE_LEAF(u))
		_printf(o, "user uid=%u account=%u weight=%a ", u->uid,
			u->acct_id, u->weight);
	else
		_printf(o, "leaf uid=%u account=%u ", u->uid, u->acct_id);
	_printf(o, "base_vfinish=%a base_deadline=%a last_seq=%u\n",
		u->base_vfinish, u->base_deadline, u->last_seq);
	for (c = u->first; c; c = c->next, n++)
		_save_campaign(o, c, version);
	return n;
}

/* " active=" and the ties of heap h in its array order, or "-". */
static void _save_active(_out_t *o, const ost_heap_t *h)
{
	size_t i;

	_printf(o, " active=");
	for (i = 0; i < h->n; i++)
		_printf(o, "%s%llu", i ? "," : "",
			(unsigned long long)OST_HKEY(h->v[i])->tie);
	_printf(o, "%s\n", h->n ? "" : "-");
}

/* The root's and every account's line (version 2), accounts by index (a
 * parent before its children), counted in *lines.  RET 0, or -1 when
 * memory is short. */
static int _save_accts(_out_t *o, const ost_sched_t *s,
		       const ost_alloc_t *al, size_t *lines)
{
	size_t n = s->n_accts, i;
	ost_acct_t **v = al->resize(NULL, 0, (n + 1) * sizeof(*v), al->arg);
	ost_acct_t *a;

	if (!v)
		return -1;
	for (a = s->acct_list; a; a = a->next)
		v[a->idx - 1] = a;
	_printf(o, "root weight=%a", s->total_weight);
	_save_active(o, &s->active);
	for (i = 0; i < n; i++) {
		a = v[i];
		_printf(o, "account id=%u parent=%u share=%a vtime=%a "
			"psync=%a wsum=%a f=%a", a->id,
			a->parent ? a->parent->id : 0, a->share, a->vtime,
			a->psync, a->wsum,
			ost_hnode_linked(&a->hk.node) ? a->hk.key : -INFINITY);
		_save_active(o, &a->active);
	}
	al->release(v, (n + 1) * sizeof(*v), al->arg);
	*lines += n + 1;
	return 0;
}

/* The oldest version that holds s: 3 for a job whose nice was lowered
 * (§22), 2 for the nested schedule (§21) or a job with a nice (§22). */
static int _version(const ost_sched_t *s)
{
	if (s->n_lowered)
		return 3;
	return ost_sched_nested(s) || s->n_nice ? 2 : 1;
}

static void _release_sorted(const ost_alloc_t *a, void *v,
			    const ost_map_t *m)
{
	if (v)
		a->release(v, (m->count + 1) * sizeof(void *), a->arg);
}

int ost_sched_save_with(const ost_sched_t *s, const ost_alloc_t *a,
			char **buf, size_t *len, size_t *cap)
{
	_out_t o = { .cap = 4096, .a = a };
	ost_user_t **users = (ost_user_t **)_sorted(&s->users, a, _cmp_user);
	ost_job_t **jobs = (ost_job_t **)_sorted(&s->jobs, a, _cmp_job);
	const ost_config_t *g = &s->cfg;
	int version = _version(s);
	size_t i, records = 0;

	/* §21: keys stay as projected by the last settle; a deferred one is
	 * what the next event would derive first (ost_campaign.c) */
	ost_campaign_settle(s);
	o.buf = a->resize(NULL, 0, o.cap, a->arg);
	if (!users || !jobs || !o.buf)
		goto out_nomem;
	_printf(&o, "%s %d\n", OST_STATE_MAGIC, version);
	_printf(&o, "config procs=%u mode=%s think_time=%a capacity=%s "
		"gate=%s intra=%s faircamp_users=%u default_weight=%a",
		g->procs, ost_mode_name(g->mode), g->think_time,
		ost_capacity_name(g->capacity), ost_gate_name(g->gate),
		ost_intra_name(g->intra), g->faircamp_users,
		g->default_weight);
	if (version >= 2)
		_printf(&o, " hierarchy=%s", ost_hier_name(g->hierarchy));
	_printf(&o, "\nclock now=%a vtime=%a", s->now, s->vtime);
	if (version >= 3)
		_printf(&o, " lowered=%u", s->lowered_seq);
	_printf(&o, "\n");
	records = 2;
	if (version >= 2) {
		if (_save_accts(&o, s, a, &records))
			goto out_nomem;
	}
	/* users by uid, each followed by its -A leaves in its list's order
	 * (the order weights are set in, §21) */
	for (i = 0; i < s->users.count; i++) {
		const ost_user_t *u = users[i], *l;

		if (OST_TIE_LEAF(u))
			continue;
		for (l = u; l; l = l->next_leaf)
			records += _save_user(&o, l, version);
	}
	for (i = 0; i < s->jobs.count; i++, records++) {
		const ost_job_t *j = jobs[i];

		_printf(&o, "job id=%llu uid=%u ", (unsigned long long)j->id,
			j->camp->user->uid);
		if (version >= 2)
			_printf(&o, "leaf=%u ", _leaf_id(j->camp->user));
		_printf(&o, "campaign=%u procs=%u estimate=%a submit=%a "
			"start=%a state=%s", j->camp->seq, j->procs,
			j->estimate, j->submit, ost_job_started(j),
			j->state == OST_JOB_PENDING ? "pending" : "running");
		if (version >= 2)
			_printf(&o, " nice=%d", (int)j->nice);
		if (version >= 3)
			_printf(&o, " lowered=%u", j->lowered);
		_printf(&o, "\n");
	}
	if (o.failed)
		goto out_nomem;
	_printf(&o, "end records=%zu crc32=%08x\n", records,
		(unsigned)_crc32(o.buf, o.len));
	if (o.failed)
		goto out_nomem;
	_release_sorted(a, users, &s->users);
	_release_sorted(a, jobs, &s->jobs);
	*buf = o.buf;
	*len = o.len;
	*cap = o.cap;
	return 0;
out_nomem:
	_release_sorted(a, users, &s->users);
	_release_sorted(a, jobs, &s->jobs);
	if (o.buf)
		a->release(o.buf, o.cap, a->arg);
	return -OST_ENOMEM;
}

int ost_sched_save(const ost_sched_t *s, char **buf, size_t *len)
{
	size_t cap;

	return ost_sched_save_with(s, &_heap, buf, len, &cap);
}

/* ---------------------------------------------------------------- load --- */

/* What version 2 says of a node of V (§21) beyond what re-deriving
 * gives: index 0 the root, i account index i. */
typedef struct {
	char *active;		/* its children's ties (in the text) */
	double f, wsum, psync;
	unsigned lineno;
} _nest_t;

/* A campaign's key as projected and its gate (version 2). */
typedef struct {
	ost_campaign_t *c;
	double key, kfrom, gate;
	unsigned lineno;
} _ckey_t;

typedef struct {
	char *line;		/* current line, NUL-terminated, mutable */
	char *cur;		/* parse position in line */
	unsigned lineno;
	char *err;
	size_t errlen;
	int version;
	_nest_t *nest;		/* version 2: root, then accounts */
	size_t n_nest;
	_ckey_t *ck;		/* version 2: every campaign */
	size_t n_ck, cap_ck;
} _in_t;

static int _fail(_in_t *in, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (in->errlen) {
		n = snprintf(in->err, in->errlen, "line %u: ", in->lineno);
		if (n < 0 || (size_t)n >= in->errlen)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(in->err + n, in->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -OST_ECORRUPT;
}

/* Next token "key=value" of the line; *val points into the line. */
static int _field(_in_t *in, const char *key, char **val)
{
	size_t kl = strlen(key);
	char *p = in->cur, *end;

	while (*p == ' ')
		p++;
	end = p + strcspn(p, " ");
	if ((size_t)(end - p) <= kl || strncmp(p, key, kl) || p[kl] != '=')
		return _fail(in, "expected %s=", key);
	if (*end)
		*end++ = '\0';
	*val = p + kl + 1;
	in->cur = end;
	return 0;
}

/* What a number field may hold (doc/state-format.md, "Ranges"). */
enum _range {
	R_TIME,		/* an event time (ost_time_ok) */
	R_TIME_NONE,	/* an event time, or -inf for "none" */
	R_DURATION,	/* a duration (ost_duration_ok) */
	R_DUR_NONE,	/* a duration, or -inf for "none" */
	R_VIRT,		/* virtual time or length: finite, >= 0 */
	R_VIRT_NONE,	/* virtual time, or -inf for "none" */
	R_FINITE,	/* any finite number */
	R_FIN_NONE,	/* any finite number, or -inf for "none" */
	R_WEIGHT,	/* a weight (ost_weight_ok) */
	R_NAN,		/* "nan" (a pending job's start) */
	R_FIN_NAN,	/* any finite number, -inf, or nan for "none" */
};

static bool _in_range(double x, enum _range r)
{
	switch (r) {
	case R_TIME_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_TIME:
		return ost_time_ok(x);
	case R_DUR_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_DURATION:
		return ost_duration_ok(x);
	case R_VIRT_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_VIRT:
		return isfinite(x) && x >= 0.0;
	case R_FIN_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_FINITE:
		return isfinite(x);
	case R_WEIGHT:
		return ost_weight_ok(x);
	case R_FIN_NAN:
		return isnan(x) || x == -INFINITY || isfinite(x);
	case R_NAN:
		return isnan(x);
	}
	return false;
}

/* The value v of key: a number as %a writes it, the whole token, no blank
 * or '+' first, in range r. */
static int _number(_in_t *in, const char *key, const char *v, double *out,
		   enum _range r)
{
	char *end;

	*out = strtod(v, &end);
	if (end == v || *end || *v == '+' || isspace((unsigned char)*v) ||
	    !_in_range(*out, r))
		return _fail(in, "bad or out-of-range number %s=%s", key, v);
	return 0;
}

static int _get_double(_in_t *in, const char *key, double *out,
		       enum _range r)
{
	char *v;
	int rc;

	if ((rc = _field(in, key, &v)))
		return rc;
	return _number(in, key, v, out, r);
}

/* A decimal integer: digits only, at most max. */
static int _get_u64(_in_t *in, const char *key, uint64_t *out, uint64_t max)
{
	char *v, *end;
	unsigned long long x;
	int rc;

	if ((rc = _field(in, key, &v)))
		return rc;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (end == v || *end || !isdigit((unsigned char)*v) || errno ||
	    x > max)
		return _fail(in, "bad integer %s=%s", key, v);
	*out = x;
	return 0;
}

/* A decimal 32-bit signed integer: an optional '-', then digits. */
static int _get_i32(_in_t *in, const char *key, int32_t *out)
{
	char *v, *end;
	long long x;
	int rc;

	if ((rc = _field(in, key, &v)))
		return rc;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (end == v || *end || !isdigit((unsigned char)v[*v == '-']) ||
	    errno || x < INT32_MIN || x > INT32_MAX)
		return _fail(in, "bad integer %s=%s", key, v);
	*out = (int32_t)x;
	return 0;
}

static int _get_u32(_in_t *in, const char *key, uint32_t *out)
{
	uint64_t x;
	int rc = _get_u64(in, key, &x, UINT32_MAX);

	if (!rc)
		*out = (uint32_t)x;
	return rc;
}

static int _get_name(_in_t *in, const char *key, int (*parse)(const char *,
							      void *),
		     void *out)
{
	char *v;
	int rc;

	if ((rc = _field(in, key, &v)))
		return rc;
	if (parse(v, out))
		return _fail(in, "bad value %s=%s", key, v);
	return 0;
}

static int _line_end(_in_t *in)
{
	while (*in->cur == ' ')
		in->cur++;
	return *in->cur ? _fail(in, "trailing data '%s'", in->cur) : 0;
}

typedef int (*_parse_f)(const char *, void *);

static int _load_config(_in_t *in, ost_config_t *g)
{
	const char *why;
	int rc;

	ost_config_init(g);
	if ((rc = _get_u32(in, "procs", &g->procs)) ||
	    (rc = _get_name(in, "mode", (_parse_f)ost_mode_parse, &g->mode)) ||
	    (rc = _get_double(in, "think_time", &g->think_time,
			      R_DURATION)) ||
	    (rc = _get_name(in, "capacity", (_parse_f)ost_capacity_parse,
			    &g->capacity)) ||
	    (rc = _get_name(in, "gate", (_parse_f)ost_gate_parse, &g->gate)) ||
	    (rc = _get_name(in, "intra", (_parse_f)ost_intra_parse,
			    &g->intra)) ||
	    (rc = _get_u32(in, "faircamp_users", &g->faircamp_users)) ||
	    (rc = _get_double(in, "default_weight", &g->default_weight,
			      R_WEIGHT)) ||
	    (in->version >= 2 &&
	     (rc = _get_name(in, "hierarchy", (_parse_f)ost_hier_parse,
			     &g->hierarchy))) ||
	    (rc = _line_end(in)))
		return rc;
	if (ost_config_check(g, &why))
		return _fail(in, "bad configuration: %s", why);
	return 0;
}

/* The fields a user's record and a -A leaf's share, from base_vfinish. */
static int _load_user_tail(_in_t *in, ost_user_t *u)
{
	int rc;

	if ((rc = _get_double(in, "base_vfinish", &u->base_vfinish,
			      R_VIRT_NONE)) ||
	    (rc = _get_double(in, "base_deadline", &u->base_deadline,
			      R_FIN_NONE)) ||
	    (rc = _get_u32(in, "last_seq", &u->last_seq)))
		return rc;
	return _line_end(in);
}

static int _load_user(_in_t *in, ost_sched_t *s)
{
	uint32_t uid, acct = 0;
	ost_user_t *u;
	double w;
	int rc;

	if ((rc = _get_u32(in, "uid", &uid)) ||
	    (in->version >= 2 && (rc = _get_u32(in, "account", &acct))) ||
	    (rc = _get_double(in, "weight", &w, R_WEIGHT)))
		return rc;
	if (ost_user_get(s, uid, false))
		return _fail(in, "duplicate user %u", uid);
	if (!(u = ost_user_get(s, uid, true)))
		return -OST_ENOMEM;
	u->weight = w;
	if ((rc = ost_acct_attach(s, u, acct)))
		return rc == -OST_EINVAL
			       ? _fail(in, "user %u in unknown account %u",
				       uid, acct)
			       : rc;
	return _load_user_tail(in, u);
}

/* A -A leaf (§21): after its uid's own record, which gives its weight. */
static int _load_leaf(_in_t *in, ost_sched_t *s)
{
	uint32_t uid, acct;
	ost_user_t *u, *l;
	int rc;

	if ((rc = _get_u32(in, "uid", &uid)) ||
	    (rc = _get_u32(in, "account", &acct)))
		return rc;
	if (!(u = ost_user_get(s, uid, false)))
		return _fail(in, "leaf of unknown user %u", uid);
	if ((rc = ost_leaf_add(s, u, acct, &l)))
		return rc == -OST_ENOMEM
			       ? rc
			       : _fail(in, "bad or duplicate leaf %u/%u", uid,
				       acct);
	return _load_user_tail(in, l);
}

/* The record (uid, leaf) (leaf: 0 for the uid's own), or NULL. */
static ost_user_t *_find_user(const ost_sched_t *s, uint32_t uid,
			      uint32_t leaf)
{
	ost_user_t *u = ost_user_get((ost_sched_t *)s, uid, false);

	if (leaf)
		for (u = u ? u->next_leaf : NULL; u; u = u->next_leaf)
			if (u->acct_id == leaf)
				break;
	return u;
}

/* A user's uid and, in version 2, its leaf= field: its record. */
static int _get_user(_in_t *in, const ost_sched_t *s, uint32_t *uid,
		     uint32_t *leaf, ost_user_t **u)
{
	int rc;

	*leaf = 0;
	if ((rc = _get_u32(in, "uid", uid)) ||
	    (in->version >= 2 && (rc = _get_u32(in, "leaf", leaf))))
		return rc;
	*u = _find_user(s, *uid, *leaf);
	return 0;
}

/* The root's line (version 2): W and its active children. */
static int _load_root(_in_t *in)
{
	_nest_t *n = calloc(1, sizeof(*n));
	int rc;

	if (!n)
		return -OST_ENOMEM;
	in->nest = n;
	in->n_nest = 1;
	n->lineno = in->lineno;
	if ((rc = _get_double(in, "weight", &n->wsum, R_FINITE)) ||
	    (rc = _field(in, "active", &n->active)))
		return rc;
	return _line_end(in);
}

/* An account (version 2), declared again with its index. */
static int _load_account(_in_t *in, ost_sched_t *s)
{
	uint32_t id, parent;
	double share, vt;
	ost_acct_t *a;
	_nest_t *n;
	int rc;

	if ((rc = _get_u32(in, "id", &id)) ||
	    (rc = _get_u32(in, "parent", &parent)) ||
	    (rc = _get_double(in, "share", &share, R_WEIGHT)) ||
	    (rc = _get_double(in, "vtime", &vt, R_VIRT)))
		return rc;
	if (!id || ost_map_get(&s->accts, id) ||
	    (parent && !ost_map_get(&s->accts, parent)))
		return _fail(in, "account %u duplicate or under unknown %u",
			     id, parent);
	n = realloc(in->nest, (in->n_nest + 1) * sizeof(*n));
	if (!n)
		return -OST_ENOMEM;
	in->nest = n;
	n += in->n_nest;
	if ((rc = ost_acct_declare(s, id, parent, share, 0.0)))
		return rc;
	in->n_nest++;
	a = ost_map_get(&s->accts, id);
	a->vtime = vt;
	n->lineno = in->lineno;
	if ((rc = _get_double(in, "psync", &n->psync, R_VIRT)) ||
	    (rc = _get_double(in, "wsum", &n->wsum, R_FINITE)) ||
	    (rc = _get_double(in, "f", &n->f, R_FIN_NONE)) ||
	    (rc = _field(in, "active", &n->active)))
		return rc;
	return _line_end(in);
}

static int _load_groups(_in_t *in, ost_sched_t *s, ost_campaign_t *c)
{
	char *v, *p, *end;
	int rc;

	if ((rc = _field(in, "groups", &v)))
		return rc;
	if (!strcmp(v, "-"))
		return 0;
	for (p = v; *p; p = end + (*end == ',')) {
		unsigned long long g;

		errno = 0;
		g = strtoull(p, &end, 10);
		if (end == p || errno || !g || !isdigit((unsigned char)*p) ||
		    (*end && *end != ','))
			return _fail(in, "bad groups=%s", v);
		if (ost_map_get(&s->groups, g))
			return _fail(in, "group %llu mapped twice", g);
		if (ost_campaign_add_group(s, c, g))
			return -OST_ENOMEM;
	}
	return 0;
}

/* Version 2: the campaign's key as projected and its gate, kept aside
 * until the records are derived (_restore). */
static int _load_ckey(_in_t *in, ost_campaign_t *c)
{
	_ckey_t *k;
	int rc;

	if (!(k = ost_grow(in->ck, &in->cap_ck, in->n_ck + 1, sizeof(*k), 16)))
		return -OST_ENOMEM;
	in->ck = k;
	k = &in->ck[in->n_ck++];
	k->c = c;
	k->lineno = in->lineno;
	if ((rc = _get_double(in, "key", &k->key, R_FIN_NONE)) ||
	    (rc = _get_double(in, "kfrom", &k->kfrom, R_FIN_NAN)) ||
	    (rc = _get_double(in, "gate", &k->gate, R_FIN_NAN)))
		return rc;
	return 0;
}

static int _load_campaign(_in_t *in, ost_sched_t *s)
{
	uint32_t uid, seq, leaf;
	ost_user_t *u = NULL;
	ost_campaign_t *c;
	int rc;

	if ((rc = _get_user(in, s, &uid, &leaf, &u)) ||
	    (rc = _get_u32(in, "seq", &seq)))
		return rc;
	if (!u)
		return _fail(in, "campaign of unknown user %u/%u", uid, leaf);
	if (!seq || (u->last && seq <= u->last->seq) || seq > u->last_seq)
		return _fail(in, "campaign %u/%u out of sequence", uid, seq);
	if (!(c = ost_campaign_new(s, u, seq)))
		return -OST_ENOMEM;
	if ((rc = _get_double(in, "t_c", &c->t_c, R_TIME)) ||
	    (rc = _get_double(in, "area", &c->area, R_FINITE)) ||
	    (rc = _get_double(in, "area_est", &c->area_est, R_VIRT)) ||
	    (rc = _get_double(in, "phi", &c->phi, R_VIRT_NONE)) ||
	    (rc = _get_double(in, "len", &c->len, R_VIRT)) ||
	    (rc = _get_double(in, "last_end", &c->last_end, R_TIME_NONE)) ||
	    (rc = _get_double(in, "max_e_done", &c->max_e_done,
			      R_DUR_NONE)) ||
	    (rc = _get_u32(in, "k", &c->k)) ||
	    (rc = _get_u32(in, "done", &c->n_done)) ||
	    (rc = _load_groups(in, s, c)) ||
	    (in->version >= 2 && (rc = _load_ckey(in, c))))
		return rc;
	c->vrel = c->phi;	/* §24's inputs are not saved (Lead=keep) */
	return _line_end(in);
}

static ost_campaign_t *_find_campaign(const ost_user_t *u, uint32_t seq)
{
	ost_campaign_t *c;

	for (c = u ? u->last : NULL; c; c = c->prev)
		if (c->seq == seq)
			return c;
	return NULL;
}

static int _load_job(_in_t *in, ost_sched_t *s)
{
	uint64_t id;
	uint32_t uid, seq, leaf;
	ost_user_t *u = NULL;
	ost_job_t *j;
	ost_campaign_t *c;
	char *state, *v;
	bool running;
	double start;
	int rc;

	if ((rc = _get_u64(in, "id", &id, UINT64_MAX)) ||
	    (rc = _get_user(in, s, &uid, &leaf, &u)) ||
	    (rc = _get_u32(in, "campaign", &seq)))
		return rc;
	if (!id || ost_map_get(&s->jobs, id))
		return _fail(in, "job id %llu zero or duplicate",
			     (unsigned long long)id);
	if (!(c = _find_campaign(u, seq)))
		return _fail(in, "job of unknown campaign %u/%u/%u", uid, leaf,
			     seq);
	if (ost_map_reserve(&s->jobs) || !(j = ost_job_alloc(s)))
		return -OST_ENOMEM;
	j->id = id;
	j->camp = c;
	(void)ost_map_put(&s->jobs, id, j);
	j->next = c->jobs;
	if (c->jobs)
		c->jobs->prev = j;
	c->jobs = j;
	if (!c->user->unfinished++)
		s->n_busy_users++;
	if ((rc = _get_u32(in, "procs", &j->procs)) ||
	    (rc = _get_double(in, "estimate", &j->estimate, R_DURATION)) ||
	    (rc = _get_double(in, "submit", &j->submit, R_TIME)))
		return rc;
	if (!j->procs)
		return _fail(in, "bad job size procs=0");
	j->e_full = j->estimate;	/* §12: no further steps */
	/* The state decides what start may hold: read it after. */
	if ((rc = _field(in, "start", &v)) || (rc = _field(in, "state", &state)))
		return rc;
	if (strcmp(state, "pending") && strcmp(state, "running"))
		return _fail(in, "bad state=%s", state);
	running = !strcmp(state, "running");
	if ((rc = _number(in, "start", v, &start,
			  running ? R_TIME : R_NAN)))
		return rc;
	if (in->version >= 2) {		/* §22, before the pending tree
					 * (its order reads them) */
		int32_t nice = 0;
		uint32_t lowered = 0;

		if ((rc = _get_i32(in, "nice", &nice)) ||
		    (in->version >= 3 &&
		     (rc = _get_u32(in, "lowered", &lowered))))
			return rc;
		if (lowered > s->lowered_seq)
			return _fail(in, "lowered=%u after the clock's %u",
				     lowered, s->lowered_seq);
		if (nice || lowered)
			ost_chain_track(s, j, nice, lowered);
	}
	if (!running) {
		j->state = OST_JOB_PENDING;	/* start: NAN (ost_job_t) */
		ost_tree_insert(&c->pending, &j->node, 1);
		c->n_pending++;
		s->n_pending++;
		c->area_pend += (double)j->procs * j->estimate;
	} else {
		/* the running half of j's storage (ost_job_t) */
		ost_hnode_init(&j->step.node);
		j->start = start;
		j->state = OST_JOB_RUNNING;
		c->n_running++;
		s->n_running++;
		s->busy += j->procs;
	}
	return _line_end(in);
}

/* The closing line: record count and CRC of everything before it. */
static int _load_end(_in_t *in, const char *orig, const char *text,
		     size_t records)
{
	uint64_t n, crc;
	char *v, *end;
	int rc;

	if ((rc = _get_u64(in, "records", &n, SIZE_MAX)) ||
	    (rc = _field(in, "crc32", &v)))
		return rc;
	crc = strtoull(v, &end, 16);
	if (end == v || *end || strlen(v) != 8 ||
	    strspn(v, "0123456789abcdef") != 8)
		return _fail(in, "bad crc32=%s", v);
	if (n != records)
		return _fail(in, "%zu records, end line says %llu", records,
			     (unsigned long long)n);
	if (crc != _crc32(orig, (size_t)(in->line - text)))
		return _fail(in, "checksum mismatch (file damaged)");
	return _line_end(in);
}

/* Derived state: tags, deadlines, W, the order, from the loaded records. */
static void _derive(ost_sched_t *s)
{
	size_t i;

	for (i = 0; s->users.slots && i <= s->users.mask; i++) {
		ost_user_t *u = s->users.slots[i].val;
		ost_campaign_t *c;

		if (!s->users.slots[i].key)
			continue;
		for (c = u->first; c; c = c->next)
			ost_campaign_rescan_max_e(c);
		if (u->first)
			ost_campaign_rederive(s, u->first);
	}
}

/* The child of node a (NULL: the root) whose heap tie is tie, or NULL. */
static ost_hkey_t *_child(ost_sched_t *s, ost_acct_t **by_idx,
			  const ost_acct_t *a, uint64_t tie)
{
	if (tie & OST_TIE_ACCT) {
		uint64_t i = tie & ~OST_TIE_ACCT;
		ost_acct_t *k = i && i <= s->n_accts ? by_idx[i - 1] : NULL;

		return k && k->parent == a ? &k->hk : NULL;
	} else {
		uint64_t key = (tie & UINT32_MAX) + 1 + ((tie >> 32) << 33);
		ost_user_t *u = ost_map_get(&s->users, key);

		return u && u->acct == a && u->tie == tie ? &u->active : NULL;
	}
}

/* Node a's (NULL: the root's) heap of active children as saved, in its
 * array order, with its W.  *users counts the users active by their tags
 * (v_n < F of the newest campaign); one past its F may still be there,
 * the clock having gone past its F by rounding (ost_vclock.c) before
 * the next advance takes it out. */
static int _restore_heap(_in_t *in, ost_sched_t *s, ost_acct_t **by_idx,
			 ost_acct_t *a, const _nest_t *n, size_t *users)
{
	ost_heap_t *hp = a ? &a->active : &s->active;
	uint32_t cnt = 0, kids = 0;
	char *p = n->active, *end;
	double sum = 0.0;

	in->lineno = n->lineno;
	for (; strcmp(n->active, "-") && *p; p = end + (*end == ',')) {
		unsigned long long tie;
		ost_hkey_t *h;
		double f;

		errno = 0;
		tie = strtoull(p, &end, 10);
		if (end == p || errno || !isdigit((unsigned char)*p) ||
		    (*end && *end != ',') || !(h = _child(s, by_idx, a, tie)) ||
		    ost_hnode_linked(&h->node))
			return _fail(in, "bad active=%s", n->active);
		if (tie & OST_TIE_ACCT) {
			f = in->nest[tie & ~OST_TIE_ACCT].f;
			kids++;
		} else {
			const ost_user_t *u = ost_container_of(h, ost_user_t,
							       active);

			if (!u->last)
				return _fail(in, "user %u active without "
					     "campaign", u->uid);
			f = ost_user_end(u)->vfinish;
			*users += ost_user_vtime(s, u) < f;
		}
		if (!isfinite(f))
			return _fail(in, "active account without f");
		(void)ost_hkey_push(hp, h, f, tie);	/* reserved */
		sum += ost_hkey_weight(h);
		cnt++;
	}
	/* W is kept by increments: equal to the sum up to rounding */
	if (!(fabs(n->wsum - sum) <= 1e-9 * sum))
		return _fail(in, "weight sum %a, the active children's %a",
			     n->wsum, sum);
	*(a ? &a->n_active : &s->n_active) = cnt;
	*(a ? &a->n_kids_active : &s->n_kids_active) = kids;
	*(a ? &a->wsum : &s->total_weight) = n->wsum;
	return 0;
}

/* Empty node a's heap (NULL: the root's); *users counts the users. */
static void _clear_heap(ost_sched_t *s, ost_acct_t *a, size_t *users)
{
	ost_heap_t *hp = a ? &a->active : &s->active;
	ost_hkey_t *h;

	while ((h = ost_hkey_top(hp))) {
		if (!(h->tie & OST_TIE_ACCT))
			(*users)++;
		ost_hkey_remove(hp, h);
	}
}

/*
 * Version 2: put back what the records do not determine (§21): every
 * node's heap in its saved order with its W and psync, and every
 * campaign's key, kfrom and gate (its eligibility), re-sorted by them.
 * The derived users' activity must be the saved one.
 */
static int _restore(_in_t *in, ost_sched_t *s)
{
	ost_acct_t **by_idx = calloc(s->n_accts + 1, sizeof(*by_idx)), *a;
	size_t derived = 0, users = 0, i;
	int rc = 0;

	if (!by_idx)
		return -OST_ENOMEM;
	ost_campaign_settle(s);
	for (a = s->acct_list; a; a = a->next)
		by_idx[a->idx - 1] = a;
	_clear_heap(s, NULL, &derived);
	for (i = 0; i < s->n_accts; i++)
		_clear_heap(s, by_idx[i], &derived);
	rc = _restore_heap(in, s, by_idx, NULL, &in->nest[0], &users);
	for (i = 0; !rc && i < s->n_accts; i++) {
		by_idx[i]->psync = in->nest[i + 1].psync;
		rc = _restore_heap(in, s, by_idx, by_idx[i], &in->nest[i + 1],
				   &users);
	}
	for (i = 0; !rc && i < s->n_accts; i++)
		if (by_idx[i]->n_active &&
		    !ost_hnode_linked(&by_idx[i]->hk.node))
			rc = _fail(in, "account %u idle with active children",
				   by_idx[i]->id);
	free(by_idx);
	if (!rc && users != derived)
		rc = _fail(in, "%zu active users, %zu by their tags", users,
			   derived);
	/* out of the order with the derived keys, back in with the saved */
	for (i = 0; !rc && i < in->n_ck; i++)
		if (in->ck[i].c->in_order)
			ost_order_unlink(s, in->ck[i].c);
		else if (!isnan(in->ck[i].gate))
			rc = _fail(in, "gate of a campaign without pending job");
	for (i = 0; !rc && i < in->n_ck; i++) {
		_ckey_t *k = &in->ck[i];
		ost_campaign_t *c = k->c;

		c->key = k->key;
		c->kfrom = k->kfrom;
		if (!c->n_pending)
			continue;
		in->lineno = k->lineno;
		c->eligible = isnan(k->gate);
		if (!c->eligible && s->cfg.mode == OST_MODE_FAIRCAMP)
			return _fail(in, "gate in FairCamp");
		ost_tree_insert(&s->order, &c->node, c->n_pending);
		c->in_order = true;
		if (c->eligible)
			s->n_eligible++;
		else
			(void)ost_hkey_push(&s->gate, &c->gate, k->gate,
					    ((uint64_t)c->user->uid << 32) |
						    c->seq);
	}
	return rc;
}

/* The first line, exactly "ostrich-state N" with N in decimal digits (at
 * most 9, so any version fits an int).  RET 0 and *version, or -1. */
static int _magic(const char *line, int *version)
{
	const char *v = line + strlen(OST_STATE_MAGIC " ");
	size_t n;

	if (strncmp(line, OST_STATE_MAGIC " ", strlen(OST_STATE_MAGIC " ")))
		return -1;
	n = strspn(v, "0123456789");
	if (n == 0 || n > 9 || v[n])
		return -1;
	*version = atoi(v);
	return 0;
}

/* Parse one record line into s; `seen` tracks the header lines. */
static int _load_line(_in_t *in, ost_sched_t **sp, ost_config_t *g,
		      int *seen)
{
	char *kind = in->cur;
	size_t kl = strcspn(kind, " ");
	int rc;

	in->cur = kind + kl + (kind[kl] == ' ');
	kind[kl] = '\0';
	if (*seen == 0) {
		if (strcmp(kind, "config"))
			return _fail(in, "expected config");
		if ((rc = _load_config(in, g)))
			return rc;
		if (!(*sp = ost_sched_create(g)))
			return -OST_ENOMEM;
		*seen = 1;
		return 0;
	}
	if (*seen == 1) {
		if (strcmp(kind, "clock"))
			return _fail(in, "expected clock");
		*seen = in->version >= 2 ? 2 : 3;
		if ((rc = _get_double(in, "now", &(*sp)->now, R_TIME_NONE)) ||
		    (rc = _get_double(in, "vtime", &(*sp)->vtime, R_VIRT)) ||
		    (in->version >= 3 &&
		     (rc = _get_u32(in, "lowered", &(*sp)->lowered_seq))))
			return rc;
		return _line_end(in);
	}
	if (*seen == 2) {
		if (strcmp(kind, "root"))
			return _fail(in, "expected root");
		*seen = 3;
		return _load_root(in);
	}
	if (!strcmp(kind, "account") && in->version >= 2) {
		if (*seen > 3)
			return _fail(in, "account after users");
		return _load_account(in, *sp);
	}
	if (*seen == 3)
		*seen = 4;	/* the accounts are done */
	if (!strcmp(kind, "user"))
		return _load_user(in, *sp);
	if (!strcmp(kind, "leaf") && in->version >= 2)
		return _load_leaf(in, *sp);
	if (!strcmp(kind, "campaign"))
		return _load_campaign(in, *sp);
	if (!strcmp(kind, "job"))
		return _load_job(in, *sp);
	return _fail(in, "unknown record '%s'", kind);
}

int ost_sched_load(const char *buf, size_t len, ost_sched_t **out,
		   char *errbuf, size_t errlen)
{
	_in_t in = { .err = errbuf, .errlen = errlen };
	char *text = NULL, *p, *nl;
	ost_sched_t *s = NULL;
	ost_config_t g;
	size_t records = 0;
	int rc, seen = 0, version = 0;

	if (errlen)
		errbuf[0] = '\0';
	if (!buf || !(text = malloc(len + 1)))
		return buf ? -OST_ENOMEM : _fail(&in, "no buffer");
	memcpy(text, buf, len);
	text[len] = '\0';
	rc = _fail(&in, "empty state");
	if (strlen(text) != len) {
		rc = _fail(&in, "NUL byte in state");
		goto out_free;
	}
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		in.lineno++;
		if (!nl) {
			rc = _fail(&in, "truncated (no end line)");
			goto out_free;
		}
		*nl = '\0';
		in.line = in.cur = p;
		if (in.lineno == 1) {
			if (_magic(p, &version)) {
				rc = _fail(&in, "not an ostrich state");
				goto out_free;
			}
			if (version < 1 || version > OST_STATE_VERSION) {
				_fail(&in, "format version %d, expected %d",
				      version, OST_STATE_VERSION);
				rc = -OST_EVERSION;
				goto out_free;
			}
			in.version = version;
			continue;
		}
		if (!strncmp(p, "end ", 4)) {
			in.cur = p + 4;
			if (seen < 3)
				rc = _fail(&in, "end before clock");
			else if (!(rc = _load_end(&in, buf, text, records)) &&
				 nl[1])
				rc = _fail(&in, "data after end line");
			if (!rc) {
				_derive(s);
				if (version >= 2)
					rc = _restore(&in, s);
			}
			if (!rc) {
				*out = s;
				s = NULL;
			}
			goto out_free;
		}
		if ((rc = _load_line(&in, &s, &g, &seen)))
			goto out_free;
		records++;
	}
	if (in.lineno > 0)
		rc = _fail(&in, "truncated (no end line)");
out_free:
	ost_sched_destroy(s);
	free(text);
	free(in.nest);
	free(in.ck);
	return rc;
}
