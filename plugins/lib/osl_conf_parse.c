/*****************************************************************************\
 *  osl_conf_parse.c - ostrich.conf without Slurm: the parsers of its
 *  values that are more than a word (a weight, the lists UserWeights=,
 *  AccountWeights=, AccountParents=, UserAccounts=, ChargeWeights=) and
 *  the judge of the account tree AccountParents= makes.  Every number is
 *  parsed strictly: the whole value, no sign, finite, in its range.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strdup, strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ostrich.h"
#include "osl_conf.h"

/* Below osl_conf.c, which calls the parsers: calls go one way. */
extern int osl_conf_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

extern int osl_conf_parse_weight(const char *s, double *w)
{
	char *end;
	double x;

	/* strtod skips blanks and takes a sign: neither is a weight */
	if (!isdigit((unsigned char) *s) && *s != '.')
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end || !ost_weight_ok(x))
		return -1;
	*w = x;
	return 0;
}


/* One item of a list, split at its first ':' (value NULL without one):
 * RET 0, or -1 with a message in err. */
typedef int (*osl_item_f)(const char *key, const char *name,
			  const char *value, void *ctx, char *err,
			  size_t errlen);

/* Split list, key's value, at each ',' and each item at its first ':',
 * and hand the items to one in order, up to its first error.  An empty
 * list is an error.  RET 0, or -1 with a message in err. */
static int _each_item(const char *key, const char *list, osl_item_f one,
		      void *ctx, char *err, size_t errlen)
{
	char *copy, *item, *next;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	if (!list || !*list)
		return osl_conf_err(err, errlen, "%s: empty list", key);
	if (!(copy = strdup(list)))
		return osl_conf_err(err, errlen, "%s: out of memory", key);
	for (item = copy; item && !rc; item = next) {
		char *colon;

		if ((next = strchr(item, ',')))
			*next++ = '\0';
		if ((colon = strchr(item, ':')))
			*colon++ = '\0';
		rc = one(key, item, colon, ctx, err, errlen);
	}
	free(copy);
	return rc;
}

/* The caller's callback and its argument, for the items of a list. */
typedef struct {
	osl_conf_pair_f pair;		/* name:weight lists */
	osl_conf_names_f names;		/* name:name lists */
	void *arg;
} osl_list_ctx_t;

static int _weight_item(const char *key, const char *name, const char *value,
			void *ctx, char *err, size_t errlen)
{
	const osl_list_ctx_t *c = ctx;
	double w;

	if (!value || !*name)
		return osl_conf_err(err, errlen, "%s: \"%s%s%s\" is not name:weight",
			    key, name, value ? ":" : "", value ? value : "");
	if (osl_conf_parse_weight(value, &w))
		return osl_conf_err(err, errlen, "%s: weight \"%s\" of %s must be a "
			    "number in " OSL_CONF_WEIGHT_RANGE, key, value,
			    name);
	return c->pair(name, w, c->arg, err, errlen);
}

extern int osl_conf_parse_weight_list(const char *key, const char *list,
				      osl_conf_pair_f fn, void *arg,
				      char *err, size_t errlen)
{
	osl_list_ctx_t c = { .pair = fn, .arg = arg };

	return _each_item(key, list, _weight_item, &c, err, errlen);
}

/* A name of a name list: non-empty, printable, no blank, ':' or ','. */
static bool _name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char) *s) || *s == ':' || *s == ',')
			return false;
	return true;
}

static int _names_item(const char *key, const char *name, const char *value,
		       void *ctx, char *err, size_t errlen)
{
	const osl_list_ctx_t *c = ctx;

	if (!value)
		return osl_conf_err(err, errlen, "%s: \"%s\" is not name:name", key,
			    name);
	if (!_name_ok(name) || !_name_ok(value))
		return osl_conf_err(err, errlen, "%s: \"%s:%s\" is not name:name "
			    "(names are non-empty, without blanks, ':' or ',')",
			    key, name, value);
	return c->names(name, value, c->arg, err, errlen);
}

extern int osl_conf_parse_name_list(const char *key, const char *list,
				    osl_conf_names_f fn, void *arg,
				    char *err, size_t errlen)
{
	return _each_item(key, list, _names_item,
			  &(osl_list_ctx_t) { .names = fn, .arg = arg }, err,
			  errlen);
}

/* Index of account name among the children of v[0..n), or -1. */
static int _child(const osl_acct_parent_t *v, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(v[i].account, name))
			return i;
	return -1;
}

