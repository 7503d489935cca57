/*****************************************************************************\
 *  ost_internal.h - structures shared by the core's modules (not public)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Invariants (no function asserts them; tests/unit/check_property.c
 *  compares v, the tags, the eligibility and the order after every event
 *  with a from-scratch reference, tests/unit/ref_engine.c, so breaking
 *  one shows there):
 *   - a user is in s->active iff v < F of its latest campaign, with key F;
 *     s->total_weight = sum of the weights of the users in s->active;
 *   - a campaign is in s->order iff it has pending jobs; in s->gate iff it
 *     has pending jobs and is not eligible (key S);
 *   - for every campaign: S = max(phi, F_prev), F = S + L, L >= 0
 *     (with Lead=cap or forgive, §24, those of ost_campaign_tags()),
 *     key = F, or P = max(S, F - A_pend / w) with Rank=served (§13),
 *     or min(F, P + Lambda / w) with Rank=capped (§14), minus
 *     kappa / w (0 but with Memory=key, §15),
 *     D = max(t_c, D_prev) + k * max(A_est / m, max e), except the
 *     campaigns of users in s->dirty from u->dirty on, whose stored tags
 *     (and place in s->order, s->gate, W) are those of the last settle
 *     until ost_campaign_settle*() re-derives them; every reader of tags,
 *     eligibility, W or the order settles first (ost_settle.c);
 *   - a user's campaigns have strictly increasing seq along u->first..last;
 *   - s->busy = sum of q over running jobs.
\*****************************************************************************/

#ifndef OST_INTERNAL_H
#define OST_INTERNAL_H

#include <math.h>

#include "ostrich.h"
#include "ost_heap.h"
#include "ost_map.h"
#include "ost_tree.h"

/* §10 bounded: how many of a user's last ratios p / e bound its next job
 * (the next one exceeds the largest of K exchangeable ones with
 * probability 1 / (K + 1) = 5%). */
#define OST_BOUND_K 19

struct ost_campaign;
struct ost_user;
struct ost_wblk;
struct ost_acct;

/*
 * An event reads a job's record mostly while descending its campaign's
 * pending tree: the node and the intra-order keys (ost_config.c: e_full,
 * procs, submit; the id only breaks ties) share the first cache line, the
 * rest follows.
 *
 * The record was 120 bytes with §12 in it, 128 (two cache lines) with
 * §22's nice: the tree node is used only while the job is pending, the
 * step node and the start time only while it runs, so they share storage
 * (read start through ost_job_started(), NAN when pending).  _start() initialises the running
 * half after the job left camp->pending; ost_tree_insert() sets every
 * field of the node when it goes back (requeue).
 */
typedef struct ost_job {
	union {
		ost_tnode_t node;	/* in camp->pending while pending */
		struct {		/* while running */
			ost_hkey_t step;	/* in s->steps while
						 * estimate < e_full (§12),
						 * key: the instant of its
						 * next step */
			double start;		/* start time */
		};
	};
	double e_full;			/* e counted without §12: the ceiling
					 * of the charge `estimate`; equal to
					 * estimate without the variant */
	double submit;			/* submit time */
	uint32_t procs;			/* q */
	ost_job_state_t state;
	uint64_t id;
	struct ost_campaign *camp;
	double estimate;		/* e, seconds: the charge (§12) */
	struct ost_wblk *wblk;		/* its walk block (camp->walk only) */
	struct ost_job *next, *prev;	/* camp's unfinished jobs */
	double e_cut;			/* requested e minus the e counted
					 * (§10; 0 without the variant) */
	int32_t nice;			/* §22: its owner's order, lower first
					 * (0: none) */
	uint32_t lowered;		/* §22: when its nice was last lowered,
					 * s->lowered_seq then (0: never);
					 * the most recent first */
} ost_job_t;

/* j's start time while it runs, else NAN (start shares j's storage with
 * the tree node of a pending job, see ost_job_t). */
static inline double ost_job_started(const ost_job_t *j)
{
	return j->state == OST_JOB_RUNNING ? j->start : NAN;
}

/* The first cache line holds what the order's comparators (ost_order.c)
 * and the walk read first: the node, OStrich's (eligible, key) and
 * FairCamp's deadline.  F_c is no longer read there (key is), so it
 * sits with S_c after the line. */
