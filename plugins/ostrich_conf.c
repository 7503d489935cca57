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

static s_p_options_t _options[] = {
	{"Mode", S_P_STRING},
	{"ThinkTime", S_P_UINT32},
	{"Interval", S_P_UINT32},
	{"Capacity", S_P_STRING},
	{"IntraOrder", S_P_STRING},
	{"VirtualArea", S_P_STRING},
	{"Memory", S_P_STRING},
	{"MemoryCredit", S_P_UINT32},
	{"DefaultEstimate", S_P_UINT32},
	{"FairCampUsers", S_P_UINT32},
	{"DefaultWeight", S_P_DOUBLE},
	{"Weights", S_P_STRING},
	{"UserWeights", S_P_STRING},
	{"AccountWeights", S_P_STRING},
	{"Backfill", S_P_BOOLEAN},
	{"SystemComment", S_P_BOOLEAN},
	{"EventLog", S_P_STRING},
	{NULL}
};

static void _defaults(osl_conf_t *conf)
{
	ost_config_t core;

	ost_config_init(&core);
	conf->mode = core.mode;
	conf->think_time = core.think_time;
	conf->capacity = core.capacity;
	conf->intra = core.intra;
	conf->varea = core.varea;
	conf->memory = core.memory;
	conf->memory_credit = core.memory_credit;
	conf->faircamp_users = core.faircamp_users;
	conf->default_weight = core.default_weight;
	conf->interval = 30;
	conf->default_estimate = 86400;
	conf->backfill = true;
	conf->system_comment = true;
}

/*
 * Parse "name:weight,name:weight".
 * IN key - option name, for messages
 * IN list - the value
 * IN fn - called for each pair; returns 0 or fills *err
 * RET 0 or -1 with *err set
 */
typedef int (*_pair_f)(osl_conf_t *conf, const char *name, double w,
		       char **err);

static int _parse_pairs(osl_conf_t *conf, const char *key, const char *list,
			_pair_f fn, char **err)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':'), *end = NULL;
		double w;

		if (!colon || colon == tok) {
			xstrfmtcat(*err, "%s: \"%s\" is not name:weight",
				   key, tok);
			rc = -1;
			break;
		}
		*colon = '\0';
		errno = 0;
		w = strtod(colon + 1, &end);
		if (errno || !end || *end || end == colon + 1 || !(w > 0) ||
		    !isfinite(w)) {
			xstrfmtcat(*err, "%s: weight of %s must be a number > 0",
				   key, tok);
			rc = -1;
			break;
		}
		rc = fn(conf, tok, w, err);
	}
	xfree(copy);
	return rc;
}

static int _add_user(osl_conf_t *conf, const char *name, double w, char **err)
{
	uid_t uid;

	if (uid_from_string(name, &uid) < 0) {
		xstrfmtcat(*err, "UserWeights: unknown user \"%s\"", name);
		return -1;
	}
	xrecalloc(conf->user_w, conf->n_user_w + 1, sizeof(*conf->user_w));
	conf->user_w[conf->n_user_w].uid = uid;
	conf->user_w[conf->n_user_w].weight = w;
	conf->n_user_w++;
	return 0;
}

static int _add_acct(osl_conf_t *conf, const char *name, double w, char **err)
{
	(void) err;
	xrecalloc(conf->acct_w, conf->n_acct_w + 1, sizeof(*conf->acct_w));
	conf->acct_w[conf->n_acct_w].account = xstrdup(name);
	conf->acct_w[conf->n_acct_w].weight = w;
	conf->n_acct_w++;
	return 0;
}

