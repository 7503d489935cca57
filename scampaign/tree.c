/*****************************************************************************\
 *  tree.c - scampaign --tree: each partition's nested shares (§21), as
 *  sshare shows an association tree, from the engine's usage snapshot
 *  (acct and leaf records, format 2).  Accounts are indented one space
 *  per level under root; a leaf (a user in an account) follows its
 *  account's line with the account repeated, as sshare's user lines do.
 *
 *  RawShares: the share as configured; NormShares: its part of what its
 *  parent receives now (itself counted if idle); PartShare: its part of
 *  the partition now, the product of NormShares along its path.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "sc_list.h"
#include "tree.h"

#define COLS "%-20s %-12s %10s %11s %11s %6s\n"
#define ROW "%-20s %-12s %10.6g %11.6f %11.6f %6s\n"

/* Account name's index in p, -1 if none. */
static int _acct(const osl_usnap_part_t *p, const char *name)
{
	int i;

	for (i = 0; i < p->naccts; i++)
		if (!strcmp(p->accts[i].name, name))
			return i;
	return -1;
}

static int _by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* The leaves of account name (root: "root"), then its child accounts,
 * both by name, each account followed by its own subtree; depth bounds a
 * damaged file's cycles. */
static void _subtree(FILE *fp, const osl_usnap_part_t *p, const char *name,
		     double frac, int depth)
{
	const char **kids;
	int i, n = 0;

	if (depth > p->naccts)
		return;
	for (i = 0; i < p->nleaves; i++) {
		const osl_usnap_leaf_t *l = &p->leaves[i];

		if (strcmp(l->account, name))
			continue;
		fprintf(fp, ROW, "", l->user, l->weight,
			frac > 0 ? l->frac / frac : 0.0, l->frac,
			l->active ? "yes" : "no");
	}
	if (!(kids = calloc(p->naccts + 1, sizeof(*kids))))
		return;
	for (i = 0; i < p->naccts; i++)
		if (!strcmp(p->accts[i].parent, name) &&
		    strcmp(p->accts[i].name, name))
			kids[n++] = p->accts[i].name;
	qsort(kids, n, sizeof(*kids), _by_name);
	for (i = 0; i < n; i++) {
		const osl_usnap_acct_t *a = &p->accts[_acct(p, kids[i])];
		char label[OSL_USNAP_NAME_MAX + 32];

		snprintf(label, sizeof(label), "%*s%s", depth + 1, "",
			 a->name);
		fprintf(fp, ROW, label, "", a->share, a->norm, a->frac,
			a->active ? "yes" : "no");
		_subtree(fp, p, a->name, a->frac, depth + 1);
	}
	free(kids);
}

/* A user of a flat partition (Hierarchy=users): an active one's share of
 * the partition, which is also its part of the root's; an idle one has
 * none ("-": it has nothing to share now).  A file of an older writer
 * says nothing of activity: its shares as they are, Active "?". */
static void _flat_user(FILE *fp, const osl_usnap_user_t *u)
{
	if (u->active == 1 || u->active == OSL_USNAP_UNKNOWN)
		fprintf(fp, "%-20s %-12s %10s %11.6f %11.6f %6s\n", "",
			u->name, "", u->share, u->share,
			u->active == 1 ? "yes" : "?");
	else
		fprintf(fp, COLS, "", u->name, "", "-", "-", "no");
}

void sc_tree(FILE *fp, const osl_usnap_t *s, bool noheader)
{
	int i, j;

	for (i = 0; i < s->nparts; i++) {
		const osl_usnap_part_t *p = &s->parts[i];

		fprintf(fp, "%sPartition %s: %.15g %s units, %s\n",
			i ? "\n" : "", p->name, p->capacity, p->unit,
			p->naccts || p->nleaves ? "Hierarchy=accounts" :
			"Hierarchy=users");
		if (!noheader)
			fprintf(fp, COLS, "Account", "User", "RawShares",
				"NormShares", "PartShare", "Active");
		fprintf(fp, "%-20s %-12s %10s %11s %11.6f\n", "root", "", "",
			"", 1.0);
		if (p->naccts || p->nleaves) {
			_subtree(fp, p, "root", 1.0, 0);
			continue;
		}
		for (j = 0; j < p->nusers; j++)	/* flat: the users */
			_flat_user(fp, &p->users[j]);
	}
}

int sc_tree_explain(FILE *fp, const osl_usnap_t *s, const char *partition,
		    const char *account, uint32_t uid, const char *user)
{
	const osl_usnap_part_t *p = NULL;
	const osl_usnap_acct_t *a;
	int i, k;

	for (i = 0; i < s->nparts && !p; i++)
		if (!strcmp(s->parts[i].name, partition))
			p = &s->parts[i];
	if (!p || (k = _acct(p, account)) < 0)
		return -1;
	a = &p->accts[k];
	fprintf(fp, "Account %s has %.0f%% of partition %s now", a->name,
		100 * a->frac, p->name);
	for (i = 0; i < p->nleaves; i++)
		if (p->leaves[i].uid == uid &&
		    !strcmp(p->leaves[i].account, account) && a->frac > 0) {
			fprintf(fp, "; %s has %.0f%% of the account's share",
				user, 100 * p->leaves[i].frac / a->frac);
			break;
		}
	fprintf(fp, ".\n");
	return 0;
}

/* Keep the accounts on the path of p's leaves (after the leaves were
 * filtered): a user shown only their own rows sees the accounts above
 * them, as sshare under PrivateData=usage. */
static void _prune_accts(osl_usnap_part_t *p)
{
	char *keep = calloc(p->naccts + 1, 1);
	int i, m = 0;

	if (!keep)
		return;
	for (i = 0; i < p->nleaves; i++) {
		int a = _acct(p, p->leaves[i].account), d = 0;

		for (; a >= 0 && !keep[a] && d <= p->naccts; d++) {
			keep[a] = 1;
			a = _acct(p, p->accts[a].parent);
		}
	}
	for (i = 0; i < p->naccts; i++)
		if (keep[i])
			p->accts[m++] = p->accts[i];
	p->naccts = m;
	free(keep);
}

void sc_tree_filter(osl_usnap_part_t *p, bool own_only, uint32_t uid,
		    const char *users)
{
	int i, m = 0;

	if (!own_only && !users)
		return;
	for (i = 0; i < p->nleaves; i++) {
		const osl_usnap_leaf_t *l = &p->leaves[i];

		if ((own_only && l->uid != uid) ||
		    (users && !sc_in_list(users, l->user, l->uid)))
			continue;
		p->leaves[m++] = *l;
	}
	p->nleaves = m;
	_prune_accts(p);
}
