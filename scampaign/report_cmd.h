/*****************************************************************************\
 *  report_cmd.h - scampaign --report, and the report's part of --metrics
 *  (report_cmd.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_REPORT_CMD_H
#define SC_REPORT_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the command line asked for. */
typedef struct {
	const char *report_file;	/* --report-file, NULL: the engine's */
	const char *partitions;		/* --partition list, NULL: all */
	const char *users;		/* --user list, NULL: all */
	const char *window;		/* --window DURATION, NULL: all */
	bool json, noheader;
	bool campaigns;			/* --campaigns: one row per campaign */
} sc_report_opts_t;

/* Print the campaign report as o asks, filtered for the caller
 * (PrivateData, as --usage).  RET the exit status (0, or 1 said) */
int sc_report_cmd(const sc_report_opts_t *o);

/*
 * --metrics: append the report's series to fp, read from the file
 * ostrich_report in the directory of usnap_path (the usage snapshot read
 * for --metrics), quietly nothing when it is missing (an engine before
 * the report).  own_only, no_users as the usage snapshot's filter.
 * RET 0, or 1 (said: a file that exists but does not parse)
 */
int sc_report_metrics_append(FILE *fp, const char *usnap_path,
			     const char *partitions, bool own_only,
			     bool no_users, uint32_t uid);

#endif /* SC_REPORT_CMD_H */
