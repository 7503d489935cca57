/*****************************************************************************\
 *  osl_partition.h - one Slurm partition as the adapter keeps it: its
 *  virtual schedule (the core's ost_sched_t), what its core was told, its
 *  priorities and its ledger.  Types only: the functions that create and
 *  find partitions read Slurm's records (slurm/osl_part.c, osl_slurm.h).
 *
 *  Names: osl_ for the adapter's types (also those private to one file),
 *  functions and constants; _name for a function static to its file.  ost_
 *  belongs to the core (src/ostrich.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_PARTITION_H
#define _OSL_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include "ostrich.h"
#include "ost_charge.h"
#include "osl_ptab.h"

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

#endif /* _OSL_PARTITION_H */
