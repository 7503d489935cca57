/*****************************************************************************\
 *  ostrich.h - public API of the OStrich core: campaigns, the virtual
 *  schedule, FairCamp deadlines and the priority order.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The contract implemented here is doc/semantics.md (a section number
 *  §N below refers to its heading §N).  The core is pure C11: it never
 *  reads a clock, never does I/O, never logs and never exits.  Time is
 *  always an argument, in seconds (any epoch; Slurm passes time_t, the
 *  simulator trace seconds).  Work ("area") is in CPU-seconds.  Same calls
 *  in the same order give the same results, bit for bit.
 *
 *  Errors: functions returning int return 0 on success or a negative
 *  OST_E* code; a failed call has no side effect.
 *
 *  Ownership: the core copies everything it is given; pointers it returns
 *  are either borrowed (valid until the next call on the same scheduler) or
 *  new (the caller frees them with the named function).
\*****************************************************************************/

#ifndef OSTRICH_H
#define OSTRICH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The public API: the declarations below are the only names the shared
 * library exports (it is built with -fvisibility=hidden where configure
 * finds the compiler has it, as libuv does); the core's other names are
 * internal (ost_internal.h). */
#if defined(__GNUC__) && __GNUC__ >= 4
#define OST_EXTERN __attribute__((visibility("default")))
#else
#define OST_EXTERN
#endif

/* Error codes (negated in return values). */
enum ost_err {
	OST_OK = 0,
	OST_EINVAL = 1,   /* bad argument */
	OST_ENOENT = 2,   /* unknown job */
	OST_EEXIST = 3,   /* job id already known */
	OST_ESTATE = 4,   /* job is not in a state allowing this event */
	OST_ENOMEM = 5,   /* allocation failed */
	OST_ECORRUPT = 6, /* serialized state is truncated or corrupt */
	OST_EVERSION = 7, /* serialized state has an unknown version */
};

/* Returns a static English description of err (positive or negative);
 * never NULL. */
OST_EXTERN const char *ost_strerror(int err);

/* ------------------------------------------------------------ ranges --- */
/*
 * The ranges every entry point enforces (API calls, the state loader,
 * ostrich.conf, the simulator's readers), so that every quantity derived
 * from them (areas A = q e, virtual lengths A / w, virtual time, deadlines)
 * stays a finite double with room to spare.  Values outside are refused
 * with -OST_EINVAL (-OST_ECORRUPT when loading).
 *
 *   weights w_u, default weight   [OST_WEIGHT_MIN, OST_WEIGHT_MAX]: a
 *	ratio of 10^12 keeps W = sum w_u exact enough in a double;
 *   event times t, clock          |t| <= OST_TIME_MAX seconds (any epoch;
 *	10^13 s is 317,000 years);
 *   estimates e, runtimes p, think time   [0, OST_DURATION_MAX] seconds
 *	(10^12 s holds Slurm's largest time limit, 2^32-2 minutes).
 */
#define OST_WEIGHT_MIN 1e-6
#define OST_WEIGHT_MAX 1e6
#define OST_TIME_MAX 1e13
#define OST_DURATION_MAX 1e12

/* True when w is a weight in [OST_WEIGHT_MIN, OST_WEIGHT_MAX]. */
static inline bool ost_weight_ok(double w)
{
	return w >= OST_WEIGHT_MIN && w <= OST_WEIGHT_MAX;
}

/* True when t is an event time: |t| <= OST_TIME_MAX (NaN is not). */
static inline bool ost_time_ok(double t)
{
	return t >= -OST_TIME_MAX && t <= OST_TIME_MAX;
}

/* True when d is a duration in [0, OST_DURATION_MAX] (NaN is not). */
static inline bool ost_duration_ok(double d)
{
	return d >= 0.0 && d <= OST_DURATION_MAX;
}

/* ------------------------------------------------------------ config --- */

typedef enum { OST_MODE_OSTRICH = 0, OST_MODE_FAIRCAMP } ost_mode_t;
typedef enum { OST_CAPACITY_USED = 0, OST_CAPACITY_FULL } ost_capacity_t;
/* OST_GATE_NONE: no eligibility tier in the order, campaigns by their key
 * alone (§24; simulator only, V's capacity as with soft) */
typedef enum { OST_GATE_SOFT = 0, OST_GATE_STRICT, OST_GATE_NONE } ost_gate_t;
typedef enum {
	OST_INTRA_LPT = 0, /* longest estimate first (default) */
	OST_INTRA_SPT,     /* shortest estimate first */
	OST_INTRA_FIFO,    /* submit order */
	OST_INTRA_LJF,     /* largest CPU count first */
} ost_intra_t;
typedef enum {
	OST_VAREA_REQUESTED = 0, /* jobs count their requested estimate */
	OST_VAREA_LEARNED,       /* scaled by the owner's accuracy (§10) */
	OST_VAREA_POOLED,        /* same, newcomers get everyone's (§10) */
	OST_VAREA_PREDICTED,     /* the owner's last two runtimes, capped by
				  * the request (§10) */
	OST_VAREA_BOUNDED,       /* the request times the owner's largest
				  * ratio of its last 19 jobs (§10) */
} ost_varea_t;
typedef enum {
	OST_RANK_FINISH = 0,     /* campaigns by F_c (default, §4) */
	OST_RANK_SERVED,         /* by the finish of their started work (§13) */
	OST_RANK_CAPPED,         /* by F_c, capped past the started work (§14) */
} ost_rank_t;
typedef enum {
	OST_HIER_USERS = 0,      /* one level: users share the capacity (§3) */
	OST_HIER_ACCOUNTS,       /* nested along the accounts (§21) */
} ost_hier_t;
typedef enum {
	OST_LEAD_KEEP = 0,       /* S_c = max(phi_c, F_prev) (default, §3.3) */
	OST_LEAD_FORGIVE,        /* a campaign over in R is over in V (§24) */
	OST_LEAD_CAP,            /* S_c carries at most kappa L_c of its
				  * user's lead (§24) */
} ost_lead_t;
typedef enum {
	OST_OVERDUE_RANK = 0,    /* a campaign complete in V with jobs pending
				  * ranks by its past F (default, §9.9) */
	OST_OVERDUE_RESTART,     /* its pending work rejoins V at v (§27) */
} ost_overdue_t;

