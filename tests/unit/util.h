/*****************************************************************************\
 *  util.h - shared fixtures for the core's Check tests
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_TEST_UTIL_H
#define OST_TEST_UTIL_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "ck_run.h"
#include "ostrich.h"

#define EPS 1e-9

/* A scheduler of m CPUs with the defaults, but capacity=full and tau=0
 * unless the test changes them: the papers' clairvoyant setting. */
static inline ost_sched_t *mk_sched(uint32_t m, void (*tweak)(ost_config_t *))
{
	ost_config_t cfg;
	ost_sched_t *s;

	ost_config_init(&cfg);
	cfg.procs = m;
	cfg.capacity = OST_CAPACITY_FULL;
	cfg.think_time = 0;
	if (tweak)
		tweak(&cfg);
	s = ost_sched_create(&cfg);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* Submit job id of uid (q CPUs, estimate e) at t; returns its campaign. */
static inline uint32_t sub(ost_sched_t *s, uint64_t id, uint32_t uid,
			   uint32_t q, double e, double t)
{
	ost_job_desc_t d = { .id = id, .uid = uid, .procs = q, .estimate = e };
	uint32_t c = 0;

	OST_CHECK(ost_job_submit(s, &d, t, &c) == 0, "submit %llu",
		  (unsigned long long)id);
	return c;
}

/* Same, into explicit campaign seq. */
static inline void sub_in(ost_sched_t *s, uint64_t id, uint32_t uid,
			  uint32_t q, double e, double t, uint32_t seq)
{
	ost_job_desc_t d = { .id = id, .uid = uid, .procs = q, .estimate = e,
			     .campaign = seq };

	OST_CHECK(ost_job_submit(s, &d, t, NULL) == 0, "submit %llu",
		  (unsigned long long)id);
}

typedef struct {
	uint64_t ids[256];
	bool elig[256];
	size_t n;
} order_t;

static inline int _collect(const ost_rank_info_t *r, void *arg)
{
	order_t *o = arg;

	OST_CHECK(r->rank == o->n + 1, "rank %llu at position %zu",
		  (unsigned long long)r->rank, o->n + 1);
	if (o->n < 256) {
		o->elig[o->n] = r->eligible;
		o->ids[o->n] = r->job_id;
	}
	o->n++;
	return 0;
}

/* Pending job ids in rank order. */
static inline order_t order_of(const ost_sched_t *s)
{
	order_t o = { .n = 0 };

	OST_CHECK(ost_sched_foreach_pending(s, _collect, &o) == 0,
		  "ost_sched_foreach_pending failed");
	return o;
}

/* Assert the pending jobs are exactly ids[0..n) in that order. */
#define ck_order(s, ...)						\
	do {								\
		uint64_t _exp[] = { __VA_ARGS__ };			\
		size_t _n = sizeof(_exp) / sizeof(_exp[0]), _i;		\
		order_t _o = order_of(s);				\
		ck_assert_uint_eq(_o.n, _n);				\
		for (_i = 0; _i < _n; _i++) {				\
			uint64_t _r = 0;				\
			ck_assert_uint_eq(_o.ids[_i], _exp[_i]);	\
			ck_assert_int_eq(ost_sched_rank(s, _exp[_i], &_r), 0); \
			ck_assert_uint_eq(_r, _i + 1);			\
		}							\
	} while (0)

/* Campaign info of (uid, seq) via the public listing. */
typedef struct {
	uint32_t uid, seq;
	ost_campaign_info_t info;
	bool found;
} find_t;

static inline int _find_camp(const ost_campaign_info_t *c, void *arg)
{
	find_t *f = arg;

	if (c->uid == f->uid && c->seq == f->seq) {
		f->info = *c;
		f->found = true;
		return 1;
	}
	return 0;
}

static inline ost_campaign_info_t camp(const ost_sched_t *s, uint32_t uid,
				       uint32_t seq)
{
	find_t f = { .uid = uid, .seq = seq, .found = false };

	ost_sched_foreach_campaign(s, _find_camp, &f);
	ck_assert_msg(f.found, "campaign %u/%u not tracked", uid, seq);
	return f.info;
}

/* Every campaign's public view, sorted by (uid, seq, S, F): a uid's -A
 * leaves (§21) share its uid and sequence numbers. */
typedef struct {
	ost_campaign_info_t v[512];
	size_t n;
} camp_infos_t;

static inline int _camp_info_add(const ost_campaign_info_t *c, void *arg)
{
	camp_infos_t *in = arg;

	ck_assert_uint_lt(in->n, 512);
	in->v[in->n++] = *c;
	return 0;
}

static inline int _camp_info_cmp(const void *x, const void *y)
{
	const ost_campaign_info_t *a = x, *b = y;
	const double ka[] = { a->uid, a->seq, a->vstart, a->vfinish };
	const double kb[] = { b->uid, b->seq, b->vstart, b->vfinish };
	size_t i;

	for (i = 0; i < sizeof(ka) / sizeof(ka[0]); i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return 0;
}

static inline void camp_infos(const ost_sched_t *s, camp_infos_t *out)
{
	out->n = 0;
	ost_sched_foreach_campaign(s, _camp_info_add, out);
	qsort(out->v, out->n, sizeof(out->v[0]), _camp_info_cmp);
}

/* main() for a test file defining `Suite *suite(void)`. */
#define OST_TEST_MAIN							\
	int main(void)							\
	{								\
		return ost_check_run(suite());				\
	}

#endif /* OST_TEST_UTIL_H */
