/*****************************************************************************\
 *  groups.c - the metrics of §7 per user or per account (§17).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Group g with campaigns C_g and jobs J_g: mean and max stretch over C_g,
 *  share of C_g with stretch > 20, mean wait (start - submit) over J_g.
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"

/* The campaign of job j in mt->camps (sorted by uid, campaign). */
static size_t _camp_of(const sim_metrics_t *mt, const sim_job_t *j)
{
	size_t lo = 0, hi = mt->ncamps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const sim_cstat_t *c = &mt->camps[mid];

		if (c->uid < j->uid ||
		    (c->uid == j->uid && c->campaign < j->campaign))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The group of job j. */
static uint32_t _group(sim_by_t by, const sim_job_t *j)
{
	return by == SIM_BY_ACCOUNT ? j->account : j->uidx;
}

/* Names of the n groups. */
static void _names(const sim_workload_t *w, sim_by_t by, sim_group_t *g,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		g[i].name = by == SIM_BY_ACCOUNT ? w->accounts[i] :
			    sim_user_name(w, w->uids[i], g[i].num);
}

int sim_groups_compute(const sim_workload_t *w, const sim_metrics_t *mt,
		       sim_by_t by, sim_group_t **out, size_t *n)
{
	size_t ng = by == SIM_BY_ACCOUNT ? w->naccounts : w->nusers;
	uint32_t *cg = malloc((mt->ncamps + 1) * sizeof(*cg));
	sim_group_t *g = calloc(ng + 1, sizeof(*g));

	*out = NULL;
	*n = 0;
	if (!cg || !g || !ng || (by != SIM_BY_USER && by != SIM_BY_ACCOUNT)) {
		free(cg);
		free(g);
		return -1;
	}
	for (size_t c = 0; c < mt->ncamps; c++)
		cg[c] = UINT32_MAX;
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		size_t c = _camp_of(mt, j);
		uint32_t k = _group(by, j);

		if (c < mt->ncamps && cg[c] == UINT32_MAX)
			cg[c] = k;
		g[k].jobs++;
		g[k].mean_wait += j->start - j->submit;
	}
	for (size_t c = 0; c < mt->ncamps; c++) {
		sim_group_t *x = &g[cg[c]];
		double s = mt->camps[c].stretch;

		x->campaigns++;
		x->mean_stretch += s;
		x->max_stretch = fmax(x->max_stretch, s);
		x->share_gt_20 += s > 20;
	}
	for (size_t k = 0; k < ng; k++) {
		if (g[k].campaigns) {
			g[k].mean_stretch /= g[k].campaigns;
			g[k].share_gt_20 /= g[k].campaigns;
		}
		if (g[k].jobs)
			g[k].mean_wait /= g[k].jobs;
	}
	_names(w, by, g, ng);
	free(cg);
	*out = g;
	*n = ng;
	return 0;
}

int sim_write_groups(FILE *f, sim_by_t by, const sim_group_t *g, size_t n)
{
	fputs("by,name,campaigns,jobs,mean_stretch,max_stretch,share_gt_20,"
	      "mean_wait\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s,%s,%u,%u,%.15g,%.15g,%.15g,%.15g\n",
			sim_by_name(by), g[i].name, g[i].campaigns, g[i].jobs,
			g[i].mean_stretch, g[i].max_stretch, g[i].share_gt_20,
			g[i].mean_wait);
	return ferror(f) ? -1 : 0;
}

int sim_by_parse(const char *s, sim_by_t *out)
{
	if (!strcmp(s, "user"))
		*out = SIM_BY_USER;
	else if (!strcmp(s, "account"))
		*out = SIM_BY_ACCOUNT;
	else
		return -1;
	return 0;
}

const char *sim_by_name(sim_by_t by)
{
	return by == SIM_BY_ACCOUNT ? "account" : "user";
}
