/*****************************************************************************\
 *  osl_combo.c - the slurm.conf combinations the plugins refuse (see
 *  osl_combo.h).  The messages are the plugins' fatal() texts: say what
 *  cannot work, why, and what works instead.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "osl_site.h"
#include "osl_combo.h"

#define SITE "site_factor/ostrich"

/* a == b, NULL being no plugin (Slurm's xstrcmp) */
static bool _is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static const char *_or_none(const char *s)
{
	return s ? s : "(null)";
}

extern int osl_combo_sched(const osl_combo_t *c, char *err, size_t errsz)
{
	if (_is(c->site_factor, SITE)) {
		snprintf(err, errsz, "SchedulerType=sched/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich: both would write the queue's order. Use sched/ostrich + priority/ostrich, or sched/backfill + priority/multifactor + site_factor/ostrich");
		return -1;
	}
	/* priority/basic sets a priority at submission only; the engine's
	 * own is priority/ostrich; anything else rewrites them on its clock */
	if (!_is(c->priority_type, "priority/ostrich") &&
	    !_is(c->priority_type, "priority/basic")) {
		snprintf(err, errsz, "SchedulerType=sched/ostrich cannot run with PriorityType=%s, which writes priorities too: the queue would flip between the two orders at every pass. Use PriorityType=priority/ostrich (or priority/basic), or keep %s with SchedulerType=sched/backfill",
			 _or_none(c->priority_type),
			 _or_none(c->priority_type));
		return -1;
	}
	return 0;
}

extern int osl_combo_prio(const osl_combo_t *c, char *err, size_t errsz)
{
	if (_is(c->site_factor, SITE)) {
		snprintf(err, errsz, "PriorityType=priority/ostrich cannot run with PrioritySiteFactorPlugin=site_factor/ostrich: both would write the priorities (and priority/ostrich loads no site factor plugin). Use one: priority/ostrich, or priority/multifactor + site_factor/ostrich");
		return -1;
	}
	return 0;
}

extern int osl_combo_site(const osl_combo_t *c, char *err, size_t errsz)
{
	if (!_is(c->priority_type, "priority/multifactor")) {
		snprintf(err, errsz, "PrioritySiteFactorPlugin=site_factor/ostrich needs PriorityType=priority/multifactor, not %s: only multifactor adds a site factor to a job's priority",
			 _or_none(c->priority_type));
		return -1;
	}
	if (_is(c->sched_type, "sched/ostrich")) {
		snprintf(err, errsz, "PrioritySiteFactorPlugin=site_factor/ostrich cannot run with SchedulerType=sched/ostrich, which writes the priorities itself: keep SchedulerType=sched/backfill (site_factor/ostrich inside multifactor), or drop the site factor plugin and use sched/ostrich with priority/ostrich");
		return -1;
	}
	return 0;
}

/* Without multifactor's decay thread (osl_compat.h section 19) a site
 * factor is set at submission and never follows the ranks. */
#define FROZEN_WHY "on this Slurm, priority/multifactor runs its decay thread (which calls site_factor_p_update every PriorityCalcPeriod) only with AccountingStorageType=accounting_storage/slurmdbd: site factors would be set at submission and never follow the ranks. Use weight=0 (the shadow mode) or slurmdbd"

extern int osl_combo_site_weight(const osl_combo_t *c, uint32_t *weight,
				 char *err, size_t errsz)
{
	char why[200];
	uint32_t w = 0;

	if (osl_site_params(c->site_params, &w, why, sizeof(why))) {
		snprintf(err, errsz, "PrioritySiteFactorParameters=%s: %s",
			 _or_none(c->site_params), why);
		return -1;
	}
	if (w && c->update_needs_dbd && !c->with_slurmdbd) {
		snprintf(err, errsz, "PrioritySiteFactorParameters=weight=%u: %s",
			 w, FROZEN_WHY);
		return -1;
	}
	*weight = w;
	return 0;
}
