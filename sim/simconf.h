/*****************************************************************************\
 *  simconf.h - ostrich-sim --conf: the engine keys of an ostrich.conf,
 *  judged by the plugins' own Slurm-free rules (plugins/lib/osl_conf*.c),
 *  so that a replay runs the order a site's file configures.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_SIMCONF_H
#define OST_SIM_SIMCONF_H

#include <stddef.h>

#include "ostrich.h"

/* What sim_conf_read tells its caller to say (bits of its result). */
#define SIM_CONF_FAIRCAMP 1	/* Mode=faircamp: not applied */
#define SIM_CONF_ACCOUNTS 2	/* Hierarchy=accounts: every account of
				 * share 1, the file's AccountWeights and
				 * AccountParents not replayed */

/*
 * Read the ostrich.conf at path and set core to the configuration it
 * gives the plugins' engine: ThinkTime, Capacity, IntraOrder,
 * VirtualArea, Memory, MemoryCredit, Evidence, EvidenceFloor, Rank,
 * RankCap, Gate, Lead, LeadCap, Overdue, FairCampUsers, DefaultWeight and
 * Hierarchy, each its default where the file is silent.  core->procs and
 * core->mode are kept (the replay's machine and --policy decide them).  A
 * file the plugins would refuse is refused with their message; user
 * names (UserWeights, UserAccounts) are not looked up, since the replay
 * does not read them: each distinct name is a distinct user.
 * RET 0 or SIM_CONF_* bits to note (core set all the same), or -1 with
 *     the reason in err[0..errlen) (core unchanged).
 */
int sim_conf_read(const char *path, ost_config_t *core, char *err,
		  size_t errlen);

#endif /* OST_SIM_SIMCONF_H */
