/*****************************************************************************\
 *  main.c - ostrich-sim: replay a workload under a scheduling policy and
 *  report the metrics of §7.  The options are cli.c's; the work is in
 *  workload.c, simloop.c, metrics.c and groups.c.  See doc/ostrich-sim.1.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "metrics.h"
#include "report.h"
#include "simloop.h"
#include "workload.h"
/* F with "-POLICY" inserted before its extension when comparing. */
static char *_outname(const char *f, const char *policy, bool many)
{
	const char *dot = strrchr(f, '.'), *slash = strrchr(f, '/');
	size_t n = strlen(f) + strlen(policy) + 2;
	char *s = malloc(n);

	if (!s)
		return NULL;
	if (!many)
		snprintf(s, n, "%s", f);
	else if (!dot || (slash && dot < slash))
		snprintf(s, n, "%s-%s", f, policy);
	else
		snprintf(s, n, "%.*s-%s%s", (int) (dot - f), f, policy, dot);
	return s;
}

typedef int (*writer_f)(FILE *f, const sim_workload_t *w,
			const sim_metrics_t *mt, const sim_opts_t *o);

/* The three output files, as writer_f. */
static int _w_jobs(FILE *f, const sim_workload_t *w, const sim_metrics_t *mt,
		   const sim_opts_t *o)
{
	(void) mt;
	(void) o;
	return sim_write_jobs(f, w);
}

static int _w_camps(FILE *f, const sim_workload_t *w, const sim_metrics_t *mt,
		    const sim_opts_t *o)
{
	(void) w;
	(void) o;
	return sim_write_campaigns(f, mt);
}

static int _w_summary(FILE *f, const sim_workload_t *w,
		      const sim_metrics_t *mt, const sim_opts_t *o)
{
	return sim_write_summary(f, mt, w, o);
}

/* --groups-out: the column being written (writer_f has no room for it). */
static const sim_column_t *_groups_col;
static sim_by_t _groups_by;

static int _w_groups(FILE *f, const sim_workload_t *w,
		     const sim_metrics_t *mt, const sim_opts_t *o)
{
	(void) w;
	(void) mt;
	(void) o;
	return sim_write_groups(f, _groups_by, _groups_col->groups,
				_groups_col->ngroups);
}

/* Write one output file with fn.  RET: 0 or -1 (reported). */
static int _write(const char *file, const char *policy, bool many,
		  writer_f fn, const sim_workload_t *w,
		  const sim_metrics_t *mt, const sim_opts_t *o)
{
	char *name;
	FILE *f;
	int rc;

	if (!file)
		return 0;
	if (!(name = _outname(file, policy, many)))
		return -1;
	if (!(f = fopen(name, "w"))) {
		fprintf(stderr, "ostrich-sim: %s: %s\n", name, strerror(errno));
		free(name);
		return -1;
	}
	rc = fn(f, w, mt, o);
	if (fclose(f) || rc) {
		fprintf(stderr, "ostrich-sim: %s: write error\n", name);
		rc = -1;
	}
	free(name);
	return rc;
}

/* Monotonic wall clock, s. */
static double _seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Replay w under policy p, fill the column and write the files.
 * RET: 0 or -1 (reported). */
static int _one(struct cli *c, sim_workload_t *w, sim_policy_t p,
		sim_column_t *col)
{
	sim_opts_t o = c->opts;
	bool many = c->ncompare > 1;
	char err[256];
	double t0 = _seconds();

	o.policy = p;
	col->name = sim_policy_name(p);
	if (sim_run(w, &o, err, sizeof(err))) {
		fprintf(stderr, "ostrich-sim: %s: %s\n", col->name, err);
		return -1;
	}
	col->wall = _seconds() - t0;
	if (sim_metrics_compute(w, o.procs, &col->mt) ||
	    (c->by != SIM_BY_NONE &&
	     sim_groups_compute(w, &col->mt, c->by, &col->groups,
				&col->ngroups))) {
		fprintf(stderr, "ostrich-sim: out of memory\n");
		return -1;
	}
	_groups_col = col;
	_groups_by = c->by;
	if (_write(c->jobs_out, col->name, many, _w_jobs, w, &col->mt, &o) ||
	    _write(c->camps_out, col->name, many, _w_camps, w, &col->mt, &o) ||
	    _write(c->summary_out, col->name, many, _w_summary, w, &col->mt,
		   &o) ||
	    _write(c->groups_out, col->name, many, _w_groups, w, &col->mt,
		   &o))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	sim_column_t cols[SIM_POLICY_COUNT] = { { 0 } };
	sim_workload_t w;
	struct cli c;
	char err[512];
	const char *why;
	size_t done = 0;
	uint32_t capacity;
	int rc = 1;

	if (sim_cli_parse(&c, argc, argv))
		return 2;
	c.opts.core.procs = c.opts.procs ? c.opts.procs : 1;
	if (ost_config_check(&c.opts.core, &why)) {
		fprintf(stderr, "ostrich-sim: %s\n", why ? why : "bad options");
		return 2;
	}
	if (c.partinfo && sim_partitions_read(c.partinfo, &c.parts, err,
					      sizeof(err))) {
		fprintf(stderr, "ostrich-sim: %s\n", err);
		return 1;
	}
	c.in.procs = c.opts.procs;
	c.in.gpus = c.gpus;
	c.in.exact = c.opts.exact;
	c.in.parts = c.partinfo ? &c.parts : NULL;
	rc = sim_workload_read_in(argv[optind], &c.in, &w, stderr, err,
				  sizeof(err));
	sim_partitions_free(&c.parts);
	if (rc) {
		fprintf(stderr, "ostrich-sim: %s\n", err);
		return 1;
	}
	rc = 1;
	if (c.by == SIM_BY_ACCOUNT && !w.sacct) {
		fprintf(stderr, "ostrich-sim: --by account needs a sacct "
			"dump\n");
		sim_workload_free(&w);
		return 2;
	}
	c.opts.procs = w.procs;
	c.opts.gpus = w.gpus;
	if (sim_charge_capacity(&c.opts.charge, w.procs, w.gpus, &capacity)) {
		fprintf(stderr, "ostrich-sim: --charge-weights: the machine's "
			"billing total is above 4294967295\n");
		sim_workload_free(&w);
		return 2;
	}
	c.opts.progress = !c.quiet && isatty(STDERR_FILENO);
	for (; done < c.ncompare; done++)
		if (_one(&c, &w, c.compare[done], &cols[done]))
			goto out_free;
	if (!c.quiet)
		sim_report(stdout, argv[optind], &w, &c.opts, cols, done,
			   c.by);
	rc = 0;
out_free:
	for (size_t i = 0; i <= done && i < SIM_POLICY_COUNT; i++) {
		sim_metrics_free(&cols[i].mt);
		free(cols[i].groups);
	}
	sim_workload_free(&w);
	return rc;
}
