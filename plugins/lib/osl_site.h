/*****************************************************************************\
 *  osl_site.h - site_factor/ostrich's arithmetic (osl_site.c,
 *  doc/semantics.md §25): its parameters and the factor of a rank.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_SITE_H
#define _OSL_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* site_factor/ostrich (osl_site.c, doc/semantics.md §25): the largest
 * weight, so that NICE_OFFSET (2^31) + weight fits in the 32 bits of a
 * job's site_factor. */
#define OSL_SITE_WEIGHT_MAX 2147483647u

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

/*
 * One ranked pending record of a pass (osl_sitefac.c): its best rank of
 * its partition's pending count, and the site factor the last update
 * found in the record (NICE_OFFSET included; 0: none yet, so the next
 * update looks the record up).
 */
typedef struct {
	uint32_t job_id;
	uint32_t applied;
	uint64_t rank;
	uint64_t pending;
} osl_site_ent_t;

/*
 * Sort t[0..n) by job id, unless it is already (a pass stages them in
 * job_list's order, which is the ids' but for arrays split late and ids
 * that wrapped).  O(n) when sorted, O(n log n) otherwise.
 */
extern void osl_site_sort(osl_site_ent_t *t, int n);

/*
 * Carry each record's applied value from the last table old[0..nold) to
 * the new one t[0..n), both sorted by job id (osl_site_sort); a record new
 * to the table gets 0.  The value stays true across tables because only
 * the update and the submission write a ranked job's site factor (and a
 * submission is a record new to the table).  O(n + nold).
 */
extern void osl_site_carry(osl_site_ent_t *t, int n,
			   const osl_site_ent_t *old, int nold);

/* The entry of job_id in t[0..n), sorted by job id; NULL if none.
 * O(log n). */
extern osl_site_ent_t *osl_site_find(osl_site_ent_t *t, int n,
				     uint32_t job_id);

#endif /* _OSL_SITE_H */
