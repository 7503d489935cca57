/*****************************************************************************\
 *  osl.h - the Slurm-free library of the adapter (plugins/lib/, libosl.la):
 *  its types and functions.  Everything here compiles and is tested without
 *  Slurm (tests/plugin/, fuzz/, tests/live/ost-replay); the Slurm-bound
 *  files (plugins/slurm/, osl_slurm.h) call it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A job record is only struct job_record (job_record_t) here: compared,
 *  never read.  A partition is only its name.
 *
 *  Names: osl_ for the adapter's types (also those private to one file),
 *  functions and constants; _name for a function static to its file.  ost_
 *  belongs to the core (src/ostrich.h).
\*****************************************************************************/

#ifndef _OSL_H
#define _OSL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "ostrich.h"
#include "osl_conf.h"

struct job_record;		/* Slurm's job_record_t (slurmctld.h) */

/*
 * Priorities written for pending jobs lie in [OSL_PRIO_LO, OSL_PRIO_TOP):
 * strictly decreasing along the ranks of a partition, and unchanged for a
 * job whose place in the order still fits (ost_prio_renumber()).  Above
 * anything priority/basic or a usual multifactor setup gives, so jobs queued
 * under OStrich stay ahead in OStrich order if the plugin is turned off.
 */
#define OSL_PRIO_TOP 100000000u
#define OSL_PRIO_LO 50000000u

/* site_factor/ostrich (osl_site.c, doc/semantics.md §25): the largest
 * weight, so that NICE_OFFSET (2^31) + weight fits in the 32 bits of a
 * job's site_factor. */
#define OSL_SITE_WEIGHT_MAX 2147483647u

/*
 * The priority of a record at submission while the cores cannot be asked
 * (a save is serializing them, osl_save_all): the value a pass gave it if
 * any, else just below every ranked job, until the pass it wakes ranks it.
 */
static inline uint32_t osl_prio_deferred(uint32_t cur)
{
	return cur >= OSL_PRIO_LO && cur < OSL_PRIO_TOP ? cur : OSL_PRIO_LO - 1;
}

/* Core job id of task t of array a (plain jobs use their job id < 2^32). */
#define OSL_ARRAY_KEY(a, t) ((((uint64_t) (a)) << 32) | (uint64_t) (t))

/* ------------------------------------------------------------- types --- */

/* A user's weight (and own account) as last given to a partition's core. */
typedef struct {
	uint32_t uid;			/* the user */
	double weight;			/* w_u handed to ost_user_set_weight */
	uint32_t account;		/* own account handed to
					 * ost_user_set_account (0: root) */
	bool placed;			/* account was handed (accepted) */
} osl_weight_t;

/* What a partition's core was told of one account (osl_acct.c). */
typedef struct {
	uint32_t parent;		/* its parent there (0: the root) */
	double share;			/* its share there */
	bool declared;			/* the core knows it */
	bool warned;			/* its move was logged */
} osl_acct_view_t;

/* Longest account name the engine keeps (NUL included); a longer one
 * counts as none (osl_acct.c). */
#define OSL_ACCT_NAME_MAX 128

/* The priority the last pass gave the job record first reached at rank
 * (one node of osl_ptab_t). */
typedef struct {
	uint64_t rank;			/* rank of the record's best task, once
					 * the additions above it are done */
	uint32_t add;			/* ranks to add to both subtrees (a
					 * lazy "later ranks + 1"; at most
					 * the insertions since the build,
					 * fewer than the nodes) */
	uint32_t prio;			/* the priority written for it */
	int32_t left, right;		/* children, 1-based (0: none) */
	int32_t height;			/* AVL height, leaf 1 */
} osl_ptab_node_t;			/* 32 bytes: one per pending record */

/* Priorities by rank of a partition (osl_ptab.c); zeroed: empty. */
typedef struct {
	osl_ptab_node_t *v;		/* the nodes (osl_tgrow), v[i - 1]
					 * is node i */
	int n;				/* nodes used */
	int built;			/* nodes 1..built come from the last
					 * build, the others were inserted */
	int cap;			/* nodes allocated */
	int32_t root;			/* root node (0: empty) */
	uint64_t work;			/* nodes visited and rotations so far
					 * (tests check the cost with it) */
} osl_ptab_t;