typedef struct ost_config {
	uint32_t procs;           /* m: CPUs of the partition (> 0) */
	ost_mode_t mode;          /* OStrich (§3-4) or FairCamp (§5) */
	double think_time;        /* tau, seconds (a duration; default 600) */
	ost_capacity_t capacity;  /* virtual capacity C(t) (§3; default used) */
	ost_gate_t gate;          /* eligibility gate (§4; default soft) */
	ost_intra_t intra;        /* order inside a campaign (§4; default lpt) */
	uint32_t faircamp_users;  /* k for FairCamp; 0 = counted at t_c (§5) */
	double default_weight;    /* w_u of users never given one (a weight;
				   * default 1) */
	ost_varea_t varea;        /* virtual areas (§10; default requested) */
	bool memory;              /* OStrich with memory (§11; default off) */
	bool memory_key;          /* with memory: the credit on the rank only
				   * (§15; default off) */
	double memory_credit;     /* §11: B / m, seconds (a duration;
				   * default 3600) */
	bool evidence;            /* areas from evidence (§12; default off) */
	double evidence_floor;    /* §12: f, seconds (in [1, 1e12];
				   * default 600) */
	ost_rank_t rank;          /* campaign key (§13; default finish) */
	double rank_cap;          /* §14: Lambda / m, seconds (a duration;
				   * default 3600) */
	ost_hier_t hierarchy;     /* §21: users (default) or accounts; fixed
				   * once the schedule holds a campaign */
	ost_lead_t lead;          /* §24: the chain of a user's campaigns
				   * (default keep) */
	double lead_cap;          /* §24 Lead=cap: kappa, dimensionless (in
				   * [0, 1e6]; default 1) */
	ost_overdue_t overdue;    /* §27: a campaign overdue in V (default
				   * rank); needs hierarchy users */
} ost_config_t;

/* Fill cfg with the defaults of doc/semantics.md (procs = 1).  Cannot fail. */
OST_EXTERN void ost_config_init(ost_config_t *cfg);

/* Check cfg.  Returns 0, or -OST_EINVAL with a static reason in *why
 * (why may be NULL). */
OST_EXTERN int ost_config_check(const ost_config_t *cfg, const char **why);

/* True when cfg nests the virtual schedule along the accounts (§21,
 * Hierarchy=accounts): the one test of the hierarchy, so that a new
 * hierarchy changes one place.  cfg non-NULL. */
OST_EXTERN bool ost_config_nested(const ost_config_t *cfg);

/* Names used by every front end (ostrich.conf, ostrich-sim options, the
 * state file).  *_name() returns a static string ("?" when out of range);
 * *_parse() returns 0 and sets *out, or -OST_EINVAL and leaves it.
 * Parsing is case-insensitive. */
OST_EXTERN const char *ost_mode_name(ost_mode_t mode);
OST_EXTERN const char *ost_capacity_name(ost_capacity_t c);
OST_EXTERN const char *ost_gate_name(ost_gate_t g);
OST_EXTERN const char *ost_intra_name(ost_intra_t i);
OST_EXTERN const char *ost_varea_name(ost_varea_t a);
OST_EXTERN const char *ost_rank_name(ost_rank_t r);
OST_EXTERN const char *ost_hier_name(ost_hier_t h);
OST_EXTERN const char *ost_lead_name(ost_lead_t l);
OST_EXTERN const char *ost_overdue_name(ost_overdue_t o);
OST_EXTERN int ost_mode_parse(const char *s, ost_mode_t *out);
OST_EXTERN int ost_capacity_parse(const char *s, ost_capacity_t *out);
OST_EXTERN int ost_gate_parse(const char *s, ost_gate_t *out);
OST_EXTERN int ost_intra_parse(const char *s, ost_intra_t *out);
OST_EXTERN int ost_varea_parse(const char *s, ost_varea_t *out);
OST_EXTERN int ost_rank_parse(const char *s, ost_rank_t *out);
OST_EXTERN int ost_hier_parse(const char *s, ost_hier_t *out);
OST_EXTERN int ost_lead_parse(const char *s, ost_lead_t *out);
OST_EXTERN int ost_overdue_parse(const char *s, ost_overdue_t *out);

/* The switches' words (Memory, Evidence...): "on" sets *out to true,
 * "off" to false, in any case.  Returns 0, or -OST_EINVAL (NULL or any
 * other word, blanks included) with *out unchanged. */
