/*****************************************************************************\
 *  usage_cmd.h - scampaign --usage / --metrics (usage_cmd.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_USAGE_CMD_H
#define SC_USAGE_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the command line asked for. */
typedef struct {
	const char *state_file;		/* --state-file, NULL: the engine's */
	const char *partitions;		/* --partition list, NULL: all */
	const char *users;		/* --user list, NULL: all */
	bool json, metrics, noheader;
	bool tree;			/* --tree (tree.c) */
	bool per_user;			/* --per-user: --metrics keeps the
					 * per-user series under PrivateData */
} sc_usage_opts_t;

/* Write to fp the share of account in partition and of uid's leaf in it
 * (sc_tree_explain), read from the usage snapshot at state_file (NULL:
 * the engine's), quietly: nothing when the file cannot be read, the
 * caller may not see uid's rows (PrivateData) or the partition is not
 * nested.  RET 0 if written, -1 if not */
int sc_usage_explain_account(const char *state_file, const char *partition,
			     const char *account, uint32_t uid,
			     const char *user, FILE *fp);

/* Print the usage snapshot as o asks, filtered for the caller
 * (PrivateData, usage_cmd.c).  RET the exit status (0, or 1 said) */
int sc_usage_cmd(const sc_usage_opts_t *o);

#endif /* SC_USAGE_CMD_H */
