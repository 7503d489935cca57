/*****************************************************************************\
 *  ostrich_conf.c - read ostrich.conf with Slurm's own configuration parser.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/parse_config.h"
#include "src/common/read_config.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "ostrich_conf.h"
#include "osl_conf_values.h"

/* Values are read as text and judged by osl_conf_values.c, except the
 * booleans, Slurm's own. */
static s_p_options_t _options[] = {
	{"Mode", S_P_STRING},
	{"ThinkTime", S_P_STRING},
	{"Interval", S_P_STRING},
	{"Capacity", S_P_STRING},
	{"IntraOrder", S_P_STRING},
	{"VirtualArea", S_P_STRING},
	{"Memory", S_P_STRING},
	{"MemoryCredit", S_P_STRING},
	{"Evidence", S_P_STRING},
	{"EvidenceFloor", S_P_STRING},
	{"Rank", S_P_STRING},
	{"RankCap", S_P_STRING},
	{"DefaultEstimate", S_P_STRING},
	{"FairCampUsers", S_P_STRING},
	{"DefaultWeight", S_P_STRING},
	{"Weights", S_P_STRING},
	{"UserWeights", S_P_STRING},
	{"AccountWeights", S_P_STRING},
	{"Backfill", S_P_BOOLEAN},
	{"SystemComment", S_P_BOOLEAN},
	{"EventLog", S_P_STRING},
	{NULL}
};

/* The keys with one value, judged by osl_conf_set_value(). */
static const char *const _scalar_keys[] = {
	"Mode", "ThinkTime", "Interval", "Capacity", "IntraOrder",
	"VirtualArea", "Memory", "MemoryCredit", "Evidence", "EvidenceFloor",
	"Rank", "RankCap", "DefaultEstimate",
	"FairCampUsers", "DefaultWeight", "Weights",
};

static int _add_user(const char *name, double w, void *arg, char *err,
		     size_t errlen)
{
	osl_conf_t *conf = arg;
	uid_t uid;

	if (uid_from_string(name, &uid) < 0) {
		snprintf(err, errlen, "UserWeights: unknown user \"%s\"", name);
		return -1;
	}
	xrecalloc(conf->user_w, conf->n_user_w + 1, sizeof(*conf->user_w));
	conf->user_w[conf->n_user_w].uid = uid;
	conf->user_w[conf->n_user_w].weight = w;
	conf->n_user_w++;
	return 0;
}

static int _add_acct(const char *name, double w, void *arg, char *err,
		     size_t errlen)
{
	osl_conf_t *conf = arg;

	xrecalloc(conf->acct_w, conf->n_acct_w + 1, sizeof(*conf->acct_w));
	conf->acct_w[conf->n_acct_w].account = xstrdup(name);
	conf->acct_w[conf->n_acct_w].weight = w;
	conf->n_acct_w++;
	return 0;
}

/* Read the values of tbl into conf; RET 0 or -1, *err */
static int _get_values(osl_conf_t *conf, s_p_hashtbl_t *tbl, char **err)
{
	char *s = NULL, why[256];
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < ARRAY_SIZE(_scalar_keys); i++) {
		if (s_p_get_string(&s, _scalar_keys[i], tbl))
			rc = osl_conf_set_value(conf, _scalar_keys[i], s, why,
					     sizeof(why));
		xfree(s);
	}
	(void) s_p_get_boolean(&conf->backfill, "Backfill", tbl);
	(void) s_p_get_boolean(&conf->system_comment, "SystemComment", tbl);
	(void) s_p_get_string(&conf->event_log, "EventLog", tbl);
	if (!rc && s_p_get_string(&s, "UserWeights", tbl))
		rc = osl_conf_parse_weight_list("UserWeights", s, _add_user, conf,
					     why, sizeof(why));
	xfree(s);
	if (!rc && s_p_get_string(&s, "AccountWeights", tbl))
		rc = osl_conf_parse_weight_list("AccountWeights", s, _add_acct,
					     conf, why, sizeof(why));
	xfree(s);
	if (rc)
		xstrcat(*err, why);
	return rc;
}

/* Let the core judge the combination (e.g. a weight it refuses). */
static int _check_core(const osl_conf_t *conf, char **err)
{
	ost_config_t core;
	const char *why = NULL;

	osl_conf_core(conf, 1, &core);
	if (ost_config_check(&core, &why)) {
		xstrfmtcat(*err, "invalid combination: %s", why ? why : "?");
		return -1;
	}
	return 0;
}