OST_EXTERN int ost_onoff_parse(const char *s, bool *out);

/* ---------------------------------------------------------- scheduler --- */

/* One virtual schedule: the engine of one partition. Opaque. */
typedef struct ost_sched ost_sched_t;

/* Create an empty scheduler with a copy of cfg; its clock starts at the
 * first event.  Returns a new scheduler (free with ost_sched_destroy), or
 * NULL when cfg is invalid or memory is short. */
OST_EXTERN ost_sched_t *ost_sched_create(const ost_config_t *cfg);

/* Destroy s and everything it owns.  NULL is a no-op. */
OST_EXTERN void ost_sched_destroy(ost_sched_t *s);

/* Borrowed pointer to the configuration in force. */
OST_EXTERN const ost_config_t *ost_sched_config(const ost_sched_t *s);

/* ost_config_nested() of the configuration in force: are u's tags in its
 * account's virtual time (§21)?  s non-NULL. */
OST_EXTERN bool ost_sched_nested(const ost_sched_t *s);

/* Replace the configuration at time now (an event time).  Campaigns, tags
 * and deadlines already computed are kept; the new procs, capacity, gate,
 * intra and mode apply from now on (changing intra or mode re-sorts,
 * O(n log n)).  think_time applies to the next submission.  Returns 0,
 * -OST_EINVAL (cfg invalid or now out of range; nothing changed) or
 * -OST_ENOMEM (nothing changed). */
OST_EXTERN int ost_sched_reconfigure(ost_sched_t *s, const ost_config_t *cfg,
				     double now);

/* Set user uid's weight w_u (in [OST_WEIGHT_MIN, OST_WEIGHT_MAX]).
 * Applies to work submitted from now on (tags already computed are kept)
 * and to the share of the capacity at once.  Returns 0, -OST_EINVAL
 * (weight or now out of range) or -OST_ENOMEM. */
OST_EXTERN int ost_user_set_weight(ost_sched_t *s, uint32_t uid, double weight,
				   double now);

/* Accounts (§21).  An account is a node of the nested virtual schedule:
 * id > 0, chosen by the caller; parent 0 is the root.  Declare account id
 * under parent (declared before, 0 for the root) with share w (a weight,
 * ost_weight_ok), or change the share of a declared one at now (its
 * parent must then be the same).  With Hierarchy=users accounts are
 * accepted and kept but do not shape the schedule.  Returns 0,
 * -OST_EINVAL (id 0, unknown parent, a different parent for a declared
 * account, share or now out of range) or -OST_ENOMEM.  O(active children
 * along the path). */
OST_EXTERN int ost_acct_declare(ost_sched_t *s, uint32_t id, uint32_t parent,
				double share, double now);

/* Make account acct (declared; 0: the root) user uid's own account: the
 * account its jobs count in unless submitted with another (§21).  Only
 * while uid has no unfinished job and no campaign left in the virtual
 * schedule: the user's past tags belong to the old account's virtual time
 * and are dropped.  Returns 0, -OST_EINVAL (unknown account, now out of
 * range), -OST_ESTATE (uid has work in V) or -OST_ENOMEM. */
OST_EXTERN int ost_user_set_account(ost_sched_t *s, uint32_t uid,
				    uint32_t acct, double now);

/* One account of the schedule as it stands (§21), for inspection
 * (scampaign --tree, --explain). */
typedef struct ost_acct_info {
	uint32_t id;
	uint32_t parent;	/* 0: the root */
	double share;		/* w_n, as declared */
	double norm;		/* w_n / W_parent: its part of what its parent
				 * receives now, itself counted in W if it is
				 * not active (0..1); 0 with Hierarchy=users */
	double frac;		/* the product of norm along its path: the
				 * fraction of the capacity it receives now,
				 * or would by becoming active (0..1); 0 with
				 * Hierarchy=users */
	bool active;		/* some leaf under it has a campaign in V */
	uint32_t leaves;	/* leaves (users, -A pairs) directly in it */
	uint32_t kids;		/* accounts directly under it */
} ost_acct_info_t;

/* Account id as it stands now, into *out.  Returns 0 or -OST_ENOENT (not
 * declared).  O(depth). */
OST_EXTERN int ost_acct_get(const ost_sched_t *s, uint32_t id,
			    ost_acct_info_t *out);

/* How many accounts are declared; their ids, increasing, into ids[0..max)
 * when max is at least that many (else ids is untouched: call with max 0
 * to size the array).  O(a log a). */
OST_EXTERN size_t ost_acct_ids(const ost_sched_t *s, uint32_t *ids,
			       size_t max);

/* One leaf of the schedule (§21): a user in its own account, or a
 * (user, -A account) pair. */
typedef struct ost_leaf_info {
	uint32_t uid;
	uint32_t account;	/* the account it counts in (0: the root) */
	double weight;		/* w_u */
	double frac;		/* the fraction of the capacity it receives
				 * now, or would by submitting now (0..1):
				 * what ost_sched_user_share says of a uid's
				 * own leaf */
	bool active;		/* it has a campaign in V */
	uint32_t unfinished;	/* its pending + running jobs */
} ost_leaf_info_t;

/* How many leaves account acct (0: the root) holds directly; them, by
 * uid, into out[0..max) when max is at least that many (else out's
 * contents are unspecified).  An undeclared account holds none.
 * O(l log l), the root O(users). */
