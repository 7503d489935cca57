/*****************************************************************************\
 *  fuzz_conf.c - libFuzzer target: the ostrich.conf value parsers
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Each input line "Key=Value" goes to osl_conf_set_value(), or to
 *  osl_conf_parse_weight_list() for UserWeights / AccountWeights, or to
 *  osl_conf_parse_name_list() for AccountParents / UserAccounts (and the
 *  parents' tree to osl_conf_check_parents()).  Whatever is accepted must
 *  be in range: every weight and name, and the configuration the core is
 *  then given must pass ost_config_check().
\*****************************************************************************/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ostrich.h"
#include "osl_conf.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

static int _pair(const char *name, double w, void *arg, char *err,
		 size_t errlen)
{
	(void) arg;
	(void) err;
	(void) errlen;
	CHECK(*name && !strpbrk(name, ",:"));
	CHECK(ost_weight_ok(w));
	return 0;
}

/* The items of one name list, for osl_conf_check_parents. */
#define NAMES_MAX 16
typedef struct {
	char a[NAMES_MAX][64], b[NAMES_MAX][64];
	osl_acct_parent_t v[NAMES_MAX];
	int n;
} names_t;

static int _names(const char *a, const char *b, void *arg, char *err,
		  size_t errlen)
{
	names_t *p = arg;
	const char *s;

	for (s = a; *s; s++)
		CHECK(*s > ' ' && *s != 0x7f && *s != ':' && *s != ',');
	for (s = b; *s; s++)
		CHECK(*s > ' ' && *s != 0x7f && *s != ':' && *s != ',');
	CHECK(*a && *b);
	if (p->n == NAMES_MAX || strlen(a) >= 64 || strlen(b) >= 64) {
		snprintf(err, errlen, "too many or too long");
		return -1;
	}
	snprintf(p->a[p->n], sizeof(p->a[0]), "%s", a);
	snprintf(p->b[p->n], sizeof(p->b[0]), "%s", b);
	p->v[p->n].account = p->a[p->n];
	p->v[p->n].parent = p->b[p->n];
	p->n++;
	return 0;
}

static void _check(const osl_conf_t *c)
{
	ost_config_t core;
	const char *why = NULL;

	CHECK(c->interval >= OSL_CONF_INTERVAL_MIN &&
	      c->interval <= OSL_CONF_INTERVAL_MAX);
	CHECK(c->default_estimate >= 1);
	osl_conf_core(c, 1, &core);
	/* each value accepted alone is one the core accepts; what it may
	 * refuse is a combination of them (§24, §27: a lead or Overdue with
	 * Hierarchy=accounts), which the plugins refuse whole, naming it */
	if (ost_config_check(&core, &why) &&
	    !(core.hierarchy != OST_HIER_USERS &&
	      (core.lead != OST_LEAD_KEEP ||
	       core.overdue != OST_OVERDUE_RANK))) {
		fprintf(stderr, "accepted values refused by the core: %s\n",
			why);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *next, err[128];
	osl_conf_t c;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	osl_conf_defaults(&c);	/* as an empty ostrich.conf */
	for (line = text; line; line = next) {
		char *eq;

		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (!(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		/* a small error buffer: messages must truncate, not overflow */
		if (!strcasecmp(line, "UserWeights") ||
		    !strcasecmp(line, "AccountWeights")) {
			(void) osl_conf_parse_weight_list(line, eq + 1, _pair,
						       NULL, err, sizeof(err));
		} else if (!strcasecmp(line, "AccountParents") ||
			   !strcasecmp(line, "UserAccounts")) {
			names_t *nm = calloc(1, sizeof(*nm));

			if (!nm)
				break;
			if (!osl_conf_parse_name_list(line, eq + 1, _names, nm,
						      err, sizeof(err)))
				(void) osl_conf_check_parents(nm->v, nm->n, err,
							      sizeof(err));
			free(nm);
		} else
			(void) osl_conf_set_value(&c, line, eq + 1, err,
					       sizeof(err));
		CHECK(strlen(err) < sizeof(err));
		_check(&c);
	}
	free(text);
	return 0;
}