/* A partition's resources, weights and capacity in its Charge= unit
 * (slurm/osl_tres.c; opaque here). */
typedef struct osl_tres osl_tres_t;

/* One Slurm partition and its virtual schedule. */
typedef struct {
	char *name;			/* partition name (xmalloc'ed) */
	ost_sched_t *sched;		/* its virtual schedule */
	uint32_t procs;			/* capacity given to the core (>= 1):
					 * CPUs, or billing units (§19) */
	ost_charge_t unit;		/* the unit of procs and of its jobs'
					 * widths (OST_CHARGE_CPU when billing
					 * has no weights) */
	osl_tres_t *tres;		/* its resources (slurm/osl_tres.c),
					 * NULL: CPUs */
	osl_weight_t *w;		/* weights given to the core (malloc) */
	int nw;				/* entries used in w */
	int cap_w;			/* entries allocated in w */
	osl_acct_view_t *acct;		/* acct[id - 1]: accounts given to the
					 * core (malloc, osl_acct.c) */
	int nacct;			/* entries used in acct */
	int cap_acct;			/* entries allocated in acct */
	osl_ptab_t prios;		/* last pass: priority by rank, and the
					 * submissions since (osl_prio.c) */
	bool passed;			/* a pass of this process has advanced
					 * its clock (osl_clock_check) */
	double last_pass;		/* now of the last full sync (a pass)
					 * of this process, 0: none yet: a
					 * pending job it did not show then
					 * was not eligible (osl_sync.c) */
	struct osl_ledger *ledger;	/* usage charged, campaigns' stretch
					 * (osl_usage.h; malloc, stable while
					 * parts moves) */
	double restored_at;		/* the core's clock in the state file
					 * it was restored from, until the
					 * first pass has diffed every record
					 * (0: not restored, or diffed): a
					 * finished record the core does not
					 * know that ended after it was never
					 * charged (osl_sync.c) */
} osl_part_t;

/* What Slurm shows of a job: its state in one word. */
typedef enum {
	OSL_PENDING = 0,		/* waiting */
	OSL_RUNNING,			/* running or suspended */
	OSL_FINISHED,			/* completed, failed, cancelled... ('F') */
} osl_jstate_t;

/* One job (or array task) of one partition as seen in job_list. */
typedef struct {
	uint64_t key;			/* core job id (OSL_ARRAY_KEY for a
					 * task of a pending array record) */
	int part;			/* index in osl_eng.parts */
	int slot;			/* index in the record's part_ptr_list
					 * (priority_array), -1 if none */
	struct job_record *rec;		/* the record; valid while the job lock
					 * is held; compared, never read, by
					 * the Slurm-free files; NULL once the
					 * pass lost it (osl_refind) */
	uint32_t rec_id;		/* the record's job id (a pending array's
					 * own record: the array's job id,
					 * group); the pass finds
					 * it again by it after a lock gap */
	uint32_t rec_prio;		/* the record's priority when observed:
					 * a changed one is not overwritten */
	osl_jstate_t st;		/* its state */
	bool ran;			/* finished after running */
	bool unseen;			/* submitted while a save kept the core
					 * away (osl_eng.unseen): if it ran and
					 * ended before any pass saw it, it is
					 * charged from its record */
	bool writable;			/* the plugin may set its priority (no
					 * operator-set priority) */
	uint32_t uid;			/* owner */
	uint32_t procs;			/* width: CPUs, or billing units
					 * (§19), >= 1 */
	double estimate;		/* e, seconds (§1) */
	double limit;			/* the time limit Slurm enforces,
					 * seconds: the job's own, else its
					 * partition's MaxTime (INFINITY:
					 * none; osl_enforced_limit): the most
					 * a finish may charge, unless it ran
					 * under a longer one (osl_sync.c) */
	double weight;			/* owner's weight w_u */
	uint32_t account;		/* Hierarchy=accounts: the account it
					 * counts in (osl_acct_id; 0: none,
					 * the owner's own) */
	uint32_t own;			/* Hierarchy=accounts: the owner's own
					 * account (UserAccounts=, else
					 * account; 0: the root) */
	uint64_t group;			/* array job id, 0 for a plain job */
	time_t submit;			/* submission time */
	time_t eligible;		/* when Slurm first found it eligible
					 * (begin_time: reset by a hold, a
					 * release, a dependency), 0: not yet;
					 * after now: a --begin to come */
	time_t start;			/* start time (running, finished) */
	time_t end;			/* end time (finished; pending: Slurm's
					 * end_time, the requeue's while the
					 * requeued run completes, else 0 or a
					 * guess) */
	double runtime;			/* seconds run, suspensions excluded
					 * (finished) */
	uint32_t cur_prio;		/* the record's priority for this
					 * partition when observed (0: none) */
	uint64_t rank;			/* rank in its partition, 0: none */
	uint32_t prio;			/* priority to write for its record in
					 * this partition, 0: none */
	uint32_t campaign;		/* its campaign (pending, from the rank
					 * walk), 0: unknown */
	int32_t nice;			/* its nice, Slurm's minus NICE_OFFSET
					 * (§22; 0: none) */
} osl_obs_t;

