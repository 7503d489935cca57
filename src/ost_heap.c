/*****************************************************************************\
 *  ost_heap.c - indexed binary min-heap of intrusive nodes
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  One sift, written once with the order as a parameter and instantiated
 *  twice: with the heap's less-than (ost_heap_*), and with the (key, tie)
 *  order inlined (ost_hkey_*), which the core's hot paths and the
 *  simulator's event loop use: there a call through a pointer per
 *  comparison cost several percent of a replay.
\*****************************************************************************/

#include <stdlib.h>

#include "ost_grow.h"
#include "ost_heap.h"

_Static_assert(offsetof(ost_hkey_t, node) == 0, "OST_HKEY() is a cast");

static inline void _place(ost_heap_t *h, size_t i, ost_hnode_t *n)
{
	h->v[i] = n;
	n->idx = i;
}

/* Move the node at i up to its place.  RET: true if it moved. */
static inline bool _sift_up(ost_heap_t *h, size_t i, ost_heap_less_f less)
{
	ost_hnode_t *n = h->v[i];
	size_t from = i;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!less(n, h->v[p]))
			break;
		_place(h, i, h->v[p]);
		i = p;
	}
	_place(h, i, n);
	return i != from;
}

static inline void _sift_down(ost_heap_t *h, size_t i, ost_heap_less_f less)
{
	ost_hnode_t *n = h->v[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && less(h->v[c + 1], h->v[c]))
			c++;
		if (!less(h->v[c], n))
			break;
		_place(h, i, h->v[c]);
		i = c;
	}
	_place(h, i, n);
}

static inline int _push(ost_heap_t *h, ost_hnode_t *n, ost_heap_less_f less)
{
	if (ost_heap_reserve(h, 1))
		return -1;
	_place(h, h->n++, n);
	_sift_up(h, n->idx, less);
	return 0;
}

static inline void _update(ost_heap_t *h, ost_hnode_t *n,
			   ost_heap_less_f less)
{
	if (!_sift_up(h, n->idx, less))
		_sift_down(h, n->idx, less);
}

static inline void _remove(ost_heap_t *h, ost_hnode_t *n,
			   ost_heap_less_f less)
{
	size_t i = n->idx;
	ost_hnode_t *last = h->v[--h->n];

	n->idx = OST_HEAP_NONE;
	if (last == n)
		return;
	_place(h, i, last);
	_update(h, last, less);
}

void ost_heap_init(ost_heap_t *h, ost_heap_less_f less)
{
	h->v = NULL;
	h->n = h->cap = 0;
	h->less = less;
}

void ost_heap_free(ost_heap_t *h)
{
	free(h->v);
	ost_heap_init(h, h->less);
}

int ost_heap_reserve(ost_heap_t *h, size_t n)
{
	ost_hnode_t **v;

	if (h->n + n <= h->cap)
		return 0;
	if (!(v = ost_grow(h->v, &h->cap, h->n + n, sizeof(*v), 16)))
		return -1;
	h->v = v;
	return 0;
}

int ost_heap_push(ost_heap_t *h, ost_hnode_t *n)
{
	return _push(h, n, h->less);
}

void ost_heap_update(ost_heap_t *h, ost_hnode_t *n)
{
	_update(h, n, h->less);
}

void ost_heap_remove(ost_heap_t *h, ost_hnode_t *n)
{
	_remove(h, n, h->less);
}

static inline bool _hkey_less(const ost_hnode_t *a, const ost_hnode_t *b)
{
	const ost_hkey_t *x = (const ost_hkey_t *)a;
	const ost_hkey_t *y = (const ost_hkey_t *)b;

	if (x->key != y->key)
		return x->key < y->key;
	return x->tie < y->tie;
}

bool ost_hkey_less(const ost_hnode_t *a, const ost_hnode_t *b)
{
	return _hkey_less(a, b);
}

int ost_hkey_push(ost_heap_t *h, ost_hkey_t *k, double key, uint64_t tie)
{
	k->key = key;
	k->tie = tie;
	return _push(h, &k->node, _hkey_less);
}

void ost_hkey_update(ost_heap_t *h, ost_hkey_t *k, double key)
{
	k->key = key;
	_update(h, &k->node, _hkey_less);
}

void ost_hkey_remove(ost_heap_t *h, ost_hkey_t *k)
{
	_remove(h, &k->node, _hkey_less);
}
