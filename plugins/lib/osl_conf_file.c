/*****************************************************************************\
 *  osl_conf_file.c - ostrich.conf without Slurm's parser (osl_conf_file.h):
 *  the tokenizer, then the same judges osl_conf_read runs.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strdup, strndup, strcasecmp */

#include <ctype.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "osl_conf_file.h"

/* Longest value kept (Slurm's lines have no limit; ours are short). */
#define VAL_MAX 4096

typedef struct {
	osl_conf_t *conf;
	osl_conf_uid_f uid_of;
	char *val[64];			/* last value of osl_conf_keys[i] */
} reader_t;

/* Slurm's booleans (s_p_handle_boolean).  RET 0 and *b, or -1. */
static int _bool(const char *s, bool *b)
{
	if (!strcasecmp(s, "yes") || !strcasecmp(s, "up") ||
	    !strcasecmp(s, "true") || !strcasecmp(s, "1"))
		*b = true;
	else if (!strcasecmp(s, "no") || !strcasecmp(s, "down") ||
		 !strcasecmp(s, "false") || !strcasecmp(s, "0"))
		*b = false;
	else
		return -1;
	return 0;
}

/* ----------------------------------------------------------- the lists --- */

static void *_grow(void *v, int n, size_t size)
{
	return realloc(v, (size_t) (n + 1) * size);
}

static int _add_user(const char *name, double w, void *arg, char *err,
		     size_t errlen)
{
	reader_t *r = arg;
	osl_conf_t *c = r->conf;
	osl_user_weight_t *v;
	uid_t uid;

	if (r->uid_of(name, &uid))
		return osl_conf_err(err, errlen, "UserWeights: unknown user \"%s\"",
			    name);
	if (!(v = _grow(c->user_w, c->n_user_w, sizeof(*v))))
		return osl_conf_err(err, errlen, "UserWeights: out of memory");
	c->user_w = v;
	v[c->n_user_w].uid = uid;
	v[c->n_user_w++].weight = w;
	return 0;
}

static int _add_acct(const char *name, double w, void *arg, char *err,
		     size_t errlen)
{
	osl_conf_t *c = ((reader_t *) arg)->conf;
	osl_acct_weight_t *v = _grow(c->acct_w, c->n_acct_w, sizeof(*v));
	char *s = strdup(name);

	if (v)
		c->acct_w = v;
	if (!v || !s) {
		free(s);
		return osl_conf_err(err, errlen, "AccountWeights: out of memory");
	}
	v[c->n_acct_w].account = s;
	v[c->n_acct_w++].weight = w;
	return 0;
}

static int _add_parent(const char *name, const char *parent, void *arg,
		       char *err, size_t errlen)
{
	osl_conf_t *c = ((reader_t *) arg)->conf;
	osl_acct_parent_t *v = _grow(c->acct_par, c->n_acct_par, sizeof(*v));
	char *a = strdup(name), *p = strdup(parent);

	if (v)
		c->acct_par = v;
	if (!v || !a || !p) {
		free(a);
		free(p);
		return osl_conf_err(err, errlen, "AccountParents: out of memory");
	}
	v[c->n_acct_par].account = a;
	v[c->n_acct_par++].parent = p;
	return 0;
}

static int _add_user_acct(const char *name, const char *acct, void *arg,
			  char *err, size_t errlen)
{
	reader_t *r = arg;
	osl_conf_t *c = r->conf;
	osl_user_acct_t *v;
	uid_t uid;
	char *s;

	if (r->uid_of(name, &uid))
		return osl_conf_err(err, errlen, "UserAccounts: unknown user \"%s\"",
			    name);
	/* as ostrich_conf.c: a user may have several accounts (§23) */
	for (int i = 0; i < c->n_user_acct; i++)
		if (c->user_acct[i].uid == uid &&
		    !strcasecmp(c->user_acct[i].account, acct))
			return osl_conf_err(err, errlen,
				    "UserAccounts: \"%s:%s\" named twice",
				    name, acct);
	if (!(v = _grow(c->user_acct, c->n_user_acct, sizeof(*v))))
		return osl_conf_err(err, errlen, "UserAccounts: out of memory");
	c->user_acct = v;
	if (!(s = strdup(acct)))
		return osl_conf_err(err, errlen, "UserAccounts: out of memory");
	v[c->n_user_acct].uid = uid;
	v[c->n_user_acct++].account = s;
	return 0;
}

