/*****************************************************************************\
 *  ost_state_field.c - the fields of a state line: "key=value" tokens,
 *  numbers as %a writes them, in the ranges of doc/state-format.md
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The bottom of the reader: every error is reported with its line
 *  number (ost_in_fail) and is -OST_ECORRUPT.
\*****************************************************************************/

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_internal.h"
#include "ost_state.h"

int ost_in_fail(ost_in_t *in, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (in->errlen) {
		n = snprintf(in->err, in->errlen, "line %u: ", in->lineno);
		if (n < 0 || (size_t)n >= in->errlen)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(in->err + n, in->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -OST_ECORRUPT;
}

/* Next token "key=value" of the line; *val points into the line. */
int ost_in_field(ost_in_t *in, const char *key, char **val)
{
	size_t kl = strlen(key);
	char *p = in->cur, *end;

	while (*p == ' ')
		p++;
	end = p + strcspn(p, " ");
	if ((size_t)(end - p) <= kl || strncmp(p, key, kl) || p[kl] != '=')
		return ost_in_fail(in, "expected %s=", key);
	if (*end)
		*end++ = '\0';
	*val = p + kl + 1;
	in->cur = end;
	return 0;
}

bool ost_in_range(double x, enum ost_in_range r)
{
	switch (r) {
	case R_TIME_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_TIME:
		return ost_time_ok(x);
	case R_DUR_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_DURATION:
		return ost_duration_ok(x);
	case R_VIRT_OPEN:
		if (x == INFINITY)
			return true;
		return isfinite(x) && x >= 0.0;
	case R_VIRT_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_VIRT:
		return isfinite(x) && x >= 0.0;
	case R_FIN_NONE:
		if (x == -INFINITY)
			return true;
		/* fall through */
	case R_FINITE:
		return isfinite(x);
	case R_WEIGHT:
		return ost_weight_ok(x);
	case R_FIN_NAN:
		return isnan(x) || x == -INFINITY || isfinite(x);
	case R_NAN:
		return isnan(x);
	}
	return false;
}

/* The value v of key: a number as %a writes it, the whole token, no blank
 * or '+' first, in range r. */
int ost_in_number(ost_in_t *in, const char *key, const char *v, double *out,
		  enum ost_in_range r)
{
	char *end;

	*out = strtod(v, &end);
	if (end == v || *end || *v == '+' || isspace((unsigned char)*v) ||
	    !ost_in_range(*out, r))
		return ost_in_fail(in, "bad or out-of-range number %s=%s", key,
				   v);
	return 0;
}

int ost_in_double(ost_in_t *in, const char *key, double *out,
		  enum ost_in_range r)
{
	char *v;
	int rc;

	if ((rc = ost_in_field(in, key, &v)))
		return rc;
	return ost_in_number(in, key, v, out, r);
}

/* A decimal integer: digits only, at most max. */
int ost_in_u64(ost_in_t *in, const char *key, uint64_t *out, uint64_t max)
{
	char *v, *end;
	unsigned long long x;
	int rc;

	if ((rc = ost_in_field(in, key, &v)))
		return rc;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (end == v || *end || !isdigit((unsigned char)*v) || errno ||
	    x > max)
		return ost_in_fail(in, "bad integer %s=%s", key, v);
	*out = x;
	return 0;
}

/* A decimal 32-bit signed integer: an optional '-', then digits. */
int ost_in_i32(ost_in_t *in, const char *key, int32_t *out)
{
	char *v, *end;
	long long x;
	int rc;

	if ((rc = ost_in_field(in, key, &v)))
		return rc;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (end == v || *end || !isdigit((unsigned char)v[*v == '-']) ||
	    errno || x < INT32_MIN || x > INT32_MAX)
		return ost_in_fail(in, "bad integer %s=%s", key, v);
	*out = (int32_t)x;
	return 0;
}

int ost_in_u32(ost_in_t *in, const char *key, uint32_t *out)
{
	uint64_t x;
	int rc = ost_in_u64(in, key, &x, UINT32_MAX);

	if (!rc)
		*out = (uint32_t)x;
	return rc;
}

int ost_in_name(ost_in_t *in, const char *key,
		int (*parse)(const char *, void *), void *out)
{
	char *v;
	int rc;

	if ((rc = ost_in_field(in, key, &v)))
		return rc;
	if (parse(v, out))
		return ost_in_fail(in, "bad value %s=%s", key, v);
	return 0;
}

int ost_in_end(ost_in_t *in)
{
	while (*in->cur == ' ')
		in->cur++;
	return *in->cur ? ost_in_fail(in, "trailing data '%s'", in->cur) : 0;
}
