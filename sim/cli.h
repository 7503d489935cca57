/*****************************************************************************\
 *  cli.h - ostrich-sim's command line (cli.c): the options of one
 *  invocation, parsed and checked, with their defaults (doc/ostrich-sim.1).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_CLI_H
#define OST_SIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"
#include "partinfo.h"
#include "sim.h"
#include "workload.h"

struct cli {
	sim_opts_t opts;
	sim_input_t in;             /* sacct: partitions, --unlimited-estimate */
	const char *partinfo;       /* --partition-info FILE */
	sim_partitions_t parts;
	sim_by_t by;                /* --by */
	const char *groups_out;
	sim_policy_t compare[SIM_POLICY_COUNT];
	size_t ncompare;
	const char *jobs_out, *camps_out, *summary_out;
	bool quiet;
	uint32_t gpus;          /* --gpus, or SIM_GPUS_FILE */
};

/*
 * Parse argv into c, the defaults of doc/ostrich-sim.1 first; -h prints
 * the usage on stdout and exits 0.  A bad value or usage prints why and
 * the usage on stderr.
 * RET 0, or -1 (the caller exits 2)
 */
int sim_cli_parse(struct cli *c, int argc, char **argv);

#endif /* OST_SIM_CLI_H */
