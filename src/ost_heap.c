/*****************************************************************************\
 *  ost_heap.c - indexed binary min-heap of intrusive nodes
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>

#include "ost_grow.h"
#include "ost_heap.h"

static inline bool _less(const ost_hnode_t *a, const ost_hnode_t *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return a->tie < b->tie;
}

static inline void _place(ost_heap_t *h, size_t i, ost_hnode_t *n)
{
	h->v[i] = n;
	n->idx = i;
}

static void _sift_up(ost_heap_t *h, size_t i)
{
	ost_hnode_t *n = h->v[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!_less(n, h->v[p]))
			break;
		_place(h, i, h->v[p]);
		i = p;
	}
	_place(h, i, n);
}

static void _sift_down(ost_heap_t *h, size_t i)
{
	ost_hnode_t *n = h->v[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && _less(h->v[c + 1], h->v[c]))
			c++;
		if (!_less(h->v[c], n))
			break;
		_place(h, i, h->v[c]);
		i = c;
	}
	_place(h, i, n);
}

void ost_heap_init(ost_heap_t *h)
{
	h->v = NULL;
	h->n = h->cap = 0;
}

void ost_heap_free(ost_heap_t *h)
{
	free(h->v);
	ost_heap_init(h);
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

int ost_heap_push(ost_heap_t *h, ost_hnode_t *n, double key, uint64_t tie)
{
	if (ost_heap_reserve(h, 1))
		return -1;
	n->key = key;
	n->tie = tie;
	_place(h, h->n++, n);
	_sift_up(h, n->idx);
	return 0;
}

void ost_heap_update(ost_heap_t *h, ost_hnode_t *n, double key)
{
	double old = n->key;

	n->key = key;
	if (key < old)
		_sift_up(h, n->idx);
	else
		_sift_down(h, n->idx);
}

void ost_heap_remove(ost_heap_t *h, ost_hnode_t *n)
{
	size_t i = n->idx;
	ost_hnode_t *last = h->v[--h->n];

	n->idx = OST_HEAP_NONE;
	if (last == n)
		return;
	_place(h, i, last);
	_sift_up(h, i);
	_sift_down(h, last->idx);
}