/* The observations of a pass (grown by osl_obs_add). */
typedef struct {
	osl_obs_t *v;			/* the observations (malloc) */
	int n;				/* entries used */
	int cap;			/* entries allocated */
} osl_obs_vec_t;

/* One past the last observation of the record of vec->v[a]: osl_observe()
 * appends a record's observations together, so they are contiguous (a
 * record osl_refind() dropped has rec NULL in all of them). */
static inline int osl_rec_end(const osl_obs_vec_t *vec, int a)
{
	int i = a + 1;

	while (i < vec->n && vec->v[i].rec == vec->v[a].rec)
		i++;
	return i;
}

/* How much of a partition osl_sync() brings in line. */
typedef enum {
	OSL_SYNC_ALL = 0,		/* every job: what the core knows and
					 * Slurm no longer shows ends */
	OSL_SYNC_NEW,			/* only the jobs the core does not know
					 * (a submission) */
} osl_sync_scope_t;

/* A written record, for the order of job_list (osl_order). */
typedef struct {
	void *rec;			/* the record (job_record_t *) */
	uint32_t prio;			/* its priority now */
	uint32_t job_id;		/* its job id (ties) */
} osl_qrec_t;

/* -------------------------------------------- osl_vec.c (Slurm-free) --- */

/*
 * Room for need elements of size bytes in v, which holds *cap: the
 * capacity doubles (first at least), new room is zeroed.  Out of memory is
 * fatal, as with xmalloc.
 * RET the (possibly moved) array
 */
extern void *osl_grow(void *v, int *cap, int need, size_t size, int first);

/* qsort's comparison of two uint32_t. */
extern int osl_cmp_u32(const void *a, const void *b);

/* calloc(n ? n : 1, size); out of memory is fatal.  free() the result. */
extern void *osl_calloc(size_t n, size_t size);

/*
 * The large arrays: those that live for one pass or one submission
 * (observations and their index, events, the core's jobs, staged comments,
 * sort cells), and the priority table, which grows by one node per
 * submission.  From OSL_MAP_MIN bytes on, each is mapped on its own and
 * unmapped when freed or moved, so that it goes back to the system at
 * once.  From malloc it would stay in an arena between records that
 * outlive it (glibc raises its mmap threshold to the largest block freed,
 * up to 32 MiB), as memory that VmRSS counts (doc/design.md, "Memory").
 * osl_tgrow and osl_tcalloc are osl_grow and osl_calloc for them; free
 * with osl_tfree, giving the capacity (or n) they were given.
 */
#define OSL_MAP_MIN (128 * 1024)
extern void *osl_tgrow(void *v, int *cap, int need, size_t size, int first);
extern void *osl_tcalloc(size_t n, size_t size);
extern void osl_tfree(void *v, size_t cap, size_t size);

/*
 * The same policy for the core's state text and its sort arrays
 * (ost_sched_save_with: the text is about 110 bytes per job, 11 MB at
 * 10^5), block sizes exact, and a failure is NULL, not the end of the
 * process: the save is then refused and logged, the state kept.
 */
extern const ost_alloc_t osl_talloc;

/* ------------------------------------------------- osl_log.c (Slurm) --- */

/* Messages of the Slurm-free files, into slurmctld's log (tests/plugin
 * has its own definitions that record them). */
extern void osl_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
extern void osl_debug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* ------------------------------------------- osl_sync.c (Slurm-free) --- */

