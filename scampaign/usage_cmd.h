/*****************************************************************************\
 *  usage_cmd.h - scampaign --usage / --metrics (usage_cmd.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_USAGE_CMD_H
#define SC_USAGE_CMD_H

#include <stdbool.h>

/* What the command line asked for. */
typedef struct {
	const char *state_file;		/* --state-file, NULL: the engine's */
	const char *partitions;		/* --partition list, NULL: all */
	const char *users;		/* --user list, NULL: all */
	bool json, metrics, noheader;
	bool tree;			/* --tree (tree.c) */
} sc_usage_opts_t;

/* Print the usage snapshot as o asks, filtered for the caller
 * (PrivateData, usage_cmd.c).  RET the exit status (0, or 1 said) */
int sc_usage_cmd(const sc_usage_opts_t *o);

#endif /* SC_USAGE_CMD_H */
