/*****************************************************************************\
 *  ost_grow.h - grow an array by doubling
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The one place that grows an array geometrically (the core's heap and
 *  saved-state keys, the simulator's job, campaign, queue and running
 *  arrays and its line buffer, the plugins' arrays through osl_grow and
 *  their mapped ones through osl_tgrow), so that the doubling, its first
 *  size and its overflow check are written once.
\*****************************************************************************/

#ifndef OST_GROW_H
#define OST_GROW_H

#include <stddef.h>

/* The capacity ost_grow() gives an array of cap elements that must hold
 * need: cap (first when cap is 0) doubled until it holds need; cap when it
 * already does.  first >= 1.  RET: that capacity, or 0 when it overflows
 * size_t.  For allocators other than realloc (plugins/lib/osl_vec.c's
 * mappings), so that they grow as everything else does. */
size_t ost_grow_cap(size_t cap, size_t need, size_t first);

/* Make the array p of *cap elements of size bytes hold at least need
 * elements.  When need > *cap the capacity doubles from *cap (from first
 * when *cap is 0) until it holds need, and p is realloc'ed; the new
 * elements are not initialised.  need, size and first are >= 1.
 * RET: the array, moved or not, with *cap updated; or NULL when memory
 * is short or the byte size overflows, with p still valid and *cap
 * unchanged.  Amortised O(1) per element when need grows by one. */
void *ost_grow(void *p, size_t *cap, size_t need, size_t size, size_t first);

#endif /* OST_GROW_H */