/* A new zeroed observation at the end of vec. */
extern osl_obs_t *osl_obs_add(osl_obs_vec_t *vec);

/*
 * Pointers to the observations of vec ordered by (partition, key, uid):
 * the observations of one partition are then contiguous, sorted by key.
 * RET array of vec->n + 1 pointers (osl_tfree(idx, vec->n + 1, ...))
 */
extern osl_obs_t **osl_obs_index(const osl_obs_vec_t *vec);

/*
 * Bring the core of p in line with obs[0..n), the observations of p sorted
 * by key: diff them against what the core knows (scope), sort the events
 * by time (§6 for ties) and apply them, logging each to evlog (may be
 * NULL).  A refused event is logged, never fatal.
 * RET number of events
 */
extern int osl_sync(osl_part_t *p, osl_obs_t **obs, int n, double now,
		    osl_sync_scope_t scope, FILE *evlog);

/* ------------------------------------------ osl_apply.c (Slurm-free) --- */

/* What happens to a job in the core. */
typedef enum {
	OSL_EV_SUBMIT = 0,		/* ost_job_submit */
	OSL_EV_START,		/* ost_job_start_alloc, allocated width */
	OSL_EV_FINISH,		/* ost_job_finish, Slurm's end and run time */
	OSL_EV_CANCEL,		/* ost_job_cancel */
	OSL_EV_REQUEUE,		/* ost_job_requeue */
	OSL_EV_VANISH,		/* gone: a running job whose record
				 * Slurm purged before a pass saw it end;
				 * finished now, having run since its start
				 * (at most its estimate, the time limit the
				 * core knows) */
	OSL_EV_UPDATE,		/* ost_job_update: a pending job's width or
				 * estimate is not what the core knows */
	OSL_EV_NICE,		/* ost_job_set_nice: a pending job's nice
				 * is not what the core knows (§22) */
} osl_ev_kind_t;


/*
 * Order of events at one instant (§6): completions of jobs that started
 * earlier, requeues, submissions, starts, then completions of jobs that
 * started at that very instant.  An update (a resize) comes after a
 * requeue of the same job and before a start, so that a start sees the
 * estimate the job started with.
 */
enum {
	OSL_ORD_END = 0, OSL_ORD_REQUEUE, OSL_ORD_UPDATE, OSL_ORD_SUBMIT,
	OSL_ORD_START, OSL_ORD_END_LATE
};

/* A core event; sorted by (t, order, key). */
typedef struct {
	double t;			/* when, seconds since the epoch */
	int order;			/* ties at one instant (OSL_ORD_*) */
	osl_ev_kind_t kind;		/* what */
	const osl_obs_t *o;		/* the observation (NULL: the record
					 * is gone) */
	uint64_t key;			/* core job id */
	uint32_t procs;			/* update: the width to give */
	double estimate;		/* update: the estimate to give;
					 * finish: the most it charges, s (its
					 * enforced limit, never below the
					 * largest it ran under); vanish: the
					 * largest limit the ledger saw it run
					 * under (NAN: unknown) */
} osl_event_t;

/* Apply e to the core of p (the weight of a user before its first job),
 * logging it to evlog (may be NULL); a refused event is logged, never
 * fatal.  now: the pass's time, for a job that vanished. */
extern void osl_apply(osl_part_t *p, const osl_event_t *e, double now,
		      FILE *evlog);

/* ------------------------------------------- osl_ptab.c (Slurm-free) --- */

/* t holds n nodes (rank[i], prio[i]), rank ascending.  O(n). */
extern void osl_ptab_build(osl_ptab_t *t, const uint64_t *rank,
			   const uint32_t *prio, int n);

/*
 * The node ranked last before rank (*above, NULL: none) and the first
 * ranked at or after it (*below, NULL: none).  Valid until the next
 * change of t.  O(log n).
 */
extern void osl_ptab_neighbours(osl_ptab_t *t, uint64_t rank,
				const osl_ptab_node_t **above,
				const osl_ptab_node_t **below);

/* Record prio at rank, before every node ranked at or after it, whose
 * ranks grow by one.  O(log n) (amortized for the array's growth). */
extern void osl_ptab_insert(osl_ptab_t *t, uint64_t rank, uint32_t prio);

