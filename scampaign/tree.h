/*****************************************************************************\
 *  tree.h - scampaign --tree (tree.c): the nested shares of each
 *  partition, sshare-like.  Slurm-free (tested by
 *  tests/scampaign/check_usage_view.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_TREE_H
#define SC_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osl_usnap.h"

/* Per partition: a title line, the header (unless noheader), root, then
 * each account (indented by depth) followed by its leaves and its child
 * accounts, by name; under Hierarchy=users (no acct or leaf records) the
 * users and their shares. */
void sc_tree(FILE *fp, const osl_usnap_t *s, bool noheader);

/* The sentence of scampaign --explain for a job of uid (user) in account
 * of partition, from s's acct and leaf records: "Account A has X% of
 * partition P now; U has Y% of the account's share." (Y of the leaf,
 * itself counted if idle), or "Account A has X% of partition P now."
 * when the leaf is not in s.  RET 0 if written, -1 if s has no such
 * partition or account */
int sc_tree_explain(FILE *fp, const osl_usnap_t *s, const char *partition,
		    const char *account, uint32_t uid, const char *user);

/* Drop p's leaves that own_only (only uid's) or users (a --user list,
 * NULL: all) leave out, and the accounts then above no leaf; nothing when
 * neither is set. */
void sc_tree_filter(osl_usnap_part_t *p, bool own_only, uint32_t uid,
		    const char *users);

#endif /* SC_TREE_H */
