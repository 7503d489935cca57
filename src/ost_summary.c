/*****************************************************************************\
 *  ost_summary.c - the one-line job summary kept in SystemComment
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Written by the plugin every pass, read back by scampaign and by people:
 *  short (< 200 bytes), stable, "key=value" tokens.  Times are UTC ISO 8601
 *  to the second; formatting one is not reading a clock.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ost_internal.h"

#define OST_SUMMARY_TAG "ostrich"

static bool _user_ok(const char *u)
{
	size_t n = strnlen(u, OST_SUMMARY_USER_MAX);

	return n > 0 && n < OST_SUMMARY_USER_MAX && !strpbrk(u, " /=\t\n");
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil; C11 has no timegm()). */
static long long _days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

/* Proleptic Gregorian date of a day count since 1970-01-01 (the inverse,
 * civil_from_days). */
static void _civil_from_days(long long z, long long *y, unsigned *m,
			     unsigned *d)
{
	long long era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (long long)yoe + era * 400 + (*m <= 2);
}

/* The instants ISO 8601 with a 4-digit year can write, in seconds since
 * the epoch: 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
#define OST_VCT_MIN (-62167219200.0)
#define OST_VCT_MAX 253402300799.0

/* vct as the summary writes it: "none" (NaN, or before year 0, which no
 * real clock gives), "never" (infinite: the virtual schedule is stalled,
 * or after year 9999: the partition is nearly idle compared to the
 * work), else "YYYY-MM-DDTHH:MM:SSZ" rounded to the second. */
static void _format_time(double vct, char out[32])
{
	long long t, days, sec, y;
	unsigned mo, d;

	if (isnan(vct) || vct < OST_VCT_MIN - 0.5) {
		strcpy(out, "none");
		return;
	}
	if (vct >= OST_VCT_MAX + 0.5) {
		strcpy(out, "never");
		return;
	}
	t = llround(vct);
	days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
	sec = t - days * 86400;
	_civil_from_days(days, &y, &mo, &d);
	snprintf(out, 32, "%04d-%02u-%02uT%02d:%02d:%02dZ", (int)y, mo % 100,
		 d % 100, (int)(sec / 3600) % 100, (int)(sec / 60 % 60),
		 (int)(sec % 60));
}

int ost_summary_format(char *buf, size_t size, const ost_summary_t *sum)
{
	char vct[32];
	double share = sum->share > 1.0 ? 1.0 : sum->share;
	int n;

	if (size)
		buf[0] = '\0';
	if (!_user_ok(sum->user) || !(share >= 0.0))
		return -OST_EINVAL;
	_format_time(sum->vct, vct);
	n = snprintf(buf, size, OST_SUMMARY_TAG " campaign=%s/%u rank=%llu/%llu"
		     " vct=%s share=%.2f mode=%s", sum->user, sum->campaign,
		     (unsigned long long)sum->rank,
		     (unsigned long long)sum->pending, vct, share,
		     ost_mode_name(sum->mode));
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -OST_EINVAL;
	}
	if (sum->vstart != 0.0 && !isnan(sum->vstart)) {	/* §24 */
		size_t lim = size < OST_SUMMARY_MAX ? size : OST_SUMMARY_MAX;
		char vs[32];

		_format_time(sum->vstart, vs);
		if ((size_t)n + sizeof(" vstart=") - 1 + strlen(vs) < lim)
			n += snprintf(buf + n, lim - (size_t)n, " vstart=%s",
				      vs);
	}
	return n;
}

/* Digits v[0..n) as a number; -1 unless they are all digits. */
static int _digits(const char *v, int n)
{
	int x = 0;

	for (int i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = 10 * x + (v[i] - '0');
	}
	return x;
}

/* "YYYY-MM-DDTHH:MM:SSZ" (UTC), "none" or "never" to seconds since the
 * epoch (NaN, +inf). */
