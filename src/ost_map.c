/*****************************************************************************\
 *  ost_map.c - hash map from non-zero 64-bit keys to pointers
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdlib.h>

#include "ost_map.h"

/* splitmix64 finalizer: job ids are dense, this spreads them. */
static inline size_t _hash(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k;
}

void ost_map_init(ost_map_t *m)
{
	m->slots = NULL;
	m->mask = 0;
	m->count = 0;
}

void ost_map_free(ost_map_t *m)
{
	free(m->slots);
	ost_map_init(m);
}

void *ost_map_get(const ost_map_t *m, uint64_t key)
{
	size_t i;

	if (!m->slots)
		return NULL;
	for (i = _hash(key) & m->mask; m->slots[i].key; i = (i + 1) & m->mask)
		if (m->slots[i].key == key)
			return m->slots[i].val;
	return NULL;
}

static void _insert(ost_map_slot_t *slots, size_t mask, uint64_t key,
		    void *val)
{
	size_t i = _hash(key) & mask;

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & mask;
	slots[i].key = key;
	slots[i].val = val;
}

int ost_map_reserve(ost_map_t *m)
{
	size_t cap = m->slots ? m->mask + 1 : 0, ncap, i;
	ost_map_slot_t *ns;

	if (2 * (m->count + 1) <= cap)
		return 0;
	ncap = cap ? 2 * cap : 64;
	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -1;
	for (i = 0; i < cap; i++)
		if (m->slots[i].key)
			_insert(ns, ncap - 1, m->slots[i].key, m->slots[i].val);
	free(m->slots);
	m->slots = ns;
	m->mask = ncap - 1;
	return 0;
}

int ost_map_put(ost_map_t *m, uint64_t key, void *val)
{
	size_t i;

	if (m->slots) {
		for (i = _hash(key) & m->mask; m->slots[i].key;
		     i = (i + 1) & m->mask)
			if (m->slots[i].key == key) {
				m->slots[i].val = val;
				return 0;
			}
	}
	if (ost_map_reserve(m))
		return -1;
	_insert(m->slots, m->mask, key, val);
	m->count++;
	return 0;
}

void ost_map_del(ost_map_t *m, uint64_t key)
{
	size_t i, j;

	if (!m->slots)
		return;
	for (i = _hash(key) & m->mask; m->slots[i].key != key;
	     i = (i + 1) & m->mask)
		if (!m->slots[i].key)
			return;
	/* Backward shift: pull later entries of the probe run into the hole
	 * unless their home slot lies cyclically in (i, j]. */
	for (j = i;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (!m->slots[j].key)
			break;
		home = _hash(m->slots[j].key) & m->mask;
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	m->slots[i].key = 0;
	m->slots[i].val = NULL;
	m->count--;
}