OST_EXTERN size_t ost_acct_leaves(const ost_sched_t *s, uint32_t acct,
				  ost_leaf_info_t *out, size_t max);

/* Move the clock to now, integrating the virtual time v (§3) over the
 * elapsed interval.  A now earlier than the clock, or not an event time
 * (ost_time_ok), is ignored (virtual time never rewinds).  O(k log n) for
 * k users becoming inactive, plus the steps of §12 due by now, each
 * O(later campaigns * log n).  Cannot fail (returns 0). */
OST_EXTERN int ost_sched_advance(ost_sched_t *s, double now);

/* Current clock (the largest time seen), or -INFINITY before any event.
 * A host compares it with its own clock to detect a step back (see
 * ost_sched_rebase). */
OST_EXTERN double ost_sched_now(const ost_sched_t *s);

/* Shift every absolute real time s holds by delta seconds: the clock, every
 * job's submit and start times, every campaign's t_c and E_c (§2), and the
 * FairCamp deadlines D (§5), re-derived from the shifted t_c.  Virtual
 * time v and the tags S, F are not touched, nor is any area or weight.
 *
 * For a host whose wall clock stepped: after a forward jump and its
 * correction the clock is ahead of real time, and since virtual time never
 * rewinds (ost_sched_advance) v stands still until real time catches up.
 * When the host sees now < ost_sched_now(s) - tolerance it calls
 * ost_sched_rebase(s, now - ost_sched_now(s)); v moves again from the
 * next event, at the same rate.
 *
 * Guarantees: the ranking (ost_sched_foreach_pending) and every campaign's
 * v-state and eligibility are unchanged; D' = D + delta and t_c' = t_c +
 * delta exactly whenever these sums are exact (integer seconds, values
 * within one binade, as time_t of this century); advancing to clock' + dt
 * then integrates dt seconds, giving the v that advancing to clock + dt
 * would have given.  Returns 0 (delta 0 is a no-op) or -OST_EINVAL (delta
 * not finite, or a shifted time would leave the event-time range; nothing
 * changed).  O(n log n); meant for rare corrections. */
OST_EXTERN int ost_sched_rebase(ost_sched_t *s, double delta);

/* Real time of the next virtual event if no real event happens first: v
 * reaches the F of an active user's newest campaign (the user leaves W)
 * or the S of a queued campaign with pending jobs (it becomes eligible,
 * §4).  INFINITY when there is none or v is stalled.  A simulator with
 * gate=strict advances to it to wake up queued campaigns.  O(1). */
OST_EXTERN double ost_sched_next_vevent(const ost_sched_t *s);

/* ------------------------------------------------------------- events --- */
/*
 * Every event carries its own timestamp t, an event time (ost_time_ok;
 * else the event is refused with -OST_EINVAL).  The virtual schedule is first
 * advanced to max(t, clock); a t in the past (a completion learnt late) is
 * applied at the clock but keeps its own value for grouping (t_c, E_c §2).
 */

typedef struct ost_job_desc {
	uint64_t id;        /* unique while the job is known (> 0) */
	uint32_t uid;       /* owner */
	uint32_t procs;     /* q >= 1 */
	double estimate;    /* e, a duration (caller applies §1 defaults) */
	uint64_t group;     /* != 0: jobs of one uid with the same group (a job
			     * array) always share a campaign (§2) */
	uint32_t campaign;  /* 0: group by think time (§2); else an explicit
			     * per-user campaign sequence number, >= the
			     * user's latest (synthetic and trace grouping).
			     * Sequence numbers saturate: once a user's
			     * latest is UINT32_MAX, think-time grouping
			     * joins it instead of opening another */
	uint32_t account;   /* 0: the owner's own account; else the account
			     * the job counts in (-A), a leaf of its own for
			     * the owner with Hierarchy=accounts (§21); an
			     * undeclared account counts as 0 */
	int32_t nice;       /* §22: the owner's order among its own jobs
			     * and campaigns, lower first (Slurm's nice);
			     * 0 (default) everywhere: arrival order and
			     * the intra order, as before */
} ost_job_desc_t;

/* A new pending job submitted at t.  It joins or opens a campaign (§2) and
 * updates its tags (§3) and deadline (§5).  *campaign_out (may be NULL)
 * receives the campaign's sequence number.  Returns 0, -OST_EINVAL
 * (id 0, procs 0, bad estimate or explicit campaign below the user's
 * latest), -OST_EEXIST or -OST_ENOMEM.  O(log n). */
OST_EXTERN int ost_job_submit(ost_sched_t *s, const ost_job_desc_t *job,
			      double t, uint32_t *campaign_out);

/* Pending job id now has nice `nice` at t (§22).  The owner's jobs go in
 * the order of: the most recently lowered nice first (a value below the
 * job's previous one is a lowering, a value above ends it; jobs not
 * lowered last), then the lower
 * nice; inside a campaign before the intra order (§4), and its campaigns
 * not cut apart by an idle time in V by their first pending job (ties by
 * arrival); a campaign moved ahead takes the start tag of the one it
 * passes, which moves back by its length; the owner's last F, v and
 * every other user's tags are kept.  Returns 0, -OST_ENOENT, -OST_EINVAL
 * (t) or -OST_ESTATE (not pending).  O(log n); the next read re-derives
 * the owner's chain, O(its campaigns * log n + its unfinished jobs). */