/* ------------------------------------------------------- the tokenizer --- */

/* Keep val as the value of key (any case).  RET 0, or -1 (unknown key,
 * bad boolean, memory) with why. */
static int _keep(reader_t *r, const char *key, const char *val, int line,
		 const char *name, char *err, size_t errlen)
{
	const osl_conf_key_t *k = osl_conf_key(key);
	size_t i;
	bool b;

	if (!k)
		return osl_conf_err(err, errlen, "%s:%d: unknown key \"%s\" (Slurm's parser refuses the file)",
			    name, line, key);
	i = (size_t) (k - osl_conf_keys);
	if (k->read == OSL_KEY_BOOL && _bool(val, &b))
		return osl_conf_err(err, errlen, "%s:%d: \"%s\" is not a valid option for \"%s\"",
			    name, line, val, k->name);
	free(r->val[i]);
	if (!(r->val[i] = strdup(val)))
		return osl_conf_err(err, errlen, "%s: out of memory", name);
	return 0;
}

/* The pairs of one logical line s (comments gone).  RET 0 or -1. */
static int _line(reader_t *r, char *s, int line, const char *name,
		 char *err, size_t errlen)
{
	while (*s) {
		char *key, *val;

		while (isspace((unsigned char) *s))
			s++;
		if (!*s)
			break;
		key = s;
		while (isalnum((unsigned char) *s) || *s == '_' || *s == '.')
			s++;
		val = s;
		while (isspace((unsigned char) *s))
			s++;
		if (val == key || *s != '=')
			return osl_conf_err(err, errlen, "%s:%d: parse error at \"%.40s\": not Key=Value",
				    name, line, key);
		*val = '\0';
		s++;
		while (isspace((unsigned char) *s))
			s++;
		if (*s == '"') {
			val = ++s;
			while (*s && *s != '"')
				s++;
			if (!*s)
				return osl_conf_err(err, errlen, "%s:%d: %s: unterminated quote",
					    name, line, key);
		} else {
			val = s;
			while (*s && !isspace((unsigned char) *s))
				s++;
			if (val == s)
				return osl_conf_err(err, errlen, "%s:%d: %s: no value",
					    name, line, key);
		}
		if (*s)
			*s++ = '\0';
		if (strlen(val) >= VAL_MAX)
			return osl_conf_err(err, errlen, "%s:%d: %s: value too long",
				    name, line, key);
		if (_keep(r, key, val, line, name, err, errlen))
			return -1;
	}
	return 0;
}

/* Split text into logical lines ('\' at the end joins the next; '#'
 * starts a comment unless escaped) and read their pairs. */
static int _split(reader_t *r, const char *text, size_t len,
		  const char *name, char *err, size_t errlen)
{
	char *buf = malloc(len + 1);
	size_t n = 0;
	int line = 1, first = 1, rc = 0;

	if (!buf)
		return osl_conf_err(err, errlen, "%s: out of memory", name);
	for (size_t i = 0; i <= len && !rc; i++) {
		char ch = i < len ? text[i] : '\n';

		if (ch == '\0') {
			rc = osl_conf_err(err, errlen, "%s:%d: a NUL byte", name, line);
			break;
		}
		if (ch == '\\' && i + 1 < len && text[i + 1] == '\n') {
			i++;
			line++;
			continue;
		}
		if (ch == '\\' && i + 1 < len && text[i + 1] == '#') {
			buf[n++] = '#';
			i++;
			continue;
		}
		if (ch == '#') {	/* the comment, to the end of line */
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
			continue;
		}
		if (ch != '\n') {
			buf[n++] = ch;
			continue;
		}
		buf[n] = '\0';
		rc = _line(r, buf, first, name, err, errlen);
		n = 0;
		first = ++line;
	}
	free(buf);
	return rc;
}

