/*****************************************************************************\
 *  osl_combo.h - which slurm.conf combinations the three plugins refuse
 *  at start (doc/semantics.md §25), Slurm-free: the plugins call these
 *  rules on slurm_conf, and `scampaign --check-config` on a slurm.conf it
 *  reads, so that its verdict is the plugins' own, word for word.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_COMBO_H
#define _OSL_COMBO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The few slurm.conf keys the rules read (NULL: not set). */
typedef struct {
	const char *sched_type;		/* SchedulerType */
	const char *priority_type;	/* PriorityType */
	const char *site_factor;	/* PrioritySiteFactorPlugin */
	const char *site_params;	/* PrioritySiteFactorParameters */
	bool with_slurmdbd;		/* AccountingStorageType=
					 * accounting_storage/slurmdbd */
	bool update_needs_dbd;		/* this release runs multifactor's
					 * decay thread (site_factor_p_update)
					 * only with slurmdbd: 22.05 */
} osl_combo_t;

/*
 * sched/ostrich's refusals: site_factor/ostrich beside it, or a PriorityType
 * other than priority/ostrich or priority/basic (one that rewrites
 * priorities on its own clock).
 * RET 0 when sched/ostrich can run with c, or -1 with the message its
 *     init() logs (after "ostrich: ") in err[0..errsz).
 */
extern int osl_combo_sched(const osl_combo_t *c, char *err, size_t errsz);

/*
 * priority/ostrich's refusal: site_factor/ostrich beside it.
 * RET 0 or -1 with the message in err[0..errsz), as osl_combo_sched.
 */
extern int osl_combo_prio(const osl_combo_t *c, char *err, size_t errsz);

/*
 * site_factor/ostrich's refusals of the combination: a PriorityType other
 * than priority/multifactor, or SchedulerType=sched/ostrich.
 * RET 0 or -1 with the message in err[0..errsz), as osl_combo_sched.
 */
extern int osl_combo_site(const osl_combo_t *c, char *err, size_t errsz);

/*
 * site_factor/ostrich's weight: PrioritySiteFactorParameters parsed
 * (osl_site_params), and refused above 0 when it would freeze (c's
 * release needs slurmdbd for the updates, and c has none).
 * RET 0 and *weight, or -1 with the message in err[0..errsz) naming the
 *     key (*weight untouched).
 */
extern int osl_combo_site_weight(const osl_combo_t *c, uint32_t *weight,
				 char *err, size_t errsz);

#endif /* _OSL_COMBO_H */
