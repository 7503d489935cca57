/*****************************************************************************\
 *  osl_acct.c - accounts in the plugins (doc/semantics.md §23): the names
 *  Slurm gives them and the ids the core wants, the tree as Slurm (or
 *  ostrich.conf) says it is now, and each partition's view of it: what its
 *  core has been told.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_acct.c).  Ids are 1, 2, ... in
 *  the order names are first seen, never reused, and kept with the
 *  plugin's state (osl_acct_save): the core's saved schedule knows its
 *  accounts by id only, so a name must get the same id after a restart.
 *  Names are lower-cased, as Slurm's account names are.  Lookups go
 *  through an open-addressing hash table, O(1); every function runs under
 *  osl_eng.lock.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_conf.h"
#include "osl_evlog.h"
#include "osl_log.h"
#include "osl_partition.h"
#include "osl_vec.h"

/* First line of the saved table. */
#define OSL_ACCT_MAGIC "ostrich-accounts 1\n"

typedef struct {
	char *name;			/* lower case (malloc) */
	uint32_t parent;		/* id, 0: the root */
	double share;			/* w_n, a weight */
} osl_acct_ent_t;

static osl_acct_ent_t *ents;		/* ents[id - 1] */
static int nents, cap_ents;
static int *slots;			/* hash table: id, 0 empty */
static int nslots;			/* a power of two, > 2 nents */
static bool dirty;			/* names added since the last save */

typedef struct {
	uint32_t uid;
	uint32_t id;			/* an account UserAccounts= gives it */
	int order;			/* the entry's place in the list: the
					 * first of a user's is its own */
} osl_user_own_t;

static osl_user_own_t *owns;		/* sorted by (uid, order) */
static int nowns;

/* Names a job gave that its owner may not count in, already logged:
 * (uid, name hash), at most OSL_ACCT_REFUSED_MAX until a configure. */
#define OSL_ACCT_REFUSED_MAX 256
static uint64_t refused[OSL_ACCT_REFUSED_MAX];
static int nrefused;

static void _names_free(void);

/* FNV-1a 32 of s. */
static uint32_t _hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char) *s;
		h *= 16777619u;
	}
	return h;
}

/* The slot of name (lower case): its id's, or the empty one it would
 * take.  nslots > nents. */
static int *_slot(const char *name)
{
	uint32_t i = _hash(name) & (uint32_t) (nslots - 1);

	while (slots[i] && strcmp(ents[slots[i] - 1].name, name))
		i = (i + 1) & (uint32_t) (nslots - 1);
	return &slots[i];
}

/* Room for one more name in the table, rehashed at half load. */
static void _reserve(void)
{
	int i, old = nslots;

	if (2 * (nents + 1) < nslots)
		return;
	nslots = old ? 2 * old : 64;
	free(slots);
	slots = osl_calloc((size_t) nslots, sizeof(*slots));
	for (i = 0; i < nents; i++)
		*_slot(ents[i].name) = i + 1;
}

/* name lower-cased into buf (size bytes); RET false when it is no
 * account name (empty, too long, or blanks or controls in it: they could
 * not be saved one per line). */
static bool _lower(const char *name, char *buf, size_t size)
{
	size_t i;

	if (!name || !*name)
		return false;
	for (i = 0; name[i]; i++) {
		if (i + 1 >= size || !isgraph((unsigned char) name[i]))
			return false;
		buf[i] = (char) tolower((unsigned char) name[i]);
	}
	buf[i] = '\0';
	return true;
}

extern uint32_t osl_acct_find(const char *name)
{
	char buf[OSL_ACCT_NAME_MAX];

	if (!nents || !_lower(name, buf, sizeof(buf)))
		return 0;
	return (uint32_t) *_slot(buf);
}

/* Add buf (lower case, not known) as the next id, under the root with
 * share 1.  RET its id */
static uint32_t _add(const char *buf)
{
	_reserve();
	ents = osl_grow(ents, &cap_ents, nents + 1, sizeof(*ents), 16);
	ents[nents].name = strcpy(osl_calloc(strlen(buf) + 1, 1), buf);
	ents[nents].parent = 0;
	ents[nents].share = 1.0;
	nents++;
	*_slot(buf) = nents;
	dirty = true;
	return (uint32_t) nents;
}

extern uint32_t osl_acct_id(const char *name)
{
	char buf[OSL_ACCT_NAME_MAX];
	int *slot;

	if (!_lower(name, buf, sizeof(buf)) || !strcmp(buf, "root"))
		return 0;
	if (nents && *(slot = _slot(buf)))
		return (uint32_t) *slot;
	return _add(buf);
}

extern int osl_acct_count(void)
{
	return nents;
}

extern const char *osl_acct_name(uint32_t id)
{
	return id && id <= (uint32_t) nents ? ents[id - 1].name : NULL;
}

