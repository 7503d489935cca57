/*****************************************************************************\
 *  osl_slurm.h - what the Slurm-bound files of the adapter (plugins/slurm/)
 *  share: the engine's state and the functions that read or write Slurm's
 *  records, partitions and state files; each file includes the lib/
 *  headers it calls besides.  Not for the three plugin files, which see
 *  only ostrich_slurm.h and osl_compat.h (tests/docs/headers.sh).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  LOCK ORDER (the only statement of it): the slurmctld locks, then the
 *  assoc_mgr lock, then osl_eng.lock, then osl_sitefac.c's table lock (a
 *  leaf: nothing is taken under it).  Never the other way round: slurmctld
 *  calls priority_p_set() (and multifactor's site_factor_p_set()) with the
 *  job write lock held, and the engine lock is taken inside it; multifactor
 *  calls site_factor_p_update() with the job write lock held, and only the
 *  table lock is taken inside it.
\*****************************************************************************/

#ifndef _OSL_SLURM_H
#define _OSL_SLURM_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "src/common/assoc_mgr.h"	/* after Slurm's config.h */

#include "ost_charge.h"
#include "osl_comment.h"
#include "osl_conf.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_ratelim.h"
#include "ostrich_slurm.h"	/* osl_plugin_t */

/* Why a pass was woken before its Interval (osl_pass.c), counted for the
 * pass log line. */
typedef enum {
	OSL_WAKE_WATCH,			/* sched/ostrich saw submissions (no
					 * priority/ostrich) */
	OSL_WAKE_CHANGED,		/* a known job's width, estimate or
					 * state moved (_known) */
	OSL_WAKE_SAVING,		/* submitted while the cores were
					 * being serialized */
	OSL_WAKE_UNSETTLED,		/* a partition did not rank it */
	OSL_WAKE_TIE,			/* no room between its neighbours */
	OSL_WAKE_NO_LINE,		/* no SystemComment line written */
	OSL_WAKE_INCOMPLETE,		/* submitted before its record was
					 * complete (an array being made, a
					 * release): wakes osl_catch_up, and a
					 * pass only if that leaves it */
	OSL_WAKE_N
} osl_wake_why_t;

/* A job whose submission wrote no SystemComment line because no pass had
 * resolved its owner's name (osl_submit.c). */
typedef struct {
	uint32_t job_id;
	uint32_t uid;
} osl_nameless_t;

/* Engine-wide state; every field is guarded by lock. */
typedef struct {
	pthread_mutex_t lock;		/* last in the lock order (above) */
	pthread_cond_t cond;		/* wakes the engine thread; timed on
					 * CLOCK_MONOTONIC when mono */
	bool mono;			/* cond is on CLOCK_MONOTONIC */
	pthread_t thread;		/* the engine thread (osl_engine.c) */
	bool running;			/* thread started, not yet joined */
	int users[OSL_PLUGIN_N];	/* init() count per osl_plugin_t */
	bool site;			/* site_factor/ostrich: the passes
					 * publish ranks (osl_sitefac.c) and
					 * write no priority; set before the
					 * thread starts */
	bool stop;			/* fini: the thread must exit */
	bool reconf;			/* re-read ostrich.conf before a pass */
	bool wake;			/* a pass is wanted soon (submission) */
	bool catch_up;			/* deferred submissions wait in unseen,
					 * or lines in nameless: osl_catch_up()
					 * now, no pass */
	uint32_t woken[OSL_WAKE_N];	/* wakes by reason since the engine
					 * thread last took them */
	uint32_t woke[OSL_WAKE_N];	/* those before the pass under way,
					 * for its log line */
	osl_conf_t *conf;		/* configuration in force */
	osl_part_t *parts;		/* one per partition seen (osl_part.c) */
	int nparts;			/* entries in parts */
	FILE *evlog;			/* EventLog= file, NULL if none */
	uint64_t passes;		/* passes run since the engine started */
	bool assoc_held;		/* the thread holding lock also holds
					 * the assoc_mgr read lock: only then
					 * are association shares read */
	int billed_parts;		/* partitions with TRESBillingWeights
					 * at the last pass; -1: not known
					 * yet (start, reconfigure) */
	bool saving;			/* the engine thread is serializing the
					 * cores without the lock: nobody else
					 * may change a core (osl_state.c) */
	bool saved;			/* saved_at is set */
	double saved_at;		/* last save, CLOCK_MONOTONIC seconds */
	uint32_t *unseen;		/* job ids (array job ids for arrays)
					 * deferred at submission, during a
					 * save or incomplete: the core has not
					 * seen them (osl_submit.c) */
	int nunseen;			/* entries used in unseen */
	int cap_unseen;			/* entries allocated in unseen */
	uint32_t *caught;		/* array job ids the catch-up submitted:
					 * tasks that ran and ended before it
					 * are the next pass's to charge */
	int ncaught;			/* entries used in caught */
	int cap_caught;			/* entries allocated in caught */
	osl_nameless_t *nameless;	/* jobs owed their line until their
					 * owner's name is resolved */
	int nnameless;			/* entries used in nameless */
	int cap_nameless;		/* entries allocated in nameless */
} osl_engine_t;

