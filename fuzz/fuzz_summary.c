/*****************************************************************************\
 *  fuzz_summary.c - libFuzzer target: the SystemComment summary parser
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A text that parses must format again, and that line must parse to a
 *  summary that formats to the same line.  The input is also read as a
 *  raw summary (user name, numbers, vct and share as doubles): when it
 *  formats, the line must parse back to the same values (share to 2
 *  decimals, vct to the second, "never" past year 9999).
\*****************************************************************************/

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

static void _text(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1), a[OST_SUMMARY_MAX], b[OST_SUMMARY_MAX];
	ost_summary_t x, y;

	if (!str)
		return;
	memcpy(str, data, size);
	str[size] = '\0';
	{	/* a shared SystemComment: the line found lies inside it */
		size_t len = 0;
		const char *at = ost_summary_find(str, &len);

		CHECK(!at || (at >= str && at + len <= str + size &&
			      (at == str || at[-1] == '\n')));
	}
	if (!ost_summary_parse(str, &x)) {
		CHECK(ost_summary_format(a, sizeof(a), &x) > 0);
		CHECK(!ost_summary_parse(a, &y));
		CHECK(ost_summary_format(b, sizeof(b), &y) > 0);
		CHECK(!strcmp(a, b));
	}
	free(str);
}

static void _raw(const uint8_t *data, size_t size)
{
	ost_summary_t x, y;
	char buf[OST_SUMMARY_MAX];
	size_t ul;

	if (size < 8 * 4 + 5)
		return;
	memset(&x, 0, sizeof(x));
	memcpy(&x.vct, data, 8);
	memcpy(&x.share, data + 8, 8);
	memcpy(&x.rank, data + 16, 8);
	memcpy(&x.pending, data + 24, 8);
	memcpy(&x.campaign, data + 32, 4);
	x.mode = data[36] & 1 ? OST_MODE_FAIRCAMP : OST_MODE_OSTRICH;
	ul = size - 37 < OST_SUMMARY_USER_MAX ? size - 37
					      : OST_SUMMARY_USER_MAX - 1;
	memcpy(x.user, data + 37, ul);
	x.user[ul] = '\0';
	if (ost_summary_format(buf, sizeof(buf), &x) <= 0)
		return;
	CHECK(strlen(buf) < OST_SUMMARY_MAX);
	CHECK(!ost_summary_parse(buf, &y));
	CHECK(!strcmp(x.user, y.user) && x.campaign == y.campaign &&
	      x.rank == y.rank && x.pending == y.pending && x.mode == y.mode);
	CHECK(fabs(fmin(x.share, 1.0) - y.share) <= 0.005 + 1e-9);
	if (isnan(x.vct) || x.vct < -62167219200.5)
		CHECK(isnan(y.vct));
	else if (x.vct >= 253402300799.5)
		CHECK(y.vct == INFINITY);
	else
		CHECK(y.vct == (double) llround(x.vct));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_text(data, size);
	_raw(data, size);
	return 0;
}
