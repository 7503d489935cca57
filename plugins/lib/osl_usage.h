/*****************************************************************************\
 *  osl_usage.h - the usage ledger of a partition (osl_usage.c: accrual;
 *  osl_ledger_io.c: its state file), and what a partition keeps besides
 *  its core (osl_ledger_t: the ledger and the stretch, osl_stretch.h).
 *  The audit record of what every user was charged (doc/semantics.md
 *  §18); the virtual schedule does not read it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_USAGE_H
#define _OSL_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "osl_obs.h"
#include "osl_stretch.h"

/* The ledger file format version osl_ledger_save() writes
 * (doc/state-format.md, "The usage ledger"). */
#define OSL_LEDGER_FORMAT 1

#include "osl_report.h"		/* the campaign report (§26) */

/* What one user was charged in one partition. */
typedef struct {
	uint32_t uid;			/* the user */
	double charged;			/* width x seconds since the ledger
					 * began (width: the observation's q) */
} osl_usage_user_t;

/* A run being accrued: a job seen running (§18). */
typedef struct {
	uint64_t key;			/* core job id */
	uint32_t uid;			/* owner */
	uint32_t q;			/* allocated width */
	int64_t start;			/* Slurm's start time of this run */
	double run;			/* seconds of it charged so far */
	double cap;			/* the most seconds it may be charged:
					 * the largest enforced limit seen
					 * while it ran (osl_obs_t.limit; an
					 * owner's cut never lowers it; inf:
					 * none), never DefaultEstimate, which
					 * only ranks */
} osl_usage_run_t;

/* A run the last pass closed or lost, and its cap (not saved). */
typedef struct {
	uint64_t key;			/* core job id */
	double cap;			/* its osl_usage_run_t.cap */
} osl_usage_ended_t;

/* A run already charged in full, while Slurm still shows its record. */
typedef struct {
	uint64_t key;			/* core job id */
	int64_t start;			/* its start time */
} osl_usage_done_t;

/* The ledger of one partition.  Zeroed, then osl_usage_init(). */
typedef struct {
	double since;			/* when it began: no run is charged
					 * for its time before (s, epoch) */
	double clock;			/* the last pass that charged (s) */
	osl_usage_user_t *users;	/* sorted by uid (malloc) */
	int nusers, cap_users;
	osl_usage_run_t *runs;		/* sorted by key (malloc) */
	int nruns, cap_runs;
	osl_usage_done_t *done;		/* sorted by (key, start) (malloc) */
	int ndone, cap_done;
	osl_usage_ended_t *ended;	/* the runs the last pass closed, or
					 * whose record was gone, sorted by
					 * key (malloc): for the core's bound
					 * (osl_usage_ran_under); not saved */
	int nended, cap_ended;
	bool unread;			/* its file could not be read (an I/O
					 * error, not a missing file): it
					 * charges nothing and is never saved,
					 * over a file that may be intact, until
					 * a read succeeds (osl_ledger_take) */
} osl_usage_t;

/* What a partition keeps besides its core (osl_part_t.ledger). */
typedef struct osl_ledger {
	osl_usage_t usage;		/* persisted (osl_ledger_io.c) */
	osl_stretch_t stretch;		/* since the engine started */
	osl_report_t report;		/* the campaigns finished, and open
					 * (osl_report_track.c; persisted by
					 * slurm/osl_report_write.c) */
} osl_ledger_t;

/* ------------------------------------------ osl_usage.c (Slurm-free) --- */

/* An empty ledger that begins at since (seconds since the epoch). */
extern void osl_usage_init(osl_usage_t *u, double since);

/* Release u's arrays; it is then empty (since kept). */
extern void osl_usage_free(osl_usage_t *u);

/*
 * Called by osl_usage_pass for every charge of a finished run (to group
 * it in its campaign, osl_stretch.c): o is its last observation, run the
 * seconds charged for it in all.
 */
typedef void (*osl_usage_fin_f)(void *arg, const osl_obs_t *o, double run);

/*
 * One pass over obs[0..n), the observations of u's partition sorted by key
 * (osl_obs_index), at now (s): charge every running job for the time it
 * ran since its last charge, every run that ended (finished, requeued,
 * cancelled while running) the rest up to its end, each run at most once
 * (§18).  fin (may be NULL) hears every run that finished.  An unread
 * ledger (u->unread) charges nothing: it is as if slurmctld were down.
 * RET the width x seconds charged by this pass
 */
extern double osl_usage_pass(osl_usage_t *u, osl_obs_t *const *obs, int n,
			     double now, osl_usage_fin_f fin, void *arg);

/*
 * The time limit Slurm enforces on a job, seconds (§1, §18): its own
 * (job_s), else its partition's MaxTime (part_s); INFINITY: none (each
 * argument INFINITY when unset or unlimited).  What a run may be charged
 * at most; DefaultEstimate is never a bound, only an estimate.
 */
extern double osl_enforced_limit(double job_s, double part_s);

/* The estimate of a job of enforced limit limit (§1): the limit, else
 * DefaultEstimate (dflt). */
extern double osl_estimate_of(double limit, double dflt);

/*
 * The largest enforced limit the ledger saw while key's last run ran: of
 * a run being charged, or one the last osl_usage_pass closed or found
 * gone.  NAN when u does not know it.  The core's bound for that run's
 * finish (osl_sync.c), so that the core charges as the ledger does.
 */
extern double osl_usage_ran_under(const osl_usage_t *u, uint64_t key);

/* What uid was charged in u (0: nothing). */
extern double osl_usage_of(const osl_usage_t *u, uint32_t uid);

/* The sum over every user. */
extern double osl_usage_total(const osl_usage_t *u);

/* -------------------------------------- osl_ledger_io.c (Slurm-free) --- */

/* What osl_ledger_load and osl_ledger_take return besides 0 (intact),
 * -1 (not a ledger) and N > OSL_LEDGER_FORMAT (a newer format N). */
#define OSL_LEDGER_SALVAGED (-2)	/* damaged: its intact records loaded */
#define OSL_LEDGER_MISSING (-3)		/* no file (ENOENT): u unchanged */
#define OSL_LEDGER_UNREAD (-4)		/* a read error: u->unread */

/*
 * u as the text of its state file (doc/state-format.md), exact: doubles
 * in hexadecimal.  RET malloc'ed text (*len bytes), NULL: out of memory,
 * or u->unread (never written over a file not read)
 */
extern char *osl_ledger_save(const osl_usage_t *u, size_t *len);

/*
 * Load buf[0..len) into u (initialized: its since is the default when
 * the file's is unusable), salvaging a damaged file line by line
 * (doc/state-format.md).
 * OUT err - a reason (size bytes) when RET != 0: for a salvage, what was
 *     lost and kept
 * RET 0 (u replaced); OSL_LEDGER_SALVAGED (u replaced by the intact
 *     records; the file should be kept aside); -1 not a ledger (u
 *     unchanged); N > OSL_LEDGER_FORMAT: a newer format N, refused
 */
extern long osl_ledger_load(osl_usage_t *u, const char *buf, size_t len,
			    char *err, size_t size);

/*
 * The outcome of a read of u's file: buf[0..len) its text, or NULL when
 * the read failed with errno err_no.  Decides whether u may be saved:
 * any failure but ENOENT leaves u->unread (empty, charging nothing, never
 * saved) until a later call succeeds.
 * RET as osl_ledger_load, or OSL_LEDGER_MISSING, OSL_LEDGER_UNREAD
 */
extern long osl_ledger_take(osl_usage_t *u, const char *buf, size_t len,
			    int err_no, char *err, size_t size);

#endif /* _OSL_USAGE_H */
