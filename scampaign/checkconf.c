/*****************************************************************************\
 *  checkconf.c - scampaign --check-config's verdict (checkconf.h), Slurm-
 *  free: the plugins' own judges, so the verdict is theirs.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "checkconf.h"
#include "osl_combo.h"
#include "osl_conf_file.h"
#include "sc_slurp.h"

/* Largest file read (an ostrich.conf or slurm.conf is a few KB). */
#define FILE_MAX (16u << 20)

/* Slurm's uid_from_string: a name, or a number. */
static int _uid_of(const char *name, uid_t *uid)
{
	struct passwd *pw = getpwnam(name);
	uint64_t v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	if (osl_conf_uint(name, 0, (uid_t) -1 - 1, &v))
		return -1;
	*uid = (uid_t) v;
	return 0;
}

int sc_checkconf_read_slurm(const char *path, sc_slurmconf_t *sc, FILE *err)
{
	char why[256], *text;
	size_t len = 0;
	int rc;

	if (!(text = sc_slurp(path, FILE_MAX, &len))) {
		fprintf(err, "scampaign: error: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	rc = sc_slurmconf_parse(text, len, sc, why, sizeof(why));
	free(text);
	if (rc)
		fprintf(err, "scampaign: error: %s: %s\n", path, why);
	return rc;
}

/* The ostrich.conf part.  RET 0 or 1. */
static int _ostrich_conf(const char *oconf, FILE *out, FILE *err)
{
	char why[512], *text;
	osl_conf_t conf;
	size_t len = 0;
	int rc;

	if (!(text = sc_slurp(oconf, FILE_MAX, &len))) {
		if (errno != ENOENT) {
			fprintf(err, "ostrich: bad configuration: %s: %s\n",
				oconf, strerror(errno));
			return 1;
		}
		/* as the plugins: no file, the defaults */
		fprintf(out, "%s: no such file: the plugins take the defaults\n",
			oconf);
		return 0;
	}
	rc = osl_conf_file_parse(text, len, oconf, _uid_of, &conf, why,
				 sizeof(why));
	free(text);
	if (rc) {
		fprintf(err, "ostrich: bad configuration: %s\n", why);
	} else {
		int n = osl_conf_line(&conf, NULL, 0);
		char *line = n > 0 ? malloc((size_t) n + 1) : NULL;

		if (line)
			(void) osl_conf_line(&conf, line, (size_t) n + 1);
		fprintf(out, "%s: OK: %s\n", oconf, line ? line : "");
		free(line);
	}
	osl_conf_file_free(&conf);
	return rc ? 1 : 0;
}

static bool _is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

int sc_checkconf_judge(const char *oconf, const sc_slurmconf_t *sc,
		       bool site_known, const sc_release_t *rel, FILE *out,
		       FILE *err)
{
	osl_combo_t c = {
		.sched_type = sc->sched_type ? sc->sched_type :
			      rel->default_sched,
		.priority_type = sc->priority_type ? sc->priority_type :
				 rel->default_priority,
		.site_factor = sc->site_factor,
		.site_params = sc->site_params,
		.with_slurmdbd = _is(sc->acct_type,
				     "accounting_storage/slurmdbd"),
		.update_needs_dbd = rel->site_update_needs_dbd,
	};
	bool sched = _is(c.sched_type, "sched/ostrich");
	bool prio = _is(c.priority_type, "priority/ostrich");
	bool site = _is(c.site_factor, "site_factor/ostrich");
	char why[512];
	uint32_t w;
	int rc = _ostrich_conf(oconf, out, err);

	fprintf(out, "slurm.conf: SchedulerType=%s PriorityType=%s PrioritySiteFactorPlugin=%s PrioritySiteFactorParameters=%s AccountingStorageType=%s\n",
		c.sched_type, c.priority_type,
		site_known ? (c.site_factor ? c.site_factor : "(none)") :
		"(unknown)",
		site_known ? (c.site_params ? c.site_params : "(none)") :
		"(unknown)",
		sc->acct_type ? sc->acct_type : "(none)");
	/* each configured plugin's refusals, in slurmctld's load order */
	if (sched && osl_combo_sched(&c, why, sizeof(why))) {
		fprintf(err, "ostrich: %s\n", why);
		rc = 1;
	}
	if (prio && osl_combo_prio(&c, why, sizeof(why))) {
		fprintf(err, "ostrich: %s\n", why);
		rc = 1;
	}
	if (site && osl_combo_site(&c, why, sizeof(why))) {
		fprintf(err, "ostrich: %s\n", why);
		rc = 1;
	}
	if (site && osl_combo_site_weight(&c, &w, why, sizeof(why))) {
		fprintf(err, "ostrich: %s\n", why);
		rc = 1;
	}
	if (!site_known && _is(c.priority_type, "priority/multifactor"))
		fprintf(out, "note: slurmctld does not send PrioritySiteFactorPlugin nor its parameters: the site factor's rules are not checked (give --slurm-conf=FILE)\n");
	if (!sched && !prio && !site && site_known)
		fprintf(out, "note: no ostrich plugin in this slurm.conf: no plugin reads %s\n",
			oconf);
	fprintf(out, "%s\n", rc ? "refused: the plugins would not start (or not reconfigure) with these files"
				: "OK: the plugins would accept these files");
	return rc;
}
