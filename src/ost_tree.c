/*****************************************************************************\
 *  ost_tree.c - intrusive AVL tree augmented with subtree weight sums
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "ost_tree.h"

static inline int _h(const ost_tnode_t *n)
{
	return n ? n->height : 0;
}

static inline uint64_t _s(const ost_tnode_t *n)
{
	return n ? n->sum : 0;
}

static void _update(ost_tnode_t *n)
{
	int hl = _h(n->left), hr = _h(n->right);

	n->height = 1 + (hl > hr ? hl : hr);
	n->sum = n->weight + _s(n->left) + _s(n->right);
}

/* Make `child` take the place of `old` under `parent` (or at the root). */
static void _replace_child(ost_tree_t *t, ost_tnode_t *parent,
			   ost_tnode_t *old, ost_tnode_t *child)
{
	if (!parent)
		t->root = child;
	else if (parent->left == old)
		parent->left = child;
	else
		parent->right = child;
}

static ost_tnode_t *_rotate_left(ost_tree_t *t, ost_tnode_t *x)
{
	ost_tnode_t *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	_replace_child(t, x->parent, x, y);
	y->left = x;
	x->parent = y;
	_update(x);
	_update(y);
	return y;
}

static ost_tnode_t *_rotate_right(ost_tree_t *t, ost_tnode_t *x)
{
	ost_tnode_t *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	_replace_child(t, x->parent, x, y);
	y->right = x;
	x->parent = y;
	_update(x);
	_update(y);
	return y;
}

/* Restore the AVL invariant at n; returns the root of n's subtree. */
static ost_tnode_t *_balance(ost_tree_t *t, ost_tnode_t *n)
{
	int bal = _h(n->left) - _h(n->right);

	if (bal > 1) {
		if (_h(n->left->left) < _h(n->left->right))
			_rotate_left(t, n->left);
		return _rotate_right(t, n);
	}
	if (bal < -1) {
		if (_h(n->right->right) < _h(n->right->left))
			_rotate_right(t, n->right);
		return _rotate_left(t, n);
	}
	return n;
}

/*
 * Fix heights and balance upwards from n, whose subtree changed shape.
 * The sums are already right (the callers add or subtract the weight
 * along the path, which they just read): recomputing them here would read
 * the sibling of every node up to the root, one cache miss per level for
 * nodes embedded in scattered records.  Heights stop changing after a
 * level or two on average, and above that nothing is read.
 */
static void _retrace(ost_tree_t *t, ost_tnode_t *n)
{
	while (n) {
		int old = n->height, hl = _h(n->left), hr = _h(n->right);

		n->height = 1 + (hl > hr ? hl : hr);
		if (hl - hr > 1 || hr - hl > 1)
			n = _balance(t, n);
		if (n->height == old)
			return;
		n = n->parent;
	}
}

/* Add d (mod 2^64: a subtraction is the addition of its negation) to the
 * sums of n and of its ancestors. */
static void _add_sums(ost_tnode_t *n, uint64_t d)
{
	for (; n; n = n->parent)
		n->sum += d;
}

void ost_tree_init(ost_tree_t *t, ost_tree_cmp_f cmp)
{
	t->root = NULL;
	t->cmp = cmp;
	t->count = 0;
}

void ost_tree_insert(ost_tree_t *t, ost_tnode_t *n, uint32_t w)
{
	ost_tnode_t *p = NULL, **link = &t->root;

	while (*link) {
		p = *link;
		link = (t->cmp(n, p) < 0) ? &p->left : &p->right;
	}
	n->left = n->right = NULL;
	n->parent = p;
	n->weight = w;
	n->sum = w;
	n->height = 1;
	*link = n;
	t->count++;
	_add_sums(p, w);
	_retrace(t, p);
}

void ost_tree_remove(ost_tree_t *t, ost_tnode_t *n)
{
	ost_tnode_t *fix, *child;

	/* n's ancestors lose its weight whatever takes its place */
	_add_sums(n->parent, -(uint64_t)n->weight);
	if (n->left && n->right) {
		ost_tnode_t *s = n->right;

		while (s->left)
			s = s->left;
		if (s->parent == n) {
			fix = s;
		} else {
			fix = s->parent;
			/* s leaves the subtrees between its parent and n */
			for (child = fix; child != n; child = child->parent)
				child->sum -= s->weight;
			child = s->right;
			fix->left = child;
			if (child)
				child->parent = fix;
			s->right = n->right;
			n->right->parent = s;
		}
		s->left = n->left;
		n->left->parent = s;
		s->parent = n->parent;
		_replace_child(t, n->parent, n, s);
		s->height = n->height;
		s->sum = n->sum - n->weight;
	} else {
		child = n->left ? n->left : n->right;
		if (child)
			child->parent = n->parent;
		_replace_child(t, n->parent, n, child);
		fix = n->parent;
	}
	n->left = n->right = n->parent = NULL;
	t->count--;
	_retrace(t, fix);
}

void ost_tree_set_weight(ost_tree_t *t, ost_tnode_t *n, uint32_t w)
{
	uint64_t d = (uint64_t)w - n->weight;	/* mod 2^64 */

	(void)t;
	n->weight = w;
	_add_sums(n, d);
}

ost_tnode_t *ost_tree_first(const ost_tree_t *t)
{
	ost_tnode_t *n = t->root;

	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return n;
}

ost_tnode_t *ost_tree_next(const ost_tnode_t *n)
{
	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (ost_tnode_t *)n;
	}
	while (n->parent && n->parent->right == n)
		n = n->parent;
	return n->parent;
}

ost_tnode_t *ost_tree_prev(const ost_tnode_t *n)
{
	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (ost_tnode_t *)n;
	}
	while (n->parent && n->parent->left == n)
		n = n->parent;
	return n->parent;
}

uint64_t ost_tree_weight_before(const ost_tnode_t *n)
{
	uint64_t sum = _s(n->left);

	for (; n->parent; n = n->parent)
		if (n->parent->right == n)
			sum += _s(n->parent->left) + n->parent->weight;
	return sum;
}