extern osl_engine_t osl_eng;		/* osl_globals.c */

/* ------------------------------------------------ osl_part.c (Slurm) --- */

/*
 * The partition called name, created on first sight (total_cpus CPUs),
 * restored from its state file when there is a valid one, else empty (the
 * next pass feeds the jobs still in job_list).
 * OUT index - its index in osl_eng.parts
 * NOTE: osl_eng.lock held.
 * RET the partition, or NULL (logged)
 */
extern osl_part_t *osl_part_get(const char *name, uint32_t total_cpus,
				int *index);

/* The partition called name (OUT index - its index in osl_eng.parts, when
 * not NULL), or NULL; never creates one.  NOTE: osl_eng.lock held. */
extern osl_part_t *osl_part_find(const char *name, int *index);

/* Create (osl_part_get) every partition job_ptr may run in, before a
 * submission observes it.  NOTE: part read lock and osl_eng.lock held. */
extern void osl_part_add_job(const struct job_record *job_ptr);

/* Hand a new configuration or CPU count to p's core (logged on refusal).
 * NOTE: osl_eng.lock held. */
extern void osl_part_reconfigure(osl_part_t *p, uint32_t procs, double now);

/* Destroy every partition.  NOTE: osl_eng.lock held. */
extern void osl_parts_free(void);

/* ------------------------------------------------ osl_tres.c (Slurm) --- */

/*
 * The resources of part_ptr in conf's Charge= unit (§19): its TRES with
 * their kinds and totals (part_ptr->tres_cnt), the GRES of ChargeWeights=
 * that are not TRES (counted on its nodes), the weights (ChargeWeights=,
 * else the partition's TRESBillingWeights, else none: CPUs) and its
 * capacity.  Free with osl_tres_free.  RET NULL when the unit needs a lock
 * the caller does not hold (tres_locked: assoc_mgr TRES read lock;
 * node_locked: node read lock, for ChargeWeights= GRES); the caller keeps
 * its table and asks for a pass with them (osl_tres_locks).
 * NOTE: conf and part read locks.
 */
extern osl_tres_t *osl_tres_build(const part_record_t *part_ptr,
				  const osl_conf_t *conf, bool tres_locked,
				  bool node_locked);

/*
 * Which locks a pass needs to build every partition's table under conf:
 * *tres (assoc_mgr TRES read lock) unless every partition is charged CPUs
 * (Charge=cpu, or Charge=billing with no ChargeWeights= and billed_parts
 * 0 partitions with TRESBillingWeights), *node (node read lock) only for
 * ChargeWeights=.  A CPU-only site thus takes neither, as before billing
 * units (bench-plugin measures it).
 * NOTE: osl_eng.lock held.
 */
