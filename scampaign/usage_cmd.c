/*****************************************************************************\
 *  usage_cmd.c - scampaign --usage / --metrics: find the engine's usage
 *  snapshot (StateSaveLocation, or --state-file), read it, keep what the
 *  caller may see (PrivateData), print it (usage.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Who sees what.  With PrivateData=accounts, jobs, usage or users, only
 *  root and SlurmUser see every user's rows; anyone else sees their own.
 *  The engine then also writes the file 0600 (SlurmUser's), so that the
 *  file itself keeps the secret (this program runs as its caller, who
 *  could read a readable file directly) and this filter matters only for
 *  a copy the site made readable.  --metrics then leaves out the per-user
 *  series, which etc/ostrich-metrics.service would publish to whoever
 *  reads node_exporter, unless --per-user says the output stays private
 *  (§23 "Inspection").  scampaign cannot tell an operator (AdminLevel in
 *  slurmdbd) without the database: operators read it as SlurmUser
 *  (scampaign.1, doc/admin-guide.md).
\*****************************************************************************/

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "report_cmd.h"
#include "sc_compat.h"
#include "sc_ctlconf.h"
#include "sc_slurp.h"
#include "tree.h"
#include "usage.h"
#include "usage_cmd.h"

/* Read and parse the snapshot at path into s.  RET 0, or 1 (said) */
static int _load(const char *path, osl_usnap_t *s)
{
	char err[256], *buf;
	size_t len = 0;
	int rc;

	if (!(buf = sc_slurp(path, SIZE_MAX, &len))) {
		fprintf(stderr, "scampaign: error: cannot read %s: %s%s\n",
			path, strerror(errno), errno == ENOENT ?
			" (the engine writes it after its first pass)" :
			errno == EACCES ? " (PrivateData: the file is "
			"SlurmUser's, the other users' rows are private; "
			"run as SlurmUser or root)" : "");
		return 1;
	}
	rc = osl_usnap_parse(s, buf, len, err, sizeof(err));
	free(buf);
	if (rc)
		fprintf(stderr, "scampaign: error: %s: %s\n", path, err);
	return rc ? 1 : 0;
}

int sc_usage_explain_account(const char *state_file, const char *partition,
			     const char *account, uint32_t uid,
			     const char *user, FILE *fp)
{
	char err[256], *buf, *path = NULL;
	sc_usage_filter_t f = { .uid = getuid() };
	size_t len = 0;
	osl_usnap_t s;
	sc_ctlconf_t c;
	int rc = -1;

	sc_ctlconf_load(&c);
	if (!state_file && c.dir &&
	    asprintf(&path, "%s/%s", c.dir, OSL_USNAP_FILE) < 0)
		path = NULL;
	f.own_only = c.private && f.uid != 0 &&
		     !(c.have && f.uid == c.slurm_uid);
	buf = state_file || path ? sc_slurp(state_file ? state_file : path,
					    SIZE_MAX, &len) : NULL;
	if (buf && !osl_usnap_parse(&s, buf, len, err, sizeof(err))) {
		sc_usage_filter(&s, &f);
		rc = sc_tree_explain(fp, &s, partition, account, uid, user);
		osl_usnap_free(&s);
	}
	free(buf);
	free(path);
	free(c.dir);
	return rc;
}

int sc_usage_cmd(const sc_usage_opts_t *o)
{
	sc_ctlconf_t c;
	sc_usage_filter_t f = { .partitions = o->partitions,
				.users = o->users, .uid = getuid() };
	osl_usnap_t s;
	char *path = NULL;
	int rc;

	sc_ctlconf_load(&c);
	if (!o->state_file && (!c.have || !c.dir)) {
		fprintf(stderr, "scampaign: error: cannot reach slurmctld for StateSaveLocation (%s); give --state-file\n",
			slurm_strerror(errno));
		free(c.dir);
		return 1;
	}
	if (!o->state_file && asprintf(&path, "%s/%s", c.dir,
				       OSL_USNAP_FILE) < 0)
		path = NULL;
	f.own_only = c.private && f.uid != 0 &&
		     !(c.have && f.uid == c.slurm_uid);
	f.no_users = o->metrics && c.private && !o->per_user;
	rc = _load(o->state_file ? o->state_file : path, &s);
	if (!rc) {
		sc_usage_filter(&s, &f);
		if (o->metrics) {
			sc_metrics(stdout, &s);
			/* §26: the campaign report beside the snapshot */
			rc = sc_report_metrics_append(stdout, o->state_file ?
						      o->state_file : path,
						      o->partitions,
						      f.own_only, f.no_users,
						      f.uid);
		}
		else if (o->tree)
			sc_tree(stdout, &s, o->noheader);
		else if (o->json)
			sc_usage_json(stdout, &s);
		else
			sc_usage_table(stdout, &s, o->noheader);
		osl_usnap_free(&s);
	}
	free(path);
	free(c.dir);
	return rc;
}
