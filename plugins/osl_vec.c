/*****************************************************************************\
 *  osl_vec.c - the one growth helper of the adapter's arrays.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm-free (tests/plugin links it): plain malloc, and out of memory ends
 *  the process as xmalloc does in slurmctld.
\*****************************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_private.h"

static void _out_of_memory(size_t bytes)
{
	fprintf(stderr, "ostrich: out of memory (%zu bytes)\n", bytes);
	abort();
}

/* Doubling keeps n appends at O(n) copies in all. */
extern void *osl_grow(void *v, int *cap, int need, size_t size, int first)
{
	int ncap;

	if (need <= *cap)
		return v;
	ncap = *cap ? 2 * *cap : first;
	if (ncap < need)
		ncap = need;
	if (!(v = realloc(v, (size_t) ncap * size)))
		_out_of_memory((size_t) ncap * size);
	memset((char *) v + (size_t) *cap * size, 0,
	       (size_t) (ncap - *cap) * size);
	*cap = ncap;
	return v;
}

extern void *osl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		_out_of_memory(n * size);
	return p;
}