OST_EXTERN int ost_job_set_nice(ost_sched_t *s, uint64_t id, int32_t nice,
				double t);

/* Pending job id started running at t on the CPUs it asked for: same as
 * ost_job_start_alloc(s, id, t, its current procs).  Returns 0,
 * -OST_ENOENT, -OST_EINVAL (t) or -OST_ESTATE (not pending).  O(log n). */
OST_EXTERN int ost_job_start(ost_sched_t *s, uint64_t id, double t);

/* Pending job id started running at t on `procs` CPUs, the width the host
 * allocated (>= 1; may differ from the request).  From now on the job is
 * that wide: it counts procs CPUs in C(t) (§3.2, capacity=used), its finish
 * charges procs * runtime, and when procs differs from the request q its
 * campaign is resized as by ost_job_update() with d = (procs - q) e: A_c
 * and A_est move by d, L by d / w_u (restarting the campaign at v when d >
 * 0 and v >= F_c), and S, F, D of the campaign and of the user's later
 * ones are re-derived.  ost_job_get() then reports procs.  Returns 0,
 * -OST_EINVAL (procs 0, t), -OST_ENOENT or -OST_ESTATE (not pending); a
 * failed call changes nothing.  O(log n + later campaigns of the user). */
OST_EXTERN int ost_job_start_alloc(ost_sched_t *s, uint64_t id, double t,
				   uint32_t procs);

/* Pending job id now asks for `procs` CPUs (q' >= 1) and has estimate
 * `estimate` (e', a duration; the caller applies §1 defaults, e.g.
 * the new time limit), at t: the owner changed its width or time limit.
 * The job stays in its campaign (grouping, §2, is decided at submission
 * once and for all).  With d = q'e' - qe CPU-seconds:
 *   - A_c and A_est (the FairCamp area) move by d (A_est never below 0);
 *   - d > 0 counts as a join of area d (§3.4): L_c += d / w_u while
 *     v < F_c, else the campaign restarts at v (phi = v, L_c = d / w_u);
 *   - d < 0 counts as a correction (§3.4): L_c = max(0, L_c + d / w_u);
 *   - max e of the campaign is recounted with e';
 *   - S, F and D of the campaign and of the user's later campaigns are
 *     re-derived as on submission, and the job is re-placed in the intra
 *     order (§4) with its new q' and e'.
 * The FairCamp deadline D_c is re-derived too (k_c stays the one fixed at
 * t_c): D_c is a function of the work the campaign announces, and a
 * deadline kept from a smaller submission would let a user buy an early
 * deadline with a narrow job and widen it afterwards.
 * The clock advances to t as for any event, even when nothing else
 * changes (q' = q and e' = e).  Returns 0, -OST_EINVAL (procs 0, estimate
 * not a duration, t not an event time), -OST_ENOENT or -OST_ESTATE (running:
 * its width is the allocated one, given at start); a failed call changes
 * nothing.  O(log n + later campaigns of the user). */
OST_EXTERN int ost_job_update(ost_sched_t *s, uint64_t id, uint32_t procs,
			      double estimate, double t);

/* Job id finished at t after running `runtime` seconds (p, a duration; its
 * campaign's area is corrected by q*(p - e), §3, q being the width it
 * started with).  The runtime is charged as given, unbounded: a host whose
 * runtimes may be inflated (downtime, stale records) uses
 * ost_job_finish_capped().  A pending job that finishes is treated as
 * cancelled.  The job is forgotten afterwards.  Returns 0, -OST_ENOENT or
 * -OST_EINVAL (runtime not a duration, t not an event time).
 * O(log n + later campaigns of the user). */
OST_EXTERN int ost_job_finish(ost_sched_t *s, uint64_t id, double t,
			      double runtime);

/* Same as ost_job_finish(), charging p = min(runtime, cap, t - start)
 * seconds, where start is the time given at its start event (rebased with
 * the clock) and the last bound applies only when t >= start.  cap is the
 * longest the job may have run (the host's time limit; INFINITY for none).
 * A pending job is cancelled (p = 0).  *charged (may be NULL) receives p.
 * Returns 0, -OST_ENOENT or -OST_EINVAL (runtime < 0, infinite or NaN; cap
 * < 0 or NaN; t not an event time; p not a duration) with nothing
 * changed. */
OST_EXTERN int ost_job_finish_capped(ost_sched_t *s, uint64_t id, double t,
				     double runtime, double cap,
				     double *charged);

/* Pending job id was cancelled at t: it leaves its campaign and its area is
 * removed (§2, §4).  The job is forgotten.  Returns 0, -OST_ENOENT,
 * -OST_EINVAL (t) or -OST_ESTATE (not pending: a running job that is
 * cancelled finishes). */
OST_EXTERN int ost_job_cancel(ost_sched_t *s, uint64_t id, double t);

/* Running job id was requeued at t: pending again in the same campaign,
 * with its estimate still counted, at the width it ran with (call
 * ost_job_update() if the host's request differs); the run that ended,
 * q * (t - start) CPU-seconds, is charged to its campaign at once (the
 * papers are silent; §9.4).
 * Returns 0, -OST_ENOENT, -OST_EINVAL (t) or -OST_ESTATE (not running). */
