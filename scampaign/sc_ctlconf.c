/*****************************************************************************\
 *  sc_ctlconf.c - StateSaveLocation, PrivateData and SlurmUser from the
 *  running slurmctld, for the readers of the engine's files
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "sc_compat.h"
#include "sc_ctlconf.h"

void sc_ctlconf_load(sc_ctlconf_t *c)
{
	slurm_conf_t *conf = NULL;

	memset(c, 0, sizeof(*c));
	c->private = true;		/* unknown: the safe side */
	if (slurm_load_ctl_conf((time_t) 0, &conf) != SLURM_SUCCESS)
		return;
	c->have = true;
	c->dir = conf->state_save_location ?
		 strdup(conf->state_save_location) : NULL;
	c->private = conf->private_data &
		     (PRIVATE_DATA_ACCOUNTS | PRIVATE_DATA_JOBS |
		      PRIVATE_DATA_USAGE | PRIVATE_DATA_USERS);
	c->slurm_uid = conf->slurm_user_id;
	sc_free_conf(conf);
}
