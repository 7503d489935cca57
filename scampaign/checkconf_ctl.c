/*****************************************************************************\
 *  checkconf_ctl.c - scampaign --check-config FILE [--slurm-conf=FILE]:
 *  the slurm.conf side from the given file, or from the running slurmctld
 *  (libslurm's slurm_load_ctl_conf) and the slurm.conf it names; the
 *  verdict is checkconf.c's.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "checkconf.h"
#include "checkconf_ctl.h"
#include "sc_compat.h"

/* The release of the libslurm scampaign is built with: the cluster's. */
static sc_release_t _release(void)
{
	sc_release_t r = {
		/* osl_compat.h section 19: 22.05 runs multifactor's decay
		 * thread only with slurmdbd */
		.site_update_needs_dbd =
			SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0),
		/* read_config.h's DEFAULT_PRIORITY_TYPE */
		.default_priority =
			SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0) ?
			"priority/basic" : "priority/multifactor",
		.default_sched = "sched/backfill",
	};

	return r;
}

static char *_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The running slurmctld's keys into *sc; the site factor's two from the
 * slurm.conf it names when readable here (slurmctld does not send them).
 * *conf_dir: that slurm.conf's directory (malloc'ed), for ostrich.conf.
 * RET 0, or -1 (said on stderr). */
static int _running(sc_slurmconf_t *sc, bool *site_known, char **conf_dir)
{
	slurm_conf_t *conf = NULL;
	sc_slurmconf_t file;

	slurm_init(NULL);
	if (slurm_load_ctl_conf((time_t) 0, &conf) != SLURM_SUCCESS) {
		fprintf(stderr, "scampaign: error: cannot reach slurmctld: %s (give --slurm-conf=FILE)\n",
			slurm_strerror(errno));
		return -1;
	}
	memset(sc, 0, sizeof(*sc));
	sc->sched_type = _dup(conf->schedtype);
	sc->priority_type = _dup(conf->priority_type);
	sc->acct_type = _dup(conf->accounting_storage_type);
	*site_known = false;
	if (conf->slurm_conf) {
		const char *slash = strrchr(conf->slurm_conf, '/');

		if (slash)
			*conf_dir = strndup(conf->slurm_conf,
					    (size_t) (slash - conf->slurm_conf));
		/* not readable here (another host): the note says so */
		if (!access(conf->slurm_conf, R_OK) &&
		    !sc_checkconf_read_slurm(conf->slurm_conf, &file,
					     stderr)) {
			printf("slurmctld's SchedulerType, PriorityType and AccountingStorageType; the site factor's keys from %s\n",
			       conf->slurm_conf);
			sc->site_factor = file.site_factor;
			sc->site_params = file.site_params;
			file.site_factor = file.site_params = NULL;
			sc_slurmconf_free(&file);
			*site_known = true;
		}
	}
	sc_free_conf(conf);
	return 0;
}

int sc_checkconf_cmd(const char *oconf, const char *slurm_conf)
{
	sc_release_t rel = _release();
	sc_slurmconf_t sc = { 0 };
	bool site_known = true;
	char *dir = NULL, *path = NULL;
	int rc;

	if (slurm_conf) {
		if (sc_checkconf_read_slurm(slurm_conf, &sc, stderr))
			return 1;
	} else if (_running(&sc, &site_known, &dir)) {
		sc_slurmconf_free(&sc);
		slurm_fini();
		return 1;
	}
	/* "-": the ostrich.conf beside slurm.conf, where the plugins read it */
	if (!strcmp(oconf, "-")) {
		const char *d = dir;
		char *cut = NULL;

		if (slurm_conf && strrchr(slurm_conf, '/'))
			d = cut = strndup(slurm_conf, (size_t)
					  (strrchr(slurm_conf, '/') - slurm_conf));
		if (asprintf(&path, "%s/ostrich.conf", d ? d : ".") < 0)
			path = NULL;
		free(cut);
		if (!path) {
			fprintf(stderr, "scampaign: error: out of memory\n");
			rc = 1;
			goto out;
		}
		oconf = path;
	}
	rc = sc_checkconf_judge(oconf, &sc, site_known, &rel, stdout, stderr);
out:
	free(path);
	free(dir);
	sc_slurmconf_free(&sc);
	if (!slurm_conf)
		slurm_fini();
	return rc;
}
