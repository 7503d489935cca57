/*****************************************************************************\
 *  ost_heap.h - indexed binary min-heap of intrusive nodes
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  As libuv's heap-inl.h: the node is embedded in the caller's element and
 *  the heap orders elements with the less-than function it is given; it
 *  never allocates or frees an element.  Each node remembers its slot, so
 *  any node can be re-keyed or removed in O(log n).  The slots are an
 *  array (not a pointer tree as in libuv): the heaps of the core are
 *  walked whole (ost_vclock_project(), rebases) and the array keeps a
 *  sift in fewer cache lines.
 *
 *  The core and the simulator order by (key, tie): ost_hkey_t below is
 *  that element, and ost_hkey_less its order.  The tie makes the order
 *  total, so pops are deterministic whatever the insertion history.
\*****************************************************************************/

#ifndef OST_HEAP_H
#define OST_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OST_HEAP_NONE SIZE_MAX

typedef struct ost_hnode {
	size_t idx;		/* slot, OST_HEAP_NONE when not in a heap */
} ost_hnode_t;

/* True when a must come out before b.  A strict total order on the
 * elements while they are in the heap; their keys change only through
 * ost_heap_update(). */
typedef bool (*ost_heap_less_f)(const ost_hnode_t *a, const ost_hnode_t *b);

typedef struct ost_heap {
	ost_hnode_t **v;	/* v[0] is the least */
	size_t n, cap;
	ost_heap_less_f less;
} ost_heap_t;

/* Empty heap ordered by less.  Cannot fail. */
void ost_heap_init(ost_heap_t *h, ost_heap_less_f less);

/* Free the slot array (not the nodes); the heap is empty afterwards. */
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

/* Insert n (not linked), its element keyed already.  Returns 0, or -1
 * (memory; heap unchanged, n not linked).  O(log n). */
int ost_heap_push(ost_heap_t *h, ost_hnode_t *n);

/* Restore the order after the key of linked n's element changed, in
 * either direction.  O(log n). */
void ost_heap_update(ost_heap_t *h, ost_hnode_t *n);

/* Unlink n (linked).  O(log n). */
void ost_heap_remove(ost_heap_t *h, ost_hnode_t *n);

/* Least node, or NULL.  O(1). */
static inline ost_hnode_t *ost_heap_top(const ost_heap_t *h)
{
	return h->n ? h->v[0] : NULL;
}

/* An element keyed by (key, tie), ordered by ost_hkey_less: key first,
 * then tie; the users keep the tie unique per heap. */
typedef struct ost_hkey {
	ost_hnode_t node;	/* first: OST_HKEY() is a cast */
	double key;
	uint64_t tie;
} ost_hkey_t;

#define OST_HKEY(n) ((ost_hkey_t *)(n))

/* (a.key, a.tie) < (b.key, b.tie), for ost_heap_init(). */
bool ost_hkey_less(const ost_hnode_t *a, const ost_hnode_t *b);

/* The (key, tie) instantiation of push, update and remove, for a heap
 * initialised with ost_hkey_less: the same results as ost_heap_*, the
 * order inlined (ost_heap.c). */

/* Key k (not linked) with (key, tie) and insert it.  As ost_heap_push. */
int ost_hkey_push(ost_heap_t *h, ost_hkey_t *k, double key, uint64_t tie);

/* Give linked k the key `key` (tie kept).  O(log n). */
void ost_hkey_update(ost_heap_t *h, ost_hkey_t *k, double key);

/* Unlink k (linked).  O(log n). */
void ost_hkey_remove(ost_heap_t *h, ost_hkey_t *k);

/* Least element of a heap of ost_hkey_t, or NULL.  O(1). */
static inline ost_hkey_t *ost_hkey_top(const ost_heap_t *h)
{
	return h->n ? OST_HKEY(h->v[0]) : NULL;
}

#endif /* OST_HEAP_H */