extern int osl_conf_check_parents(const osl_acct_parent_t *v, int n,
				  char *err, size_t errlen)
{
	int i, j, depth;

	if (errlen)
		err[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!strcasecmp(v[i].account, "root"))
			return osl_conf_err(err, errlen, "AccountParents: \"root:%s\": "
				    "root is the top, it has no parent",
				    v[i].parent);
		if ((j = _child(v, i, v[i].account)) >= 0)
			return osl_conf_err(err, errlen, "AccountParents: %s has two "
				    "parents (%s, %s)", v[i].account,
				    v[j].parent, v[i].parent);
	}
	/* up from each, O(n^2) steps (lists are short): first the cycles,
	 * so that an item leading into one is not called too deep */
	for (i = 0; i < n; i++)
		for (j = i, depth = 0; depth <= n; depth++) {
			if (!strcasecmp(v[j].parent, "root") ||
			    (j = _child(v, n, v[j].parent)) < 0)
				break;
			if (j == i)
				return osl_conf_err(err, errlen, "AccountParents: "
					    "\"%s:%s\" makes a cycle: %s is "
					    "its own ancestor", v[i].account,
					    v[i].parent, v[i].account);
		}
	for (i = 0; i < n; i++) {
		for (j = i, depth = 1; j >= 0 && strcasecmp(v[j].parent,
							      "root");
		     depth++)
			j = _child(v, n, v[j].parent);
		/* depth: levels under the root, the parent's included */
		if (depth > OSL_ACCT_DEPTH_MAX)
			return osl_conf_err(err, errlen, "AccountParents: \"%s:%s\": "
				    "more than %d levels", v[i].account,
				    v[i].parent, OSL_ACCT_DEPTH_MAX);
	}
	return 0;
}

/* The base unit of a TRES type as slurmdb_get_tres_base_unit() has it:
 * 2 (MB) for mem and bb, 0 (one) for the others. */
static int _base_unit(const char *type)
{
	return !strcmp(type, "mem") || !strcmp(type, "bb") ? 2 : 0;
}

/* Is type a TRES type (with a name when named, without when not)? */
static bool _tres_type_ok(const char *type, bool named)
{
	static const char *const plain[] = { "cpu", "mem", "node", "energy",
					     "vmem", "pages", "billing" };
	static const char *const with_name[] = { "gres", "license", "bb",
						 "fs", "ic" };
	size_t i;

	for (i = 0; !named && i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(type, plain[i]) && strcmp(type, "billing"))
			return true;
	for (i = 0; named && i < sizeof(with_name) / sizeof(with_name[0]); i++)
		if (!strcmp(type, with_name[i]))
			return true;
	return false;
}

/* One item "Type[/name]=weight[unit]" into *w; RET 0 or -1 (err). */
static int _charge_item(char *item, osl_charge_weight_t *w, char *err,
			size_t errlen)
{
	char *eq = strchr(item, '='), *slash, *end;
	double x;
	size_t i;
	int unit;

	memset(w, 0, sizeof(*w));
	if (!eq || eq == item || !eq[1])
		return osl_conf_err(err, errlen, "\"%s\" is not Type=weight", item);
	*eq = '\0';
	if ((slash = strchr(item, '/')))
		*slash++ = '\0';
	if (strlen(item) >= sizeof(w->type) ||
	    (slash && (!*slash || strlen(slash) >= sizeof(w->name))))
		return osl_conf_err(err, errlen, "\"%s\": TRES name too long or empty",
			    item);
	for (i = 0; item[i]; i++)
		w->type[i] = (char) tolower((unsigned char) item[i]);
	if (!_tres_type_ok(w->type, slash != NULL))
		return osl_conf_err(err, errlen, "\"%s%s%s\" is not a TRES", item,
			    slash ? "/" : "", slash ? slash : "");
	if (slash)
		snprintf(w->name, sizeof(w->name), "%s", slash);
	if (!isdigit((unsigned char) eq[1]) && eq[1] != '.')
		return osl_conf_err(err, errlen, "weight \"%s\" of %s", eq + 1, item);
	errno = 0;
	x = strtod(eq + 1, &end);
	if (end == eq + 1 || errno || !isfinite(x) || x < 0 ||
	    (*end && end[1]))
		return osl_conf_err(err, errlen, "weight \"%s\" of %s", eq + 1, item);
	if (*end) {
		const char *units = "KMGTP", *u = strchr(units,
						toupper((unsigned char) *end));

		if (!u)
			return osl_conf_err(err, errlen, "unit \"%s\" of %s", end,
				    item);
		/* Slurm: weight / 1024^(unit - base) when the unit is
		 * above the base unit, unchanged otherwise */
		for (unit = (int) (u - units) + 1; unit > _base_unit(w->type);
		     unit--)
			x /= 1024.0;
	}
	w->weight = x;
	return 0;
}

extern int osl_conf_parse_charge_weights(const char *s,
					 osl_charge_weight_t *w, int max,
					 int *n, char *err, size_t errlen)
{
	osl_charge_weight_t tmp[OSL_CHARGE_WEIGHTS_MAX];
	char copy[OSL_CHARGE_WEIGHTS_LEN], *item, *next;
	int k = 0;

	if (errlen)
		err[0] = '\0';
	if (!s || strlen(s) >= sizeof(copy))
		return osl_conf_err(err, errlen, "ChargeWeights: too long");
	snprintf(copy, sizeof(copy), "%s", s);
	for (item = copy; *copy && item; item = next) {
		if ((next = strchr(item, ',')))
			*next++ = '\0';
		if (k >= max || k >= OSL_CHARGE_WEIGHTS_MAX)
			return osl_conf_err(err, errlen, "ChargeWeights: more than %d "
				    "items", max);
		if (_charge_item(item, &tmp[k++], err, errlen))
			return -1;
	}
	memcpy(w, tmp, (size_t) k * sizeof(*w));
	*n = k;
	return 0;
}
