/*****************************************************************************\
 *  ost_walk.c - the pending jobs of a campaign as a list of blocks, so
 *  that the pass over all pending jobs reads memory in order
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  c->pending (an AVL tree) gives ranks in O(log n), but walking it costs
 *  one cache miss per job: jobs sit wherever malloc put them, in an order
 *  unrelated to the intra-campaign order.  With 10^5-10^6 pending jobs the
 *  walk of ost_sched_foreach_pending() (every scheduler pass) becomes a
 *  chain of DRAM misses (~100-200 ns per job).  This module keeps a copy
 *  of the same order as a doubly linked list of blocks of at most OST_WBLK
 *  (id, job) entries: the walk reads ids sequentially, one miss per block.
 *
 *  A job records its block; an insertion finds its place next to its
 *  tree neighbour (O(log n) to find it, O(OST_WBLK) to scan and shift the
 *  block; a full block splits in two), a removal shifts its block and
 *  merges it with a neighbour when both are at most half full.  The cache
 *  is optional: built lazily by the walk, dropped (the walk then uses the
 *  tree) when memory is short, so no event ever fails because of it.
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "ost_internal.h"

#define JOB(n) ost_container_of(n, ost_job_t, node)

/* Free c's blocks and stop maintaining them.  Cannot fail. */
void ost_walk_drop(ost_campaign_t *c)
{
	ost_wblk_t *b = c->whead;

	while (b) {
		ost_wblk_t *next = b->next;

		free(b);
		b = next;
	}
	c->whead = NULL;
	c->walk = false;
}

/* Position of j in b (j must be there).  O(OST_WBLK). */
static uint32_t _index(const ost_wblk_t *b, const ost_job_t *j)
{
	uint32_t i = 0;

	while (b->job[i] != j)
		i++;
	return i;
}

/* Link nb after b in c's list. */
static void _link_after(ost_campaign_t *c, ost_wblk_t *b, ost_wblk_t *nb)
{
	nb->prev = b;
	nb->next = b ? b->next : c->whead;
	if (nb->next)
		nb->next->prev = nb;
	if (b)
		b->next = nb;
	else
		c->whead = nb;
}

static void _unlink(ost_campaign_t *c, ost_wblk_t *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		c->whead = b->next;
	if (b->next)
		b->next->prev = b->prev;
	free(b);
}

/* Move b[from..n) to the end of d (room checked by the caller). */
static void _move(ost_wblk_t *d, ost_wblk_t *b, uint32_t from)
{
	uint32_t k = b->n - from;

	memcpy(&d->id[d->n], &b->id[from], k * sizeof(*b->id));
	memcpy(&d->job[d->n], &b->job[from], k * sizeof(*b->job));
	for (uint32_t i = 0; i < k; i++)
		d->job[d->n + i]->wblk = d;
	d->n += k;
	b->n = from;
}

/*
 * Block and position where pending j (just linked in c->pending) goes:
 * after its predecessor, else before its successor, else a new block.
 * Returns NULL when memory is short.
 */
static ost_wblk_t *_place(ost_campaign_t *c, ost_job_t *j, uint32_t *at)
{
	const ost_tnode_t *n = ost_tree_prev(&j->node);
	ost_wblk_t *b;

	if (n) {
		b = JOB(n)->wblk;
		*at = _index(b, JOB(n)) + 1;
		return b;
	}
	*at = 0;
	if ((n = ost_tree_next(&j->node)))
		return JOB(n)->wblk;
	if ((b = calloc(1, sizeof(*b))))
		_link_after(c, NULL, b);
	return b;
}

/* Pending j was just linked in c->pending: add it to the blocks.
 * O(log n + OST_WBLK).  Cannot fail (drops the cache instead). */
void ost_walk_insert(ost_campaign_t *c, ost_job_t *j)
{
	ost_wblk_t *b, *nb;
	uint32_t at;

	if (!c->walk)
		return;
	if (!(b = _place(c, j, &at))) {
		ost_walk_drop(c);
		return;
	}
	if (b->n == OST_WBLK) {
		if (!(nb = calloc(1, sizeof(*nb)))) {
			ost_walk_drop(c);
			return;
		}
		_link_after(c, b, nb);
		_move(nb, b, OST_WBLK / 2);
		if (at > OST_WBLK / 2) {
			b = nb;
			at -= OST_WBLK / 2;
		}
	}
	memmove(&b->id[at + 1], &b->id[at], (b->n - at) * sizeof(*b->id));
	memmove(&b->job[at + 1], &b->job[at], (b->n - at) * sizeof(*b->job));
	b->id[at] = j->id;
	b->job[at] = j;
	b->n++;
	j->wblk = b;
}

/* Pending j leaves c (before or after its tree unlink).
 * O(OST_WBLK).  Cannot fail. */
void ost_walk_remove(ost_campaign_t *c, ost_job_t *j)
{
	ost_wblk_t *b = j->wblk, *o;
	uint32_t at;

	if (!c->walk)
		return;
	at = _index(b, j);
	b->n--;
	memmove(&b->id[at], &b->id[at + 1], (b->n - at) * sizeof(*b->id));
	memmove(&b->job[at], &b->job[at + 1], (b->n - at) * sizeof(*b->job));
	j->wblk = NULL;
	if (!b->n) {
		_unlink(c, b);
	} else if ((o = b->next) && b->n + o->n <= OST_WBLK / 2) {
		_move(b, o, 0);
		_unlink(c, o);
	} else if ((o = b->prev) && b->n + o->n <= OST_WBLK / 2) {
		_move(o, b, 0);
		_unlink(c, b);
	}
}

/* Build c's blocks from its tree if they are not maintained, filled to
 * 3/4 so that insertions seldom split.  Returns whether the blocks are
 * usable.  O(pending of c). */
bool ost_walk_build(ost_campaign_t *c)
{
	const ost_tnode_t *n;
	ost_wblk_t *b = NULL;

	if (c->walk)
		return true;
	for (n = ost_tree_first(&c->pending); n; n = ost_tree_next(n)) {
		ost_job_t *j = JOB(n);

		if (!b || b->n == OST_WBLK * 3 / 4) {
			ost_wblk_t *nb = calloc(1, sizeof(*nb));

			if (!nb) {
				ost_walk_drop(c);
				return false;
			}
			_link_after(c, b, nb);
			b = nb;
		}
		b->id[b->n] = j->id;
		b->job[b->n++] = j;
		j->wblk = b;
	}
	c->walk = true;
	return true;
}
