/*****************************************************************************\
 *  osl_vec.h - growing arrays and the large-block allocator (osl_vec.c):
 *  the one way the adapter's files grow an array.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_VEC_H
#define _OSL_VEC_H

#include <stddef.h>

#include "ostrich.h"

/*
 * Room for need elements of size bytes in v, which holds *cap: the
 * capacity doubles (first at least), new room is zeroed.  Out of memory is
 * fatal, as with xmalloc.
 * RET the (possibly moved) array
 */
extern void *osl_grow(void *v, int *cap, int need, size_t size, int first);

/* qsort's comparison of two uint32_t. */
extern int osl_cmp_u32(const void *a, const void *b);

/* calloc(n ? n : 1, size); out of memory is fatal.  free() the result. */
extern void *osl_calloc(size_t n, size_t size);

/*
 * The large arrays: those that live for one pass or one submission
 * (observations and their index, events, the core's jobs, staged comments,
 * sort cells), and the priority table, which grows by one node per
 * submission.  From OSL_MAP_MIN bytes on, each is mapped on its own and
 * unmapped when freed or moved, so that it goes back to the system at
 * once.  From malloc it would stay in an arena between records that
 * outlive it (glibc raises its mmap threshold to the largest block freed,
 * up to 32 MiB), as memory that VmRSS counts (doc/design.md, "Memory").
 * osl_tgrow and osl_tcalloc are osl_grow and osl_calloc for them; free
 * with osl_tfree, giving the capacity (or n) they were given.
 */
#define OSL_MAP_MIN (128 * 1024)
extern void *osl_tgrow(void *v, int *cap, int need, size_t size, int first);
extern void *osl_tcalloc(size_t n, size_t size);
extern void osl_tfree(void *v, size_t cap, size_t size);

/*
 * The same policy for the core's state text and its sort arrays
 * (ost_sched_save_with: the text is about 110 bytes per job, 11 MB at
 * 10^5), block sizes exact, and a failure is NULL, not the end of the
 * process: the save is then refused and logged, the state kept.
 */
extern const ost_alloc_t osl_talloc;

#endif /* _OSL_VEC_H */
