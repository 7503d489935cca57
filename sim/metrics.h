/*****************************************************************************\
 *  metrics.h - the metrics of §7 from a simulated schedule, and
 *  their CSV / JSON files.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_METRICS_H
#define OST_SIM_METRICS_H

#include <stdio.h>

#include "sim.h"

/* One campaign (§7). */
typedef struct sim_cstat {
	uint32_t uid, campaign;
	double submit;       /* t_c, s */
	double end;          /* C_c, s */
	uint32_t jobs;
	double work;         /* sum q*p, CPU-s */
	double gwork;        /* sum g*p, GPU-s */
	double lower_bound;  /* max(work/m, gwork/G, max_j(t_j - t_c + p_j),
			      * 1), s (no gwork/G term when G = 0) */
	double flow;         /* C_c - t_c, s */
	double stretch;      /* flow / lower_bound */
	double trace_end;    /* SWF: max recorded start + p, s (§16) */
} sim_cstat_t;

/* One user. */
typedef struct sim_ustat {
	uint32_t uid;
	uint32_t campaigns;
	double max_stretch, mean_stretch;
	double throughput;   /* campaigns per day of activity (§16) */
	double last_delay;   /* C of the last campaign minus its trace end */
} sim_ustat_t;

typedef struct sim_metrics {
	sim_cstat_t *camps;  /* by (uid, campaign) */
	size_t ncamps;
	sim_ustat_t *users;  /* by uid */
	size_t nusers;
	size_t jobs;
	double max_stretch, mean_stretch;
	double share_gt_20, share_le_2;  /* fractions of campaigns */
	double utilization;  /* sum q*p / (m * makespan) */
	double makespan;     /* last end - first submit, s */
	double mean_wait;    /* s */
	double mean_bsld;    /* bounded slowdown, threshold 10 s */
	double jain;         /* Jain's index over per-user mean stretch */
	double work;         /* sum q*p */
	/* §16, reported with --feedback */
	double camps_per_day;     /* campaigns / makespan, per day */
	double mean_throughput;   /* mean over users of throughput */
	double mean_last_delay, max_last_delay;   /* s */
} sim_metrics_t;

/* Compute the metrics of w's simulated schedule on m CPUs and w->gpus
 * GPUs (every job must have run).  RET: 0, or -1 when memory is short.  O(n log n). */
int sim_metrics_compute(const sim_workload_t *w, uint32_t m,
			sim_metrics_t *out);

/* Release what sim_metrics_compute allocated.  NULL is a no-op. */
void sim_metrics_free(sim_metrics_t *mt);

/* Write the files of the interface (header lines exactly as documented;
 * the jobs file has two more columns, gpus and width, when w->gpus > 0).
 * RET: 0, or -1 with errno set (I/O error). */
int sim_write_jobs(FILE *f, const sim_workload_t *w);
int sim_write_campaigns(FILE *f, const sim_metrics_t *mt);
int sim_write_summary(FILE *f, const sim_metrics_t *mt,
		      const sim_workload_t *w, const sim_opts_t *o);

#endif /* OST_SIM_METRICS_H */