typedef struct ost_campaign {
	ost_tnode_t node;		/* in s->order while n_pending > 0 */
	double key;			/* order key: F_c, or §13, §14's; with
					 * accounts, ukey in the root's
					 * virtual time (§21) */
	double deadline;		/* D_c */
	uint32_t seq;
	bool eligible;
	bool in_order;
	bool walk;
	bool restarted;			/* §27: its pending work rejoined V
					 * once since it last grew */
	bool behind;			/* §24: at v_rel another campaign of
					 * its user had an unfinished job:
					 * Lead=cap forgives it nothing */
	bool resort;			/* re-sort at the next settle even if
					 * its tags do not move (pending
					 * count changed) */
	struct ost_user *user;
	struct ost_wblk *whead;		/* the pending jobs as a list of
					 * blocks of ids (ost_walk.c), valid
					 * iff walk */
	double t_c;			/* first job's submit time */
	double vstart;			/* S_c */
	double vfinish;			/* F_c */
	double area;			/* A_c: estimates, corrected at finish */
	double area_est;		/* estimates of non-cancelled jobs (D_c) */
	double area_pend;		/* A^pend_c: areas counted by the
					 * pending jobs (§13) */
	double phi;			/* floor of S (v at open or restart) */
	double vrel;			/* §24: v at open or restart (phi
					 * without §11's credit) */
	double cut;			/* §24: v when its last unfinished job
					 * left, +inf while it has one */
	double len;			/* L_c = virtual length, >= 0 */
	double credit;			/* kappa_c: §11's credit kept for the
					 * key (§15), else 0 */
	double ukey;			/* the key in the user's own virtual
					 * time (= key without accounts) */
	double kfrom;			/* ukey when key was last projected
					 * (§21), NAN before */
	double last_end;		/* E_c: last finish time, -inf if none */
	double max_e_done;		/* max e of finished jobs */
	double max_e;			/* max e of non-cancelled jobs */
	uint64_t n_at_max;		/* jobs holding max_e (done: 1) */
	uint32_t k;			/* k_c */
	uint32_t n_pending, n_running, n_done;
	ost_tree_t pending;		/* pending jobs, intra order */
	ost_job_t *jobs;		/* unfinished jobs (list head) */
	ost_hkey_t gate;		/* in s->gate while pending, !eligible */
	uint64_t *groups;		/* job-array groups mapped to it */
	size_t n_groups;
	struct ost_campaign *next, *prev;	/* the user's, oldest first */
	struct ost_campaign *cnext;	/* §22: next in the user's chain of
					 * tags while it is reordered */
	int32_t cnice;			/* §22: its first pending job's nice
					 * and lowering (ost_job_order_cmp),
					 * 0 without (last settle) */
	uint32_t clowered;
} ost_campaign_t;

typedef struct ost_user {
	uint32_t uid;
	double weight;			/* w_u */
	double base_vfinish;		/* F of the newest forgotten campaign */
	double base_deadline;		/* D of the newest forgotten campaign */
	uint32_t last_seq;		/* newest campaign's sequence number */
	uint32_t unfinished;		/* pending + running jobs */
	ost_campaign_t *first, *last;
	ost_hkey_t active;		/* in s->active while v < last->F */
	ost_campaign_t *dirty;		/* oldest campaign whose tags are
					 * stale, NULL when settled */
	ost_campaign_t *dirty_to;	/* newest campaign changed since the
					 * last settle (valid iff dirty) */
	bool in_dirty;			/* in s->dirty */
	bool in_overdue;		/* in s->overdue (§27) */
	struct ost_user *next_overdue;	/* s->overdue list */
	struct ost_user *next_dirty;	/* s->dirty list */
	double acc_num, acc_den;	/* §10: decayed sums of q min(p,e), q e */
	double last_p[2];		/* §10 predicted: the last two
					 * runtimes (s), newest first */
	uint32_t n_last;		/* how many of last_p are set (0-2) */
	double ratio[OST_BOUND_K];	/* §10 bounded: min(p / e, 1) of the
					 * last OST_BOUND_K jobs, a ring */
	uint32_t n_ratio;		/* ratios recorded, at most K */
	uint32_t ratio_at;		/* ring slot of the next ratio */
	double usage, usage_t;		/* §11: decayed usage U_u at usage_t */
	uint64_t tie;			/* in heaps: uid, or (account index
					 * << 32 | uid) for a -A leaf (§21) */
	struct ost_acct *acct;		/* parent node in V, NULL: the root */
	uint32_t acct_id;		/* the account it counts in (0: root) */
	struct ost_user *next_in;	/* acct->users */
	struct ost_user *next_leaf;	/* the uid's -A leaves (§21) */
	uint32_t n_nice;		/* §22: unfinished jobs with a nice or
					 * a lowering (ost_job_ordered) */
	struct ost_campaign *tail;	/* §22: last of its chain of tags
					 * when reordered, else NULL (last) */
} ost_user_t;