extern osl_conf_t *osl_conf_read(const char *path, char **err)
{
	osl_conf_t *conf = xmalloc(sizeof(*conf));
	s_p_hashtbl_t *tbl = NULL;
	struct stat st;
	int rc = 0;

	osl_conf_defaults(conf);
	if (path)
		conf->path = xstrdup(path);
	else if (slurm_conf.slurm_conf && strchr(slurm_conf.slurm_conf, '/'))
		conf->path = xstrdup_printf("%.*s/ostrich.conf",
			(int) (strrchr(slurm_conf.slurm_conf, '/') -
			       slurm_conf.slurm_conf),
			slurm_conf.slurm_conf);
	else
		conf->path = get_extra_conf_path("ostrich.conf");
	if (stat(conf->path, &st) < 0) {
		if (errno != ENOENT) {
			xstrfmtcat(*err, "%s: %s", conf->path, strerror(errno));
			osl_conf_free(conf);
			return NULL;
		}
		xfree(conf->path);	/* no file: the defaults */
		return conf;
	}
	tbl = s_p_hashtbl_create(_options);
	if (s_p_parse_file(tbl, NULL, conf->path, false, NULL) !=
	    SLURM_SUCCESS) {
		xstrfmtcat(*err, "%s: cannot parse (unknown key or bad value, see the error above)",
			   conf->path);
		rc = -1;
	}
	if (!rc && _get_values(conf, tbl, err)) {
		char *msg = xstrdup_printf("%s: %s", conf->path, *err);

		xfree(*err);
		*err = msg;
		rc = -1;
	}
	if (!rc && _check_core(conf, err))
		rc = -1;
	s_p_hashtbl_destroy(tbl);
	if (rc) {
		osl_conf_free(conf);
		return NULL;
	}
	return conf;
}

extern void osl_conf_free(osl_conf_t *conf)
{
	int i;

	if (!conf)
		return;
	for (i = 0; i < conf->n_acct_w; i++)
		xfree(conf->acct_w[i].account);
	xfree(conf->acct_w);
	xfree(conf->user_w);
	xfree(conf->event_log);
	xfree(conf->path);
	xfree(conf);
}

extern double osl_conf_weight(const osl_conf_t *conf, uid_t uid,
			      const char *account, uint32_t shares_raw)
{
	int i;

	for (i = 0; i < conf->n_user_w; i++)
		if (conf->user_w[i].uid == uid)
			return conf->user_w[i].weight;
	for (i = 0; account && i < conf->n_acct_w; i++)
		if (!xstrcasecmp(conf->acct_w[i].account, account))
			return conf->acct_w[i].weight;
	/* Shares above the weight range count as its top (ostrich.conf(5)). */
	if (conf->weights_assoc && shares_raw && shares_raw != NO_VAL &&
	    shares_raw != INFINITE)
		return fmin((double) shares_raw, OST_WEIGHT_MAX);
	return conf->default_weight;
}

extern char *osl_conf_str(const osl_conf_t *conf)
{
	return xstrdup_printf("Mode=%s ThinkTime=%.0f Interval=%u Capacity=%s IntraOrder=%s VirtualArea=%s Memory=%s MemoryCredit=%.0f Evidence=%s EvidenceFloor=%.0f Rank=%s RankCap=%.0f DefaultEstimate=%u FairCampUsers=%u DefaultWeight=%g Weights=%s UserWeights=%d AccountWeights=%d Backfill=%s SystemComment=%s%s%s",
			      ost_mode_name(conf->mode), conf->think_time,
			      conf->interval, ost_capacity_name(conf->capacity),
			      ost_intra_name(conf->intra),
			      ost_varea_name(conf->varea),
			      conf->memory_key ? "key"
					       : conf->memory ? "on" : "off",
			      conf->memory_credit,
			      conf->evidence ? "on" : "off",
			      conf->evidence_floor,
			      ost_rank_name(conf->rank), conf->rank_cap,
			      conf->default_estimate, conf->faircamp_users,
			      conf->default_weight,
			      conf->weights_assoc ? "assoc" : "config",
			      conf->n_user_w, conf->n_acct_w,
			      conf->backfill ? "yes" : "no",
			      conf->system_comment ? "yes" : "no",
			      conf->event_log ? " EventLog=" : "",
			      conf->event_log ? conf->event_log : "");
}
