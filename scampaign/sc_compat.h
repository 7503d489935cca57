/*****************************************************************************\
 *  sc_compat.h - every difference between the Slurm releases (22.05,
 *  24.11, 25.11, 26.05) in the public API scampaign uses, and the only
 *  file of scampaign/ that tests SLURM_VERSION_NUMBER.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The adapter's differences are in plugins/slurm/osl_compat.h, which
 *  scampaign cannot include: it pulls in slurmctld's internal headers
 *  (src/slurmctld/slurmctld.h), and scampaign is an ordinary client built
 *  on libslurm-dev's <slurm/slurm.h> alone.  doc/slurm-versions.md,
 *  section 18, specifies this file.
\*****************************************************************************/

#ifndef SC_COMPAT_H
#define SC_COMPAT_H

#include <slurm/slurm.h>

/* section 18: 26.05 renamed slurm_free_ctl_conf() to slurm_free_conf();
 * the rest of what scampaign calls (slurm_init, slurm_load_jobs,
 * slurm_load_ctl_conf, slurm_free_job_info_msg, slurm_strerror,
 * slurm_fini) compiles unchanged against the four releases. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define sc_free_conf(c) slurm_free_conf(c)
#else
#define sc_free_conf(c) slurm_free_ctl_conf(c)
#endif

#endif /* SC_COMPAT_H */
