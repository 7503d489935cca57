/*****************************************************************************\
 *  osl_aside.c - where an unusable state file goes before the partition is
 *  rebuilt: a newer format is kept for the version that wrote it, a corrupt
 *  file is kept as evidence, and neither is ever overwritten by the next
 *  save.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_state_files.c): the caller renames.
\*****************************************************************************/

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_aside.h"
#include "osl_vec.h"

#define OSL_STATE_MAGIC "ostrich-state "

extern long osl_state_version(const char *buf, size_t len)
{
	return osl_magic_version(buf, len, OSL_STATE_MAGIC);
}

extern long osl_magic_version(const char *buf, size_t len, const char *magic)
{
	size_t m = strlen(magic), i;
	long v = 0;

	if (len <= m || memcmp(buf, magic, m))
		return -1;
	for (i = m; i < len && buf[i] != '\n'; i++) {
		if (buf[i] < '0' || buf[i] > '9' || i - m >= 9)
			return -1;
		v = v * 10 + (buf[i] - '0');
	}
	if (i == m || i == len)
		return -1;		/* no digits, or no end of line */
	return v;
}

extern char *osl_aside_path(const char *path, const char *buf, size_t len,
			    long when, bool (*exists)(const char *path))
{
	long v = osl_state_version(buf, len);
	size_t size = strlen(path) + 64;
	char *out = osl_calloc(size, 1);
	int k;

	if (v > OSL_STATE_FORMAT) {
		/* one file per newer version: the newest such file is what
		 * an upgrade back would want, so it replaces an older copy */
		snprintf(out, size, "%s.v%ld", path, v);
		return out;
	}
	/* evidence: a new name for every corrupt file */
	snprintf(out, size, "%s.bad.%ld", path, when);
	for (k = 1; exists(out) && k < INT_MAX; k++)
		snprintf(out, size, "%s.bad.%ld.%d", path, when, k);
	return out;
}

/* TIME and K of a name path.bad.TIME[.K] (K = 0 when absent). */
static void _bad_key(const char *name, long *t, long *k)
{
	const char *p = name, *q, *dot;

	while ((q = strstr(p, ".bad.")))
		p = q + 5;
	*t = atol(p);
	dot = strchr(p, '.');
	*k = dot ? atol(dot + 1) : 0;
}

static int _bad_cmp(const void *a, const void *b)
{
	long ta, ka, tb, kb;

	_bad_key(*(char *const *) a, &ta, &ka);
	_bad_key(*(char *const *) b, &tb, &kb);
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return (ka > kb) - (ka < kb);
}

extern int osl_aside_prune(char **names, int n, int keep)
{
	if (n > 0)
		qsort(names, n, sizeof(*names), _bad_cmp);
	return n > keep ? n - keep : 0;
}
