/*****************************************************************************\
 *  sim.h - shared types of ostrich-sim: the workload being replayed and
 *  the options of one run.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Units: time in seconds (trace seconds for SWF, seconds from 0 for
 *  closed-loop workloads), work in CPU-seconds, CPUs and GPUs as
 *  integers, widths in the charge unit (§20).
\*****************************************************************************/

#ifndef OST_SIM_H
#define OST_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "charge.h"
#include "ostrich.h"

/* One rigid job of the workload, and what the simulation made of it. */
typedef struct sim_job {
	uint64_t number;     /* SWF job number, or line order (from 1) */
	uint32_t uid;        /* owner */
	uint32_t acct;       /* SWF group (field 13) + 1, its account with
				--hierarchy accounts (§21); 0: none */
	uint32_t uidx;       /* dense user index, 0 .. nusers-1 */
	uint32_t procs;      /* q >= 1 */
	uint32_t gpus;       /* g >= 0 (closed loop only; SWF: 0) */
	uint32_t width;      /* what the core is told q is (§20): set by
				sim_run from the charge mode */
	double charge;       /* fairshare's charge per second (§20) */
	double submit;       /* SWF: field 2; closed loop: set at release */
	double trace_submit; /* SWF: field 2, kept when --feedback moves
				submit (§16); NAN for closed loop */
	double runtime;      /* p >= 0 */
	double estimate;     /* e >= 0 (after --estimates) */
	double rec_start;    /* SWF: recorded start, for --grouping trace */
	uint32_t account;    /* sacct: index in sim_workload.accounts; else 0 */
	uint32_t campaign;   /* per-user sequence from 1; 0 = not known yet */
	uint32_t camp_idx;   /* closed loop: index in sim_workload.camps */
	double start, end;   /* simulated; NAN before */
} sim_job_t;

/* One campaign of a closed-loop workload (§2, the papers'
 * model): released `think` seconds after the user's previous campaign
 * completes in the simulation (the first one at the user's start). */
typedef struct sim_camp {
	uint32_t uid;
	uint32_t seq;        /* per-user sequence from 1 */
	double think;        /* s between previous completion and release */
	double start;        /* release of a user's first campaign */
	size_t first, njobs; /* jobs[first .. first+njobs) */
	uint32_t next;       /* index of the user's next campaign, or UINT32_MAX */
} sim_camp_t;

/* Reasons a workload line is skipped (§8). */
enum sim_skip {
	SIM_SKIP_MALFORMED = 0,
	SIM_SKIP_RUNTIME,    /* p < 0 */
	SIM_SKIP_PROCS,      /* q <= 0 */
	SIM_SKIP_TOO_BIG,    /* q > m */
	SIM_SKIP_GPUS,       /* g > G */
	SIM_SKIP_COUNT
};

/* Stable report name of a skip reason ("malformed", "negative_runtime",
 * "no_procs", "procs_above_m", "gpus_above_machine"). */
const char *sim_skip_name(enum sim_skip r);

/* Rows of a sacct dump left out of the replay (§17), counted apart
 * from sim_skip so that SWF reports keep their shape. */
enum sim_sacct_skip {
	SIM_SACCT_STEP = 0,  /* JobIDRaw with a dot */
	SIM_SACCT_NEVER,     /* never started (no Start) */
	SIM_SACCT_RUNNING,   /* still running at dump time (no End) */
	SIM_SACCT_PENDING,
	SIM_SACCT_PARTITION, /* another partition than --partition */
	SIM_SACCT_SKIP_COUNT
};

/* Stable report name of a sacct skip reason ("steps", "never_started",
 * "running", "pending", "other_partition"). */
const char *sim_sacct_skip_name(enum sim_sacct_skip r);

/* A workload ready to replay.  Jobs are in replay order: (submit, number)
 * for SWF, file order for closed-loop workloads (campaign by campaign). */
typedef struct sim_workload {
	sim_job_t *jobs;
	size_t njobs;
	uint32_t procs;      /* m from the header (0 if none) */
	uint32_t gpus;       /* G: the header's or --gpus (0: none) */
	uint32_t *uids;      /* the distinct owners, increasing */
	uint32_t nusers;
	bool closed;         /* closed-loop campaign workload */
	sim_camp_t *camps;   /* closed loop only */
	size_t ncamps;
	uint64_t skipped[SIM_SKIP_COUNT];
	size_t dependent;    /* --feedback: dependent campaigns (§16) */
	/* sacct input only (§17); all NULL / 0 otherwise */
	bool sacct;
	struct sim_uname { uint32_t uid; char *name; } *unames;
	size_t nunames;      /* user names, by increasing uid */
	char **accounts;     /* account names, sorted; jobs[].account */
	uint32_t naccounts;
	char *partitions;    /* the partitions replayed, comma separated */
	/* --shares (shares.c): per user index, its account's share among
	 * the accounts and its own within the account; NULL: equal */
	double *ashare, *ushare;
	uint64_t sacct_skipped[SIM_SACCT_SKIP_COUNT];
} sim_workload_t;

/* The name of user uid in w: sacct's name, else the number written in
 * buf.  RET: a string valid while w and buf are. */
const char *sim_user_name(const sim_workload_t *w, uint32_t uid,
			  char buf[16]);

/* Release everything w owns (not w itself).  NULL is a no-op. */
void sim_workload_free(sim_workload_t *w);

typedef enum {
	SIM_POLICY_OSTRICH = 0,
	SIM_POLICY_FAIRCAMP,
	SIM_POLICY_FCFS,
	SIM_POLICY_FAIRSHARE,
	SIM_POLICY_FAIRTREE,	/* fairshare by account, then user (§21) */
	SIM_POLICY_ACTUAL,	/* no replay: the recorded starts (actual.c) */
	SIM_POLICY_COUNT
} sim_policy_t;

typedef enum {
	SIM_DISPATCH_EASY = 0,
	SIM_DISPATCH_LIST,
	SIM_DISPATCH_STRICT,
} sim_dispatch_t;

typedef enum { SIM_GROUP_TRACE = 0, SIM_GROUP_ONLINE } sim_grouping_t;

/* Options of one simulation run. */
typedef struct sim_opts {
	sim_policy_t policy;
	sim_dispatch_t dispatch;
	uint32_t procs;         /* m */
	uint32_t gpus;          /* G (0: none) */
	sim_charge_t charge;    /* width and capacity of the core (§20) */
	sim_grouping_t grouping;
	bool exact;             /* --estimates exact: e = p */
	bool order_exact;       /* --estimates order-exact: the core (the
				 * order) sees e = p, dispatch the request;
				 * an oracle, for experiments only */
	double half_life;       /* fairshare decay, s (0: no decay) */
	double fs_period;       /* fairshare recomputation period, s
				 * (0: at every dispatch) */
	double age_weight;      /* fairshare: PriorityWeightAge over
				 * PriorityWeightFairshare (0: no age) */
	double max_age;         /* fairshare: PriorityMaxAge, s */
	ost_config_t core;      /* think time, capacity, gate, intra, k */
	bool progress;          /* progress indicator on stderr */
	bool feedback;          /* --feedback: users' feedback (§16) */
	double fb_threshold;    /* §16 H: largest trace gap of a dependent
				 * campaign, s */
} sim_opts_t;

const char *sim_policy_name(sim_policy_t p);
int sim_policy_parse(const char *s, sim_policy_t *out);
const char *sim_dispatch_name(sim_dispatch_t d);
int sim_dispatch_parse(const char *s, sim_dispatch_t *out);

#endif /* OST_SIM_H */
