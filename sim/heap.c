/*****************************************************************************\
 *  heap.c - binary min-heap of events ordered by (t, tie).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>

#include "heap.h"

static inline bool _less(const sim_event_t *a, const sim_event_t *b)
{
	return a->t < b->t || (a->t == b->t && a->tie < b->tie);
}

void sim_heap_init(sim_heap_t *h)
{
	h->ev = NULL;
	h->n = h->cap = 0;
}

void sim_heap_free(sim_heap_t *h)
{
	free(h->ev);
	sim_heap_init(h);
}

int sim_heap_push(sim_heap_t *h, sim_event_t e)
{
	size_t i;

	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 256;
		sim_event_t *ne = realloc(h->ev, nc * sizeof(*ne));
		if (!ne)
			return -1;
		h->ev = ne;
		h->cap = nc;
	}
	for (i = h->n++; i > 0; i = (i - 1) / 2) {
		size_t up = (i - 1) / 2;
		if (!_less(&e, &h->ev[up]))
			break;
		h->ev[i] = h->ev[up];
	}
	h->ev[i] = e;
	return 0;
}

bool sim_heap_pop(sim_heap_t *h, sim_event_t *out)
{
	sim_event_t last;
	size_t i = 0;

	if (!h->n)
		return false;
	*out = h->ev[0];
	last = h->ev[--h->n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && _less(&h->ev[c + 1], &h->ev[c]))
			c++;
		if (!_less(&h->ev[c], &last))
			break;
		h->ev[i] = h->ev[c];
		i = c;
	}
	if (h->n)
		h->ev[i] = last;
	return true;
}