static int _parse_time(const char *v, double *out)
{
	int y, mo, d, h, mi, s;

	if (!strcmp(v, "none")) {
		*out = NAN;
		return 0;
	}
	if (!strcmp(v, "never")) {
		*out = INFINITY;
		return 0;
	}
	if (strlen(v) != 20 || v[4] != '-' || v[7] != '-' || v[10] != 'T' ||
	    v[13] != ':' || v[16] != ':' || v[19] != 'Z')
		return -1;
	y = _digits(v, 4);
	mo = _digits(v + 5, 2);
	d = _digits(v + 8, 2);
	h = _digits(v + 11, 2);
	mi = _digits(v + 14, 2);
	s = _digits(v + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
		return -1;
	*out = (double)(_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
			h * 3600 + mi * 60 + s);
	return 0;
}

static int _parse_u64(const char *v, const char *end, uint64_t *out)
{
	char *e;
	unsigned long long x;

	if (v == end || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	x = strtoull(v, &e, 10);
	if (errno || e != end)
		return -1;
	*out = x;
	return 0;
}

/* One "key=value" token into *out; unknown keys are skipped. */
static int _parse_token(const char *k, size_t kl, const char *v,
			const char *ve, ost_summary_t *out)
{
	char val[OST_SUMMARY_MAX];
	const char *slash;
	uint64_t a, b;

	if ((size_t)(ve - v) >= sizeof(val))
		return -1;
	memcpy(val, v, (size_t)(ve - v));
	val[ve - v] = '\0';
	slash = strchr(val, '/');
#define KEY(s) (kl == sizeof(s) - 1 && !strncmp(k, s, kl))
	if (KEY("campaign")) {
		if (!slash || slash == val ||
		    (size_t)(slash - val) >= OST_SUMMARY_USER_MAX ||
		    _parse_u64(slash + 1, val + strlen(val), &a) ||
		    a > UINT32_MAX)
			return -1;
		memcpy(out->user, val, (size_t)(slash - val));
		out->user[slash - val] = '\0';
		if (!_user_ok(out->user))
			return -1;
		out->campaign = (uint32_t)a;
	} else if (KEY("rank")) {
		if (!slash || _parse_u64(val, slash, &a) ||
		    _parse_u64(slash + 1, val + strlen(val), &b))
			return -1;
		out->rank = a;
		out->pending = b;
	} else if (KEY("vct")) {
		return _parse_time(val, &out->vct);
	} else if (KEY("share")) {
		char *e;

		out->share = strtod(val, &e);
		if (e == val || *e || !(out->share >= 0.0 && out->share <= 1.0))
			return -1;
	} else if (KEY("mode")) {
		return ost_mode_parse(val, &out->mode) ? -1 : 0;
	} else if (KEY("vstart")) {
		if (_parse_time(val, &out->vstart) || isnan(out->vstart))
			return -1;
	}
#undef KEY
	return 0;
}

int ost_summary_parse(const char *str, ost_summary_t *out)
{
	ost_summary_t s = { .vct = NAN };
	const char *p;
	unsigned seen = 0;

	if (!str || strncmp(str, OST_SUMMARY_TAG " ", sizeof(OST_SUMMARY_TAG)))
		return -OST_EINVAL;
	for (p = str + sizeof(OST_SUMMARY_TAG); *p;) {
		const char *end = p + strcspn(p, " "), *eq = memchr(p, '=',
								     (size_t)(end - p));

		if (!eq || eq == p)
			return -OST_EINVAL;
		if (_parse_token(p, (size_t)(eq - p), eq + 1, end, &s))
			return -OST_EINVAL;
		if (!strncmp(p, "campaign=", 9))
			seen |= 1;
		else if (!strncmp(p, "rank=", 5))
			seen |= 2;
		p = *end ? end + 1 : end;
	}
	if (seen != 3)
		return -OST_EINVAL;
	*out = s;
	return 0;
}
