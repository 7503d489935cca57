/*****************************************************************************\
 *  metrics.c - campaign stretch and the overall metrics (§7).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Per campaign c of user u (jobs j, submit t_j, runtime p_j, q_j CPUs):
 *	t_c = min t_j, C_c = max end_j, flow = C_c - t_c, W = sum q_j p_j,
 *	LB = max(W/m, max_j (t_j - t_c + p_j), 1 s),
 *	stretch = max(flow, 1 s) / LB (at least 1);
 *	on a machine with G > 0 GPUs also Wg/G in LB, Wg = sum g_j p_j (§20).
 *  Bounded slowdown of a job: max(1, (wait + p) / max(p, 10 s)).
 *  Jain's index over x_u = mean stretch of u: (sum x)^2 / (n sum x^2).
 *  Feedback metrics (§16) of user u, n_u campaigns: throughput =
 *  n_u / max(1 day, max_c C_c - min_c t_c) in campaigns per day; last
 *  delay = C - E of u's last campaign (E: its recorded end in the trace).
\*****************************************************************************/

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

static const sim_job_t *_cmp_jobs;

/* qsort order of job indices: (uid, campaign, index). */
static int _by_campaign(const void *a, const void *b)
{
	const sim_job_t *x = &_cmp_jobs[*(const uint32_t *) a];
	const sim_job_t *y = &_cmp_jobs[*(const uint32_t *) b];

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	if (x->campaign != y->campaign)
		return x->campaign < y->campaign ? -1 : 1;
	return *(const uint32_t *) a < *(const uint32_t *) b ? -1 : 1;
}

/* Same campaign: same owner and sequence number. */
static int _by_campaign_key(const sim_job_t *jobs, uint32_t a, uint32_t b)
{
	return jobs[a].uid != jobs[b].uid ||
	       jobs[a].campaign != jobs[b].campaign;
}

/* Metrics of one campaign from its n jobs ix[]. */
static void _campaign(const sim_job_t *jobs, const uint32_t *ix, size_t n,
		      uint32_t m, uint32_t G, sim_cstat_t *c)
{
	double reach = 0;

	memset(c, 0, sizeof(*c));
	c->uid = jobs[ix[0]].uid;
	c->campaign = jobs[ix[0]].campaign;
	c->submit = INFINITY;
	c->end = -INFINITY;
	c->trace_end = -INFINITY;
	c->jobs = (uint32_t) n;
	for (size_t i = 0; i < n; i++) {
		const sim_job_t *j = &jobs[ix[i]];
		c->submit = fmin(c->submit, j->submit);
		c->end = fmax(c->end, j->end);
		c->trace_end = fmax(c->trace_end, j->rec_start + j->runtime);
		c->work += (double) j->procs * j->runtime;
		c->gwork += (double) j->gpus * j->runtime;
	}
	for (size_t i = 0; i < n; i++) {
		const sim_job_t *j = &jobs[ix[i]];
		reach = fmax(reach, j->submit - c->submit + j->runtime);
	}
	c->lower_bound = fmax(fmax(c->work / m, reach), 1.0);
	if (G)
		c->lower_bound = fmax(c->lower_bound, c->gwork / G);
	c->flow = c->end - c->submit;
	/* flow >= LB but for the 1 s floor: a campaign of jobs that failed
	 * at once (0 s elapsed) and did not wait had stretch 0 (§7) */
	c->stretch = fmax(c->flow, 1.0) / c->lower_bound;
}

/* Per-user throughput and last delay (§16) from the campaigns
 * camps[a .. b) of u, in campaign order. */
static void _user_feedback(const sim_cstat_t *camps, size_t a, size_t b,
			   sim_ustat_t *u)
{
	double first = INFINITY, last = -INFINITY;

	for (size_t i = a; i < b; i++) {
		first = fmin(first, camps[i].submit);
		last = fmax(last, camps[i].end);
	}
	u->throughput = (double) (b - a) * 86400.0 / fmax(last - first,
							   86400.0);
	u->last_delay = camps[b - 1].end - camps[b - 1].trace_end;
}

/* Per-user max and mean stretch, Jain's index and the per-user
 * feedback metrics.  RET: 0 or -1. */
