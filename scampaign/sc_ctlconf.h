/*****************************************************************************\
 *  sc_ctlconf.h - what the controller's configuration tells scampaign's
 *  file readers (--usage, --metrics, --tree, --report): where the engine's
 *  files are and who may see every user's rows
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_CTLCONF_H
#define SC_CTLCONF_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	bool have;			/* the controller answered */
	char *dir;			/* StateSaveLocation (malloc), or NULL */
	bool private;			/* PrivateData hides others' rows */
	uint32_t slurm_uid;		/* SlurmUser */
} sc_ctlconf_t;

/* Ask slurmctld for its configuration into *c.  Without an answer,
 * have = false and private = true (the safe side).  Free c->dir. */
void sc_ctlconf_load(sc_ctlconf_t *c);

#endif