OST_EXTERN int ost_job_requeue(ost_sched_t *s, uint64_t id, double t);

/* ------------------------------------------------------------ queries --- */

/* The queries below that read tags, ranks, W or C~ (and
 * ost_sched_next_vevent) first finish, inside s, the re-derivations that
 * finishes and cancels deferred: s is const to the caller (every result is
 * what the eager derivation gives), but, like every function here, a query
 * is not safe concurrently with other calls on the same s. */

typedef enum {
	OST_JOB_PENDING = 0,
	OST_JOB_RUNNING,
} ost_job_state_t;

/* What the core knows of one job. */
typedef struct ost_job_info {
	uint64_t id;
	uint32_t uid;
	uint32_t procs;       /* requested (pending), allocated (running) */
	double estimate;
	double submit;        /* t given at submission */
	double start;         /* t given at start (running jobs), else NAN */
	uint32_t campaign;    /* sequence number within uid */
	ost_job_state_t state;
	int32_t nice;         /* §22: the nice it was last given */
	uint32_t account;     /* §21: the account it counts in (0: the root,
			       * or Hierarchy=users) */
} ost_job_info_t;

/* Fill *out for job id.  Returns 0 or -OST_ENOENT.  O(1). */
OST_EXTERN int ost_job_get(const ost_sched_t *s, uint64_t id,
			   ost_job_info_t *out);

/* Call fn for every job the core knows (pending or running), in no
 * particular order; stop early when fn returns non-zero and return that
 * value, else 0.  fn must not change s. */
typedef int (*ost_job_visit_f)(const ost_job_info_t *job, void *arg);
OST_EXTERN int ost_sched_foreach_job(const ost_sched_t *s, ost_job_visit_f fn,
				     void *arg);

typedef enum {
	OST_VSTATE_QUEUED = 0, /* v < S_c */
	OST_VSTATE_RUNNING,    /* S_c <= v < F_c */
	OST_VSTATE_COMPLETE,   /* v >= F_c */
} ost_vstate_t;

/* One campaign as people see it. */
typedef struct ost_campaign_info {
	uint32_t uid;
	uint32_t seq;          /* per-user sequence number, from 1 */
	double submit;         /* t_c */
	double area;           /* A_c, CPU-seconds (estimates, corrected) */
	double vstart, vfinish;/* S_c, F_c (virtual time) */
	double vct;            /* C~_c: real time v reaches F_c if nothing else
				* happens; INFINITY when v is stalled (C = 0) */
	double vst;            /* real time v reaches S_c, projected as vct
				* (§24: ost_sched_job_vstart); now when the
				* campaign is eligible */
	double deadline;       /* D_c (§5), computed in both modes */
	uint32_t k;            /* k_c used for D_c */
	double weight;         /* w_u */
	ost_vstate_t vstate;
	bool eligible;         /* §4 gate (always true in FairCamp mode) */
	uint32_t pending, running, done; /* job counts (done: finished) */
	uint64_t first_rank;   /* rank of its first pending job, 0 if none */
} ost_campaign_info_t;

/* One pending job in priority order. */
typedef struct ost_rank_info {
	uint64_t job_id;
	uint64_t rank;         /* 1 = highest priority */
	uint32_t uid;
	uint32_t campaign;
	bool eligible;         /* v >= S_c (§4); only gate=strict keeps a
				* non-eligible job from starting */
} ost_rank_info_t;

/* Call fn for every pending job in rank order (§4 or §5), ranks 1..N.
 * Stops when fn returns non-zero and returns that value, else 0.  fn must
 * not change s (start jobs after the walk).  O(N), reading memory in order
 * (it builds a cache inside s: not safe concurrently with other calls on
 * the same s, like every other function here). */
typedef int (*ost_rank_visit_f)(const ost_rank_info_t *r, void *arg);
OST_EXTERN int ost_sched_foreach_pending(const ost_sched_t *s,
					 ost_rank_visit_f fn, void *arg);

/* Rank of pending job id in *rank.  Returns 0, -OST_ENOENT or -OST_ESTATE
 * (not pending).  O(log n). */
OST_EXTERN int ost_sched_rank(const ost_sched_t *s, uint64_t id,
			      uint64_t *rank);

/* C~ of the campaign of job id (pending or running) in *vct: the value
 * ost_sched_foreach_campaign() gives it, to rounding (a sum over the
 * active users in another order).  Returns 0 or -OST_ENOENT.  O(U) for U
 * active users, whatever the number of jobs and campaigns: what a single
 * submission can afford. */
OST_EXTERN int ost_sched_job_vct(const ost_sched_t *s, uint64_t id,
				 double *vct);

/* When the campaign of job id starts in V, in real time, in *t: the time
 * v reaches S_c (carried into the root's v with accounts, §21) if nothing
 * else happens, as C~ is for F_c; now once it has (eligible, §4, and
 * always in FairCamp mode); INFINITY when v is stalled.  Later than now
 * means the campaign opened at the F of its user's previous one, served
 * ahead of V (§3.3, §24).  Returns 0 or -OST_ENOENT.  O(U). */
OST_EXTERN int ost_sched_job_vstart(const ost_sched_t *s, uint64_t id,
				    double *t);

