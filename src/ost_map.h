/*****************************************************************************\
 *  ost_map.h - hash map from non-zero 64-bit keys to pointers
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Open addressing with linear probing and backward-shift deletion (no
 *  tombstones), load factor <= 1/2.  Values are borrowed.
\*****************************************************************************/

#ifndef OST_MAP_H
#define OST_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ost_map_slot {
	uint64_t key;		/* 0 = empty */
	void *val;
} ost_map_slot_t;

typedef struct ost_map {
	ost_map_slot_t *slots;
	size_t mask;		/* capacity - 1 (capacity a power of two) */
	size_t count;
} ost_map_t;

/* Empty map.  Cannot fail. */
void ost_map_init(ost_map_t *m);

/* Free the slots (not the values). */
void ost_map_free(ost_map_t *m);

/* Value of key, or NULL.  O(1) expected. */
void *ost_map_get(const ost_map_t *m, uint64_t key);

/* Make sure one more insertion cannot fail.  Returns 0 or -1 (memory). */
int ost_map_reserve(ost_map_t *m);

/* Set key (non-zero) to val, replacing any value.  Returns 0, or -1
 * (memory; map unchanged). */
int ost_map_put(ost_map_t *m, uint64_t key, void *val);

/* Remove key if present.  Cannot fail. */
void ost_map_del(ost_map_t *m, uint64_t key);

/* Iterate: i from 0 while i <= mask; slot i holds an entry iff key != 0. */

#endif /* OST_MAP_H */
