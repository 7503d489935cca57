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
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_internal.h"

#define OST_STATE_MAGIC "ostrich-state"
#define OST_STATE_VERSION 1

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

static void _save_campaign(_out_t *o, const ost_campaign_t *c)
{
	size_t i;

	_printf(o, "campaign uid=%u seq=%u t_c=%a area=%a area_est=%a phi=%a "
		"len=%a last_end=%a max_e_done=%a k=%u done=%u groups=",
		c->user->uid, c->seq, c->t_c, c->area, c->area_est, c->phi,
		c->len, c->last_end, c->max_e_done, c->k, c->n_done);
	for (i = 0; i < c->n_groups; i++)
		_printf(o, "%s%llu", i ? "," : "",
			(unsigned long long)c->groups[i]);
	_printf(o, "%s\n", c->n_groups ? "" : "-");
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
	size_t i, records = 0;

	if (ost_nested(s) && s->n_accts) {
		/* §21: the format has no accounts */
		_release_sorted(a, users, &s->users);
		_release_sorted(a, jobs, &s->jobs);
		return -OST_EINVAL;
	}
	o.buf = a->resize(NULL, 0, o.cap, a->arg);
	if (!users || !jobs || !o.buf)
		goto out_nomem;
	_printf(&o, "%s %d\n", OST_STATE_MAGIC, OST_STATE_VERSION);
	_printf(&o, "config procs=%u mode=%s think_time=%a capacity=%s "
		"gate=%s intra=%s faircamp_users=%u default_weight=%a\n",
		g->procs, ost_mode_name(g->mode), g->think_time,
		ost_capacity_name(g->capacity), ost_gate_name(g->gate),
		ost_intra_name(g->intra), g->faircamp_users,
		g->default_weight);
	_printf(&o, "clock now=%a vtime=%a\n", s->now, s->vtime);
	records = 2;
	for (i = 0; i < s->users.count; i++) {
		const ost_user_t *u = users[i];
		const ost_campaign_t *c;

		_printf(&o, "user uid=%u weight=%a base_vfinish=%a "
			"base_deadline=%a last_seq=%u\n", u->uid, u->weight,
			u->base_vfinish, u->base_deadline, u->last_seq);
		records++;
		for (c = u->first; c; c = c->next, records++)
			_save_campaign(&o, c);
	}
	for (i = 0; i < s->jobs.count; i++, records++) {
		const ost_job_t *j = jobs[i];

		_printf(&o, "job id=%llu uid=%u campaign=%u procs=%u "
			"estimate=%a submit=%a start=%a state=%s\n",
			(unsigned long long)j->id, j->camp->user->uid,
			j->camp->seq, j->procs, j->estimate, j->submit,
			ost_job_started(j),
			j->state == OST_JOB_PENDING ? "pending" : "running");
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

typedef struct {
	char *line;		/* current line, NUL-terminated, mutable */
	char *cur;		/* parse position in line */
	unsigned lineno;
	char *err;
	size_t errlen;
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
	    (rc = _line_end(in)))
		return rc;
	if (ost_config_check(g, &why))
		return _fail(in, "bad configuration: %s", why);
	return 0;
}

static int _load_user(_in_t *in, ost_sched_t *s)
{
	uint32_t uid;
	ost_user_t *u;
	double w;
	int rc;

	if ((rc = _get_u32(in, "uid", &uid)) ||
	    (rc = _get_double(in, "weight", &w, R_WEIGHT)))
		return rc;
	if (ost_user_get(s, uid, false))
		return _fail(in, "duplicate user %u", uid);
	if (!(u = ost_user_get(s, uid, true)))
		return -OST_ENOMEM;
	u->weight = w;
	if ((rc = _get_double(in, "base_vfinish", &u->base_vfinish,
			      R_VIRT_NONE)) ||
	    (rc = _get_double(in, "base_deadline", &u->base_deadline,
			      R_FIN_NONE)) ||
	    (rc = _get_u32(in, "last_seq", &u->last_seq)))
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

static int _load_campaign(_in_t *in, ost_sched_t *s)
{
	uint32_t uid, seq;
	ost_user_t *u;
	ost_campaign_t *c;
	int rc;

	if ((rc = _get_u32(in, "uid", &uid)) ||
	    (rc = _get_u32(in, "seq", &seq)))
		return rc;
	if (!(u = ost_user_get(s, uid, false)))
		return _fail(in, "campaign of unknown user %u", uid);
	if (!seq || (u->last && seq <= u->last->seq) || seq > u->last_seq)
		return _fail(in, "campaign %u/%u out of sequence", uid, seq);
	if (!(c = ost_campaign_new(s, u, seq)))
		return -OST_ENOMEM;
	if ((rc = _get_double(in, "t_c", &c->t_c, R_TIME)) ||
	    (rc = _get_double(in, "area", &c->area, R_FINITE)) ||
	    (rc = _get_double(in, "area_est", &c->area_est, R_VIRT)) ||
	    (rc = _get_double(in, "phi", &c->phi, R_VIRT)) ||
	    (rc = _get_double(in, "len", &c->len, R_VIRT)) ||
	    (rc = _get_double(in, "last_end", &c->last_end, R_TIME_NONE)) ||
	    (rc = _get_double(in, "max_e_done", &c->max_e_done,
			      R_DUR_NONE)) ||
	    (rc = _get_u32(in, "k", &c->k)) ||
	    (rc = _get_u32(in, "done", &c->n_done)) ||
	    (rc = _load_groups(in, s, c)))
		return rc;
	return _line_end(in);
}

static ost_campaign_t *_find_campaign(const ost_sched_t *s, uint32_t uid,
				      uint32_t seq)
{
	ost_user_t *u = ost_user_get((ost_sched_t *)s, uid, false);
	ost_campaign_t *c;

	for (c = u ? u->last : NULL; c; c = c->prev)
		if (c->seq == seq)
			return c;
	return NULL;
}

static int _load_job(_in_t *in, ost_sched_t *s)
{
	uint64_t id;
	uint32_t uid, seq;
	ost_job_t *j;
	ost_campaign_t *c;
	char *state, *v;
	bool running;
	double start;
	int rc;

	if ((rc = _get_u64(in, "id", &id, UINT64_MAX)) ||
	    (rc = _get_u32(in, "uid", &uid)) ||
	    (rc = _get_u32(in, "campaign", &seq)))
		return rc;
	if (!id || ost_map_get(&s->jobs, id))
		return _fail(in, "job id %llu zero or duplicate",
			     (unsigned long long)id);
	if (!(c = _find_campaign(s, uid, seq)))
		return _fail(in, "job of unknown campaign %u/%u", uid, seq);
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
		*seen = 2;
		if ((rc = _get_double(in, "now", &(*sp)->now, R_TIME_NONE)) ||
		    (rc = _get_double(in, "vtime", &(*sp)->vtime, R_VIRT)))
			return rc;
		return _line_end(in);
	}
	if (!strcmp(kind, "user"))
		return _load_user(in, *sp);
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
	int rc, seen = 0, version;

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
			if (version != OST_STATE_VERSION) {
				_fail(&in, "format version %d, expected %d",
				      version, OST_STATE_VERSION);
				rc = -OST_EVERSION;
				goto out_free;
			}
			continue;
		}
		if (!strncmp(p, "end ", 4)) {
			in.cur = p + 4;
			if (seen < 2)
				rc = _fail(&in, "end before clock");
			else if (!(rc = _load_end(&in, buf, text, records)) &&
				 nl[1])
				rc = _fail(&in, "data after end line");
			if (!rc) {
				_derive(s);
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
	return rc;
}
