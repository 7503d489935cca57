/*****************************************************************************\
 *  osl_vec.c - the allocation policies of the adapter's arrays: malloc for
 *  those that last, a mapping of their own for a pass's large ones.  How
 *  much an array grows is src/ost_grow.h's, as everywhere else; what is
 *  here is only what the adapter adds: int counts, zeroed room, and out
 *  of memory as the end of the process.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm-free (tests/plugin links it): plain malloc, and out of memory ends
 *  the process as xmalloc does in slurmctld.
\*****************************************************************************/

#define _GNU_SOURCE			/* MAP_ANONYMOUS, mremap */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ost_grow.h"
#include "ostrich.h"
#include "osl_vec.h"

static void _out_of_memory(size_t bytes)
{
	fprintf(stderr, "ostrich: out of memory (%zu bytes)\n", bytes);
	abort();
}

/* ost_grow_cap() for an int capacity: the only growth policy; above
 * INT_MAX elements is out of memory, as it would be for an int count. */
static int _next_cap(int cap, int need, int first, size_t size)
{
	size_t n = ost_grow_cap((size_t) cap, (size_t) need, (size_t) first);

	if (!n || n > INT_MAX || n > SIZE_MAX / size)
		_out_of_memory(SIZE_MAX);
	return (int) n;
}

extern void *osl_grow(void *v, int *cap, int need, size_t size, int first)
{
	size_t c = (size_t) *cap;
	void *nv;

	if (need <= *cap)
		return v;
	(void) _next_cap(*cap, need, first, size);	/* or the end: > int */
	if (!(nv = ost_grow(v, &c, (size_t) need, size, (size_t) first)))
		_out_of_memory((size_t) need * size);
	memset((char *) nv + (size_t) *cap * size, 0,
	       (c - (size_t) *cap) * size);
	*cap = (int) c;
	return nv;
}

extern void *osl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		_out_of_memory(n * size);
	return p;
}

static bool _mapped(size_t bytes)
{
	return bytes >= OSL_MAP_MIN;
}

static void *_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_out_of_memory(bytes);
	return p;			/* zeroed */
}

/* osl_grow for the arrays of a pass, not a duplicate of it: the same
 * growth, but from OSL_MAP_MIN bytes on the array is a mapping of its own,
 * which grows in place or moves by its page tables (mremap): no copy, and
 * the pages already touched stay in. */
extern void *osl_tgrow(void *v, int *cap, int need, size_t size, int first)
{
	size_t old = (size_t) *cap * size, bytes;
	void *nv;
	int ncap;

	if (need <= *cap)
		return v;
	ncap = _next_cap(*cap, need, first, size);
	bytes = (size_t) ncap * size;
	if (!_mapped(bytes))
		return osl_grow(v, cap, need, size, first);
	if (v && _mapped(old)) {
		nv = mremap(v, old, bytes, MREMAP_MAYMOVE);
		if (nv == MAP_FAILED)
			_out_of_memory(bytes);
	} else {
		nv = _map(bytes);
		if (v)
			memcpy(nv, v, old);
		osl_tfree(v, (size_t) *cap, size);
	}
	*cap = ncap;
	return nv;
}

extern void *osl_tcalloc(size_t n, size_t size)
{
	if (!n)
		n = 1;
	if (!_mapped(n * size))
		return osl_calloc(n, size);
	return _map(n * size);
}

extern void osl_tfree(void *v, size_t cap, size_t size)
{
	if (!v)
		return;
	if (_mapped((cap ? cap : 1) * size))
		(void) munmap(v, (cap ? cap : 1) * size);
	else
		free(v);
}

/* v (old bytes, NULL: none) as a block of bytes, each side of OSL_MAP_MIN
 * where osl_tfree expects it.  NULL and v untouched when out of memory. */
static void *_tresize(void *v, size_t old, size_t bytes, void *arg)
{
	void *nv;

	(void) arg;
	if (v && _mapped(old) && _mapped(bytes)) {
		nv = mremap(v, old, bytes, MREMAP_MAYMOVE);
		return nv == MAP_FAILED ? NULL : nv;
	}
	if (!_mapped(bytes) && !_mapped(old))
		return realloc(v, bytes ? bytes : 1);
	if (_mapped(bytes)) {
		nv = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (nv == MAP_FAILED)
			return NULL;
	} else if (!(nv = malloc(bytes ? bytes : 1))) {
		return NULL;
	}
	if (v)
		memcpy(nv, v, old < bytes ? old : bytes);
	osl_tfree(v, old, 1);
	return nv;
}

static void _trelease(void *v, size_t bytes, void *arg)
{
	(void) arg;
	osl_tfree(v, bytes, 1);
}

const ost_alloc_t osl_talloc = { _tresize, _trelease, NULL };

extern int osl_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}
