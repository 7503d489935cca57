/*****************************************************************************\
 *  report_cmd.c - scampaign --report: find the engine's campaign report
 *  (StateSaveLocation/ostrich_report, or --report-file), read it, keep
 *  what the caller may see, print it (report_view.c).  Who sees what is
 *  --usage's rule (usage_cmd.c): under PrivateData=accounts, jobs, usage
 *  or users, only root and SlurmUser see every user's campaigns; anyone
 *  else sees their own, without the partitions' and accounts' sums (the
 *  engine also writes the file 0600 then).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "report_view.h"
#include "report_cmd.h"
#include "sc_compat.h"
#include "sc_ctlconf.h"
#include "sc_slurp.h"

/* Read and parse the report at path into f; quiet: say nothing when it
 * is missing.  RET 0, 1 (said), or 2 (missing, quiet) */
static int _load(const char *path, osl_report_file_t *f, bool quiet)
{
	char err[256], *buf;
	size_t len = 0;
	int rc, newer;

	if (!(buf = sc_slurp(path, SIZE_MAX, &len))) {
		if (quiet && errno == ENOENT)
			return 2;
		fprintf(stderr, "scampaign: error: cannot read %s: %s%s\n",
			path, strerror(errno), errno == ENOENT ?
			" (the engine writes it after its first pass)" :
			errno == EACCES ? " (PrivateData: the file is "
			"SlurmUser's; run as SlurmUser or root)" : "");
		return 1;
	}
	rc = osl_report_parse(f, buf, len, &newer, err, sizeof(err));
	free(buf);
	if (rc)
		fprintf(stderr, "scampaign: error: %s: %s%s\n", path, err,
			newer ? " (written by a newer ostrich: use its "
			"scampaign)" : "");
	return rc ? 1 : 0;
}

int sc_report_cmd(const sc_report_opts_t *o)
{
	sc_report_filter_t flt = { .partitions = o->partitions,
				   .users = o->users, .uid = getuid(),
				   .since = -INFINITY };
	osl_report_file_t f;
	char *path = NULL;
	double w;
	sc_ctlconf_t c;
	int rc;

	if (o->window && sc_report_window(o->window, &w)) {
		fprintf(stderr, "scampaign: error: bad --window '%s' (N, Ns, Nm, Nh, Nd or Nw, N > 0)\n",
			o->window);
		return 1;
	}
	if (o->window)
		flt.since = (double) time(NULL) - w;
	sc_ctlconf_load(&c);
	if (!o->report_file && (!c.have || !c.dir)) {
		fprintf(stderr, "scampaign: error: cannot reach slurmctld for StateSaveLocation (%s); give --report-file\n",
			slurm_strerror(errno));
		free(c.dir);
		return 1;
	}
	if (!o->report_file && asprintf(&path, "%s/%s", c.dir,
					OSL_REPORT_FILE) < 0)
		path = NULL;
	flt.own_only = c.private && flt.uid != 0 &&
		       !(c.have && flt.uid == c.slurm_uid);
	rc = _load(o->report_file ? o->report_file : path, &f, false);
	if (!rc) {
		sc_report_filter(&f, &flt);
		if (o->json)
			sc_report_json(stdout, &f, flt.since, flt.own_only);
		else
			sc_report_table(stdout, &f, o->campaigns, o->noheader,
					flt.own_only);
		osl_report_file_free(&f);
	}
	free(path);
	free(c.dir);
	return rc;
}

int sc_report_metrics_append(FILE *fp, const char *usnap_path,
			     const char *partitions, bool own_only,
			     bool no_users, uint32_t uid)
{
	sc_report_filter_t flt = { .partitions = partitions, .uid = uid,
				   .own_only = own_only, .no_users = no_users,
				   .since = -INFINITY };
	const char *slash = strrchr(usnap_path, '/');
	osl_report_file_t f;
	char *path = NULL;
	int rc;

	if (asprintf(&path, "%.*s%s", slash ? (int) (slash - usnap_path + 1) :
		     0, usnap_path, OSL_REPORT_FILE) < 0)
		return 1;
	rc = _load(path, &f, true);
	free(path);
	if (rc)
		return rc == 2 ? 0 : 1;
	sc_report_filter(&f, &flt);
	sc_report_metrics(fp, &f, no_users, own_only);
	osl_report_file_free(&f);
	return 0;
}
