/*****************************************************************************\
 *  ostrich_slurm.h - the OStrich engine inside slurmctld, shared by
 *  sched/ostrich, priority/ostrich and site_factor/ostrich
 *  (libostrich_slurm.so holds one copy of its state, whichever plugins are
 *  loaded).  What the three plugin files call; the engine's own types are
 *  in osl_slurm.h.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSTRICH_SLURM_H
#define _OSTRICH_SLURM_H

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"

#include "src/slurmctld/slurmctld.h"

/* Which plugin uses the engine. */
typedef enum {
	OSL_PLUGIN_SCHED = 0,	/* sched/ostrich */
	OSL_PLUGIN_PRIO,	/* priority/ostrich */
	OSL_PLUGIN_SITE,	/* site_factor/ostrich (under multifactor) */
	OSL_PLUGIN_N
} osl_plugin_t;

/*
 * Start the engine for one plugin (reference counted: the first caller
 * reads ostrich.conf and starts the engine thread).  Called from init(),
 * possibly with slurmctld locks held: takes none.
 * NOTE: a bad ostrich.conf is fatal() here, at start; at a reconfigure
 * (Slurm 24.11+ starts the plugins again) the previous one is kept.
 * RET SLURM_SUCCESS
 */
extern int osl_init(osl_plugin_t who);

/* Stop using the engine; the last user stops the thread and saves. */
extern void osl_fini(osl_plugin_t who);

/* Re-read ostrich.conf at the next pass (only sets a flag); a call from
 * sched/ostrich is ignored while priority/ostrich is loaded too, whose
 * hook slurmctld calls for the same reconfigure. */
extern void osl_reconfig(osl_plugin_t who);

/* Ask the engine thread for a pass soon (at most one a second).  Takes the
 * engine lock only: call with slurmctld locks held or none. */
extern void osl_wake(void);

/* Configuration value Backfill= (read at init). */
extern bool osl_backfill_wanted(void);

/*
 * The priority of job_ptr now: registers a new job with the engine.
 * NOTE: job write lock held by the caller.
 * RET the priority (>= 1)
 */
extern uint32_t osl_job_priority(uint32_t last_prio, job_record_t *job_ptr);

/* The weight of PrioritySiteFactorParameters= in force (osl_sitefac.c;
 * takes only its leaf lock). */
extern void osl_site_weight_set(uint32_t weight);
extern uint32_t osl_site_weight(void);

/*
 * site_factor/ostrich at submission (and at every update of a job):
 * registers a new job with the engine as osl_job_priority() does, and sets
 * its site_factor from the rank it gets at once; a job the engine knows
 * keeps its site factor until the next osl_site_update().
 * NOTE: job write lock held by the caller (multifactor's priority_p_set).
 */
extern void osl_site_set(job_record_t *job_ptr);

/*
 * site_factor/ostrich at each PriorityCalcPeriod: every pending record the
 * last pass ranked gets NICE_OFFSET + weight x its normalised rank as
 * site_factor (doc/semantics.md §25).  O(records ranked), one hash lookup
 * for each whose value moved since the last update (none for the others);
 * takes no slurmctld lock and not the engine lock.
 * NOTE: job write lock held by the caller (multifactor's decay thread).
 */
extern void osl_site_update(void);

/*
 * The share of partition part that uid gets in the virtual schedule now,
 * in *share (0 for a user the engine has never seen).
 * NOTE: takes the engine lock: call with slurmctld locks held or none.
 * RET 0, or -1 if the engine has no such partition
 */
extern int osl_user_share(const char *part, uint32_t uid, double *share);

/*
 * The width of job_ptr in partition part in billing or dominant units
 * (semantics.md §19), for sprio's TRES column.
 * NOTE: takes the engine lock; job read lock held.
 * RET the width, or 0 when the partition's unit is CPUs or the engine has
 *     no such partition
 */
extern uint32_t osl_job_width(const char *part, job_record_t *job_ptr);

#endif /* _OSTRICH_SLURM_H */