static int _users(sim_metrics_t *mt)
{
	size_t nu = 0, a = 0;
	double sx = 0, sx2 = 0;

	mt->users = calloc(mt->ncamps + 1, sizeof(*mt->users));
	if (!mt->users)
		return -1;
	for (size_t i = 0; i < mt->ncamps; i++) {
		const sim_cstat_t *c = &mt->camps[i];
		if (!nu || mt->users[nu - 1].uid != c->uid) {
			if (nu)
				_user_feedback(mt->camps, a, i,
					       &mt->users[nu - 1]);
			mt->users[nu++].uid = c->uid;
			a = i;
		}
		sim_ustat_t *u = &mt->users[nu - 1];
		u->campaigns++;
		u->max_stretch = fmax(u->max_stretch, c->stretch);
		u->mean_stretch += c->stretch;
	}
	if (nu)
		_user_feedback(mt->camps, a, mt->ncamps, &mt->users[nu - 1]);
	mt->max_last_delay = nu ? -INFINITY : 0;
	for (size_t i = 0; i < nu; i++) {
		sim_ustat_t *u = &mt->users[i];
		u->mean_stretch /= u->campaigns;
		sx += u->mean_stretch;
		sx2 += u->mean_stretch * u->mean_stretch;
		mt->mean_throughput += u->throughput / (double) nu;
		mt->mean_last_delay += u->last_delay / (double) nu;
		mt->max_last_delay = fmax(mt->max_last_delay, u->last_delay);
	}
	mt->nusers = nu;
	mt->jain = sx2 > 0 ? sx * sx / ((double) nu * sx2) : 1.0;
	return 0;
}

/* Job and campaign aggregates of §7. */
static void _overall(const sim_workload_t *w, uint32_t m, sim_metrics_t *mt)
{
	double first = INFINITY, last = -INFINITY, wait = 0, bsld = 0;
	size_t gt20 = 0, le2 = 0;

	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		double wt = j->start - j->submit;

		first = fmin(first, j->submit);
		last = fmax(last, j->end);
		wait += wt;
		bsld += fmax(1.0, (wt + j->runtime) / fmax(j->runtime, 10.0));
		mt->work += (double) j->procs * j->runtime;
	}
	mt->jobs = w->njobs;
	mt->makespan = last - first;
	mt->utilization = mt->makespan > 0 ? mt->work / (m * mt->makespan) : 0;
	mt->camps_per_day = mt->makespan > 0 ?
			    (double) mt->ncamps * 86400.0 / mt->makespan : 0;
	mt->mean_wait = wait / (double) w->njobs;
	mt->mean_bsld = bsld / (double) w->njobs;
	for (size_t i = 0; i < mt->ncamps; i++) {
		double s = mt->camps[i].stretch;
		mt->max_stretch = fmax(mt->max_stretch, s);
		mt->mean_stretch += s;
		gt20 += s > 20;
		le2 += s <= 2;
	}
	mt->mean_stretch /= (double) mt->ncamps;
	mt->share_gt_20 = (double) gt20 / (double) mt->ncamps;
	mt->share_le_2 = (double) le2 / (double) mt->ncamps;
}

int sim_metrics_compute(const sim_workload_t *w, uint32_t m,
			sim_metrics_t *out)
{
	uint32_t *ix = malloc((w->njobs + 1) * sizeof(*ix));
	size_t a = 0;

	memset(out, 0, sizeof(*out));
	out->camps = malloc((w->njobs + 1) * sizeof(*out->camps));
	if (!ix || !out->camps)
		goto out_nomem;
	for (size_t i = 0; i < w->njobs; i++)
		ix[i] = (uint32_t) i;
	_cmp_jobs = w->jobs;
	qsort(ix, w->njobs, sizeof(*ix), _by_campaign);
	while (a < w->njobs) {
		size_t b = a + 1;
		while (b < w->njobs && !_by_campaign_key(w->jobs, ix[a], ix[b]))
			b++;
		_campaign(w->jobs, ix + a, b - a, m, w->gpus,
			  &out->camps[out->ncamps++]);
		a = b;
	}
	free(ix);
	if (_users(out))
		goto out_nomem;
	_overall(w, m, out);
	return 0;
out_nomem:
	free(ix);
	sim_metrics_free(out);
	return -1;
}

void sim_metrics_free(sim_metrics_t *mt)
{
	if (!mt)
		return;
	free(mt->camps);
	free(mt->users);
	memset(mt, 0, sizeof(*mt));
}