/*
 * An account: an inner node of the nested virtual schedule (§21).  It has
 * its own virtual time v_n, which follows its parent's at the rate
 * dv_n / dv_parent = w_n / W_n, W_n the shares of its active children
 * (users and accounts, in `active` by their finish tag in v_n).  Seen
 * from its parent it is one child with the finish tag
 *
 *     F_n = v_parent + sum over active children k of w_k (F_k - v_n) / w_n
 *
 * (its remaining work in V over its share), constant while no event
 * touches its subtree.  The heap tie of an account has OST_TIE_ACCT set.
 */
#define OST_TIE_ACCT (UINT64_C(1) << 63)
typedef struct ost_acct {
	ost_hkey_t hk;			/* in the parent's active heap while
					 * active, key F_n, tie
					 * OST_TIE_ACCT | idx */
	uint32_t id, idx;		/* caller's id; index from 1 */
	double share;			/* w_n */
	struct ost_acct *parent;	/* NULL: the root */
	struct ost_acct *top;		/* its ancestor under the root */
	double vtime;			/* v_n */
	double psync;			/* the parent's v that v_n follows to */
	double wsum;			/* W_n */
	uint32_t n_active;		/* children in `active` */
	uint32_t n_kids_active;		/* accounts among them */
	ost_heap_t active;		/* active children by F, in v_n */
	struct ost_acct *kids, *sib;	/* child accounts */
	struct ost_user *users;		/* leaves, by next_in */
	uint32_t n_users, n_kids;	/* leaves, child accounts (slots
					 * reserved in `active`) */
	bool dirty;			/* top only: keys to re-project */
	struct ost_acct *next_dirty;	/* s->acct_dirty */
	struct ost_acct *next;		/* s->accts, every account */
} ost_acct_t;

struct ost_sched {
	ost_config_t cfg;
	double now;			/* clock, -inf before any event */
	double vtime;			/* v(now) */
	double total_weight;		/* W */
	uint32_t n_active;		/* users in s->active */
	uint32_t n_busy_users;		/* users with unfinished jobs */
	uint64_t busy;			/* CPUs of running jobs */
	uint64_t n_pending, n_running, n_campaigns;
	uint64_t n_eligible;		/* campaigns in s->order eligible */
	ost_map_t jobs;			/* id -> ost_job_t */
	ost_map_t users;		/* uid + 1 -> ost_user_t */
	ost_map_t groups;		/* group -> ost_campaign_t */
	ost_tree_t order;		/* campaigns with pending jobs */
	ost_heap_t active;		/* active users by F_last */
	ost_heap_t gate;		/* non-eligible pending campaigns by S */
	ost_user_t *overdue;		/* §27: users whose last campaign is
					 * complete in V with jobs pending,
					 * to rejoin when the clock moves */
	ost_user_t *dirty;		/* users that may have stale tags
					 * (ost_campaign_settle), by
					 * next_dirty */
	ost_job_t *free_jobs;		/* freed records (ost_pool.c), by next */
	uint32_t n_free_jobs;
	double usage_total, usage_t;	/* §11: sum of U_u at usage_t */
	double acc_num, acc_den;	/* §10 pooled: N_*, D_* of all users */
	ost_heap_t steps;		/* §12: running jobs by next step */
	ost_map_t accts;		/* id -> ost_acct_t (§21) */
	ost_acct_t *acct_list;		/* every account, by next */
	uint32_t n_accts;
	uint32_t n_kids_active;		/* accounts in s->active */
	ost_acct_t *acct_dirty;		/* tops whose keys are stale */
	uint64_t n_nice;		/* §22: unfinished jobs with a nice or
					 * a lowering (ost_job_ordered) */
	uint32_t lowered_seq;		/* §22: the last lowering's number
					 * (saturates) */
	uint64_t n_lowered;		/* §22: unfinished jobs lowered */
};

