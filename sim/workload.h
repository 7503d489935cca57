/*****************************************************************************\
 *  workload.h - reading a workload: SWF trace or closed-loop campaign file.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_WORKLOAD_H
#define OST_SIM_WORKLOAD_H

#include <stdio.h>
#include <zlib.h>

#include "sim.h"

/* Read one line of f (plain or gzip) into *buf (grown as needed, NUL
 * terminated, newline removed).  RET: length, or -1 at end of file. */
long sim_getline(gzFile f, char **buf, size_t *cap);

/* Read the workload at path: a closed-loop campaign file when its first
 * line starts with "%ostrich-campaigns", else SWF.  procs: m to use
 * (0: the file's header).  exact: e = p for every job.  Malformed lines
 * are reported on log (may be NULL) as "path:line: reason".
 * RET: 0 and a filled *w (release with sim_workload_free), or -1 with a
 * message in err (w left empty). */
int sim_workload_read(const char *path, uint32_t procs, bool exact,
		      sim_workload_t *w, FILE *log, char *err, size_t errlen);

/* The two readers behind sim_workload_read, same contract. */
int sim_swf_read(gzFile f, const char *path, uint32_t procs, bool exact,
		 sim_workload_t *w, FILE *log, char *err, size_t errlen);
int sim_cwl_read(gzFile f, const char *path, uint32_t procs, bool exact,
		 sim_workload_t *w, FILE *log, char *err, size_t errlen);

/* Parse the 18 numeric fields of one SWF job line into f[0..17].
 * RET: 0, or -1 with a static reason in *why. */
int sim_swf_parse_fields(const char *line, double f[18], const char **why);

/* qsort/bsearch order of uint32_t. */
int sim_u32_cmp(const void *a, const void *b);

/* Sort v[0..n) and keep each value once, in v[0..k).  RET: k. */
size_t sim_u32_distinct(uint32_t *v, size_t n);

#endif /* OST_SIM_WORKLOAD_H */
