/*****************************************************************************\
 *  check_structs.c - the intrusive tree, heap and map under the core, and
 *  the array growth they share
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "ck_run.h"
#include "ost_grow.h"
#include "ost_heap.h"
#include "ost_map.h"
#include "ost_tree.h"

typedef struct {
	int key;
	ost_tnode_t node;
	ost_hkey_t hkey;
} item_t;

#define ITEM(n) ost_container_of(n, const item_t, node)

static int _cmp(const ost_tnode_t *a, const ost_tnode_t *b)
{
	return (ITEM(a)->key > ITEM(b)->key) - (ITEM(a)->key < ITEM(b)->key);
}

static int _height(const ost_tnode_t *n)
{
	int l, r;

	if (!n)
		return 0;
	l = _height(n->left);
	r = _height(n->right);
	/* OST_CHECK: called for every node of every snapshot */
	OST_CHECK(abs(l - r) <= 1, "unbalanced node: heights %d, %d", l, r);
	OST_CHECK(n->height == 1 + (l > r ? l : r), "height %d, children %d, %d",
		  n->height, l, r);
	OST_CHECK(n->sum == n->weight + (n->left ? n->left->sum : 0) +
		  (n->right ? n->right->sum : 0), "sum %llu wrong",
		  (unsigned long long)n->sum);
	OST_CHECK(!n->left || n->left->parent == n, "left child's parent");
	OST_CHECK(!n->right || n->right->parent == n, "right child's parent");
	return n->height;
}

/* Random inserts and removals keep AVL balance, order, sums and ranks. */
START_TEST(test_tree_random)
{
	enum { N = 2000 };
	item_t *it = calloc(N, sizeof(*it));
	bool *in = calloc(N, sizeof(*in));
	ost_tree_t t;
	int i, step;

	srand(12345);
	ost_tree_init(&t, _cmp);
	for (i = 0; i < N; i++)
		it[i].key = rand() % 500;
	for (step = 0; step < 20000; step++) {
		i = rand() % N;
		if (in[i])
			ost_tree_remove(&t, &it[i].node);
		else
			ost_tree_insert(&t, &it[i].node, (uint64_t)(i % 3));
		in[i] = !in[i];
		if (step % 997 == 0) {
			const ost_tnode_t *n, *prev = NULL;
			uint64_t before = 0;
			size_t count = 0;

			_height(t.root);
			for (n = ost_tree_first(&t); n; n = ost_tree_next(n)) {
				OST_CHECK(!prev || _cmp(prev, n) <= 0,
					  "out of order at position %zu", count);
				OST_CHECK(ost_tree_weight_before(n) == before,
					  "weight before position %zu", count);
				before += n->weight;
				prev = n;
				count++;
			}
			ck_assert_uint_eq(count, t.count);
			ck_assert_uint_eq(before, ost_tree_total(&t));
		}
	}
	free(it);
	free(in);
}
END_TEST

/* Pops come out in (key, tie) order after arbitrary updates, through the
 * (key, tie) instantiation and the generic one alike. */
START_TEST(test_heap_order)
{
	enum { N = 1000 };
	item_t *it = calloc(N, sizeof(*it));
	ost_heap_t h;
	double last = -1;
	uint64_t last_tie = 0;
	int i;

	srand(7);
	ost_heap_init(&h, ost_hkey_less);
	for (i = 0; i < N; i++) {
		ost_hnode_init(&it[i].hkey.node);
		ck_assert_int_eq(ost_hkey_push(&h, &it[i].hkey, rand() % 100,
					       (uint64_t)i), 0);
	}
	for (i = 0; i < N; i += 3)
		ost_hkey_update(&h, &it[i].hkey, rand() % 100);
	for (i = 2; i < N; i += 11) {
		it[i].hkey.key = rand() % 100;
		ost_heap_update(&h, &it[i].hkey.node);
	}
	for (i = 1; i < N; i += 7)
		ost_heap_remove(&h, &it[i].hkey.node);
	while (ost_heap_top(&h)) {
		ost_hkey_t *n = ost_hkey_top(&h);

		ck_assert(n->key > last || (n->key == last && n->tie > last_tie));
		last = n->key;
		last_tie = n->tie;
		ost_hkey_remove(&h, n);
		ck_assert(!ost_hnode_linked(&n->node));
	}
	ost_heap_free(&h);
	free(it);
}
END_TEST

