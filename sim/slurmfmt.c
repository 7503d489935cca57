/*****************************************************************************\
 *  slurmfmt.c - the text forms Slurm's commands print (§17).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Parsers of untrusted text (fuzzed through fuzz_sacct): every number is
 *  bounded before it is used, so no input overflows.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "slurmfmt.h"

/* A run of at most 9 digits at *p, advanced past it.  RET: the value,
 * or -1 when there is no digit or too many. */
static long _digits(const char **p)
{
	long v = 0;
	int n = 0;

	while (isdigit((unsigned char) **p)) {
		if (++n > 9)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	return n ? v : -1;
}

int sim_slurm_duration(const char *s, double *out)
{
	long part[3], days = 0;
	int n = 0;
	const char *p = s;
	bool has_days = strchr(s, '-') != NULL;

	if (has_days && ((days = _digits(&p)) < 0 || *p++ != '-'))
		return -1;
	for (;;) {
		if (n == 3 || (part[n++] = _digits(&p)) < 0)
			return -1;
		if (!*p)
			break;
		if (*p++ != ':')
			return -1;
	}
	if (has_days)                     /* D-HH, D-HH:MM, D-HH:MM:SS */
		*out = days * 86400.0 + part[0] * 3600.0 +
		       (n > 1 ? part[1] * 60.0 : 0) + (n > 2 ? part[2] : 0);
	else if (n == 3)                  /* HH:MM:SS */
		*out = part[0] * 3600.0 + part[1] * 60.0 + part[2];
	else if (n == 2)                  /* MM:SS */
		*out = part[0] * 60.0 + part[1];
	else                              /* MM */
		*out = part[0] * 60.0;
	return 0;
}

int sim_slurm_date(const char *s, double *out)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	struct tm tm;
	time_t t;
	int v[6], k = 0;

	if (strlen(s) != sizeof(shape) - 1)
		return -1;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char) s[i])
				    : s[i] != shape[i])
			return -1;
	for (const char *p = s; k < 6; k++) {
		v[k] = (int) _digits(&p);
		p++;
	}
	if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 ||
	    v[4] > 59 || v[5] > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t) -1 && !(v[0] == 1969 || v[0] == 1970))
		return -1;
	*out = (double) t;
	return 0;
}

int sim_tres_get(const char *tres, size_t len, const char *key, double *out)
{
	size_t klen = strlen(key);
	const char *p = tres, *end = tres + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t) (end - p));
		const char *stop = comma ? comma : end;

		if ((size_t) (stop - p) > klen && !strncmp(p, key, klen) &&
		    p[klen] == '=') {
			const char *v = p + klen + 1;
			long long x = 0;
			int n = 0;

			while (v < stop && isdigit((unsigned char) *v) &&
			       n++ < 15)
				x = x * 10 + (*v++ - '0');
			if (!n || n > 15)
				return -1;
			*out = (double) x;
			if (v < stop) {
				const char *u = strchr("KMGTP", *v);

				if (!*v || !u || v + 1 != stop)
					return -1;
				*out = ldexp(*out, 10 * (int) (u - "KMGTP" + 1));
			}
			return 0;
		}
		p = stop + 1;
	}
	return -1;
}
