/*****************************************************************************\
 *  ost_tree.h - intrusive AVL tree augmented with subtree weight sums
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Nodes are embedded in the caller's structures (container_of style); the
 *  tree never allocates or frees.  Every node carries a weight; each node
 *  keeps the sum of the weights of its subtree, so the weight of all nodes
 *  before a node (its rank when weights are 1) is found in O(log n).
\*****************************************************************************/

#ifndef OST_TREE_H
#define OST_TREE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ost_tnode {
	struct ost_tnode *left, *right, *parent;
	uint64_t sum;		/* weight + children's sums */
	uint32_t weight;	/* own weight, set through ost_tree_set_weight */
	int32_t height;		/* AVL height, leaf = 1 */
} ost_tnode_t;			/* 40 bytes: room for keys in its cache line */

/* Strict weak order: < 0 when a sorts before b.  Equal keys are allowed;
 * an equal key is inserted after the existing ones. */
typedef int (*ost_tree_cmp_f)(const ost_tnode_t *a, const ost_tnode_t *b);

typedef struct ost_tree {
	ost_tnode_t *root;
	ost_tree_cmp_f cmp;
	size_t count;
} ost_tree_t;

/* Empty tree ordered by cmp.  Cannot fail. */
void ost_tree_init(ost_tree_t *t, ost_tree_cmp_f cmp);

/* Link n (not in any tree) with weight w.  O(log n).  Cannot fail. */
void ost_tree_insert(ost_tree_t *t, ost_tnode_t *n, uint32_t w);

/* Unlink n, which must be in t.  O(log n).  Cannot fail. */
void ost_tree_remove(ost_tree_t *t, ost_tnode_t *n);

/* Change the weight of n (in t) to w.  O(log n). */
void ost_tree_set_weight(ost_tree_t *t, ost_tnode_t *n, uint32_t w);

/* First node in order, or NULL.  O(log n). */
ost_tnode_t *ost_tree_first(const ost_tree_t *t);

/* Node after n in order, or NULL.  Amortized O(1). */
ost_tnode_t *ost_tree_next(const ost_tnode_t *n);

/* Node before n in order, or NULL.  Amortized O(1). */
ost_tnode_t *ost_tree_prev(const ost_tnode_t *n);

/* Sum of the weights of the nodes before n.  O(log n). */
uint64_t ost_tree_weight_before(const ost_tnode_t *n);

/* Sum of all weights in t.  O(1). */
static inline uint64_t ost_tree_total(const ost_tree_t *t)
{
	return t->root ? t->root->sum : 0;
}

#define ost_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif /* OST_TREE_H */
