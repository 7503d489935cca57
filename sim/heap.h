/*****************************************************************************\
 *  heap.h - binary min-heap of (time, tie, index) events.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_HEAP_H
#define OST_SIM_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sim_event {
	double t;        /* event time, s */
	uint64_t tie;    /* equal times pop in increasing tie */
	uint32_t idx;    /* payload (a job or campaign index) */
} sim_event_t;

typedef struct sim_heap {
	sim_event_t *ev;
	size_t n, cap;
} sim_heap_t;

/* Empty heap; cannot fail. */
void sim_heap_init(sim_heap_t *h);

/* Release the storage; the heap is empty afterwards. */
void sim_heap_free(sim_heap_t *h);

/* Add e.  RET: 0, or -1 when memory is short (heap unchanged).
 * O(log n). */
int sim_heap_push(sim_heap_t *h, sim_event_t e);

/* Remove the smallest (t, tie) into *out.  RET: false if empty.
 * O(log n). */
bool sim_heap_pop(sim_heap_t *h, sim_event_t *out);

/* Borrowed pointer to the smallest event, or NULL if empty.  O(1). */
static inline const sim_event_t *sim_heap_top(const sim_heap_t *h)
{
	return h->n ? &h->ev[0] : NULL;
}

#endif /* OST_SIM_HEAP_H */
