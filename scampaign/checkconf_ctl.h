/*****************************************************************************\
 *  checkconf_ctl.h - scampaign --check-config, the command (libslurm).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_CHECKCONF_CTL_H
#define SC_CHECKCONF_CTL_H

/*
 * Judge ostrich.conf oconf ("-": the one beside slurm.conf) against
 * slurm.conf file slurm_conf, or, when NULL, against the running
 * slurmctld's configuration (slurm_load_ctl_conf) and the site factor
 * keys of the slurm.conf it names.  Output on stdout, the plugins'
 * messages on stderr.
 * RET the exit status: 0 accepted, 1 refused or unreadable
 */
int sc_checkconf_cmd(const char *oconf, const char *slurm_conf);

#endif /* SC_CHECKCONF_CTL_H */
