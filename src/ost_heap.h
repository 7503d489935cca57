/*****************************************************************************\
 *  ost_heap.h - indexed binary min-heap of intrusive nodes
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Keyed by (key, tie): tie makes the order total, so pops are
 *  deterministic whatever the insertion history.  Each node remembers its
 *  slot, so any node can be re-keyed or removed in O(log n).
\*****************************************************************************/

#ifndef OST_HEAP_H
#define OST_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OST_HEAP_NONE SIZE_MAX

typedef struct ost_hnode {
	double key;
	uint64_t tie;
	size_t idx;		/* slot, OST_HEAP_NONE when not in a heap */
} ost_hnode_t;

typedef struct ost_heap {
	ost_hnode_t **v;
	size_t n, cap;
} ost_heap_t;

/* Empty heap.  Cannot fail. */
void ost_heap_init(ost_heap_t *h);

/* Free the slot array (not the nodes). */
void ost_heap_free(ost_heap_t *h);

/* A node that is in no heap. */
static inline void ost_hnode_init(ost_hnode_t *n)
{
	n->idx = OST_HEAP_NONE;
}

static inline bool ost_hnode_linked(const ost_hnode_t *n)
{
	return n->idx != OST_HEAP_NONE;
}

/* Make room for n more nodes.  Returns 0 or -1 (memory; heap unchanged).
 * After a successful reserve, that many pushes cannot fail. */
int ost_heap_reserve(ost_heap_t *h, size_t n);

/* Insert n (not linked) with (key, tie).  Returns 0 or -1 (memory). */
int ost_heap_push(ost_heap_t *h, ost_hnode_t *n, double key, uint64_t tie);

/* Change the key of linked node n.  O(log n). */
void ost_heap_update(ost_heap_t *h, ost_hnode_t *n, double key);

/* Unlink n (linked).  O(log n). */
void ost_heap_remove(ost_heap_t *h, ost_hnode_t *n);

/* Smallest node, or NULL. */
static inline ost_hnode_t *ost_heap_top(const ost_heap_t *h)
{
	return h->n ? h->v[0] : NULL;
}

#endif /* OST_HEAP_H */
