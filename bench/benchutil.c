/*****************************************************************************\
 *  benchutil.c - clocks, medians and memory probes for the benchmarks
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), _cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

size_t bench_status_bytes(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	size_t len = strlen(field), kb = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtoull(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb * 1024;
}

size_t bench_heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

int bench_reset_hwm(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	int rc;

	if (!f)
		return -1;
	rc = fputs("5", f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}
