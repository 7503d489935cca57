/*****************************************************************************\
 *  report.h - the human summary table (one column per policy).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_REPORT_H
#define OST_SIM_REPORT_H

#include <stdio.h>

#include "groups.h"
#include "metrics.h"

/* One column of the table. */
typedef struct sim_column {
	const char *name;        /* policy name */
	sim_metrics_t mt;
	double wall;             /* s of wall time for the replay */
	sim_group_t *groups;     /* --by: per user or account, else NULL */
	size_t ngroups;
} sim_column_t;

/* Print the workload line and the metric table of n columns on f, then
 * with by != SIM_BY_NONE the per-group tables of cols[].groups. */
void sim_report(FILE *f, const char *path, const sim_workload_t *w,
		const sim_opts_t *o, const sim_column_t *cols, size_t n,
		sim_by_t by);

#endif /* OST_SIM_REPORT_H */