extern void osl_tres_locks(const osl_conf_t *conf, int billed_parts,
			   bool *tres, bool *node);

/* Free t; NULL is a no-op. */
extern void osl_tres_free(osl_tres_t *t);

/* The capacity of t's partition in its unit, >= 1. */
extern uint32_t osl_tres_capacity(const osl_tres_t *t);

/* The unit of t's widths: its Charge=, but cpu for billing without any
 * weight (then a width is the CPU count, as before §19). */
extern ost_charge_t osl_tres_charge(const osl_tres_t *t);

/*
 * The width of job_ptr in t's partition (§19): billing units of its TRES
 * request (pending) or allocation (running); for dominant, the capacity x
 * its largest share; procs (its CPUs) under cpu, without weights, with no
 * TRES array, or t NULL.  NOTE: job read lock, osl_eng.lock (t's scratch).
 */
extern uint32_t osl_tres_width(osl_tres_t *t, const job_record_t *job_ptr,
			       uint32_t procs);

/*
 * The bill= text of job_ptr's width in t (osl_bill_text; for dominant
 * "label:count/total" of its dominant resource), "" when the unit is CPUs.
 * NOTE: as osl_tres_width.  RET snprintf's
 */
extern int osl_tres_text(osl_tres_t *t, const job_record_t *job_ptr,
			 char *buf, size_t size);

/* ----------------------------------------------- osl_state.c (Slurm) --- */

/* Read a whole file.  RET xmalloc'ed buffer of *len bytes, or NULL with
 * errno set. */
extern char *osl_read_file(const char *path, size_t *len);

/* Write buf to path atomically (path.new, fsync, rename, fsync of the
 * directory).  Logs nothing: the caller does (rate-limited for saves).
 * OUT step - the step that failed ("create", "write", ...; static)
 * RET 0, or -1 with errno set */
extern int osl_write_atomic(const char *path, const char *buf, size_t len,
			    const char **step);

/*
 * A file that users read (the usage snapshot, the campaign report, named
 * what in the log): osl_write_atomic, then mode 0600 if private, else
 * 0644.  A failure is logged through lim, one line per OSL_RATELIM_PERIOD
 * at most with the count not logged, and the first success after
 * failures says how many there were.
 */
extern void osl_write_shown(const char *what, const char *path,
			    const char *text, size_t len, bool private,
			    osl_ratelim_t *lim);

/*
 * Move the unusable state file path (contents buf[0..len)) aside, to
 * osl_aside_path()'s name, fsync the directory and keep at most
 * OSL_ASIDE_KEEP corrupt copies.
 * RET the new name (xmalloc'ed), or NULL (logged: not moved)
 */
extern char *osl_state_aside(const char *path, const char *buf, size_t len);

/* The state file of partition part (xmalloc'ed).  NOTE: conf read lock. */
extern char *osl_state_path(const char *part);

/* The account table (osl_acct.c) from its file in StateSaveLocation,
 * unless this process has one already (a reconfigure); a file that does
 * not load is moved aside, logged.  Before any id is given. */
extern void osl_acct_restore(void);

/* The usage ledger file of partition part (xmalloc'ed).  NOTE: conf read
 * lock held (StateSaveLocation). */
extern char *osl_ledger_path(const char *part);

/* The account table's file, StateSaveLocation/ostrich_accounts
 * (xmalloc'ed).  NOTE: conf read lock held. */
extern char *osl_accts_path(void);

/*
 * p->ledger (initialized, empty) from its file; restored: p's core came
 * from a state file (then a missing ledger is an older format's, logged).
 * A damaged file is salvaged (osl_ledger_load) and moved aside (.bad),
 * logged with what was lost; one that is not a ledger is moved aside too,
 * a newer one to .vN, and the ledger stays empty.  A read error leaves
 * it unread (neither charged nor saved), logged once; the pass calls this
 * again until a read succeeds.
 */
