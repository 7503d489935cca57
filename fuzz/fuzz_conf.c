/*****************************************************************************\
 *  fuzz_conf.c - libFuzzer target: the ostrich.conf value parsers
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Each input line "Key=Value" goes to osl_conf_set_value(), or to
 *  osl_conf_parse_weight_list() for UserWeights / AccountWeights.  Whatever
 *  is accepted must be in range: every weight, and the configuration the
 *  core is then given must pass ost_config_check().
\*****************************************************************************/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static void _check(const osl_conf_t *c)
{
	ost_config_t core;
	const char *why = NULL;

	CHECK(c->interval >= OSL_CONF_INTERVAL_MIN &&
	      c->interval <= OSL_CONF_INTERVAL_MAX);
	CHECK(c->default_estimate >= 1);
	osl_conf_core(c, 1, &core);
	if (ost_config_check(&core, &why)) {
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
		    !strcasecmp(line, "AccountWeights"))
			(void) osl_conf_parse_weight_list(line, eq + 1, _pair,
						       NULL, err, sizeof(err));
		else
			(void) osl_conf_set_value(&c, line, eq + 1, err,
					       sizeof(err));
		CHECK(strlen(err) < sizeof(err));
		_check(&c);
	}
	free(text);
	return 0;
}