/* Was node (from osl_ptab_neighbours) inserted since the last build?  O(1) */
extern bool osl_ptab_inserted(const osl_ptab_t *t, const osl_ptab_node_t *node);

/* The nodes in rank order into rank[], prio[] (room for t->n).  RET t->n */
extern int osl_ptab_dump(const osl_ptab_t *t, uint64_t *rank, uint32_t *prio);

/* Height of the tree (0: empty), for tests of the balance. */
extern int osl_ptab_height(const osl_ptab_t *t);

/* Release t; it is then empty. */
extern void osl_ptab_free(osl_ptab_t *t);

/* ------------------------------------------- osl_prio.c (Slurm-free) --- */

/* Set rank and campaign of every pending observation of obs[0..n) (sorted
 * by key) from the core's walk of p; the others keep rank 0. */
extern void osl_prio_rank(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * New priorities for the writable ranked pending observations of obs[0..n)
 * (p's, ranks set): one value per record at its best rank, strictly
 * decreasing along the ranks, a record's cur_prio kept wherever it still
 * fits (ost_prio_renumber).  Sets o->prio on each record's best-ranked
 * observation and keeps the values by rank in p->prios.
 */
extern void osl_prio_renumber(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * Priorities for obs[0..n), observations of p just submitted to its core
 * (sorted by key): one value per job record, at the best rank of its
 * observations, between those of its neighbours in p->prios, which then
 * records it (later ranks move down by one), so that a burst of
 * submissions gets distinct values in order until the next pass
 * renumbers.  Only the record's best-ranked observation gets prio; the
 * others, and those the core does not rank, keep prio 0.
 * O(n log n + records * log P), P the records in p->prios: independent
 * of the number of pending jobs but for the logarithm.
 * RET the records that no value puts in their place until the next pass
 * (their neighbours already tie, or no room at the top); a record that
 * only found no room takes the value of its neighbour above, which Slurm's
 * tie-break (submit time, then job id) orders right
 */
extern int osl_prio_new(osl_part_t *p, osl_obs_t **obs, int n);

/*
 * The new order of job_list so that the written records q[0..m) stand in
 * priority order (highest first, then job id): when they already do in
 * cur[0..n) (job_list now), nothing; else the other records in their
 * order, then q's.  Sorts q.
 * OUT want - room for n: the new order when RET is 1
 * RET 1 (reorder to want), 0 (in order), -1 (q not all in cur; logged)
 */
extern int osl_order(void *const *cur, int n, osl_qrec_t *q, int m,
		     void **want);

/* ------------------------------------------ osl_names.c (Slurm-free) --- */

/* The name the pass resolved for uid (osl_name_put), or NULL: never a
 * lookup.  NOTE: osl_eng.lock held (also for the two below). */
extern const char *osl_name_get(uint32_t uid);

/* Keep a copy of name (NULL: nothing) as uid's, replacing an older one. */
extern void osl_name_put(uint32_t uid, const char *name);

/* Forget every name (plugin fini). */
extern void osl_names_free(void);

/* ------------------------------------------- osl_acct.c (Slurm-free) --- */

/* Accounts (§23).  NOTE: osl_eng.lock held for every function below. */

/* The id of account name (any case; "root" and names that are not
 * account names, osl_acct.c, are 0: the root), assigned at first sight
 * under the root with share 1.  O(1). */
extern uint32_t osl_acct_id(const char *name);

/* The id of name if it has one, else 0; never assigns. */
extern uint32_t osl_acct_find(const char *name);

/* How many names have ids. */
extern int osl_acct_count(void);

/* The name of id (lower case), or NULL. */
extern const char *osl_acct_name(uint32_t id);

/* Account id is under parent (0: root) with share (a weight) as Slurm or
 * ostrich.conf says now; ignored when out of range. */
extern void osl_acct_place(uint32_t id, uint32_t parent, double share);

/* Every account back under the root with share 1 (a new ostrich.conf). */
extern void osl_acct_reset(void);

/* The ids from id up to the root's child into path[0..max).  RET their
 * count (0 for id 0), or -1 (deeper than max, or a loop) */
extern int osl_acct_path(uint32_t id, uint32_t *path, int max);

/* Names added since the last osl_acct_save? */
extern bool osl_acct_dirty(void);

/* The table of names as text ("ostrich-accounts 1", then "ID NAME" per
 * line); clears dirty (osl_acct_unsaved sets it again when the write
 * fails).  RET malloc'ed text of *len bytes */
extern char *osl_acct_save(size_t *len);
extern void osl_acct_unsaved(void);

/* Replace the table by osl_acct_save's text buf[0..len) (every account
 * under the root, share 1, until placed).  RET 0, or -1 with why in err
 * and the table empty */
extern int osl_acct_load(const char *buf, size_t len, char *err,
			 size_t errlen);

/* Forget every name, and the users' own accounts. */
extern void osl_acct_free(void);

/* Place the accounts as conf says (Weights=config, and the accounts of
 * jobs without an association): every one under the root with share 1,
 * then AccountWeights= shares, AccountParents= parents (checked: no loop);
 * and keep UserAccounts= for osl_acct_user.  Ids are assigned to the
 * names it mentions.  O(n log n + parents x weights). */
extern void osl_acct_configure(const osl_conf_t *conf);

/* uid's own account (its first UserAccounts= entry), 0: the root.
 * O(log n) */
extern uint32_t osl_acct_user(uint32_t uid);

/* The id of account name if a UserAccounts= entry gives it to uid, else
 * 0 (§23: without an association, a name a job gives counts only where
 * ostrich.conf lets its owner count).  Never assigns an id.
 * O(log n + uid's entries) */
extern uint32_t osl_acct_given(uint32_t uid, const char *name);

/* Is (uid, name), a name refused to uid's job, news to log?  True once
 * per pair, for at most 256 pairs between two osl_acct_configure()s (the
 * log stays bounded whatever users name). */
extern bool osl_acct_refused_new(uint32_t uid, const char *name);

/* Declare to p's core, at t, account id and those above it, as placed
 * (each new one, or its share when that changed), each one the core
 * takes logged to evlog (NULL: none).  RET id, or 0 when the core refused
 * one (logged): the job then counts in its owner's own. */
extern uint32_t osl_acct_declare(osl_part_t *p, uint32_t id, double t,
				 FILE *evlog);

/* Give p's core, at t, the new share of every account it knows whose
 * share changed since (a pass: sacctmgr or ostrich.conf changed it),
 * logged to evlog (NULL: none).  O(accounts). */
extern void osl_acct_refresh(osl_part_t *p, double t, FILE *evlog);

/* Forget what p's core was told (p->acct). */
extern void osl_acct_view_free(osl_part_t *p);

/* ---------------------------------------- osl_comment.c (Slurm-free) --- */

/* How osl_comments() reaches Slurm's records. */
typedef struct {
	/* the name of uid (or NULL) */
	const char *(*user_name)(uint32_t uid);
	/* the SystemComment of rec must become text */
	void (*set)(struct job_record *rec, const char *text);
	/* the SystemComment of rec now (NULL: none) */
	const char *(*get)(const struct job_record *rec);
	/* PrivateData=jobs: owners see only their own jobs (NULL: no) */
	bool (*private_jobs)(void);
	/* what rec's width in p is made of, the bill= value (§19), into
	 * buf[0..size) ("" or NULL op: no bill=) */
	void (*bill)(const osl_part_t *p, const struct job_record *rec,
		     char *buf, size_t size);
} osl_comment_ops_t;

/* Bytes of a whole SystemComment field the engine writes (NUL included):
 * others' text and our line; with no room left the field is left alone. */
#define OSL_COMMENT_MAX 4096

/* Fraction of p's CPUs uid gets in the virtual schedule now (0 for a user
 * the core has never seen). */
extern double osl_share(const osl_part_t *p, uint32_t uid);

/*
 * The bill= value of the SystemComment: "label:count[xweight],..." for
 * each resource with a positive count and weight (the weight left out
 * when 1), e.g. "cpu:1,gpu:4x4".
 * RET snprintf's: the length it would have written; buf[0..size) holds as
 *     much as fits
 */
extern int osl_bill_text(char *buf, size_t size, int n,
			 const char *const *label, const ost_res_t *kind,
			 const double *w, const uint64_t *cnt);

/*
 * Append the width of a job to its summary line buf (holding len bytes, of
 * at most size): " width=W unit=U", then " bill=TEXT" when bill is not
 * empty (§19, doc/summary.md).  Only what keeps the line shorter than
 * OST_SUMMARY_MAX is added (bill= first left out, then all), so that every
 * reader of the summary still takes it.
 * RET the new length
 */
extern size_t osl_comment_width(char *buf, size_t len, size_t size,
				uint32_t width, ost_charge_t unit,
				const char *bill);

/*
 * Append the account a job counts in to its summary line buf (holding len
 * bytes, of at most size): " account=NAME" (§23, doc/summary.md), only
 * when the line stays shorter than OST_SUMMARY_MAX; nothing for NULL or
 * "" (the root).
 * RET the new length
 */
extern size_t osl_comment_account(char *buf, size_t len, size_t size,
				  const char *account);

/*
 * SystemComment of every job record of obs[0..n) (p's, ranked): the core's
 * summary line (ost_summary_format) of the record's best-ranked pending
 * task, or of its running job, with its width (osl_comment_width); set through ops only where it changes
 * (osl_comment_merge).  Skips finished and unranked pending jobs and the
 * second and later partitions of a record.  When ops->private_jobs says
 * so, rank=R/P counts the owner's jobs only and share becomes view=own.
 */
extern void osl_comments(osl_part_t *p, osl_obs_t **obs, int n,
			 const osl_comment_ops_t *ops);

/*
 * The same line for the records of obs[0..n) that a submission has just
 * ranked, without the pass's sweep over every campaign: C~ comes from the
 * core for each job (ost_sched_job_vct, O(active users)).  Under
 * PrivateData=jobs nothing is written (the owner's rank=R/P needs all the
 * owner's jobs; the pass writes it).
 * RET the records whose field now holds their line (0: none; the caller
 * then leaves them to a pass)
 */
extern int osl_comments_new(osl_part_t *p, osl_obs_t **obs, int n,
			    const osl_comment_ops_t *ops);

/*
 * What the SystemComment field must become when the engine writes line
 * into it.  Others write there too (burst-buffer errors, one per line):
 * only our own line (ost_summary_find: a line beginning "ostrich
 * campaign=") is replaced, in place; without one, line goes on a line of
 * its own after the others' text.
 * IN field - the field now (NULL: empty)
 * OUT out - the new field (size bytes) when RET is true
 * RET false if the field stays as it is: unchanged, or no room in size for
 *     the others' text and line (their text is never cut)
 */
extern bool osl_comment_merge(const char *field, const char *line, char *out,
			      size_t size);

/*
 * A fingerprint of a SystemComment field (FNV-1a, 64 bits, over its bytes
 * and length), to tell later whether somebody wrote the field: a pointer
 * would not do, since an append (xstrfmtcat) may grow the string in place.
 * RET 0 for NULL, else a value that differs from 0 and from the value of
 * any other text but with probability about 2^-64
 */
extern uint64_t osl_comment_print(const char *field);

#include "osl_evlog.h"		/* the event log: records, writer, reader */
#include "osl_persist.h"	/* clock steps, waits, state files kept aside, rate limits */
#include "osl_usage.h"		/* the usage ledger, the campaigns' stretch */

/* ------------------------------------------------------ osl_site.c --- */

/*
 * PrioritySiteFactorParameters= (NULL or "": none): comma-separated
 * key=value, of which only weight=N, 0 <= N <= OSL_SITE_WEIGHT_MAX, is
 * known; no weight= is weight 0, the shadow mode.
 * RET 0 and *weight, or -1 and why in err[0..errsz) (*weight unchanged)
 */
extern int osl_site_params(const char *params, uint32_t *weight, char *err,
			   size_t errsz);

/*
 * The site factor (NICE_OFFSET excluded) of a job at rank of pending in
 * its partition: floor(weight x (pending - rank + 1) / pending), so rank 1
 * gets weight and rank pending weight / pending.  Strictly decreasing
 * along the ranks when weight >= pending.  0 when unranked (rank 0, or
 * out of range).
 */
extern uint32_t osl_site_value(uint32_t weight, uint64_t rank,
			       uint64_t pending);

/* Does rank r1 of p1 have a higher normalised priority than r2 of p2
 * (both ranked: 1 <= r <= p)?  For a record pending in several
 * partitions, whose one site factor is that of its best. */
extern bool osl_site_better(uint64_t r1, uint64_t p1, uint64_t r2,
			    uint64_t p2);

#endif /* _OSL_H */
