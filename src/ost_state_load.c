/*****************************************************************************\
 *  ost_state_load.c - load the engine state (doc/state-format.md)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The file as a whole: the magic and version line, one record a line
 *  (ost_state_rec.c), the end line with the count and the CRC, then the
 *  derived state rebuilt by the code that keeps it live and, from version
 *  2, the history of the nested schedule (§21) restored over it.
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ost_internal.h"
#include "ost_state.h"

/* The closing line: record count and CRC of everything before it. */
static int _load_end(ost_in_t *in, const char *orig, const char *text,
		     size_t records)
{
	uint64_t n, crc;
	char *v, *end;
	int rc;

	if ((rc = ost_in_u64(in, "records", &n, SIZE_MAX)) ||
	    (rc = ost_in_field(in, "crc32", &v)))
		return rc;
	crc = strtoull(v, &end, 16);
	if (end == v || *end || strlen(v) != 8 ||
	    strspn(v, "0123456789abcdef") != 8)
		return ost_in_fail(in, "bad crc32=%s", v);
	if (n != records)
		return ost_in_fail(in, "%zu records, end line says %llu",
				   records,
				   (unsigned long long)n);
	if (crc != ost_state_crc32(orig, (size_t)(in->line - text)))
		return ost_in_fail(in, "checksum mismatch (file damaged)");
	return ost_in_end(in);
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
static int _restore_heap(ost_in_t *in, ost_sched_t *s, ost_acct_t **by_idx,
			 ost_acct_t *a, const ost_in_nest_t *n, size_t *users)
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
			return ost_in_fail(in, "bad active=%s", n->active);
		if (tie & OST_TIE_ACCT) {
			f = in->nest[tie & ~OST_TIE_ACCT].f;
			kids++;
		} else {
			const ost_user_t *u = ost_container_of(h, ost_user_t,
							       active);

			if (!u->last)
				return ost_in_fail(in, "user %u active without "
						   "campaign", u->uid);
			f = ost_user_end(u)->vfinish;
			*users += ost_user_vtime(s, u) < f;
		}
		if (!isfinite(f))
			return ost_in_fail(in, "active account without f");
		(void)ost_hkey_push(hp, h, f, tie);	/* reserved */
		sum += ost_hkey_weight(h);
		cnt++;
	}
	/* W is kept by increments: equal to the sum up to rounding */
	if (!(fabs(n->wsum - sum) <= 1e-9 * sum))
		return ost_in_fail(in,
				   "weight sum %a, the active children's %a",
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
static int _restore(ost_in_t *in, ost_sched_t *s)
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
			rc = ost_in_fail(in,
					 "account %u idle with active children",
					 by_idx[i]->id);
	free(by_idx);
	if (!rc && users != derived)
		rc = ost_in_fail(in, "%zu active users, %zu by their tags",
				 users, derived);
	/* out of the order with the derived keys, back in with the saved */
	for (i = 0; !rc && i < in->n_ck; i++)
		if (in->ck[i].c->in_order)
			ost_order_unlink(s, in->ck[i].c);
		else if (!isnan(in->ck[i].gate))
			rc = ost_in_fail(in,
					 "gate of a campaign without pending job");
	for (i = 0; !rc && i < in->n_ck; i++) {
		ost_in_ckey_t *k = &in->ck[i];
		ost_campaign_t *c = k->c;

		c->key = k->key;
		c->kfrom = k->kfrom;
		if (!c->n_pending)
			continue;
		in->lineno = k->lineno;
		c->eligible = isnan(k->gate);
		if (!c->eligible && s->cfg.mode == OST_MODE_FAIRCAMP)
			return ost_in_fail(in, "gate in FairCamp");
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
static int _load_line(ost_in_t *in, ost_sched_t **sp, ost_config_t *g,
		      int *seen)
{
	char *kind = in->cur;
	size_t kl = strcspn(kind, " ");
	int rc;

	in->cur = kind + kl + (kind[kl] == ' ');
	kind[kl] = '\0';
	if (*seen == 0) {
		if (strcmp(kind, "config"))
			return ost_in_fail(in, "expected config");
		if ((rc = ost_rec_config(in, g)))
			return rc;
		if (!(*sp = ost_sched_create(g)))
			return -OST_ENOMEM;
		*seen = 1;
		return 0;
	}
	if (*seen == 1) {
		if (strcmp(kind, "clock"))
			return ost_in_fail(in, "expected clock");
		*seen = in->version >= 2 ? 2 : 3;
		if ((rc = ost_in_double(in, "now", &(*sp)->now, R_TIME_NONE)) ||
		    (rc = ost_in_double(in, "vtime", &(*sp)->vtime, R_VIRT)) ||
		    (in->version >= 3 &&
		     (rc = ost_in_u32(in, "lowered", &(*sp)->lowered_seq))))
			return rc;
		return ost_in_end(in);
	}
	if (*seen == 2) {
		if (strcmp(kind, "root"))
			return ost_in_fail(in, "expected root");
		*seen = 3;
		return ost_rec_root(in);
	}
	if (!strcmp(kind, "account") && in->version >= 2) {
		if (*seen > 3)
			return ost_in_fail(in, "account after users");
		return ost_rec_account(in, *sp);
	}
	if (*seen == 3)
		*seen = 4;	/* the accounts are done */
	if (!strcmp(kind, "user"))
		return ost_rec_user(in, *sp);
	if (!strcmp(kind, "leaf") && in->version >= 2)
		return ost_rec_leaf(in, *sp);
	if (!strcmp(kind, "campaign"))
		return ost_rec_campaign(in, *sp);
	if (!strcmp(kind, "job"))
		return ost_rec_job(in, *sp);
	return ost_in_fail(in, "unknown record '%s'", kind);
}

int ost_sched_load(const char *buf, size_t len, ost_sched_t **out,
		   char *errbuf, size_t errlen)
{
	ost_in_t in = { .err = errbuf, .errlen = errlen };
	char *text = NULL, *p, *nl;
	ost_sched_t *s = NULL;
	ost_config_t g;
	size_t records = 0;
	int rc, seen = 0, version = 0;

	if (errlen)
		errbuf[0] = '\0';
	if (!buf || !(text = malloc(len + 1)))
		return buf ? -OST_ENOMEM : ost_in_fail(&in, "no buffer");
	memcpy(text, buf, len);
	text[len] = '\0';
	rc = ost_in_fail(&in, "empty state");
	if (strlen(text) != len) {
		rc = ost_in_fail(&in, "NUL byte in state");
		goto out_free;
	}
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		in.lineno++;
		if (!nl) {
			rc = ost_in_fail(&in, "truncated (no end line)");
			goto out_free;
		}
		*nl = '\0';
		in.line = in.cur = p;
		if (in.lineno == 1) {
			if (_magic(p, &version)) {
				rc = ost_in_fail(&in, "not an ostrich state");
				goto out_free;
			}
			if (version < 1 || version > OST_STATE_VERSION) {
				ost_in_fail(&in,
					    "format version %d, expected %d",
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
				rc = ost_in_fail(&in, "end before clock");
			else if (!(rc = _load_end(&in, buf, text, records)) &&
				 nl[1])
				rc = ost_in_fail(&in, "data after end line");
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
		rc = ost_in_fail(&in, "truncated (no end line)");
out_free:
	ost_sched_destroy(s);
	free(text);
	free(in.nest);
	free(in.ck);
	return rc;
}