/* Read the enumerations and weights of tbl into conf; RET 0 or -1, *err */
static int _get_values(osl_conf_t *conf, s_p_hashtbl_t *tbl, char **err)
{
	char *s = NULL;
	uint32_t u;
	int rc = 0;

	if (s_p_get_string(&s, "Mode", tbl) &&
	    ost_mode_parse(s, &conf->mode))
		xstrfmtcat(*err, "Mode=%s: must be ostrich or faircamp", s);
	xfree(s);
	if (!*err && s_p_get_string(&s, "Capacity", tbl) &&
	    ost_capacity_parse(s, &conf->capacity))
		xstrfmtcat(*err, "Capacity=%s: must be used or full", s);
	xfree(s);
	if (!*err && s_p_get_string(&s, "IntraOrder", tbl) &&
	    ost_intra_parse(s, &conf->intra))
		xstrfmtcat(*err, "IntraOrder=%s: must be lpt, spt, fifo or ljf",
			   s);
	xfree(s);
	if (!*err && s_p_get_string(&s, "VirtualArea", tbl) &&
	    ost_varea_parse(s, &conf->varea))
		xstrfmtcat(*err, "VirtualArea=%s: must be requested, learned "
			   "or pooled", s);
	xfree(s);
	if (!*err && s_p_get_string(&s, "Memory", tbl)) {
		if (!xstrcasecmp(s, "on") || !xstrcasecmp(s, "off"))
			conf->memory = !xstrcasecmp(s, "on");
		else
			xstrfmtcat(*err, "Memory=%s: must be on or off", s);
	}
	xfree(s);
	if (!*err && s_p_get_string(&s, "Weights", tbl)) {
		if (!xstrcasecmp(s, "assoc"))
			conf->weights_assoc = true;
		else if (xstrcasecmp(s, "config"))
			xstrfmtcat(*err, "Weights=%s: must be config or assoc",
				   s);
	}
	xfree(s);
	if (*err)
		return -1;
	if (s_p_get_uint32(&u, "ThinkTime", tbl))
		conf->think_time = u;
	if (s_p_get_uint32(&u, "MemoryCredit", tbl))
		conf->memory_credit = u;
	if (s_p_get_uint32(&u, "Interval", tbl)) {
		if (u < 1 || u > 3600) {
			xstrfmtcat(*err, "Interval=%u: must be 1..3600 seconds",
				   u);
			return -1;
		}
		conf->interval = u;
	}
	if (s_p_get_uint32(&u, "DefaultEstimate", tbl)) {
		if (u < 1) {
			xstrfmtcat(*err, "DefaultEstimate=%u: must be > 0", u);
			return -1;
		}
		conf->default_estimate = u;
	}
	(void) s_p_get_uint32(&conf->faircamp_users, "FairCampUsers", tbl);
	if (s_p_get_double(&conf->default_weight, "DefaultWeight", tbl) &&
	    !(conf->default_weight > 0 && isfinite(conf->default_weight))) {
		xstrfmtcat(*err, "DefaultWeight=%g: must be > 0",
			   conf->default_weight);
		return -1;
	}
	(void) s_p_get_boolean(&conf->backfill, "Backfill", tbl);
	(void) s_p_get_boolean(&conf->system_comment, "SystemComment", tbl);
	(void) s_p_get_string(&conf->event_log, "EventLog", tbl);
	if (s_p_get_string(&s, "UserWeights", tbl))
		rc = _parse_pairs(conf, "UserWeights", s, _add_user, err);
	xfree(s);
	if (!rc && s_p_get_string(&s, "AccountWeights", tbl))
		rc = _parse_pairs(conf, "AccountWeights", s, _add_acct, err);
	xfree(s);
	return rc;
}

/* Let the core judge the combination (e.g. a weight it refuses). */
static int _check_core(const osl_conf_t *conf, char **err)
{
	ost_config_t core;
	const char *why = NULL;

	ost_config_init(&core);
	core.procs = 1;
	core.mode = conf->mode;
	core.think_time = conf->think_time;
	core.capacity = conf->capacity;
	core.intra = conf->intra;
	core.varea = conf->varea;
	core.memory = conf->memory;
	core.memory_credit = conf->memory_credit;
	core.faircamp_users = conf->faircamp_users;
	core.default_weight = conf->default_weight;
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

	_defaults(conf);
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
	if (conf->weights_assoc && shares_raw && shares_raw != NO_VAL &&
	    shares_raw != INFINITE)
		return (double) shares_raw;
	return conf->default_weight;
}

extern char *osl_conf_str(const osl_conf_t *conf)
{
	return xstrdup_printf("Mode=%s ThinkTime=%.0f Interval=%u Capacity=%s IntraOrder=%s VirtualArea=%s Memory=%s MemoryCredit=%.0f DefaultEstimate=%u FairCampUsers=%u DefaultWeight=%g Weights=%s UserWeights=%d AccountWeights=%d Backfill=%s SystemComment=%s%s%s",
			      ost_mode_name(conf->mode), conf->think_time,
			      conf->interval, ost_capacity_name(conf->capacity),
			      ost_intra_name(conf->intra),
			      ost_varea_name(conf->varea),
			      conf->memory ? "on" : "off",
			      conf->memory_credit,
			      conf->default_estimate, conf->faircamp_users,
			      conf->default_weight,
			      conf->weights_assoc ? "assoc" : "config",
			      conf->n_user_w, conf->n_acct_w,
			      conf->backfill ? "yes" : "no",
			      conf->system_comment ? "yes" : "no",
			      conf->event_log ? " EventLog=" : "",
			      conf->event_log ? conf->event_log : "");
}