/* Call fn for every campaign still tracked (with unfinished jobs, or a
 * user's latest), in priority order of those with pending jobs first, then
 * the others by (uid, seq).  C~ of all of them is computed in one sweep,
 * O(n log n).  Stops when fn returns non-zero and returns that value. */
typedef int (*ost_campaign_visit_f)(const ost_campaign_info_t *c, void *arg);
OST_EXTERN int ost_sched_foreach_campaign(const ost_sched_t *s,
					  ost_campaign_visit_f fn, void *arg);

/* Why a job waits: its campaign, its rank and the campaigns ranked ahead. */
typedef struct ost_explain {
	ost_job_info_t job;
	ost_campaign_info_t campaign;
	uint64_t rank;              /* 0 when the job runs */
	uint64_t pending_total;     /* pending jobs in the schedule */
	double now;                 /* clock */
	double vtime;               /* v(now) */
	double capacity;            /* C(now), CPUs */
	double total_weight;        /* W: sum of active users' weights */
	double share;               /* CPUs the user gets now: C w_u / W' with
				     * W' = W (+ w_u if the user is inactive) */
	double head_time;           /* real time its campaign's pending jobs
				     * reach the head if nothing else happens:
				     * C~ of the last campaign ahead (now if
				     * none); INFINITY if v is stalled */
	size_t n_ahead;             /* campaigns with pending jobs ahead */
	ost_campaign_info_t *ahead; /* the first min(n_ahead, max_ahead) */
} ost_explain_t;

/* Fill *out for job id, listing at most max_ahead campaigns ahead.
 * out->ahead is new: release with ost_explain_free().  Returns 0,
 * -OST_ENOENT or -OST_ENOMEM (out untouched). */
OST_EXTERN int ost_sched_explain(const ost_sched_t *s, uint64_t id,
				 size_t max_ahead, ost_explain_t *out);

/* Free what ost_sched_explain() allocated in ex.  NULL is a no-op. */
OST_EXTERN void ost_explain_free(ost_explain_t *ex);

/* Fraction of the capacity (0..1) user uid receives in the virtual
 * schedule now: w_u / W, counting u in W if it is not active (the share it
 * would get by submitting now).  Returns 0, or -OST_ENOENT for a user the
 * core has never seen.  O(1). */
OST_EXTERN int ost_sched_user_share(const ost_sched_t *s, uint32_t uid,
				    double *share);

/* Counters of the whole schedule. */
typedef struct ost_stats {
	double now;            /* clock */
	double vtime;          /* v(now) */
	double capacity;       /* C(now) */
	double total_weight;   /* W */
	uint32_t active_users; /* users with v < F of their latest campaign */
	uint32_t users;        /* users known */
	uint64_t campaigns;    /* campaigns tracked */
	uint64_t pending;      /* pending jobs */
	uint64_t running;      /* running jobs */
	uint64_t busy_procs;   /* CPUs of running jobs */
} ost_stats_t;

/* Fill *out.  Cannot fail.  O(1). */
OST_EXTERN void ost_sched_stats(const ost_sched_t *s, ost_stats_t *out);

/* ----------------------------------------------------- job summaries --- */
/*
 * The one-line summary of a job's place in the schedule that the Slurm
 * plugin keeps in SystemComment and scampaign reads back (doc/summary.md):
 *
 *   ostrich campaign=alice/3 rank=2/14 vct=2026-11-21T23:10:05Z share=0.33
 *   mode=ostrich [vstart=2026-11-21T21:02:00Z]
 *
 * Tokens are "key=value" separated by one space after the "ostrich" tag;
 * parsers ignore keys they do not know (later versions may add some).
 */

#define OST_SUMMARY_MAX 200	/* bytes, NUL included */
#define OST_SUMMARY_USER_MAX 64

typedef struct ost_summary {
	char user[OST_SUMMARY_USER_MAX]; /* user name (no space, '/', '=') */
	uint32_t campaign;	/* sequence number */
	uint64_t rank;		/* 1 = next to start; 0 = running */
	uint64_t pending;	/* pending jobs in the partition */
	double vct;		/* C~, seconds since the epoch; NAN = none,
				 * INFINITY = never (also past year 9999) */
	double share;		/* fraction of the partition, 0..1 (format
				 * clamps above 1) */
	ost_mode_t mode;
	double vstart;		/* §24: when its campaign starts in V (real
				 * time, ost_sched_job_vstart) if that is
				 * later than now (the user's previous
				 * campaign served ahead of V): vstart=; 0 =
				 * absent (started); INFINITY = never.
				 * Optional: left out when the line would
				 * reach OST_SUMMARY_MAX bytes */
} ost_summary_t;

/* Write the summary of sum into buf (size >= OST_SUMMARY_MAX is always
 * enough).  Returns the length written, or -OST_EINVAL (bad user name, or
 * buf too small; buf then holds "" if size > 0). */
OST_EXTERN int ost_summary_format(char *buf, size_t size,
				  const ost_summary_t *sum);

/* Parse str (as written by ost_summary_format) into *out.  Returns 0, or
 * -OST_EINVAL with *out untouched when str is not a summary or a known key
 * is malformed. */
OST_EXTERN int ost_summary_parse(const char *str, ost_summary_t *out);

/* The summary inside field, a SystemComment that other writers share (one
 * entry per line): the first line that begins "ostrich campaign=".
 * Returns a pointer into field and the line's length, '\n' excluded, in
 * *len; NULL when there is none (field NULL included).  A line that merely
 * mentions ostrich is someone else's. */
