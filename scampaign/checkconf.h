/*****************************************************************************\
 *  checkconf.h - scampaign --check-config: an ostrich.conf, and the
 *  slurm.conf it goes with, judged by the plugins' own rules before a
 *  reconfigure (on 22.05 `scontrol reconfigure` exits 0 even when the
 *  plugin refuses the file: only slurmctld's log says so).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_CHECKCONF_H
#define SC_CHECKCONF_H

#include <stdbool.h>
#include <stdio.h>

#include "slurmconf.h"

/* The release the verdict is for (scampaign's libslurm's, SLURM_VERSION_NUMBER). */
typedef struct {
	bool site_update_needs_dbd;	/* 22.05: no site factor updates
					 * without slurmdbd */
	const char *default_priority;	/* PriorityType when absent */
	const char *default_sched;	/* SchedulerType when absent */
} sc_release_t;

/*
 * Judge ostrich.conf file oconf (its text read here; a missing file is the
 * defaults, as the plugins take it) with the slurm.conf keys sc (absent
 * keys: rel's defaults), by the rules every configured ostrich plugin
 * applies at start: the file's values (plugins/lib/osl_conf_file.h), then
 * each plugin's refusals of the combination (osl_combo.h).  Each problem
 * is written to err as the plugin logs it ("ostrich: ..."); a verdict
 * line to out.  site_known: false when sc's site factor keys are unknown
 * (slurmctld does not send them): their rules are then skipped, said so.
 * RET the exit status: 0 when the plugins would start, 1 when one would
 *     refuse (or the file cannot be read)
 */
int sc_checkconf_judge(const char *oconf, const sc_slurmconf_t *sc,
		       bool site_known, const sc_release_t *rel, FILE *out,
		       FILE *err);

/* Read slurm.conf file path into *sc.  RET 0, or -1 with a message on
 * err. */
int sc_checkconf_read_slurm(const char *path, sc_slurmconf_t *sc, FILE *err);

#endif /* SC_CHECKCONF_H */
