/*****************************************************************************\
 *  osl_acct.h - accounts (doc/semantics.md §23; osl_acct.c): the ids of
 *  account names, their tree as Slurm or ostrich.conf says, and what each
 *  partition's core was told of it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_ACCT_H
#define _OSL_ACCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "osl_conf.h"
#include "osl_partition.h"

/* Longest account name the engine keeps (NUL included); a longer one
 * counts as none (osl_acct.c). */
#define OSL_ACCT_NAME_MAX 128

/* Accounts (§23).  NOTE: osl_eng.lock held for every function below. */

/* The id of account name (any case; "root" and names that are not
 * account names, osl_acct.c, are 0: the root), assigned at first sight
 * under the root with share 1.  O(1). */
extern uint32_t osl_acct_id(const char *name);

/* The id of name if it has one, else 0; never assigns. */
extern uint32_t osl_acct_find(const char *name);

/* How many names have ids. */
extern int osl_acct_count(void);

/* The name of id (lower case), or NULL. */
extern const char *osl_acct_name(uint32_t id);

/* Account id is under parent (0: root) with share (a weight) as Slurm or
 * ostrich.conf says now; ignored when out of range. */
extern void osl_acct_place(uint32_t id, uint32_t parent, double share);

/* Every account back under the root with share 1 (a new ostrich.conf). */
extern void osl_acct_reset(void);

/* The ids from id up to the root's child into path[0..max).  RET their
 * count (0 for id 0), or -1 (deeper than max, or a loop) */
extern int osl_acct_path(uint32_t id, uint32_t *path, int max);

/* Names added since the last osl_acct_save? */
extern bool osl_acct_dirty(void);

/* The table of names as text ("ostrich-accounts 1", then "ID NAME" per
 * line); clears dirty (osl_acct_unsaved sets it again when the write
 * fails).  RET malloc'ed text of *len bytes */
extern char *osl_acct_save(size_t *len);
extern void osl_acct_unsaved(void);

/* Replace the table by osl_acct_save's text buf[0..len) (every account
 * under the root, share 1, until placed).  RET 0, or -1 with why in err
 * and the table empty */
extern int osl_acct_load(const char *buf, size_t len, char *err,
			 size_t errlen);

/* Forget every name, and the users' own accounts. */
extern void osl_acct_free(void);

/* Place the accounts as conf says (Weights=config, and the accounts of
 * jobs without an association): every one under the root with share 1,
 * then AccountWeights= shares, AccountParents= parents (checked: no loop);
 * and keep UserAccounts= for osl_acct_user.  Ids are assigned to the
 * names it mentions.  O(n log n + parents x weights). */
extern void osl_acct_configure(const osl_conf_t *conf);

/* uid's own account (its first UserAccounts= entry), 0: the root.
 * O(log n) */
extern uint32_t osl_acct_user(uint32_t uid);

/* The id of account name if a UserAccounts= entry gives it to uid, else
 * 0 (§23: without an association, a name a job gives counts only where
 * ostrich.conf lets its owner count).  Never assigns an id.
 * O(log n + uid's entries) */
extern uint32_t osl_acct_given(uint32_t uid, const char *name);

/* Is (uid, name), a name refused to uid's job, news to log?  True once
 * per pair, for at most 256 pairs between two osl_acct_configure()s (the
 * log stays bounded whatever users name). */
extern bool osl_acct_refused_new(uint32_t uid, const char *name);

/* Declare to p's core, at t, account id and those above it, as placed
 * (each new one, or its share when that changed), each one the core
 * takes logged to evlog (NULL: none).  RET id, or 0 when the core refused
 * one (logged): the job then counts in its owner's own. */
extern uint32_t osl_acct_declare(osl_part_t *p, uint32_t id, double t,
				 FILE *evlog);

/* Give p's core, at t, the new share of every account it knows whose
 * share changed since (a pass: sacctmgr or ostrich.conf changed it),
 * logged to evlog (NULL: none).  O(accounts). */
extern void osl_acct_refresh(osl_part_t *p, double t, FILE *evlog);

/* Forget what p's core was told (p->acct). */
extern void osl_acct_view_free(osl_part_t *p);

#endif /* _OSL_ACCT_H */