/* §27 Overdue=restart: whether c, its user's last in V, may rejoin V:
 * the rule is on, c has jobs pending and has not rejoined since it last
 * grew.  (Complete in V, v >= F_c, is the caller's to know.)  Inline: the
 * clock (ost_vclock.c) asks it below the campaigns. */
static inline bool ost_campaign_may_rejoin(const struct ost_sched *s,
					   const struct ost_campaign *c)
{
	return s->cfg.overdue == OST_OVERDUE_RESTART && !c->restarted &&
	       c->n_pending && c->area_pend > 0.0;
}

/* The campaign whose F is u's last in V (§22: its chain's last, which a
 * reordering may make another than the newest). */
static inline const struct ost_campaign *ost_user_end(const struct ost_user *u)
{
	return u->tail ? u->tail : u->last;
}

/* The virtual time u's tags are in: its account's, or the root's. */
static inline double ost_user_vtime(const ost_sched_t *s,
				    const struct ost_user *u)
{
	return u->acct ? u->acct->vtime : s->vtime;
}

/*
 * The modules, bottom-up: each calls only those listed before it here
 * (tools/check-deps.sh fails on any circle), so they read in this order.
 * The containers (ost_tree, ost_heap, ost_map, ost_grow) come first; the
 * façade (ost_sched.c, ost_job.c) and the readers (ost_query.c,
 * ost_state*.c, ost_summary.c, ost_prio.c) last.
 */

/* ost_config.c */
ost_tree_cmp_f ost_intra_cmp(ost_intra_t intra);

/* ost_pool.c: job records, recycled */
/* A zeroed record, or NULL when memory is short. */
ost_job_t *ost_job_alloc(ost_sched_t *s);
/* Give back j (in no structure any more).  Cannot fail. */
void ost_job_release(ost_sched_t *s, ost_job_t *j);
/* Free the recycled records (ost_sched_destroy). */
void ost_pool_free(ost_sched_t *s);

/* ost_walk.c: the pending jobs of a campaign in blocks, for the walk */
void ost_walk_insert(ost_campaign_t *c, ost_job_t *j);
void ost_walk_remove(ost_campaign_t *c, ost_job_t *j);
void ost_walk_drop(ost_campaign_t *c);
bool ost_walk_build(ost_campaign_t *c);

/* The block list of ost_walk.c: ids in intra order, blocks in order. */
#define OST_WBLK 128
typedef struct ost_wblk {
	struct ost_wblk *next, *prev;
	uint32_t n;			/* entries used */
	uint64_t id[OST_WBLK];		/* job ids, read by the walk */
	struct ost_job *job[OST_WBLK];	/* the same jobs */
} ost_wblk_t;

/* ost_acct.c: the nested virtual schedule (§21), its arithmetic and the
 * account records; reads no campaign's tags */
double ost_hkey_weight(const ost_hkey_t *h);
void ost_acct_follow_kids(ost_sched_t *s, ost_acct_t *a);
void ost_acct_leave(ost_sched_t *s, ost_acct_t *a);
void ost_acct_refresh(ost_sched_t *s, ost_acct_t *a);
double ost_acct_project(const ost_sched_t *s, const ost_user_t *u, double x);
/* c's key from its ukey, in the root's virtual time (c->kfrom caches).
 * Does not re-sort c.  O(active children along its path). */
void ost_acct_key(ost_sched_t *s, ost_campaign_t *c);
double ost_acct_share(const ost_sched_t *s, const ost_user_t *u);
double ost_acct_norm(const ost_sched_t *s, const ost_acct_t *a);
double ost_acct_frac(const ost_sched_t *s, const ost_acct_t *a);
/* Declared account id, or NULL (id 0, the root, is never declared). */
ost_acct_t *ost_acct_find(const ost_sched_t *s, uint32_t id);
/* Room in a's heap (the root's when NULL) for one more child, so that
 * joining it later cannot fail.  0 or -1 (memory short). */
int ost_acct_reserve_child(ost_sched_t *s, ost_acct_t *a);
void ost_acct_free_all(ost_sched_t *s);

/* ost_user.c: user records by uid, and their -A leaves (§21) */
/* u for uid; with create, a new user (weight = default) if unknown.
 * Returns NULL if unknown (or memory short with create). */
ost_user_t *ost_user_get(ost_sched_t *s, uint32_t uid, bool create);
/* Link leaf u under a (NULL: the root) as a member of account id: in a's
 * list when the schedule is nested, else u stays at the root with only
 * its acct_id.  The caller has unlinked u from any other list and
 * reserved a's slot (ost_acct_reserve_child).  Cannot fail. */