extern void osl_ledger_restore(osl_part_t *p, bool restored);

/* ------------------------------------------------ osl_save.c (Slurm) --- */

/*
 * Save every schedule, one file per partition: when force, or when the
 * last save is at least Interval old (monotonic clock).  Takes the conf
 * read lock and osl_eng.lock only to list the schedules and set
 * osl_eng.saving; serializes (checksum included) and writes with no lock.
 * Write failures are logged rate-limited (osl_ratelim.c).
 * NOTE: engine thread, or fini after the thread is joined.
 */
extern void osl_save_all(bool force);

/* ---------------------------------------- osl_usnap_write.c (Slurm) --- */

/*
 * After a pass that took pass_s seconds and held slurmctld's locks held
 * seconds: the usage snapshot StateSaveLocation/ostrich_usage, when force
 * or when the last one is at least Interval old.  Engine thread only.
 * NOTE: takes the conf read lock and osl_eng.lock to copy; writes with no
 * lock held.
 */
extern void osl_usnap_write(double pass_s, double held, bool force);

/* --------------------------------------------- osl_observe.c (Slurm) --- */

/* Is the record left alone (held, unable to run, pending in a
 * reservation, revoked)? */
extern bool osl_ignored(const struct job_record *job_ptr);

/*
 * Observations of one job record, one per partition it concerns that the
 * engine knows (and per task of a pending array record), appended to vec.
 * Only reads: a partition the engine has not met yet is not observed
 * (osl_part_add_job creates them).
 * NOTE: job read lock (at least) and osl_eng.lock held.
 */
extern void osl_observe(osl_obs_vec_t *vec, struct job_record *job_ptr);

/*
 * The first observation osl_observe() would make of job_ptr (first
 * partition, first pending task), into *o, without expanding an array:
 * O(1) but for finding the first task.  Whether the engine knows a record
 * is whether its core knows this one.
 * NOTE: job read lock (at least) and osl_eng.lock held.
 * RET false if the record is left alone or has nothing to observe
 */
extern bool osl_observe_first(struct job_record *job_ptr, osl_obs_t *o);

/* ------------------------------------------- osl_writeback.c (Slurm) --- */

/*
 * Set the priorities of the observations obs[a..b) of one writable job
 * record: the best of its tasks in each partition (priority_array), the
 * best of all in job_ptr->priority.
 * NOTE: job write lock held.
 * RET true if anything changed
 */
extern bool osl_write_job(osl_obs_t *obs, int a, int b);

/* The SystemComment callbacks for osl_comments(): set() stages the new
 * field for osl_comments_write().  NOTE: job read lock and osl_eng.lock
 * held. */
extern const osl_comment_ops_t osl_comment_ops;

/* The same, writing the field at once: for a submission, which holds the
 * job write lock.  NOTE: job write lock and osl_eng.lock held. */
extern const osl_comment_ops_t osl_comment_ops_now;

/*
 * Write the SystemComments osl_comment_ops staged (since the last call)
 * into the records that still have the field they were merged from;
 * drop the others (the record is gone, or someone wrote its field
 * meanwhile: the next pass merges into that).  O(staged).
 * NOTE: job write lock and osl_eng.lock held.
 * RET the fields written
 */
extern int osl_comments_write(void);

/*
 * After the locks were let go and taken again: point the observations of
 * each writable record of vec at it again, found by job id, or mark them
 * NULL and not writable when it is gone, no longer pending, or its
 * priority was changed by somebody else meanwhile (an operator, a hold):
 * those are left to the next pass.  O(records).
 * NOTE: job write lock held.
 * RET the writable records so left to the next pass
 */
extern int osl_refind(osl_obs_vec_t *vec);

