/*****************************************************************************\
 *  osl_ptab.c - the priority table of a partition: the value written for
 *  each record at its rank, as of the last pass, plus the jobs submitted
 *  since.  A submission looks up its neighbours at its rank and inserts
 *  itself there, moving every later rank down by one.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  An AVL tree ordered by rank, nodes in one array (indices, so the array
 *  may move when it grows).  "Every later rank + 1" is a lazy addition kept
 *  at the subtree it applies to, so an insertion touches only its path:
 *  O(log n) whatever the number of pending jobs, where a sorted array
 *  moved O(n) cells per submission.  Free of Slurm types
 *  (tests/plugin/check_job_prio.c).
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "osl_ptab.h"
#include "osl_vec.h"

/* Node indices are 1-based (0: none), so that a zeroed table is empty. */
#define _NIL 0
#define _N(t, x) ((t)->v[(x) - 1])

static int _h(const osl_ptab_t *t, int32_t x)
{
	return x == _NIL ? 0 : _N(t, x).height;
}

static void _fix(osl_ptab_t *t, int32_t x)
{
	int l = _h(t, _N(t, x).left), r = _h(t, _N(t, x).right);

	_N(t, x).height = 1 + (l > r ? l : r);
}

/* Hand x's pending addition to its children (their ranks and subtrees). */
static void _push(osl_ptab_t *t, int32_t x)
{
	osl_ptab_node_t *n = &_N(t, x);

	if (!n->add)
		return;
	if (n->left != _NIL) {
		_N(t, n->left).rank += n->add;
		_N(t, n->left).add += n->add;
	}
	if (n->right != _NIL) {
		_N(t, n->right).rank += n->add;
		_N(t, n->right).add += n->add;
	}
	n->add = 0;
}

static int32_t _rot_right(osl_ptab_t *t, int32_t x)
{
	int32_t y = _N(t, x).left;

	_push(t, x);
	_push(t, y);
	_N(t, x).left = _N(t, y).right;
	_N(t, y).right = x;
	_fix(t, x);
	_fix(t, y);
	t->work++;
	return y;
}

static int32_t _rot_left(osl_ptab_t *t, int32_t x)
{
	int32_t y = _N(t, x).right;

	_push(t, x);
	_push(t, y);
	_N(t, x).right = _N(t, y).left;
	_N(t, y).left = x;
	_fix(t, x);
	_fix(t, y);
	t->work++;
	return y;
}

static int32_t _balance(osl_ptab_t *t, int32_t x)
{
	int d;

	_fix(t, x);
	d = _h(t, _N(t, x).left) - _h(t, _N(t, x).right);
	if (d > 1) {
		int32_t l = _N(t, x).left;

		if (_h(t, _N(t, l).left) < _h(t, _N(t, l).right))
			_N(t, x).left = _rot_left(t, l);
		return _rot_right(t, x);
	}
	if (d < -1) {
		int32_t r = _N(t, x).right;

		if (_h(t, _N(t, r).right) < _h(t, _N(t, r).left))
			_N(t, x).right = _rot_right(t, r);
		return _rot_left(t, x);
	}
	return x;
}

/* Balanced subtree of nodes [a, b) (ranks ascending, 1-based). */
static int32_t _build(osl_ptab_t *t, int32_t a, int32_t b)
{
	int32_t m;

	if (a >= b)
		return _NIL;
	m = a + (b - a) / 2;
	_N(t, m).left = _build(t, a, m);
	_N(t, m).right = _build(t, m + 1, b);
	_fix(t, m);
	return m;
}

extern void osl_ptab_build(osl_ptab_t *t, const uint64_t *rank,
			   const uint32_t *prio, int n)
{
	int i;

	t->v = osl_tgrow(t->v, &t->cap, n, sizeof(*t->v), 64);
	if (n > 0)	/* t->v may be NULL when n is 0 */
		memset(t->v, 0, (size_t) n * sizeof(*t->v));
	for (i = 0; i < n; i++) {
		t->v[i].rank = rank[i];
		t->v[i].prio = prio[i];
	}
	t->n = t->built = n;
	t->root = _build(t, 1, n + 1);
}

/* O(height): the last node ranked before rank and the first at or after. */
extern void osl_ptab_neighbours(osl_ptab_t *t, uint64_t rank,
				const osl_ptab_node_t **above,
				const osl_ptab_node_t **below)
{
	int32_t x = t->root;
	uint64_t acc = 0;	/* additions pending above x */

	*above = *below = NULL;
	while (x != _NIL) {
		const osl_ptab_node_t *n = &_N(t, x);

		t->work++;
		if (n->rank + acc >= rank) {
			*below = n;
			acc += n->add;
			x = n->left;
		} else {
			*above = n;
			acc += n->add;
			x = n->right;
		}
	}
}

/* Insert node k at rank into subtree x: nodes ranked at or after rank move
 * one down.  RET the subtree's new root. */
static int32_t _insert(osl_ptab_t *t, int32_t x, int32_t k)
{
	osl_ptab_node_t *n;

	if (x == _NIL)
		return k;
	t->work++;
	_push(t, x);
	n = &_N(t, x);
	if (n->rank >= _N(t, k).rank) {
		n->rank++;
		if (n->right != _NIL) {
			_N(t, n->right).rank++;
			_N(t, n->right).add++;
		}
		_N(t, x).left = _insert(t, n->left, k);
	} else {
		_N(t, x).right = _insert(t, n->right, k);
	}
	return _balance(t, x);
}

extern void osl_ptab_insert(osl_ptab_t *t, uint64_t rank, uint32_t prio)
{
	int32_t k;

	t->v = osl_tgrow(t->v, &t->cap, t->n + 1, sizeof(*t->v), 64);
	k = ++t->n;
	memset(&_N(t, k), 0, sizeof(_N(t, k)));
	_N(t, k).left = _N(t, k).right = _NIL;
	_N(t, k).height = 1;
	_N(t, k).rank = rank;
	_N(t, k).prio = prio;
	t->root = _insert(t, t->root, k);
}

extern bool osl_ptab_inserted(const osl_ptab_t *t, const osl_ptab_node_t *node)
{
	return node - t->v >= t->built;
}

/* In-order walk of subtree x whose pending additions above sum to acc. */
static int _dump(const osl_ptab_t *t, int32_t x, uint64_t acc, uint64_t *rank,
		 uint32_t *prio, int i)
{
	if (x == _NIL)
		return i;
	i = _dump(t, _N(t, x).left, acc + _N(t, x).add, rank, prio, i);
	rank[i] = _N(t, x).rank + acc;
	prio[i++] = _N(t, x).prio;
	return _dump(t, _N(t, x).right, acc + _N(t, x).add, rank, prio, i);
}

extern int osl_ptab_dump(const osl_ptab_t *t, uint64_t *rank, uint32_t *prio)
{
	return _dump(t, t->root, 0, rank, prio, 0);
}

extern int osl_ptab_height(const osl_ptab_t *t)
{
	return _h(t, t->root);
}

extern void osl_ptab_free(osl_ptab_t *t)
{
	osl_tfree(t->v, t->cap, sizeof(*t->v));
	memset(t, 0, sizeof(*t));
}
