/*****************************************************************************\
 *  osl_ptab.h - a partition's priorities by rank (osl_ptab.c): an AVL
 *  tree, so that a submission finds the values around its rank in
 *  O(log n).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_PTAB_H
#define _OSL_PTAB_H

#include <stdbool.h>
#include <stdint.h>

/* The priority the last pass gave the job record first reached at rank
 * (one node of osl_ptab_t). */
typedef struct {
	uint64_t rank;			/* rank of the record's best task, once
					 * the additions above it are done */
	uint32_t add;			/* ranks to add to both subtrees (a
					 * lazy "later ranks + 1"; at most
					 * the insertions since the build,
					 * fewer than the nodes) */
	uint32_t prio;			/* the priority written for it */
	int32_t left, right;		/* children, 1-based (0: none) */
	int32_t height;			/* AVL height, leaf 1 */
} osl_ptab_node_t;			/* 32 bytes: one per pending record */

/* Priorities by rank of a partition (osl_ptab.c); zeroed: empty. */
typedef struct {
	osl_ptab_node_t *v;		/* the nodes (osl_tgrow), v[i - 1]
					 * is node i */
	int n;				/* nodes used */
	int built;			/* nodes 1..built come from the last
					 * build, the others were inserted */
	int cap;			/* nodes allocated */
	int32_t root;			/* root node (0: empty) */
	uint64_t work;			/* nodes visited and rotations so far
					 * (tests check the cost with it) */
} osl_ptab_t;

/* t holds n nodes (rank[i], prio[i]), rank ascending.  O(n). */
extern void osl_ptab_build(osl_ptab_t *t, const uint64_t *rank,
			   const uint32_t *prio, int n);

/*
 * The node ranked last before rank (*above, NULL: none) and the first
 * ranked at or after it (*below, NULL: none).  Valid until the next
 * change of t.  O(log n).
 */
extern void osl_ptab_neighbours(osl_ptab_t *t, uint64_t rank,
				const osl_ptab_node_t **above,
				const osl_ptab_node_t **below);

/* Record prio at rank, before every node ranked at or after it, whose
 * ranks grow by one.  O(log n) (amortized for the array's growth). */
extern void osl_ptab_insert(osl_ptab_t *t, uint64_t rank, uint32_t prio);

/* Was node (from osl_ptab_neighbours) inserted since the last build?  O(1) */
extern bool osl_ptab_inserted(const osl_ptab_t *t, const osl_ptab_node_t *node);

/* The nodes in rank order into rank[], prio[] (room for t->n).  RET t->n */
extern int osl_ptab_dump(const osl_ptab_t *t, uint64_t *rank, uint32_t *prio);

/* Height of the tree (0: empty), for tests of the balance. */
extern int osl_ptab_height(const osl_ptab_t *t);

/* Release t; it is then empty. */
extern void osl_ptab_free(osl_ptab_t *t);

#endif /* _OSL_PTAB_H */
