/*****************************************************************************\
 *  campaigns.h - campaigns rebuilt from the jobs' OStrich summaries
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  No Slurm type here: scampaign.c turns Slurm's job records into sc_job_t,
 *  this module groups them and explains a job's wait.
\*****************************************************************************/

#ifndef SC_CAMPAIGNS_H
#define SC_CAMPAIGNS_H

#include <stdbool.h>
#include <stdio.h>

#include "ostrich.h"

typedef enum { SC_PENDING = 0, SC_RUNNING, SC_DONE } sc_state_t;

/* One job as Slurm showed it to the caller. */
typedef struct sc_job {
	uint32_t job_id;
	char partition[64];
	sc_state_t state;
	bool has_summary;	/* SystemComment held an OStrich summary */
	bool fresh;		/* new=1: written at its submission, after
				 * the last pass whose lines the others
				 * carry; its rank, share and vct are not
				 * comparable with theirs */
	bool own;		/* view=own (PrivateData=jobs): rank and
				 * pending count the owner's jobs only, no
				 * share */
	ost_summary_t sum;
	uint32_t width;		/* width= of the summary (§19), 0: none */
	char unit[16];		/* unit=: billing, cpu, dominant ("": none) */
	char bill[OST_SUMMARY_MAX];	/* bill=, "" if none */
	uint32_t uid;		/* its owner */
	char account[64];	/* the account the engine counts the job in
				 * (account= of its summary), else Slurm's;
				 * "" if none */
	uint32_t priority;	/* Slurm's priority of the job */
	int64_t site;		/* its site factor, NICE_OFFSET taken off
				 * (what multifactor adds to the priority) */
} sc_job_t;

/* One campaign as seen through its visible jobs. */
typedef struct sc_campaign {
	char partition[64];
	char user[OST_SUMMARY_USER_MAX];
	uint32_t seq;
	uint32_t pending, running, done;
	uint32_t unranked;	/* of pending: submitted since the last pass
				 * (new=1), in no rank here */
	bool passed;		/* a line of the last pass gave vct, share */
	uint64_t first_rank;	/* best rank of its pending jobs of the last
				 * pass, 0 if none */
	uint64_t partition_pending;	/* pending jobs of the partition */
	double vct;		/* C~ (epoch seconds) or NAN; NAN too when
				 * !passed */
	double share;		/* unknown when own */
	bool own;		/* from view=own summaries: first_rank and
				 * partition_pending count the owner's jobs */
	ost_mode_t mode;
} sc_campaign_t;

/* Pending jobs of jobs[0..n) submitted since the last pass (new=1), in
 * partition (NULL: any). */
size_t sc_unranked(const sc_job_t *jobs, size_t n, const char *partition);

/* Group jobs[0..n) with summaries into campaigns, sorted by partition,
 * then campaigns with pending jobs by rank, then the others by (user,
 * seq).  *out is new (free()).  Returns 0 or -1 (memory). */
int sc_group(const sc_job_t *jobs, size_t n, sc_campaign_t **out,
	     size_t *nout);

/* Fill *out from a SystemComment field (NULL: none): its OStrich summary
 * line (ost_summary_find; others' lines around it are ignored), view=own
 * included.  Returns true if there is one. */
bool sc_summary_read(const char *field, sc_job_t *out);

/* The job's width in words, e.g. "17 billing units: 1 CPU + 4 GPU x 4"
 * (with the multiplication sign), "4 CPUs", into buf[0..size); "" when the
 * summary has no width=.  Returns buf. */
const char *sc_width_str(const sc_job_t *job, char *buf, size_t size);

/* Write to fp, in plain words, why job `id` (one of jobs[]) waits, and
 * how wide it counts when its unit is not CPUs (billing, dominant:
 * semantics.md §19).  Returns 0, or -1 if the job has no summary (message
 * written). */
int sc_explain(const sc_job_t *jobs, size_t n, const sc_job_t *job,
	       double now, FILE *fp);

/*
 * Under priority/multifactor with site_factor/ostrich (doc/semantics.md
 * §25): what the site factor contributes to the job's priority against
 * multifactor's other factors.  For a pending job with a summary; nothing
 * otherwise.
 */
void sc_explain_site(const sc_job_t *job, FILE *fp);

/* "HH:MM:SS" today, or "YYYY-MM-DD HH:MM" otherwise (local time), or
 * "never" (t = +inf: a summary's vct=never), or "unknown" (NaN, -inf);
 * into buf of size >= 32. */
const char *sc_time_str(double t, double now, char *buf);

#endif /* SC_CAMPAIGNS_H */
