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

void sim_report(FILE *f, const char *path, const sim_workload_t *w,
		const sim_opts_t *o, const sim_column_t *cols, size_t n)
{
	uint64_t skipped = 0;

	for (int r = 0; r < SIM_SKIP_COUNT; r++)
		skipped += w->skipped[r];
	fprintf(f, "workload   %s (%s)\n", path,
		w->closed ? "closed-loop campaigns" : "SWF");
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
	if (o->gpus || o->charge.mode == SIM_CHARGE_DOMINANT ||
	    o->charge.w_cpu != 1 || o->charge.w_gpu != 0 || o->charge.max_tres)
		fprintf(f, "charge %s (CPU=%g,GRES/gpu=%g%s), ",
			sim_charge_mode_name(o->charge.mode), o->charge.w_cpu,
			o->charge.w_gpu, o->charge.max_tres ? ", MAX_TRES" : "");
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
}