int sim_write_jobs(FILE *f, const sim_workload_t *w)
{
	fputs("job,user,campaign,submit,start,end,procs,runtime,estimate", f);
	fputs(w->gpus ? ",gpus,width\n" : "\n", f);
	for (size_t i = 0; i < w->njobs; i++) {
		const sim_job_t *j = &w->jobs[i];
		fprintf(f, "%llu,%u,%u,%.15g,%.15g,%.15g,%u,%.15g,%.15g",
			(unsigned long long) j->number, j->uid, j->campaign,
			j->submit, j->start, j->end, j->procs, j->runtime,
			j->estimate);
		if (w->gpus)
			fprintf(f, ",%u,%u", j->gpus, j->width);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int sim_write_campaigns(FILE *f, const sim_metrics_t *mt)
{
	fputs("user,campaign,submit,end,jobs,work,lower_bound,flow,stretch\n",
	      f);
	for (size_t i = 0; i < mt->ncamps; i++) {
		const sim_cstat_t *c = &mt->camps[i];
		fprintf(f, "%u,%u,%.15g,%.15g,%u,%.15g,%.15g,%.15g,%.15g\n",
			c->uid, c->campaign, c->submit, c->end, c->jobs,
			c->work, c->lower_bound, c->flow, c->stretch);
	}
	return ferror(f) ? -1 : 0;
}

/* The "feedback" object of the summary (§16), closing the summary. */
static void _write_feedback(FILE *f, const sim_metrics_t *mt,
			    const sim_workload_t *w, const sim_opts_t *o)
{
	fprintf(f, "  \"feedback\": {\n    \"threshold\": %.15g,\n"
		"    \"dependent_campaigns\": %zu,\n"
		"    \"campaigns_per_day\": %.15g,\n"
		"    \"mean_user_throughput\": %.15g,\n"
		"    \"mean_last_delay\": %.15g,\n"
		"    \"max_last_delay\": %.15g,\n    \"per_user\": [",
		o->fb_threshold, w->dependent, mt->camps_per_day,
		mt->mean_throughput, mt->mean_last_delay, mt->max_last_delay);
	for (size_t i = 0; i < mt->nusers; i++) {
		const sim_ustat_t *u = &mt->users[i];
		fprintf(f, "%s\n      {\"uid\": %u, \"campaigns\": %u, "
			"\"throughput\": %.15g, \"last_delay\": %.15g}",
			i ? "," : "", u->uid, u->campaigns, u->throughput,
			u->last_delay);
	}
	fputs("\n    ]\n  }\n}\n", f);
}

int sim_write_summary(FILE *f, const sim_metrics_t *mt,
		      const sim_workload_t *w, const sim_opts_t *o)
{
	fprintf(f, "{\n  \"policy\": \"%s\",\n  \"dispatch\": \"%s\",\n"
		"  \"procs\": %u,\n", sim_policy_name(o->policy),
		sim_dispatch_name(o->dispatch), o->procs);
	fprintf(f, "  \"gpus\": %u,\n  \"charge\": \"%s\",\n",
		o->gpus, ost_charge_name(o->charge.mode));
	fprintf(f, "  \"max_stretch\": %.15g,\n  \"mean_stretch\": %.15g,\n"
		"  \"share_stretch_gt_20\": %.15g,\n"
		"  \"share_stretch_le_2\": %.15g,\n", mt->max_stretch,
		mt->mean_stretch, mt->share_gt_20, mt->share_le_2);
	fprintf(f, "  \"utilization\": %.15g,\n  \"makespan\": %.15g,\n"
		"  \"mean_wait\": %.15g,\n  \"mean_bsld\": %.15g,\n"
		"  \"jain_user_mean_stretch\": %.15g,\n", mt->utilization,
		mt->makespan, mt->mean_wait, mt->mean_bsld, mt->jain);
	fprintf(f, "  \"jobs\": %zu,\n  \"campaigns\": %zu,\n"
		"  \"users\": %zu,\n  \"skipped\": {", mt->jobs, mt->ncamps,
		mt->nusers);
	for (int r = 0; r < SIM_SKIP_COUNT; r++) {
		/* gpus_above_machine only where GPUs exist (§20), so a
		 * CPU-only summary reads as before */
		if (r == SIM_SKIP_GPUS && !w->gpus && !w->skipped[r])
			continue;
		fprintf(f, "%s\"%s\": %llu", r ? ", " : "",
			sim_skip_name((enum sim_skip) r),
			(unsigned long long) w->skipped[r]);
	}
	fputs(o->feedback ? "},\n" : "}\n}\n", f);
	if (o->feedback)
		_write_feedback(f, mt, w, o);
	return ferror(f) ? -1 : 0;
}
