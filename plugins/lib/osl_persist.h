/*****************************************************************************\
 *  osl_persist.h - the Slurm-free helpers of a bad day: clock steps and the
 *  age of state files (osl_clock.c), waits on the monotonic clock
 *  (osl_wait.c), unusable state files kept aside (osl_aside.c), rate-limited
 *  errors (osl_ratelim.c).
 *  Part of the adapter's private interface: included by osl.h
 *  (which holds the types and the lock order), never on its own.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_PERSIST_H
#define _OSL_PERSIST_H

/* ------------------------------------------ osl_clock.c (Slurm-free) --- */

/* A wall clock behind the core's by more than this (seconds) stepped back. */
#define OSL_SKEW_BACK 60.0
/* Between two passes, a wall clock ahead by more than the larger of this
 * (seconds) and 10 Interval jumped forward. */
#define OSL_SKEW_FORWARD 3600.0
/* A state file whose clock is older than this (seconds: 7 days) is not
 * loaded; the partition is rebuilt from the job records. */
#define OSL_STATE_MAX_AGE (7 * 86400.0)

/*
 * The shift to rebase a schedule whose clock is core_now by, now being the
 * wall clock and interval the pass interval (seconds); continuous: a pass
 * of this process set core_now (so a gap is no downtime).  The rule is
 * above the definition (osl_clock.c).
 * RET seconds (< 0: back, > 0: forward), 0 for none
 */
extern double osl_clock_skew(double core_now, double now, double interval,
			     bool continuous);

/*
 * At the start of a pass of p at now: when osl_clock_skew() finds a step,
 * log it (osl_error), rebase p's core, log the rebase to evlog (may be
 * NULL).  Marks p as passed.
 * RET true if the schedule was rebased
 */
extern bool osl_clock_check(osl_part_t *p, double now, double interval,
			    FILE *evlog);

/* Is a state file whose clock is saved too old at now (OSL_STATE_MAX_AGE)? */
extern bool osl_state_stale(double saved, double now);

/* -------------------------------------------- osl_wait.c (Slurm-free) --- */

/* Initialize cond, timed on CLOCK_MONOTONIC.  RET 0, or an errno value
 * (cond then not initialized). */
extern int osl_cond_init_mono(pthread_cond_t *cond);

/* Now, on CLOCK_MONOTONIC when mono (a cond of osl_cond_init_mono), else
 * CLOCK_REALTIME: the base of a pthread_cond_timedwait() deadline. */
extern void osl_wait_now(bool mono, struct timespec *ts);

/* Woken passes hold the job write lock at most 1/OSL_WAKE_DUTY of the
 * wall time (osl_wake_deadline). */
#define OSL_WAKE_DUTY 10

/* *out = begun + the gap before a pass woken by a submission may start:
 * max(1 s, OSL_WAKE_DUTY x held), at most interval seconds; held is how
 * long the last pass held slurmctld's locks (s, negative taken as 0). */
extern void osl_wake_deadline(const struct timespec *begun, double held,
			      int interval, struct timespec *out);

/* ------------------------------------------- osl_aside.c (Slurm-free) --- */

/* The newest state format version ost_sched_save() writes (2 for a nested
 * schedule or a nice, 1 otherwise; doc/state-format.md): a file of a later
 * version is kept aside as newer, not as corrupt (tests/plugin/
 * check_state_files.c checks that the core agrees). */
#define OSL_STATE_FORMAT 2

/* Corrupt state files kept aside per partition (the oldest go first). */
#define OSL_ASIDE_KEEP 5

/* The version N of a state file that begins "ostrich-state N\n" (N decimal,
 * at most 9 digits), else -1 (not a state file: corrupt). */
extern long osl_state_version(const char *buf, size_t len);

/* The same for a file whose first line is magic (ending in a space) and
 * N: the usage ledger's "ostrich-ledger N" too. */
extern long osl_magic_version(const char *buf, size_t len, const char *magic);

/*
 * Where the unusable state file path (contents buf[0..len)) is moved
 * before the partition is rebuilt: path.vN when it is of a newer format N
 * (kept for a return to the version that wrote it; a newer copy of the
 * same version replaces it), else path.bad.WHEN (WHEN: seconds since the
 * epoch), or path.bad.WHEN.K with the smallest K >= 1 that exists() says
 * is free, so that earlier evidence is never overwritten.
 * RET malloc'ed name
 */
extern char *osl_aside_path(const char *path, const char *buf, size_t len,
			    long when, bool (*exists)(const char *path));

/*
 * Sort names[0..n) (corrupt copies path.bad.WHEN[.K] of one file) oldest
 * first.  RET how many of the first ones to delete so that `keep` remain.
 */
extern int osl_aside_prune(char **names, int n, int keep);

/* ---------------------------------------- osl_ratelim.c (Slurm-free) --- */

/* A repeated failure's log, rate-limited.  Zero-initialize. */
typedef struct {
	bool failing;			/* failing since the last success */
	double last;			/* when a failure was last logged */
	uint64_t quiet;			/* failures since then, not logged */
	uint64_t failures;		/* failures since the last success */
} osl_ratelim_t;

/* Minimum time between two logs of the same repeated failure, seconds. */
#define OSL_RATELIM_PERIOD 600.0

/*
 * A failure at t (seconds): should it be logged?  True the first time,
 * then once `period` has passed since the last logged one (or the clock
 * went back); then *quiet is the number of failures not logged between.
 */
extern bool osl_ratelim_fail(osl_ratelim_t *r, double t, double period,
			     uint64_t *quiet);

/* A success: true if failures were being reported (log the recovery, with
 * *failures, their number), and the limiter starts afresh. */
extern bool osl_ratelim_ok(osl_ratelim_t *r, uint64_t *failures);

#endif /* _OSL_PERSIST_H */
