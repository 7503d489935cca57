/*****************************************************************************\
 *  ost_grow.c - grow an array by doubling
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdint.h>
#include <stdlib.h>

#include "ost_grow.h"

size_t ost_grow_cap(size_t cap, size_t need, size_t first)
{
	size_t n = cap ? cap : first;

	if (need <= cap)
		return cap;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return 0;
		n *= 2;
	}
	return n;
}

void *ost_grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = ost_grow_cap(*cap, need, first);
	if (!n || n > SIZE_MAX / size || !(p = realloc(p, n * size)))
		return NULL;
	*cap = n;
	return p;
}
