/*****************************************************************************\
 *  checkconf_run.c - scampaign --check-config's verdict without libslurm,
 *  for checkconf.sh: checkconf_run 22.05|26.05 OSTRICH_CONF SLURM_CONF
 *  (the release decides the defaults and the slurmdbd rule).
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "checkconf.h"

int main(int argc, char **argv)
{
	sc_release_t rel = { .default_sched = "sched/backfill" };
	sc_slurmconf_t sc;
	int rc;

	if (argc != 4 || (strcmp(argv[1], "22.05") && strcmp(argv[1], "26.05"))) {
		fprintf(stderr, "usage: checkconf_run 22.05|26.05 OSTRICH_CONF SLURM_CONF\n");
		return 2;
	}
	rel.site_update_needs_dbd = !strcmp(argv[1], "22.05");
	rel.default_priority = rel.site_update_needs_dbd ? "priority/basic" :
			       "priority/multifactor";
	if (sc_checkconf_read_slurm(argv[3], &sc, stderr))
		return 1;
	rc = sc_checkconf_judge(argv[2], &sc, true, &rel, stdout, stderr);
	sc_slurmconf_free(&sc);
	return rc;
}