/* ---------------------------------------------------------- the judges --- */

/* The value of key k, as slurm/ostrich_conf.c's _get_value does. */
static int _apply(reader_t *r, const osl_conf_key_t *k, const char *s,
		  char *why, size_t size)
{
	osl_conf_t *c = r->conf;
	char **path;

	switch (k->read) {
	case OSL_KEY_BOOL:
		return _bool(s, (bool *) ((char *) c + k->off));
	case OSL_KEY_PATH:
		path = (char **) ((char *) c + k->off);
		free(*path);
		return (*path = strdup(s)) ? 0 :
		       osl_conf_err(why, size, "%s: out of memory", k->name);
	case OSL_KEY_VALUE:
		return osl_conf_set_value(c, k->name, s, why, size);
	case OSL_KEY_LIST:
		return osl_conf_parse_weight_list(k->name, s,
			k->off == offsetof(osl_conf_t, n_user_w) ?
			_add_user : _add_acct, r, why, size);
	case OSL_KEY_NAMES:
		return osl_conf_parse_name_list(k->name, s,
			k->off == offsetof(osl_conf_t, n_acct_par) ?
			_add_parent : _add_user_acct, r, why, size);
	}
	return 0;
}

extern int osl_conf_file_parse(const char *text, size_t len,
			       const char *name, osl_conf_uid_f uid_of,
			       osl_conf_t *conf, char *err, size_t errlen)
{
	reader_t r = { .conf = conf, .uid_of = uid_of };
	char why[256];
	ost_config_t core;
	const char *cwhy = NULL;
	int rc = 0;

	osl_conf_defaults(conf);
	if (errlen)
		err[0] = '\0';
	if (osl_conf_nkeys > sizeof(r.val) / sizeof(r.val[0]))
		return osl_conf_err(err, errlen, "%s: too many keys", name);
	rc = _split(&r, text, len, name, err, errlen);
	for (size_t i = 0; !rc && i < osl_conf_nkeys; i++)
		if (r.val[i] && _apply(&r, &osl_conf_keys[i], r.val[i], why,
				       sizeof(why)))
			rc = osl_conf_err(err, errlen, "%s: %s", name, why);
	if (!rc && osl_conf_check_parents(conf->acct_par, conf->n_acct_par,
					  why, sizeof(why)))
		rc = osl_conf_err(err, errlen, "%s: %s", name, why);
	if (!rc) {
		/* the core judges the combination (e.g. a weight it refuses) */
		osl_conf_core(conf, 1, &core);
		if (ost_config_check(&core, &cwhy))
			rc = osl_conf_err(err, errlen, "invalid combination: %s",
				  cwhy ? cwhy : "?");
	}
	for (size_t i = 0; i < osl_conf_nkeys; i++)
		free(r.val[i]);
	return rc;
}

extern void osl_conf_file_free(osl_conf_t *conf)
{
	for (int i = 0; i < conf->n_acct_w; i++)
		free(conf->acct_w[i].account);
	for (int i = 0; i < conf->n_acct_par; i++) {
		free(conf->acct_par[i].account);
		free(conf->acct_par[i].parent);
	}
	for (int i = 0; i < conf->n_user_acct; i++)
		free(conf->user_acct[i].account);
	free(conf->acct_w);
	free(conf->acct_par);
	free(conf->user_acct);
	free(conf->user_w);
	free(conf->event_log);
	free(conf->path);
	conf->acct_w = NULL;
	conf->acct_par = NULL;
	conf->user_acct = NULL;
	conf->user_w = NULL;
	conf->event_log = conf->path = NULL;
	conf->n_acct_w = conf->n_acct_par = conf->n_user_acct = 0;
	conf->n_user_w = 0;
}