/* Equal keys pop in increasing tie (the simulator's events). */
START_TEST(test_heap_ties)
{
	ost_hkey_t e[6];
	const double t[] = { 5, 1, 3, 1, 9, 0 };
	const uint64_t order[] = { 5, 3, 1, 2, 0, 4 };
	ost_heap_t h;

	ost_heap_init(&h, ost_hkey_less);
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(ost_hkey_push(&h, &e[i], t[i], 10 - i), 0);
	for (int i = 0; i < 6; i++) {
		ost_hkey_t *k = ost_hkey_top(&h);

		ck_assert_ptr_eq(k, &e[order[i]]);
		ost_heap_remove(&h, &k->node);
	}
	ck_assert_ptr_null(ost_heap_top(&h));
	ost_heap_free(&h);
}
END_TEST

/* An element of the caller's kind: the heap orders it by the caller's
 * less-than (here a max-heap of ints), never by a key of its own. */
struct big {
	int v;
	ost_hnode_t hn;
};

#define BIG(n) ost_container_of(n, const struct big, hn)

static bool _big_less(const ost_hnode_t *a, const ost_hnode_t *b)
{
	return BIG(a)->v > BIG(b)->v;
}

START_TEST(test_heap_comparator)
{
	enum { N = 500 };
	struct big *b = calloc(N, sizeof(*b));
	ost_heap_t h;
	int last = 1 << 30;

	srand(3);
	ost_heap_init(&h, _big_less);
	ck_assert_int_eq(ost_heap_reserve(&h, N), 0);
	for (int i = 0; i < N; i++) {
		b[i].v = rand() % 1000;
		ck_assert_int_eq(ost_heap_push(&h, &b[i].hn), 0);
	}
	for (int i = 0; i < N; i += 5) {
		b[i].v = rand() % 1000;
		ost_heap_update(&h, &b[i].hn);
	}
	while (ost_heap_top(&h)) {
		ost_hnode_t *n = ost_heap_top(&h);

		ck_assert_int_le(BIG(n)->v, last);
		last = BIG(n)->v;
		ost_heap_remove(&h, n);
	}
	ost_heap_free(&h);
	free(b);
}
END_TEST

/* ost_grow doubles from first, keeps the contents, leaves a large enough
 * array alone, and refuses an overflowing size with the array intact. */
START_TEST(test_grow)
{
	size_t cap = 0;
	int *v = ost_grow(NULL, &cap, 1, sizeof(*v), 4), *w;

	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(cap, 4);
	for (int i = 0; i < 4; i++)
		v[i] = i;
	ck_assert_ptr_eq(ost_grow(v, &cap, 4, sizeof(*v), 4), v);
	ck_assert_uint_eq(cap, 4);
	v = ost_grow(v, &cap, 5, sizeof(*v), 4);
	ck_assert_uint_eq(cap, 8);
	v = ost_grow(v, &cap, 33, sizeof(*v), 4);
	ck_assert_uint_eq(cap, 64);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(v[i], i);
	w = ost_grow(v, &cap, SIZE_MAX / 2, sizeof(*v), 4);
	ck_assert_ptr_null(w);
	ck_assert_uint_eq(cap, 64);
	w = ost_grow(v, &cap, SIZE_MAX, 1, 4);
	ck_assert_ptr_null(w);
	ck_assert_uint_eq(cap, 64);
	ck_assert_int_eq(v[3], 3);
	free(v);
}
END_TEST

/* The map agrees with a plain array under puts and deletes. */
START_TEST(test_map_random)
{
	enum { K = 5000 };
	static int vals[K];
	static bool present[K];
	ost_map_t m;
	int step, k;

	srand(99);
	ost_map_init(&m);
	for (step = 0; step < 100000; step++) {
		k = rand() % K;
		if (rand() % 3) {
			ck_assert_int_eq(ost_map_put(&m, (uint64_t)k + 1,
						     &vals[k]), 0);
			present[k] = true;
		} else {
			ost_map_del(&m, (uint64_t)k + 1);
			present[k] = false;
		}
	}
	for (k = 0; k < K; k++)
		ck_assert_ptr_eq(ost_map_get(&m, (uint64_t)k + 1),
				 present[k] ? &vals[k] : NULL);
	ost_map_free(&m);
}
END_TEST

Suite *suite(void);
Suite *suite(void)
{
	Suite *s = suite_create("structs");
	TCase *tc = ost_tcase("Invariants", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_tree_random);
	tcase_add_test(tc, test_heap_order);
	tcase_add_test(tc, test_heap_ties);
	tcase_add_test(tc, test_heap_comparator);
	tcase_add_test(tc, test_map_random);
	tcase_add_test(tc, test_grow);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