void ost_user_attach(ost_sched_t *s, ost_user_t *u, ost_acct_t *a,
		     uint32_t id);
ost_user_t *ost_leaf_get(ost_sched_t *s, ost_user_t *u, uint32_t acct);
/* The loader's (ost_state_rec.c): make account id (declared, 0: the
 * root) the own account of u, new and without campaigns.  0, -OST_EINVAL
 * (unknown) or -OST_ENOMEM. */
int ost_acct_attach(ost_sched_t *s, ost_user_t *u, uint32_t id);
/* The loader's: a new -A leaf of u (a uid's own record) in declared
 * account id, last in u's list of leaves (the saved order).  0,
 * -OST_EINVAL (unknown account, flat schedule), -OST_EEXIST (u has a leaf
 * there) or -OST_ENOMEM. */
int ost_leaf_add(ost_sched_t *s, ost_user_t *u, uint32_t id,
		 ost_user_t **out);

/* ost_vclock.c: virtual time (§3): C, W and C~, no advance */
double ost_vclock_capacity(const ost_sched_t *s);
/* Put u in or out of W after the F of its latest campaign changed (its
 * tags settled).  Cannot fail: ost_user_get() reserved the slot. */
void ost_vclock_user_update(ost_sched_t *s, ost_user_t *u);
double *ost_vclock_project(const ost_sched_t *s, const double *vf, size_t n);
double ost_vclock_completion(const ost_sched_t *s, double x);
double ost_vclock_share(const ost_sched_t *s, const ost_user_t *u);

/* ost_variant.c: learned, predicted and bounded areas (§10), memory
 * (§11), the charge and its steps (§12); neutral when off */
double ost_variant_estimate(const ost_sched_t *s, const ost_user_t *u,
			    double estimate);
void ost_variant_finish(ost_sched_t *s, ost_user_t *u, uint32_t procs,
			double runtime, double estimate, double t);
double ost_variant_credit(const ost_sched_t *s, const ost_user_t *u,
			  double t);
/* Move the usage decay times and the step instants by delta s
 * (ost_sched_rebase).  O(users + steps log steps). */
void ost_variant_rebase(ost_sched_t *s, double delta);
double ost_variant_charge(const ost_sched_t *s, double estimate);
void ost_variant_track(ost_sched_t *s, ost_job_t *j);
void ost_variant_untrack(ost_sched_t *s, ost_job_t *j);

/* ost_order.c: priority order (§4, §5); places settled campaigns */
ost_tree_cmp_f ost_order_cmp(const ost_config_t *cfg);
void ost_order_unlink(ost_sched_t *s, ost_campaign_t *c);
/* Re-sort c (its user settled: the order trusts the stored tags) after
 * its tags, deadline, eligibility or pending count changed.  Cannot
 * fail.  O(log n). */
void ost_order_reindex(ost_sched_t *s, ost_campaign_t *c);
/* Re-sort every campaign (every user settled) after the mode or intra
 * order changed.  0.  O(n log n). */
int ost_order_rebuild(ost_sched_t *s);
/* §21: re-project the keys under the marked top accounts and re-sort
 * what moved (every user settled).  O(campaigns under them * log n). */
void ost_acct_rekey(ost_sched_t *s);

/* ost_tags.c: a campaign's tags from its stored inputs */
/* Mark c changed: its tags and its later campaigns' are stale until the
 * next settle (ost_settle.c).  O(1). */
void ost_campaign_defer(ost_sched_t *s, ost_campaign_t *c);
/* S_c and F_c of c after F_prev = pf (§3.3, under Lead=, §24). */
void ost_campaign_tags(const ost_sched_t *s, const ost_campaign_t *c,
		       double pf, double *S, double *F);
/* D_c after D_prev = pd (§5). */
double ost_campaign_deadline(const ost_sched_t *s, const ost_campaign_t *c,
			     double pd);
/* Set c's tags S, F, D and its key (§13-§15 from them), re-sorting c when
 * its place may move (or it asked for it); c's user is being settled.
 * RET true when none of them moved.  O(log n). */
bool ost_campaign_set_tags(ost_sched_t *s, ost_campaign_t *c, double S,
			   double F, double D);

/* F_prev and D_prev of c: its predecessor's tags, or its user's base
 * (those of the newest forgotten campaign). */
