/*****************************************************************************\
 *  report_view.h - scampaign --report: the engine's campaign report
 *  (plugins/lib/osl_report.h, doc/semantics.md §26) filtered for the
 *  caller, summed per partition, user and account, and printed as a
 *  table, JSON or Prometheus text.  Slurm-free (tested by
 *  tests/scampaign/check_report_view.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_REPORT_VIEW_H
#define SC_REPORT_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osl_report.h"

/* Which campaigns the caller may see and asked for. */
typedef struct {
	const char *partitions;		/* --partition list, NULL: all */
	const char *users;		/* --user list (names or uids) */
	bool own_only;			/* PrivateData: only uid's campaigns,
					 * and no partition or account sums */
	bool no_users;			/* --metrics under PrivateData: only
					 * the partitions' sums */
	uint32_t uid;			/* the caller */
	double since;			/* --window: campaigns that ended at
					 * or after it (s, epoch); -inf: all */
} sc_report_filter_t;

/* Keep in f only the finished campaigns flt lets through, oldest end
 * first (the open ones are the engine's bookkeeping, never shown). */
void sc_report_filter(osl_report_file_t *f, const sc_report_filter_t *flt);

/* The numbers of one group of campaigns (§26): of their stretch, and of
 * the stretch ostrich's virtual completion implies (over those with one). */
typedef struct {
	uint64_t n;			/* campaigns */
	double mean, max, above20;	/* stretch: mean, max, share > 20 */
	uint64_t vn;			/* of them with a virtual completion */
	double vmean, vmax, vabove20;	/* the same of the virtual stretch */
} sc_report_sum_t;

/* The sums of the campaigns of f that match: partition (NULL: any), user
 * (NULL: any), account (NULL: any). */
void sc_report_sum(const osl_report_file_t *f, const char *part,
		   const char *user, const char *account, sc_report_sum_t *s);

/* Per partition, user and account: CAMPAIGNS MEAN MAX >20 and the same of
 * ostrich's virtual stretch; with campaigns, one row per campaign too.
 * own_only: the caller's user rows only. */
void sc_report_table(FILE *fp, const osl_report_file_t *f, bool campaigns,
		     bool noheader, bool own_only);

/* {"report":{"time":T,"since":T|null,"partitions":[...],"users":[...],
 *  "accounts":[...],"campaigns":[...]}} (scampaign.1). */
void sc_report_json(FILE *fp, const osl_report_file_t *f, double since,
		    bool own_only);

/* Prometheus text exposition format 0.0.4: the sums per partition, and
 * unless no_users per user and account (doc/admin-guide.md). */
void sc_report_metrics(FILE *fp, const osl_report_file_t *f, bool no_users,
		       bool own_only);

/* Seconds of a --window DURATION: N[smhdw] (s when no unit), N > 0.
 * RET 0, or -1 (malformed) */
int sc_report_window(const char *text, double *seconds);

#endif /* SC_REPORT_VIEW_H */
