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
#include <stddef.h>
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

#include "ostrich.h"
#include "osl_conf.h"
#include "ostrich_conf.h"

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

static int _add_parent(const char *name, const char *parent, void *arg,
		       char *err, size_t errlen)
{
	osl_conf_t *conf = arg;

	(void) err;
	(void) errlen;
	xrecalloc(conf->acct_par, conf->n_acct_par + 1,
		  sizeof(*conf->acct_par));
	conf->acct_par[conf->n_acct_par].account = xstrdup(name);
	conf->acct_par[conf->n_acct_par].parent = xstrdup(parent);
	conf->n_acct_par++;
	return 0;
}

static int _add_user_acct(const char *name, const char *acct, void *arg,
			  char *err, size_t errlen)
{
	osl_conf_t *conf = arg;
	uid_t uid;
	int i;

	if (uid_from_string(name, &uid) < 0) {
		snprintf(err, errlen, "UserAccounts: unknown user \"%s\"",
			 name);
		return -1;
	}
	/* a user may have several accounts (§23): the first is its own */
	for (i = 0; i < conf->n_user_acct; i++)
		if (conf->user_acct[i].uid == uid &&
		    !xstrcasecmp(conf->user_acct[i].account, acct)) {
			snprintf(err, errlen, "UserAccounts: \"%s:%s\" named twice",
				 name, acct);
			return -1;
		}
	xrecalloc(conf->user_acct, conf->n_user_acct + 1,
		  sizeof(*conf->user_acct));
	conf->user_acct[conf->n_user_acct].uid = uid;
	conf->user_acct[conf->n_user_acct].account = xstrdup(acct);
	conf->n_user_acct++;
	return 0;
}

/* Slurm's parser's options for the keys of osl_conf_keys: text, but for
 * the booleans, which are Slurm's own (yes/no, true/false, ...).  xfree()
 * the result. */
static s_p_options_t *_options(void)
{
	s_p_options_t *o = xcalloc(osl_conf_nkeys + 1, sizeof(*o));
	size_t i;

	for (i = 0; i < osl_conf_nkeys; i++) {
		o[i].key = (char *) osl_conf_keys[i].name;
		o[i].type = osl_conf_keys[i].read == OSL_KEY_BOOL ?
			    S_P_BOOLEAN : S_P_STRING;
	}
	return o;
}

/* The list s of key k (UserWeights, AccountWeights, AccountParents,
 * UserAccounts) into conf.  RET 0, or -1 with why[0..size) */
static int _get_list(osl_conf_t *conf, const osl_conf_key_t *k,
		     const char *s, char *why, size_t size)
{
	if (k->read == OSL_KEY_LIST)
		return osl_conf_parse_weight_list(k->name, s,
			k->off == offsetof(osl_conf_t, n_user_w) ?
			_add_user : _add_acct, conf, why, size);
	return osl_conf_parse_name_list(k->name, s,
		k->off == offsetof(osl_conf_t, n_acct_par) ?
		_add_parent : _add_user_acct, conf, why, size);
}

/* Read the value of key k, if tbl has one, into conf.  RET 0, or -1 with
 * why[0..size) */
static int _get_value(osl_conf_t *conf, const osl_conf_key_t *k,
		      s_p_hashtbl_t *tbl, char *why, size_t size)
{
	char *s = NULL;
	int rc = 0;

	switch (k->read) {
	case OSL_KEY_BOOL:
		(void) s_p_get_boolean((bool *) ((char *) conf + k->off),
				       k->name, tbl);
		return 0;
	case OSL_KEY_PATH:
		(void) s_p_get_string((char **) ((char *) conf + k->off),
				      k->name, tbl);
		return 0;
	case OSL_KEY_VALUE:
		if (s_p_get_string(&s, k->name, tbl))
			rc = osl_conf_set_value(conf, k->name, s, why, size);
		break;
	case OSL_KEY_LIST:
	case OSL_KEY_NAMES:
		if (s_p_get_string(&s, k->name, tbl))
			rc = _get_list(conf, k, s, why, size);
		break;
	}
	xfree(s);
	return rc;
}

/* Read the values of tbl into conf; RET 0 or -1, *err */
static int _get_values(osl_conf_t *conf, s_p_hashtbl_t *tbl, char **err)
{
	char why[256];
	size_t i;

	for (i = 0; i < osl_conf_nkeys; i++)
		if (_get_value(conf, &osl_conf_keys[i], tbl, why,
			       sizeof(why))) {
			xstrcat(*err, why);
			return -1;
		}
	if (osl_conf_check_parents(conf->acct_par, conf->n_acct_par, why,
				   sizeof(why))) {
		xstrcat(*err, why);
		return -1;
	}
	return 0;
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
	s_p_options_t *options;
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
	options = _options();
	tbl = s_p_hashtbl_create(options);
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
	xfree(options);
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
	for (i = 0; i < conf->n_acct_par; i++) {
		xfree(conf->acct_par[i].account);
		xfree(conf->acct_par[i].parent);
	}
	xfree(conf->acct_par);
	for (i = 0; i < conf->n_user_acct; i++)
		xfree(conf->user_acct[i].account);
	xfree(conf->user_acct);
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
	/* with accounts, AccountWeights are the accounts' shares (§23) */
	for (i = 0; account && !ost_config_nested(&conf->core) &&
		    i < conf->n_acct_w; i++)
		if (!xstrcasecmp(conf->acct_w[i].account, account))
			return conf->acct_w[i].weight;
	/* Shares above the weight range count as its top (ostrich.conf(5)). */
	if (conf->weights_assoc && shares_raw && shares_raw != NO_VAL &&
	    shares_raw != INFINITE)
		return fmin((double) shares_raw, OST_WEIGHT_MAX);
	return conf->core.default_weight;
}

extern char *osl_conf_str(const osl_conf_t *conf)
{
	int n = osl_conf_line(conf, NULL, 0);
	char *str = xmalloc(n > 0 ? n + 1 : 1);

	if (n > 0)
		(void) osl_conf_line(conf, str, n + 1);
	return str;
}
