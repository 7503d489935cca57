/*****************************************************************************\
 *  slurmconf.c - the few slurm.conf keys of --check-config (slurmconf.h).
 *  Only these keys are looked at: a slurm.conf is Slurm's to judge.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strndup, strcasecmp */

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slurmconf.h"

/* The field of c for key k (any case), or NULL for a key not ours. */
static char **_field(sc_slurmconf_t *c, const char *k, size_t n)
{
	static const struct { const char *name; size_t off; } keys[] = {
		{ "SchedulerType", offsetof(sc_slurmconf_t, sched_type) },
		{ "PriorityType", offsetof(sc_slurmconf_t, priority_type) },
		{ "PrioritySiteFactorPlugin",
		  offsetof(sc_slurmconf_t, site_factor) },
		{ "PrioritySiteFactorParameters",
		  offsetof(sc_slurmconf_t, site_params) },
		{ "AccountingStorageType",
		  offsetof(sc_slurmconf_t, acct_type) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == n &&
		    !strncasecmp(keys[i].name, k, n))
			return (char **) ((char *) c + keys[i].off);
	return NULL;
}

/* The pairs of one logical line s[0..n).  RET 0 or -1 (why). */
static int _line(sc_slurmconf_t *c, const char *s, const char *end,
		 int line, char *err, size_t errlen)
{
	while (s < end) {
		const char *k, *v;
		size_t kn, vn;
		char **f;

		while (s < end && isspace((unsigned char) *s))
			s++;
		k = s;
		while (s < end && !isspace((unsigned char) *s) && *s != '=')
			s++;
		kn = (size_t) (s - k);
		if (s >= end || *s != '=') {	/* Include FILE, or junk */
			while (s < end && !isspace((unsigned char) *s))
				s++;
			continue;
		}
		s++;
		if (s < end && *s == '"') {
			v = ++s;
			while (s < end && *s != '"')
				s++;
			if (s >= end) {
				snprintf(err, errlen, "line %d: unterminated quote",
					 line);
				return -1;
			}
			vn = (size_t) (s++ - v);
		} else {
			v = s;
			while (s < end && !isspace((unsigned char) *s))
				s++;
			vn = (size_t) (s - v);
		}
		if (!(f = _field(c, k, kn)))
			continue;
		free(*f);
		if (!(*f = strndup(v, vn))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

int sc_slurmconf_parse(const char *text, size_t len, sc_slurmconf_t *out,
		       char *err, size_t errlen)
{
	char *buf;
	size_t n = 0;
	int line = 1, first = 1;

	memset(out, 0, sizeof(*out));
	if (!(buf = malloc(len + 1))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i <= len; i++) {
		char ch = i < len ? text[i] : '\n';

		if (ch == '\0') {
			snprintf(err, errlen, "line %d: a NUL byte", line);
			goto fail;
		}
		if (ch == '\\' && i + 1 < len && text[i + 1] == '\n') {
			i++;
			line++;
			continue;
		}
		if (ch == '#') {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
			continue;
		}
		if (ch != '\n') {
			buf[n++] = ch;
			continue;
		}
		if (_line(out, buf, buf + n, first, err, errlen))
			goto fail;
		n = 0;
		first = ++line;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	sc_slurmconf_free(out);
	return -1;
}

void sc_slurmconf_free(sc_slurmconf_t *c)
{
	free(c->sched_type);
	free(c->priority_type);
	free(c->site_factor);
	free(c->site_params);
	free(c->acct_type);
	memset(c, 0, sizeof(*c));
}
