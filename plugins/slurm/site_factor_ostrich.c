/*****************************************************************************\
 *  site_factor_ostrich.c - site_factor/ostrich: the OStrich engine inside
 *  priority/multifactor.  The engine (libostrich_slurm.so) runs its passes
 *  on its own thread as under priority/ostrich, but writes no priority: each
 *  pending job's site factor is weight x its rank's normalised priority
 *  (doc/semantics.md §25), set at submission and at every
 *  PriorityCalcPeriod, and multifactor adds it to its other factors.
 *  weight=0 (the default) is the shadow mode: everything is computed and
 *  shown, and multifactor's priorities are what they are without it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
 *
 *  This program is distributed in the hope that it will be useful, but WITHOUT
 *  ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 *  FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
 *  more details.
\*****************************************************************************/

#include "config.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/run_in_daemon.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_combo.h"
#include "osl_compat.h"
#include "ostrich_slurm.h"

const char plugin_name[] = "OStrich fair campaign site factor plugin";
const char plugin_type[] = "site_factor/ostrich";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* The few slurm.conf keys the refusals read (osl_combo.h).
 * NOTE: slurm_conf read (init() runs with the config lock held or before
 * any thread; reconfig with it held). */
static osl_combo_t _combo(void)
{
	osl_combo_t c = {
		.sched_type = slurm_conf.schedtype,
		.priority_type = slurm_conf.priority_type,
		.site_factor = slurm_conf.site_factor_plugin,
		.site_params = slurm_conf.site_factor_params,
		.with_slurmdbd = slurm_with_slurmdbd(),
		/* osl_compat.h section 19 */
		.update_needs_dbd = OSL_SITE_UPDATE_NEEDS_DBD,
	};

	return c;
}

extern int init(void)
{
	char err[512];
	osl_combo_t c;
	uint32_t w = 0;

	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	/* only multifactor sums a site factor; sched/ostrich and
	 * priority/ostrich write the priorities themselves (two writers) */
	c = _combo();
	if (osl_combo_site(&c, err, sizeof(err)))
		fatal("ostrich: %s", err);
	if (osl_combo_site_weight(&c, &w, err, sizeof(err)))
		fatal("ostrich: %s%s", err,
		      osl_slurmctld_reconfiguring() ?
		      " (this reconfigure is refused: the running slurmctld keeps its weight)" :
		      "");
	osl_site_weight_set(w);
	if (osl_init(OSL_PLUGIN_SITE) != SLURM_SUCCESS)
		return SLURM_ERROR;
	info("ostrich: site_factor/ostrich: weight %u%s", w,
	     w ? "" : ": shadow mode, multifactor's priorities are left as they are");
	verbose("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	if (running_in_slurmctld())
		osl_fini(OSL_PLUGIN_SITE);
}

/*
 * 22.05: scontrol reconfigure (multifactor's priority_p_reconfig).  24.11+
 * start a new slurmctld instead (init() again) and no longer call it.
 * A bad weight keeps the one in force, logged.  Only flags and one value
 * are set here.
 */
extern void site_factor_p_reconfig(void)
{
	char err[512];
	uint32_t w = 0, old = osl_site_weight();
	osl_combo_t c;

	if (!running_in_slurmctld())
		return;
	c = _combo();
	if (osl_combo_site_weight(&c, &w, err, sizeof(err))) {
		error("ostrich: reconfigure: %s; keeping weight %u", err, old);
	} else {
		osl_site_weight_set(w);
		if (w != old)
			info("ostrich: site_factor/ostrich: weight %u (was %u)%s",
			     w, old, w ? "" : ": shadow mode");
	}
	osl_reconfig(OSL_PLUGIN_SITE);
}

/*
 * Submission, and every update of a job (multifactor's priority_p_set):
 * bounded as priority/ostrich's submission (a known job is O(1)).
 * NOTE: job write lock held by the caller.
 */
extern void site_factor_p_set(job_record_t *job_ptr)
{
	osl_site_set(job_ptr);
}

/*
 * Each PriorityCalcPeriod (multifactor's decay thread), before it sums
 * the factors: copies the last pass's ranks, O(records ranked).
 * NOTE: job write lock (node, part read) held by the caller.
 */
extern void site_factor_p_update(void)
{
	osl_site_update();
}