OST_EXTERN const char *ost_summary_find(const char *field, size_t *len);

/* ------------------------------------------------------- priorities --- */
/*
 * Integer priorities for a ranking that change as few current values as
 * possible (a host scheduler that stores one priority per job then sees a
 * write only where the order really changed).
 *
 * IN/OUT prio[0..n) - on entry the current value of the item at each
 *	position of the new order, best first (any value outside [lo, hi],
 *	e.g. 0, means "none"); on return strictly decreasing values in
 *	[lo, hi].
 * IN lo, hi - the range; needs lo <= hi and n <= hi - lo + 1.
 * OUT changed - (may be NULL) number of entries whose value changed.
 * Returns 0, or -OST_EINVAL / -OST_ENOMEM with prio untouched.
 *
 * The values kept unchanged are a largest set that can be kept (every gap
 * between two kept values has room for the items between them); the
 * others are spread evenly in their gap.  Same input, same output.
 * O(n log n) time, O(n) memory.
 */
OST_EXTERN int ost_prio_renumber(uint32_t *prio, size_t n, uint32_t lo,
				 uint32_t hi, size_t *changed);

/*
 * Re-spread the dense spots of a valid numbering, so that a later item
 * inserted between two neighbours by bisection finds room for several
 * more insertions at the same place before two values must tie.
 *
 * IN/OUT prio[0..n) - strictly decreasing values in [lo, hi] (what
 *	ost_prio_renumber returns); on return still so.
 * IN lo, hi - the range; needs lo <= hi and n <= hi - lo + 1.
 * OUT changed - (may be NULL) number of entries whose value changed.
 * Returns 0, or -OST_EINVAL / -OST_ENOMEM (counting the changes needs a
 * copy of prio) with prio untouched.
 *
 * With B = (prio[0] - prio[n - 1]) / (n - 1) the mean gap of the band
 * the items occupy, every gap below B/16 (the bounds count as the
 * neighbours hi + 1 and lo - 1) is widened: the smallest window of gaps
 * around it (grown by doubling) whose mean is at least B/8 is filled
 * evenly.  On return every gap is at least B/16 of the input's band.  When
 * that band has shrunk below a quarter of the range's mean gap
 * S = (hi - lo + 2) / (n + 1), all items are spread evenly over [lo, hi]
 * instead.  Nothing moves when S < 8, nor when no gap is below B/16.
 * Same input, same output.  O(n log n) time at worst; O(n) memory when
 * changed is asked for and something moves, else O(1).
 */
OST_EXTERN int ost_prio_spread(uint32_t *prio, size_t n, uint32_t lo,
			       uint32_t hi, size_t *changed);

/* ------------------------------------------------------ serialization --- */

/* The newest state format version ost_sched_save() writes and
 * ost_sched_load() reads (doc/state-format.md): a file of a later version
 * comes from a newer core, not from damage. */
#define OST_STATE_VERSION_NEWEST 5

/* Serialize s (configuration, clock, users, campaigns, jobs) into a new
 * NUL-terminated text buffer *buf of *len bytes (excluding the NUL), format
 * described in doc/state-format.md.  The caller free()s *buf.  Returns 0 or
 * -OST_ENOMEM (*buf untouched).  O(n). */
OST_EXTERN int ost_sched_save(const ost_sched_t *s, char **buf, size_t *len);

/*
 * Where ost_sched_save_with() takes its memory.  resize(p, old, size, arg)
 * returns a block of size bytes holding the first min(old, size) bytes of
 * the block p of old bytes (p NULL and old 0: a new block), or NULL with
 * p untouched; release(p, size, arg) frees the block p of size bytes.
 */
typedef struct ost_alloc {
	void *(*resize)(void *p, size_t old, size_t size, void *arg);
	void (*release)(void *p, size_t size, void *arg);
	void *arg;
} ost_alloc_t;

/*
 * ost_sched_save(), with the text and the sort arrays it needs meanwhile
 * (one pointer per user and per job) from a instead of malloc.  The
 * buffer of a large state (about 110 bytes per job) freed into malloc's
 * heap would raise glibc's mmap and trim thresholds and stay resident in
 * the arena of the thread that saves; a caller that maps such blocks on
 * their own returns them to the system.  On success *cap is the size of
 * the block *buf, to give to a->release.  Same text, same errors.  O(n).
 */
OST_EXTERN int ost_sched_save_with(const ost_sched_t *s, const ost_alloc_t *a,
				   char **buf, size_t *len, size_t *cap);

/* Rebuild a scheduler from buf[0..len).  Returns 0 and a new scheduler in
 * *out, or -OST_ECORRUPT / -OST_EVERSION / -OST_ENOMEM with *out untouched
 * and a reason (with line number) written to errbuf (if errlen > 0).
 * Never reads past buf + len; accepts any bytes.  The scheduler runs under
 * the configuration the file holds; a key its version does not hold (a
 * version-1 file: §10-§15's variants) is at its default, so a caller
 * applies the configuration in force with ost_sched_reconfigure() before
 * ranking, as the plugin and the event-log replay do. */
OST_EXTERN int ost_sched_load(const char *buf, size_t len, ost_sched_t **out,
			      char *errbuf, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* OSTRICH_H */
