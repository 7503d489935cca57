/*****************************************************************************\
 *  plug_util.h - fixtures for the Check tests of the adapter's Slurm-free
 *  files: a partition with a real core, made-up observations, the event
 *  log captured and read back.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OSL_PLUG_UTIL_H
#define OSL_PLUG_UTIL_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "ostrich.h"
#include "osl_acct.h"
#include "osl_evlog.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_ptab.h"
#include "osl_sync.h"
#include "osl_vec.h"

/* Generous: each test runs in milliseconds on an idle machine. */
#define PLUG_TIMEOUT 60

#define T0 1000000.0		/* an instant, seconds since the epoch */

/* What osl_error() said (stub_log.c). */
extern int stub_nerrors;
extern char stub_last_error[512];

/* A stand-in for Slurm's job records: only compared by address, or
 * reached through the comment callbacks. */
typedef struct {
	char *comment;			/* SystemComment (malloc), NULL: none */
	int sets;			/* times the engine set it */
} fake_rec_t;

#define REC(fr) ((struct job_record *) (void *) (fr))

/* A malloc'ed copy of s (strdup is not C11). */
static inline char *dup_str(const char *s)
{
	char *d = malloc(strlen(s) + 1);

	ck_assert_ptr_nonnull(d);
	return strcpy(d, s);
}

/* A partition of procs CPUs with the default configuration. */
static inline osl_part_t mk_part(uint32_t procs)
{
	osl_part_t p = { 0 };
	ost_config_t cfg;

	ost_config_init(&cfg);
	cfg.procs = procs;
	p.name = "debug";
	p.procs = procs;
	p.sched = ost_sched_create(&cfg);
	ck_assert_ptr_nonnull(p.sched);
	return p;
}

static inline void free_part(osl_part_t *p)
{
	ost_sched_destroy(p->sched);
	free(p->w);
	osl_acct_view_free(p);
	osl_ptab_free(&p->prios);
}

/* A pending observation of rec (1 CPU, 600 s, weight 1), found eligible
 * at its submission, as Slurm finds a plain job. */
static inline osl_obs_t pend(uint64_t key, uint32_t uid, double submit,
			     void *rec)
{
	osl_obs_t o = {
		.key = key, .slot = -1, .rec = rec, .st = OSL_PENDING,
		.writable = true, .uid = uid, .procs = 1, .estimate = 600,
		.weight = 1, .submit = (time_t) submit,
		.eligible = (time_t) submit, .limit = INFINITY,
	};
	return o;
}

static inline osl_obs_t running(uint64_t key, uint32_t uid, double submit,
				double start, void *rec)
{
	osl_obs_t o = pend(key, uid, submit, rec);

	o.st = OSL_RUNNING;
	o.writable = false;
	o.start = (time_t) start;
	return o;
}

/* Finished: ran from start to end (start 0: never ran). */
static inline osl_obs_t finished(uint64_t key, uint32_t uid, double submit,
				 double start, double end, void *rec)
{
	osl_obs_t o = pend(key, uid, submit, rec);

	o.st = OSL_FINISHED;
	o.writable = false;
	o.start = (time_t) start;
	o.end = (time_t) end;
	o.ran = start > 0;
	o.runtime = o.ran ? end - start : 0;
	return o;
}

/* osl_sync() on obs[0..n) (sorted here by key); the events it logged as
 * one string "op:id op:id ..." (weight, own: the uid; account: the
 * account), into out. */
static inline int sync_log(osl_part_t *p, osl_obs_t *obs, int n, double now,
			   osl_sync_scope_t scope, char *out, size_t size)
{
	osl_obs_vec_t vec = { .v = obs, .n = n, .cap = n };
	osl_obs_t **idx = osl_obs_index(&vec);
	FILE *f = tmpfile();
	char line[512];
	size_t len = 0;
	int ev;

	ck_assert_ptr_nonnull(f);
	ev = osl_sync(p, idx, n, now, scope, f);
	rewind(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		osl_evlog_rec_t r;
		unsigned long long id;

		ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
		id = r.op == OSL_LOG_WEIGHT || r.op == OSL_LOG_OWN ?
		     r.job.uid : r.op == OSL_LOG_ACCOUNT ? r.job.account :
		     r.job.id;
		len += snprintf(out + len, size - len, "%s%s:%llu",
				len ? " " : "", osl_evlog_op_name(r.op), id);
		ck_assert_uint_lt(len, size);
	}
	fclose(f);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	return ev;
}

#endif /* OSL_PLUG_UTIL_H */
