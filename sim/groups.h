/*****************************************************************************\
 *  groups.h - the metrics of §7 per user or per account (--by, §17).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_GROUPS_H
#define OST_SIM_GROUPS_H

#include <stdio.h>

#include "metrics.h"

typedef enum { SIM_BY_NONE = 0, SIM_BY_USER, SIM_BY_ACCOUNT } sim_by_t;

/* One user or account. */
typedef struct sim_group {
	const char *name;      /* points into w, or into num */
	char num[16];          /* a user without a name: its id */
	uint32_t campaigns, jobs;
	double mean_stretch, max_stretch;
	double share_gt_20;    /* fraction of its campaigns */
	double mean_wait;      /* s, over its jobs */
} sim_group_t;

/* Metrics per group of w's replay mt: per user (w->uids order) or per
 * account (w->accounts order; sacct input only).  A campaign counts for
 * the account of its first job in replay order, a job for its own.
 * RET: 0 and *out (n entries, free()), or -1 (memory short, or accounts
 * of a workload that has none). */
int sim_groups_compute(const sim_workload_t *w, const sim_metrics_t *mt,
		       sim_by_t by, sim_group_t **out, size_t *n);

/* CSV "by,name,campaigns,jobs,mean_stretch,max_stretch,share_gt_20,
 * mean_wait".  RET: 0, or -1 with errno (I/O error). */
int sim_write_groups(FILE *f, sim_by_t by, const sim_group_t *g, size_t n);

/* Parse "user" or "account".  RET: 0 or -1. */
int sim_by_parse(const char *s, sim_by_t *out);
const char *sim_by_name(sim_by_t by);

#endif /* OST_SIM_GROUPS_H */
