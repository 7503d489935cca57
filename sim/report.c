/*****************************************************************************\
 *  report.c - human summary of one or several replays.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stddef.h>

#include "report.h"

struct row {
	const char *label;
	const char *fmt;
	double scale;
	size_t off;          /* offset of a double in sim_metrics_t */
};

#define ROW(l, f, s, field) { l, f, s, offsetof(sim_metrics_t, field) }

static const struct row _rows[] = {
	ROW("max stretch", "%12.2f", 1, max_stretch),
	ROW("mean stretch", "%12.3f", 1, mean_stretch),
	ROW("campaigns stretch > 20 (%)", "%12.2f", 100, share_gt_20),
	ROW("campaigns stretch <= 2 (%)", "%12.2f", 100, share_le_2),
	ROW("utilization (%)", "%12.2f", 100, utilization),
	ROW("makespan (s)", "%12.0f", 1, makespan),
	ROW("mean wait (s)", "%12.1f", 1, mean_wait),
	ROW("mean bounded slowdown", "%12.3f", 1, mean_bsld),
	ROW("Jain index (user mean stretch)", "%12.4f", 1, jain),
};

/* With --feedback (§16). */
static const struct row _fb_rows[] = {
	ROW("campaigns per day", "%12.2f", 1, camps_per_day),
	ROW("mean user throughput (/day)", "%12.3f", 1, mean_throughput),
	ROW("mean last-campaign delay (s)", "%12.0f", 1, mean_last_delay),
	ROW("max last-campaign delay (s)", "%12.0f", 1, max_last_delay),
};

/* The rows r[0 .. n) of every column. */
static void _rows_out(FILE *f, const struct row *r, size_t nr,
		      const sim_column_t *cols, size_t n)
{
	for (size_t i = 0; i < nr; i++) {
		fprintf(f, "%-32s", r[i].label);
		for (size_t c = 0; c < n; c++) {
			const char *base = (const char *) &cols[c].mt;
			double v = *(const double *) (base + r[i].off);
			fprintf(f, r[i].fmt, v * r[i].scale);
		}
		fputc('\n', f);
	}
}

/* Per-group columns: label, format, scale, offset in sim_group_t. */
static const struct row _group_rows[] = {
	{ "mean stretch", "%12.3f", 1, offsetof(sim_group_t, mean_stretch) },
	{ "max stretch", "%12.2f", 1, offsetof(sim_group_t, max_stretch) },
	{ "stretch > 20 (%)", "%12.2f", 100,
	  offsetof(sim_group_t, share_gt_20) },
	{ "mean wait (s)", "%12.1f", 1, offsetof(sim_group_t, mean_wait) },
};

/* One table per row of _group_rows: a line per group, a column per
 * policy.  Every column has the same groups (same workload). */
static void _groups_out(FILE *f, sim_by_t by, const sim_column_t *cols,
			size_t n)
{
	for (size_t i = 0; i < sizeof(_group_rows) / sizeof(_group_rows[0]);
	     i++) {
		const struct row *r = &_group_rows[i];
		char title[64];

		snprintf(title, sizeof(title), "per %s: %s", sim_by_name(by),
			 r->label);
		fprintf(f, "\n%-32s%10s", title, "campaigns");
		for (size_t c = 0; c < n; c++)
			fprintf(f, "%12s", cols[c].name);
		fputc('\n', f);
		for (size_t g = 0; n && g < cols[0].ngroups; g++) {
			fprintf(f, "  %-30.30s%10u", cols[0].groups[g].name,
				cols[0].groups[g].campaigns);
			for (size_t c = 0; c < n; c++) {
				const char *base =
					(const char *) &cols[c].groups[g];
				double v = *(const double *) (base + r->off);
				fprintf(f, r->fmt, v * r->scale);
			}
			fputc('\n', f);
		}
	}
}

/* The rows of a sacct dump left out of the replay (§17). */
static void _sacct_left_out(FILE *f, const sim_workload_t *w)
{
	uint64_t left = 0;

	for (int r = 0; r < SIM_SACCT_SKIP_COUNT; r++)
		left += w->sacct_skipped[r];
	fprintf(f, "\nsacct      partitions %s, %u accounts; %llu rows left "
		"out", w->partitions ? w->partitions : "", w->naccounts,
		(unsigned long long) left);
	for (int r = 0; r < SIM_SACCT_SKIP_COUNT; r++)
		if (w->sacct_skipped[r])
			fprintf(f, " (%s %llu)",
				sim_sacct_skip_name((enum sim_sacct_skip) r),
				(unsigned long long) w->sacct_skipped[r]);
}

