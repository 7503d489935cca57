/*****************************************************************************\
 *  usage.h - scampaign --usage and --metrics: the engine's usage snapshot
 *  (plugins/lib/osl_usnap.h) filtered for the caller and printed as a
 *  table, JSON or Prometheus text.  Slurm-free (tested by
 *  tests/scampaign/check_usage_view.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_USAGE_H
#define SC_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osl_usnap.h"

/* Which rows the caller may see and asked for. */
typedef struct {
	const char *partitions;		/* --partition list, NULL: all */
	const char *users;		/* --user list (names or uids) */
	bool own_only;			/* PrivateData: only uid's rows */
	bool no_users;			/* no user's rows at all (--metrics
					 * under PrivateData: published) */
	uint32_t uid;			/* the caller */
} sc_usage_filter_t;

/* Drop from s the partitions and users f leaves out.  Under own_only the
 * partition-wide numbers stay (as sinfo's), other users' rows go; under
 * no_users every user's row and the tree go. */
void sc_usage_filter(osl_usnap_t *s, const sc_usage_filter_t *f);

/* PARTITION USER CHARGED UNIT SHARE, one row per partition and user. */
void sc_usage_table(FILE *fp, const osl_usnap_t *s, bool noheader);

/* {"usage":[{"partition":P,"user":U,"uid":N,"charged":X,"unit":U,
 *  "share":X,"since":T},...]} */
void sc_usage_json(FILE *fp, const osl_usnap_t *s);

/* Prometheus text exposition format 0.0.4 (doc/admin-guide.md, "Usage
 * and metrics"). */
void sc_metrics(FILE *fp, const osl_usnap_t *s);

#endif /* SC_USAGE_H */