static inline double ost_campaign_prev_vfinish(const ost_campaign_t *c)
{
	return c->prev ? c->prev->vfinish : c->user->base_vfinish;
}

static inline double ost_campaign_prev_deadline(const ost_campaign_t *c)
{
	return c->prev ? c->prev->deadline : c->user->base_deadline;
}

/* ost_chain.c: users order their own campaigns (§22) */
/* Re-derive all of u's tags in its chain order and put u in W again
 * (ost_settle.c's walk for a user with ordered jobs). */
void ost_chain_settle(ost_sched_t *s, ost_user_t *u);
/* Job j (in its campaign) takes nice and lowered; u's chain is marked
 * stale.  O(1). */
void ost_chain_track(ost_sched_t *s, ost_job_t *j, int32_t nice,
		     uint32_t lowered);

/* Does j order its owner's jobs (§22): a nice, or a lowering? */
static inline bool ost_job_ordered(const ost_job_t *j)
{
	return j->nice || j->lowered;
}

/* §22's order of two jobs of one owner: the most recently lowered first
 * (never lowered last), then the lower nice.  <0, 0, >0 as strcmp. */
static inline int ost_job_order_cmp(uint32_t la, int32_t na, uint32_t lb,
				    int32_t nb)
{
	if (la != lb)
		return la > lb ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/* ost_settle.c: the deferred re-derivation (§3.4) */
/* Re-derive u's marked campaigns, re-sort what moved, put u in W again.
 * O(campaigns walked * log n); O(1) when u is settled. */
void ost_campaign_settle_user(ost_sched_t *s, ost_user_t *u);
/* Settle every marked user, then re-project the keys across accounts
 * (§21).  s is logically const: only derived values move. */
void ost_campaign_settle(const ost_sched_t *s);
/* §27: c (settled, may_rejoin, v >= F_c) rejoins V at v with its pending
 * area, as a join to a complete campaign does (§3.4): phi = v,
 * L = A^pend / w.  Returns true when it did (the caller re-derives c),
 * false when L would not move F past v. */
bool ost_campaign_rejoin(ost_sched_t *s, ost_campaign_t *c);
/* Re-derive c and its user's later campaigns now, c re-sorted whatever
 * its tags.  O(later campaigns * log n). */
void ost_campaign_rederive(ost_sched_t *s, ost_campaign_t *c);

/* ost_campaign.c: grouping (§2), the jobs of a campaign and what they
 * change in it (§3.4) */
ost_campaign_t *ost_campaign_new(ost_sched_t *s, ost_user_t *u, uint32_t seq);
ost_campaign_t *ost_campaign_open(ost_sched_t *s, ost_user_t *u,
				  uint32_t seq, double t);
void ost_campaign_add_job(ost_sched_t *s, ost_campaign_t *c, ost_job_t *j);
void ost_campaign_finish_job(ost_sched_t *s, ost_job_t *j, double t,
			     double runtime);
void ost_campaign_cancel_job(ost_sched_t *s, ost_job_t *j);
void ost_campaign_resize_job(ost_sched_t *s, ost_job_t *j, uint32_t procs,
			     double estimate);
void ost_campaign_charge_run(ost_sched_t *s, ost_job_t *j, double t);
void ost_campaign_rebase_user(ost_sched_t *s, ost_user_t *u, double delta);
void ost_campaign_rescan_max_e(ost_campaign_t *c);
void ost_campaign_pend_less(ost_campaign_t *c, double a);
void ost_campaign_forget_old(ost_sched_t *s, ost_user_t *u);
void ost_campaign_free(ost_sched_t *s, ost_campaign_t *c);
int ost_campaign_add_group(ost_sched_t *s, ost_campaign_t *c, uint64_t g);
void ost_campaign_fill_info(const ost_sched_t *s, const ost_campaign_t *c,
			    ost_campaign_info_t *out);

/* ost_advance.c: moving the clock */
/* Move the clock to t, settling first, applying the steps of §12 due by
 * then and opening the gate on the way (§3, §4); with t <= now only the
 * gate is tested again.  Cannot fail. */
void ost_vclock_advance(ost_sched_t *s, double t);

/* ost_query.c */
void ost_job_fill_info(const ost_job_t *j, ost_job_info_t *out);

static inline bool ost_campaign_unfinished(const ost_campaign_t *c)
{
	return c->n_pending + c->n_running > 0;
}

#endif /* OST_INTERNAL_H */