void sim_report(FILE *f, const char *path, const sim_workload_t *w,
		const sim_opts_t *o, const sim_column_t *cols, size_t n,
		sim_by_t by)
{
	uint64_t skipped = 0;

	for (int r = 0; r < SIM_SKIP_COUNT; r++)
		skipped += w->skipped[r];
	fprintf(f, "workload   %s (%s)\n", path,
		w->closed ? "closed-loop campaigns" :
		w->sacct ? "sacct" : "SWF");
	fprintf(f, "machine    m = %u CPUs", o->procs);
	if (o->gpus)
		fprintf(f, ", G = %u GPUs", o->gpus);
	fprintf(f, "; %zu jobs, %u users, %zu campaigns; "
		"%llu lines skipped", w->njobs, w->nusers,
		n ? cols[0].mt.ncamps : 0, (unsigned long long) skipped);
	for (int r = 0; r < SIM_SKIP_COUNT; r++)
		if (w->skipped[r])
			fprintf(f, " (%s %llu)", sim_skip_name((enum sim_skip) r),
				(unsigned long long) w->skipped[r]);
	if (w->sacct)
		_sacct_left_out(f, w);
	fprintf(f, "\nsettings   dispatch %s, ", sim_dispatch_name(o->dispatch));
	if (w->closed)
		fputs("explicit campaigns (closed loop), ", f);
	else
		fprintf(f, "grouping %s, think time %g s, ",
			o->grouping == SIM_GROUP_TRACE ? "trace" : "online",
			o->core.think_time);
	if (o->feedback)
		fprintf(f, "feedback (threshold %g s, %zu dependent "
			"campaigns), ", o->fb_threshold, w->dependent);
	if (o->gpus || o->charge.mode == OST_CHARGE_DOMINANT ||
	    o->charge.w_cpu != 1 || o->charge.w_gpu != 0 || o->charge.max_tres)
		fprintf(f, "charge %s (CPU=%g,GRES/gpu=%g%s), ",
			ost_charge_name(o->charge.mode), o->charge.w_cpu,
			o->charge.w_gpu, o->charge.max_tres ? ", MAX_TRES" : "");
	if (o->core.lead != OST_LEAD_KEEP)	/* §24; keep: as before */
		fprintf(f, "lead %s (kappa %g), ", ost_lead_name(o->core.lead),
			o->core.lead_cap);
	if (o->core.overdue != OST_OVERDUE_RANK)	/* §27 */
		fprintf(f, "overdue %s, ",
			ost_overdue_name(o->core.overdue));
	/* the variants, when not the default (as lead and overdue), so
	 * that a replay of an ostrich.conf (--conf) shows what it ran */
	if (o->core.varea != OST_VAREA_REQUESTED)	/* §10 */
		fprintf(f, "virtual area %s, ", ost_varea_name(o->core.varea));
	if (o->core.memory)				/* §11, §15 */
		fprintf(f, "memory %s (credit %g s), ",
			o->core.memory_key ? "key" : "on",
			o->core.memory_credit);
	if (o->core.evidence)				/* §12 */
		fprintf(f, "evidence (floor %g s), ", o->core.evidence_floor);
	if (o->core.rank != OST_RANK_FINISH)		/* §13, §14 */
		fprintf(f, "rank %s (cap %g s), ", ost_rank_name(o->core.rank),
			o->core.rank_cap);
	if (o->core.hierarchy != OST_HIER_USERS)	/* §21 */
		fprintf(f, "hierarchy %s, ", ost_hier_name(o->core.hierarchy));
	if (o->core.faircamp_users)			/* §5 */
		fprintf(f, "faircamp users %u, ", o->core.faircamp_users);
	fprintf(f, "estimates %s, capacity %s, gate %s, intra %s\n\n",
		o->exact ? "exact" : "requested",
		ost_capacity_name(o->core.capacity),
		ost_gate_name(o->core.gate), ost_intra_name(o->core.intra));
	fprintf(f, "%-32s", "metric");
	for (size_t c = 0; c < n; c++)
		fprintf(f, "%12s", cols[c].name);
	fputc('\n', f);
	_rows_out(f, _rows, sizeof(_rows) / sizeof(_rows[0]), cols, n);
	if (o->feedback)
		_rows_out(f, _fb_rows, sizeof(_fb_rows) / sizeof(_fb_rows[0]),
			  cols, n);
	fprintf(f, "%-32s", "wall time (s)");
	for (size_t c = 0; c < n; c++)
		fprintf(f, "%12.3f", cols[c].wall);
	fputc('\n', f);
	if (by != SIM_BY_NONE)
		_groups_out(f, by, cols, n);
}