extern void osl_acct_place(uint32_t id, uint32_t parent, double share)
{
	if (!id || id > (uint32_t) nents || parent > (uint32_t) nents ||
	    parent == id || !ost_weight_ok(share))
		return;
	ents[id - 1].parent = parent;
	ents[id - 1].share = share;
}

extern void osl_acct_reset(void)
{
	int i;

	for (i = 0; i < nents; i++) {
		ents[i].parent = 0;
		ents[i].share = 1.0;
	}
}

extern int osl_acct_path(uint32_t id, uint32_t *path, int max)
{
	int n = 0;

	while (id) {
		if (id > (uint32_t) nents || n >= max)
			return -1;	/* a loop (places are not checked
					 * against one) or too deep */
		path[n++] = id;
		id = ents[id - 1].parent;
	}
	return n;
}

extern bool osl_acct_dirty(void)
{
	return dirty;
}

extern char *osl_acct_save(size_t *len)
{
	size_t size = sizeof(OSL_ACCT_MAGIC), used;
	char *buf;
	int i;

	for (i = 0; i < nents; i++)
		size += strlen(ents[i].name) + 16;
	buf = osl_calloc(size, 1);
	used = (size_t) snprintf(buf, size, "%s", OSL_ACCT_MAGIC);
	for (i = 0; i < nents; i++)
		used += (size_t) snprintf(buf + used, size - used, "%d %s\n",
					  i + 1, ents[i].name);
	dirty = false;
	*len = used;
	return buf;
}

extern void osl_acct_unsaved(void)
{
	dirty = true;
}

extern int osl_acct_load(const char *buf, size_t len, char *err,
			 size_t errlen)
{
	char name[OSL_ACCT_NAME_MAX], lower[OSL_ACCT_NAME_MAX];
	size_t off = sizeof(OSL_ACCT_MAGIC) - 1;
	int line = 1;

	if (errlen)
		err[0] = '\0';
	_names_free();
	if (len < off || memcmp(buf, OSL_ACCT_MAGIC, off)) {
		snprintf(err, errlen, "not an ostrich account table");
		return -1;
	}
	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		char text[OSL_ACCT_NAME_MAX + 16], tail;
		size_t ll = nl ? (size_t) (nl - (buf + off)) : len - off;
		unsigned long id;

		line++;
		if (!nl || ll >= sizeof(text)) {
			snprintf(err, errlen, "line %d: cut or too long", line);
			goto bad;
		}
		memcpy(text, buf + off, ll);
		text[ll] = '\0';
		if (sscanf(text, "%lu %127s%c", &id, name, &tail) != 2 ||
		    id != (unsigned long) nents + 1 ||
		    !_lower(name, lower, sizeof(lower)) ||
		    strcmp(lower, name) || osl_acct_find(name) ||
		    !strcmp(name, "root")) {
			snprintf(err, errlen, "line %d: not \"%d NAME\" with a "
				 "new lower-case name", line, nents + 1);
			goto bad;
		}
		(void) _add(name);
		off += ll + 1;
	}
	dirty = false;
	return 0;
bad:
	_names_free();
	return -1;
}

/* The share AccountWeights= gives name, else 1. */
static double _conf_share(const osl_conf_t *conf, const char *name)
{
	int i;

	for (i = 0; i < conf->n_acct_w; i++)
		if (!strcasecmp(conf->acct_w[i].account, name))
			return conf->acct_w[i].weight;
	return 1.0;
}

static int _own_cmp(const void *a, const void *b)
{
	const osl_user_own_t *x = a, *y = b;

	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->order > y->order) - (x->order < y->order);
}

extern void osl_acct_configure(const osl_conf_t *conf)
{
	int i;

	osl_acct_reset();
	for (i = 0; i < conf->n_acct_w; i++) {	/* under the root for now */
		uint32_t id = osl_acct_id(conf->acct_w[i].account);

		osl_acct_place(id, 0, conf->acct_w[i].weight);
	}
	for (i = 0; i < conf->n_acct_par; i++) {
		const osl_acct_parent_t *a = &conf->acct_par[i];

		osl_acct_place(osl_acct_id(a->account), osl_acct_id(a->parent),
			       _conf_share(conf, a->account));
	}
	free(owns);
	owns = osl_calloc((size_t) conf->n_user_acct, sizeof(*owns));
	for (i = 0; i < conf->n_user_acct; i++) {
		owns[i].uid = (uint32_t) conf->user_acct[i].uid;
		owns[i].id = osl_acct_id(conf->user_acct[i].account);
		owns[i].order = i;
	}
	nowns = conf->n_user_acct;
	qsort(owns, (size_t) nowns, sizeof(*owns), _own_cmp);
	nrefused = 0;
}