/*
 * Keep the pending records whose priorities were written in priority order
 * in job_list (osl_order).
 * NOTE: job write lock held (no iterator on job_list can exist).
 * RET true if job_list was reordered
 */
extern bool osl_order_job_list(const osl_obs_vec_t *vec);

/* ------------------------------------------- osl_slurmlog.c (Slurm) --- */

/* slurmctld's log as the sink of the Slurm-free files (osl_log_set()):
 * debug messages are formatted only when slurmctld logs them. */
extern void osl_slurm_log(bool debug, const char *fmt, va_list ap);

/* --------------------------------------------- osl_globals.c (Slurm) --- */

/* Seconds since the epoch, microsecond resolution (timing logs only). */
extern double osl_now_hr(void);

/* Seconds on the monotonic clock: periods and rate limits, which clock
 * steps must not stretch or shorten. */
extern double osl_mono(void);

/*
 * Take osl_eng.lock, and before it the assoc_mgr read lock assoc_lock when
 * Weights=assoc reads association shares, or, for a pass, when a
 * partition's unit needs the TRES table (osl_tres_locks; lock order
 * above).  A site with neither takes no assoc_mgr lock.
 * NOTE: the slurmctld locks the caller needs are held.
 * RET whether the assoc lock was taken, for osl_unlock_engine
 */
extern bool osl_lock_engine(assoc_mgr_lock_t *assoc_lock, bool pass);
extern void osl_unlock_engine(assoc_mgr_lock_t *assoc_lock, bool assoc);

/* ------------------------------------------------ osl_pass.c (Slurm) --- */

/* One pass: observe, sync, rank, renumber, comment, write, order.
 * NOTE: takes the slurmctld locks and osl_eng.lock itself.
 * RET how long it held them, in seconds */
extern double osl_pass(void);

/* --------------------------------------------- osl_sitefac.c (Slurm) --- */

/* Stage the best rank (of its partition's pending count) of each ranked
 * pending record of vec, after the pass ranked them.  NOTE: osl_eng.lock
 * held (engine thread).  RET the records staged */
extern int osl_site_stage(const osl_obs_vec_t *vec);

/* Make the staged ranks those osl_site_update() copies.  NOTE: job write
 * lock and osl_eng.lock held (the pass's second half, with its
 * SystemComments). */
extern void osl_site_publish(void);

/* job_ptr->site_factor for rank of pending, with the weight in force (a
 * submission).  NOTE: job write lock and osl_eng.lock held. */
extern void osl_site_job(job_record_t *job_ptr, uint64_t rank,
			 uint64_t pending);

/* Forget the table (the engine stopped).  NOTE: no slurmctld lock needed:
 * the engine thread is joined. */
extern void osl_site_free(void);

/* ---------------------------------------------- osl_submit.c (Slurm) --- */

/*
 * Submit job_ptr, a pending record the engine does not know, as a pass
 * would: the record is observed like in a pass, and the same pipeline
 * (osl_sync, scope OSL_SYNC_NEW) submits it; it then gets one value between
 * its neighbours' (osl_prio_new) until the next pass renumbers, and its
 * line (osl_comments_new).  *prio: its priority after, when it was written.
 * RET why a pass is still wanted, OSL_WAKE_N for none.
 * NOTE: job write lock (and part read lock) and osl_eng.lock held.
 */
extern osl_wake_why_t osl_submit_new(job_record_t *job_ptr, double now,
				     uint32_t *prio);

/* -------------------------------------------- osl_catch_up.c (Slurm) --- */

/* Write the lines of the jobs whose owner's name no pass had resolved at
 * their submission (osl_eng.nameless), the names resolved first without a
 * lock; then submit the jobs deferred at submission (osl_eng.unseen):
 * during the save that just ended (after_save), or incomplete.  Those it
 * cannot settle are left to a pass.  NOTE: takes the locks itself. */
extern void osl_catch_up(bool after_save);

#endif /* _OSL_SLURM_H */
