/*****************************************************************************\
 *  workload.h - reading a workload: SWF trace, sacct dump or closed-loop
 *  campaign file.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_WORKLOAD_H
#define OST_SIM_WORKLOAD_H

#include <stdio.h>
#include <zlib.h>

#include "partinfo.h"
#include "sim.h"

/* How to read a workload: the options that are not in the file. */
/* gpus of sim_input_t: the closed-loop file's `gpus` line (0 if none). */
#define SIM_GPUS_FILE UINT32_MAX

typedef struct sim_input {
	uint32_t procs;       /* m to use (0: from the file) */
	uint32_t gpus;        /* G: GPUs of the machine, SIM_GPUS_FILE for the
			       * closed-loop file's header (0 for SWF and
			       * sacct); a job asking for more is skipped
			       * (gpus_above_machine); w->gpus holds it */
	bool exact;           /* e = p for every job */
	const sim_partitions_t *parts;  /* sacct: --partition-info, or NULL */
	const char *partition;          /* sacct: only this partition's jobs,
					 * or NULL for all */
	double unlimited;     /* sacct: e of an UNLIMITED time limit, s;
			       * < 0: e = p (§17) */
	const char *shares;   /* sacct: --shares FILE (shares.h), or NULL */
} sim_input_t;

/* Read the workload at path: a closed-loop campaign file when its first
 * line starts with "%ostrich-campaigns", a sacct dump when its first line
 * has a '|' (§17), else SWF.  Malformed lines are reported on log (may be
 * NULL) as "path:line: reason".
 * RET: 0 and a filled *w (release with sim_workload_free), or -1 with a
 * message in err (w left empty). */
int sim_workload_read_in(const char *path, const sim_input_t *in,
			 sim_workload_t *w, FILE *log, char *err,
			 size_t errlen);

/* sim_workload_read_in with only procs and exact set (gpus from the
 * file). */
int sim_workload_read(const char *path, uint32_t procs, bool exact,
		      sim_workload_t *w, FILE *log, char *err, size_t errlen);

/* The three readers behind sim_workload_read_in, same contract (SWF and
 * sacct jobs ask for no GPU). */
int sim_swf_read(gzFile f, const char *path, uint32_t procs, bool exact,
		 sim_workload_t *w, FILE *log, char *err, size_t errlen);
int sim_cwl_read(gzFile f, const char *path, uint32_t procs, uint32_t gpus,
		 bool exact, sim_workload_t *w, FILE *log, char *err,
		 size_t errlen);
int sim_sacct_read(gzFile f, const char *path, const sim_input_t *in,
		   sim_workload_t *w, FILE *log, char *err, size_t errlen);

/* Shared by the open-loop readers (SWF, sacct). */

/* Append *j to w->jobs, *cap its allocated size.  RET: 0, or -1 (memory
 * short, w unchanged). */
int sim_workload_push(sim_workload_t *w, size_t *cap, const sim_job_t *j);

/* Drop the jobs that cannot run on m CPUs (p < 0, q = 0, q > m), count
 * them in w->skipped and, when exact, set e = p for the others (§8). */
void sim_workload_filter(sim_workload_t *w, uint32_t m, bool exact);

/* Sort w->jobs into replay order: (submit, job number), ties kept in
 * the order read (§8).  RET: 0, or -1 (memory short). */
int sim_workload_sort(sim_workload_t *w);

/* The end of an open-loop read: sim_workload_filter on w->procs, then
 * sim_workload_sort.  RET: 0, or -1 with a message in err (no usable job,
 * memory short). */
int sim_workload_finish(sim_workload_t *w, const char *path, bool exact,
			char *err, size_t errlen);

/* Parse the 18 numeric fields of one SWF job line into f[0..17].
 * RET: 0, or -1 with a static reason in *why. */
int sim_swf_parse_fields(const char *line, double f[18], const char **why);

/* qsort/bsearch order of uint32_t. */
int sim_u32_cmp(const void *a, const void *b);

/* Sort v[0..n) and keep each value once, in v[0..k).  RET: k. */
size_t sim_u32_distinct(uint32_t *v, size_t n);

#endif /* OST_SIM_WORKLOAD_H */