/* The first entry of uid in owns, or NULL.  O(log n) */
static const osl_user_own_t *_own_first(uint32_t uid)
{
	int lo = 0, hi = nowns;

	while (lo < hi) {		/* the first with owns[].uid >= uid */
		int mid = lo + (hi - lo) / 2;

		if (owns[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nowns && owns[lo].uid == uid ? &owns[lo] : NULL;
}

extern uint32_t osl_acct_user(uint32_t uid)
{
	const osl_user_own_t *o = _own_first(uid);

	return o ? o->id : 0;
}

extern uint32_t osl_acct_given(uint32_t uid, const char *name)
{
	const osl_user_own_t *o = _own_first(uid);
	uint32_t id;

	if (!o || !(id = osl_acct_find(name)))
		return 0;
	for (; o < owns + nowns && o->uid == uid; o++)
		if (o->id == id)
			return id;
	return 0;
}

extern bool osl_acct_refused_new(uint32_t uid, const char *name)
{
	uint64_t k = ((uint64_t) uid << 32) | _hash(name ? name : "");
	int i;

	for (i = 0; i < nrefused; i++)
		if (refused[i] == k)
			return false;
	if (nrefused == OSL_ACCT_REFUSED_MAX)
		return false;
	refused[nrefused++] = k;
	return true;
}

/* Forget every name (not the users' own accounts). */
static void _names_free(void)
{
	int i;

	for (i = 0; i < nents; i++)
		free(ents[i].name);
	free(ents);
	free(slots);
	ents = NULL;
	slots = NULL;
	nents = cap_ents = nslots = 0;
	dirty = false;
}

extern void osl_acct_free(void)
{
	free(owns);
	owns = NULL;
	nowns = 0;
	nrefused = 0;
	_names_free();
}

/* ---------------------------------------- a partition's core's view --- */

/* Room for id in p->acct. */
static void _view_reserve(osl_part_t *p, uint32_t id)
{
	if ((int) id > p->nacct) {
		p->acct = osl_grow(p->acct, &p->cap_acct, (int) id,
				   sizeof(*p->acct), 16);
		p->nacct = (int) id;
	}
}

/* Declare account id (its parent declared) to p's core, or its new
 * share, and log it to evlog.  RET false if the core knows it under
 * another parent (logged once) or refused it. */
static bool _declare_one(osl_part_t *p, uint32_t id, double t, FILE *evlog)
{
	const osl_acct_ent_t *e = &ents[id - 1];
	osl_acct_view_t *v;
	uint32_t parent;
	int rc;

	_view_reserve(p, id);
	v = &p->acct[id - 1];
	parent = v->declared ? v->parent : e->parent;
	if (v->declared && v->parent != e->parent) {
		if (!v->warned)
			osl_error("ostrich: partition %s: account %s moved "
				  "(parent %s, was %s): the schedule keeps it "
				  "where it was until it is rebuilt",
				  p->name, e->name,
				  e->parent ? ents[e->parent - 1].name : "root",
				  v->parent ? ents[v->parent - 1].name :
					      "root");
		v->warned = true;
	}
	if (v->declared && v->share == e->share)
		return v->parent == e->parent;
	rc = ost_acct_declare(p->sched, id, parent, e->share, t);
	if (rc == -OST_EINVAL && !v->declared) {
		/* a restored core knows it under another parent: the saved
		 * table and the core's state disagree (one was lost) */
		osl_error("ostrich: partition %s: account %s (id %u) is under another parent in the restored schedule: it stays there until the partition is rebuilt",
			  p->name, e->name, id);
		v->declared = v->warned = true;
		v->parent = e->parent;
		v->share = e->share;
		return true;
	}
	if (rc) {
		osl_error("ostrich: partition %s: account %s refused: %s",
			  p->name, e->name, ost_strerror(rc));
		return false;
	}
	if (evlog) {
		osl_evlog_rec_t r = { .op = OSL_LOG_ACCOUNT, .part = p->name,
				      .t = t, .parent = parent,
				      .x = e->share };

		r.job.account = id;
		osl_evlog_write(evlog, &r);
	}
	v->declared = true;
	v->parent = parent;
	v->share = e->share;
	return v->parent == e->parent;
}

extern uint32_t osl_acct_declare(osl_part_t *p, uint32_t id, double t,
				 FILE *evlog)
{
	uint32_t path[OSL_ACCT_DEPTH_MAX + 1];
	int n = osl_acct_path(id, path, OSL_ACCT_DEPTH_MAX + 1), i;

	if (n <= 0)
		return 0;
	for (i = n - 1; i >= 0; i--)		/* the root's child first */
		if (!_declare_one(p, path[i], t, evlog) &&
		    !p->acct[path[i] - 1].declared)
			return 0;	/* refused (logged): the owner's own */
	return id;
}

extern void osl_acct_refresh(osl_part_t *p, double t, FILE *evlog)
{
	int i;

	for (i = 0; i < p->nacct && i < nents; i++)
		if (p->acct[i].declared && p->acct[i].share != ents[i].share &&
		    p->acct[i].parent == ents[i].parent)
			(void) _declare_one(p, (uint32_t) i + 1, t, evlog);
}

extern void osl_acct_view_free(osl_part_t *p)
{
	free(p->acct);
	p->acct = NULL;
	p->nacct = p->cap_acct = 0;
}
