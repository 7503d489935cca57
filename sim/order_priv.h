/*****************************************************************************\
 *  order_priv.h - the state of a simulator order (order.h), shared by
 *  order.c, its FIFOs and slots (slots.c) and its fairshare merge
 *  (fairshare.c); nothing else includes it.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_ORDER_PRIV_H
#define OST_SIM_ORDER_PRIV_H

#include "order.h"

#define NONE UINT32_MAX
#define REBASE_AT 0x1p500
#define LN2 0.69314718055994530942

struct fs_key {
	double ausage;       /* fairtree: the account's G(now); else 0 */
	double usage;        /* G_u(now); with an age weight, -(F_u + age) */
	double f;            /* with an age weight: F_u = 2^(-U_u / S_u) */
	uint32_t user;
	uint32_t job;        /* the user's next job in this merge */
};

struct sim_order {
	sim_policy_t policy;
	const sim_workload_t *w;
	const ost_sched_t *eng;
	uint32_t *next, *prev;     /* per job: FIFO links */
	uint32_t head, tail;       /* fcfs list */
	/* slots (fcfs, fairshare) */
	uint32_t *slot, *byslot;   /* job -> slot, slot -> job */
	uint32_t *smin;            /* min-tree over slots: procs if pending */
	size_t leaves;             /* slots of the tree (a power of 2) */
	uint32_t nsub;             /* fcfs: slots used */
	uint32_t *uoff, *uused;    /* fairshare: user's first slot, used */
	/* fairshare */
	double half_life, t0;
	double period, next_calc;  /* P; next multiple of P to snapshot at */
	uint32_t *uhead, *utail;   /* per user FIFO of pending jobs */
	double *gu, *tu;           /* G_u at t_u */
	double *gtu;               /* g(t_u) */
	double *snap;              /* P > 0: G_u at the last multiple of P */
	double *ru;                /* running charge per second (§20) */
	double age_w, max_age;     /* the age factor's weight (0: none) */
	double tot, tot_t;         /* every user's G at tot_t (NAN: stale) */
	uint32_t *waiting;         /* users with pending jobs */
	uint32_t *wpos;            /* position in waiting, NONE if absent */
	uint32_t nwaiting;
	struct fs_key *heap;
	/* fairtree */
	bool tree;                 /* merge by account first */
	uint32_t *uacct;           /* user -> dense account */
	double *asum;              /* account -> G at asum_t */
	double asum_t;             /* instant of asum, NAN when stale */
	uint32_t naccts;
};

/* slots.c: the FIFOs (linked through next/prev) and the slot min-tree */
/* Append job to the FIFO (*head, *tail).  O(1). */
void sim_fifo_append(sim_order_t *o, uint32_t *head, uint32_t *tail,
		     uint32_t job);
/* Unlink job from the FIFO (*head, *tail).  O(1). */
void sim_fifo_del(sim_order_t *o, uint32_t *head, uint32_t *tail,
		  uint32_t job);
/* Give job slot i and mark it pending (v = procs) or gone (NONE).
 * O(log n). */
void sim_slot_set(sim_order_t *o, uint32_t i, uint32_t v);
/* First slot in [i, end) of a pending job with procs <= lim, NONE if
 * none.  O(log n). */
uint32_t sim_slot_next(const sim_order_t *o, size_t i, size_t end,
		       uint32_t lim);
/* The job after job in its FIFO that a walk needs: the next one, or with
 * a limit (*fit below NONE) the next one with procs <= *fit; end bounds
 * the FIFO's slots.  NONE at the end. */
uint32_t sim_fifo_next(const sim_order_t *o, uint32_t job, size_t end,
		       const uint64_t *fit);

/* fairshare.c: usage and the merge (fairshare, fairtree) */
/* fairtree: each user's dense account.  0 or -1 (memory). */
int sim_ft_init(sim_order_t *o);
/* g(now) when there is decay (else unused: 0). */
double sim_fs_gnow(const sim_order_t *o, double now);
/* Bring user u's usage to now before its running charge changes. */
void sim_fs_touch(sim_order_t *o, uint32_t u, double now);
/* P > 0: snapshot every user's usage at the first event of a period. */
void sim_fs_recalc(sim_order_t *o, double now);
/* The usage the merge orders u by at now (gnow: sim_fs_gnow, 0 before
 * any job ran). */
double sim_fs_key_usage(const sim_order_t *o, uint32_t u, double now,
			double gnow);
/* fairtree: the usage of u's account at now; 0 without fairtree. */
double sim_ft_key(sim_order_t *o, uint32_t u, double now, double gnow);
/* With an age weight: where a pending job of u stands at now, the
 * merge's key -(F_u + weight x age factor) (sim_order_fairshare_age). */
double sim_fs_aged_key(sim_order_t *o, uint32_t u, uint32_t job,
		       double now, double gnow);
/* Add (on) or remove user u from the users with pending jobs. */
void sim_fs_wait(sim_order_t *o, uint32_t u, bool on);
/* The merge's walk (sim_order_walk's contract). */
int sim_fs_foreach(sim_order_t *o, double now, sim_order_visit_f fn,
		   void *arg, const uint64_t *fit);

#endif /* OST_SIM_ORDER_PRIV_H */
