/*****************************************************************************\
 *  check_property.c - the O(log n) engine against a naive reference
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Random closed workloads (fixed seeds) are driven through the engine and
 *  through ref_engine.c, which recomputes everything from scratch at every
 *  event.  After every event the two must agree exactly: the same pending
 *  jobs in the same order with the same eligibility, the same v and the
 *  same tags.  The engine's C~ must also equal the reference's forward
 *  simulation, and be non-decreasing along the OStrich order of eligible
 *  campaigns (ordering by F is ordering by C~, §3) with the default key.
 *  The seed also picks the key of the order (F_c, §13's or §14's),
 *  whether jobs are charged from evidence (§12), the lead (§24) and
 *  whether overdue work rejoins V (§27); the reference derives
 *  the keys from scratch too and finds each step by scanning the running
 *  jobs.
 *
 *  The second half of the loops also requeues running jobs
 *  (ost_job_requeue: in a many-campaign loop, a restart of an older
 *  campaign there can be behind, §24), widens or narrows pending jobs
 *  (ost_job_update), starts jobs on more CPUs than they asked for
 *  (ost_job_start_alloc) and rebases the engine's real times by random
 *  whole seconds (ost_sched_rebase) while the reference never is: its
 *  times live at base + t, the engine's at base + offset + t, all in one
 *  binade so every shift is exact, and the deadlines and C~ must differ by
 *  exactly the offset.
 *
 *  A third kind of loop has two or three users with many explicit
 *  campaigns of one to four jobs each, on integer times so that many jobs
 *  finish at one instant; at each instant it also cancels and resizes
 *  pending jobs of a user's oldest and other campaigns, and it compares
 *  only after all the finishes, cancels and submissions of the instant,
 *  so that the engine's deferred re-derivation (ost_campaign.c) settles
 *  many changes to one user's campaigns at once, or when a submission
 *  reads them.
\*****************************************************************************/

#include <string.h>

#include "ref_engine.h"
#include "util.h"

#define NJOBS 400
#define MAXP 2048

typedef struct {
	uint64_t id;
	uint32_t uid, q;
	double e, p, submit, end;
	int state;		/* 0 future, 1 pending, 2 running, 3 gone */
	uint32_t camp;		/* explicit campaign (many), else 0 */
} pjob_t;

static uint64_t _rng;

static uint32_t _rand(uint32_t n)
{
	_rng = _rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((_rng >> 33) % n);
}

typedef struct {
	ost_sched_t *s;
	ref_t *r;
	pjob_t jobs[NJOBS];
	uint32_t m, free;
	uint64_t events;
	bool churn;		/* updates, wide starts, rebases, reloads */
	uint32_t churns;	/* _churn calls */
	bool many;		/* few users, many explicit campaigns */
	double base;		/* the reference's time origin */
	double offset;		/* the engine's time origin (the reference's
				 * plus the rebases) */
} world_t;

/* Compare every observable of the engine with the reference. */
static void _compare(world_t *w)
{
	static uint64_t rids[MAXP];
	static bool relig[MAXP];
	order_t o = order_of(w->s);
	size_t n = ref_order(w->r, rids, relig, MAXP), i;
	ost_stats_t st;

	ost_sched_stats(w->s, &st);
	/* OST_CHECK: this runs after every event, ~10^5 times a test */
	OST_CHECK(st.vtime == ref_vtime(w->r), "v %a != ref %a after %llu "
		  "events", st.vtime, ref_vtime(w->r),
		  (unsigned long long)w->events);
	OST_CHECK(o.n == n, "%zu pending jobs, ref %zu (event %llu)",
		  (size_t)o.n, n, (unsigned long long)w->events);
	for (i = 0; i < n && i < 256; i++)
		OST_CHECK(o.ids[i] == rids[i] && o.elig[i] == relig[i],
			  "rank %zu: job %llu eligible %d, ref %llu eligible "
			  "%d (event %llu)", i + 1,
			  (unsigned long long)o.ids[i], (int)o.elig[i],
			  (unsigned long long)rids[i], (int)relig[i],
			  (unsigned long long)w->events);
}

typedef struct {
	world_t *w;
	double last_vct;
	bool last_elig;
	int seen;
} camp_check_t;

static int _check_campaign(const ost_campaign_info_t *c, void *arg)
{
	camp_check_t *cc = arg;
	double S, F, D, rv;

	OST_CHECK(ref_campaign(cc->w->r, c->uid, c->seq, &S, &F, &D),
		  "campaign %u/%u unknown to the reference", c->uid, c->seq);
	OST_CHECK(c->vstart == S && c->vfinish == F &&
		  c->deadline - (cc->w->offset - cc->w->base) == D,
		  "campaign %u/%u: S %a/%a F %a/%a D %a/%a (offset %a)",
		  c->uid, c->seq, c->vstart, S, c->vfinish, F, c->deadline,
		  D, cc->w->offset);
	OST_CHECK(c->area == ref_area(cc->w->r, c->uid, c->seq),
		  "campaign %u/%u: area %a, ref %a", c->uid, c->seq,
		  c->area, ref_area(cc->w->r, c->uid, c->seq));
	rv = ref_vct(cc->w->r, c->vfinish) + (cc->w->offset - cc->w->base);
	OST_CHECK(rv == c->vct || fabs(rv - c->vct) <= 1e-6 *
		      (1 + fabs(rv)), "C~ %u/%u: %.17g vs ref %.17g",
		      c->uid, c->seq, c->vct, rv);
	if (c->pending && ost_sched_config(cc->w->s)->mode ==
	    OST_MODE_OSTRICH && ost_sched_config(cc->w->s)->rank ==
	    OST_RANK_FINISH) {
		if (cc->seen && cc->last_elig == c->eligible)
			OST_CHECK(c->vct >= cc->last_vct ||
				      c->vct >= cc->last_vct - 1e-6 *
				      (1 + fabs(c->vct)), "C~ not sorted: "
				      "%u/%u F %.17g C~ %.17g after %.17g "
				      "(v %.17g)", c->uid, c->seq,
				      c->vfinish, c->vct, cc->last_vct,
				      ref_vtime(cc->w->r));
		cc->last_vct = c->vct;
		cc->last_elig = c->eligible;
		cc->seen = 1;
	}
	return 0;
}

/* ost_sched_job_vct(), the submission's O(U) C~, against the reference's
 * projection for the job's campaign. */
static int _check_job_vct(const ost_job_info_t *j, void *arg)
{
	world_t *w = arg;
	double S, F, D, rv, vct = NAN;

	OST_CHECK(ost_sched_job_vct(w->s, j->id, &vct) == 0,
		  "job %llu: no C~", (unsigned long long)j->id);
	OST_CHECK(ref_campaign(w->r, j->uid, j->campaign, &S, &F, &D),
		  "campaign %u/%u unknown to the reference", j->uid,
		  j->campaign);
	rv = ref_vct(w->r, F) + (w->offset - w->base);
	OST_CHECK(rv == vct || fabs(rv - vct) <= 1e-6 * (1 + fabs(rv)),
		  "job %llu C~ %.17g vs ref %.17g", (unsigned long long)j->id,
		  vct, rv);
	return 0;
}

static void _compare_campaigns(world_t *w)
{
	camp_check_t cc = { .w = w };
	double vct;

	ck_assert_int_eq(ost_sched_foreach_campaign(w->s, _check_campaign,
						    &cc), 0);
	ck_assert_int_eq(ost_sched_foreach_job(w->s, _check_job_vct, w), 0);
	ck_assert_int_eq(ost_sched_job_vct(w->s, 0, &vct), -OST_ENOENT);
}

static pjob_t *_by_id(world_t *w, uint64_t id)
{
	return &w->jobs[id - 1];
}

/* List dispatch in the engine's order (strict gate: eligible only). */
static int _dispatch_one(const ost_rank_info_t *ri, void *arg)
{
	world_t *w = arg;
	pjob_t *j = _by_id(w, ri->job_id);

	if (ost_sched_config(w->s)->gate == OST_GATE_STRICT && !ri->eligible)
		return 0;
	if (j->q <= w->free) {
		/* the host may give more CPUs than asked (churn loops) */
		if (w->churn && j->q < w->free && !_rand(4))
			j->q += 1 + _rand(w->free - j->q);
		w->free -= j->q;
		j->state = 2;
		return (int)ri->job_id;	/* restart: the order changed */
	}
	return 0;
}

static void _dispatch(world_t *w, double t)
{
	int id;

	while ((id = ost_sched_foreach_pending(w->s, _dispatch_one, w))) {
		pjob_t *j = _by_id(w, (uint64_t)id);

		if (w->churn) {
			OST_CHECK(ost_job_start_alloc(w->s, j->id,
						      t + w->offset, j->q) == 0,
				  "start %llu on %u CPUs",
				  (unsigned long long)j->id, j->q);
			ref_start_alloc(w->r, j->id, t + w->base, j->q);
		} else {
			OST_CHECK(ost_job_start(w->s, j->id, t) == 0,
				  "start %llu", (unsigned long long)j->id);
			ref_start(w->r, j->id, t);
		}
		j->end = t + j->p;
		w->events++;
		_compare(w);
	}
}

/* Every 16th churn: the engine's state, loaded into a copy and saved
 * again, gives the same bytes and the copy the same order, so the
 * inputs of §24 and §27 (and all else a tag derives from) are in the
 * file (doc/state-format.md).  The run goes on with the original: a
 * copy's sums of weights may round differently from the reference's.
 * The copy takes the configuration in force after the load, as the
 * plugin does (osl_part.c): a version-1 file holds only the base keys,
 * so without it a copy would rank by F under Rank=served or capped.  The
 * order is compared without §12 only: a reloaded job keeps its charge
 * and takes no further step (§12, by design). */
static void _reload(world_t *w)
{
	char *buf = NULL, *buf2 = NULL, err[256];
	size_t len = 0, len2 = 0;
	ost_sched_t *copy = NULL;
	order_t a, b;

	OST_CHECK(ost_sched_save(w->s, &buf, &len) == 0, "save");
	OST_CHECK(ost_sched_load(buf, len, &copy, err, sizeof(err)) == 0,
		  "load: %s", err);
	OST_CHECK(ost_sched_save(copy, &buf2, &len2) == 0, "save again");
	OST_CHECK(len == len2 && !memcmp(buf, buf2, len),
		  "the state does not round-trip (event %llu)",
		  (unsigned long long)w->events);
	/* as the plugin does: the file's configuration, then the one in
	 * force (version 1 holds only the base keys) */
	OST_CHECK(ost_sched_reconfigure(copy, ost_sched_config(w->s),
					ost_sched_now(copy)) == 0,
		  "reconfigure the copy");
	a = order_of(w->s);
	b = order_of(copy);
	/* order_t keeps the first 256 ranks */
	if (!ost_sched_config(w->s)->evidence)
		OST_CHECK(a.n == b.n &&
			  !memcmp(a.ids, b.ids, (a.n < 256 ? a.n : 256) *
						sizeof(*a.ids)),
			  "the loaded copy orders otherwise (event %llu)",
			  (unsigned long long)w->events);
	free(buf);
	free(buf2);
	ost_sched_destroy(copy);
}

/* The first job in `state` (of uid, or of anyone for uid 0) from a random
 * index on, or NULL. */
static pjob_t *_some(world_t *w, int state, uint32_t uid)
{
	uint32_t i;

	for (i = _rand(NJOBS); i < NJOBS; i++)
		if (w->jobs[i].state == state &&
		    (!uid || w->jobs[i].uid == uid))
			return &w->jobs[i];
	return NULL;
}

/* Churn loops: requeue a running job, widen or narrow a pending one, or
 * rebase the engine. */
static void _churn(world_t *w, double t)
{
	pjob_t *j;

	if (++w->churns % 16 == 0)
		_reload(w);

	if (!_rand(6)) {
		if ((j = _some(w, 2, 0))) {
			OST_CHECK(ost_job_requeue(w->s, j->id,
						  t + w->offset) == 0,
				  "requeue %llu", (unsigned long long)j->id);
			ref_requeue(w->r, j->id, t + w->base);
			w->free += j->q;
			j->state = 1;
			w->events++;
			_compare(w);
		}
	}

	if (!_rand(3)) {
		if ((j = _some(w, 1, 0))) {
			uint32_t q = 1 + _rand(w->m < 8 ? w->m : 8);
			double e = _rand(4) ? 1 + _rand(60) : j->e;

			OST_CHECK(ost_job_update(w->s, j->id, q, e,
						 t + w->offset) == 0,
				  "update %llu", (unsigned long long)j->id);
			ref_update(w->r, j->id, q, e, t + w->base);
			j->p = j->p / j->e * e;
			j->q = q;
			j->e = e;
			w->events++;
			_compare(w);
		}
	}
	if (!_rand(8)) {
		double delta = (double)_rand(1u << 21) - (double)(1u << 20);

		OST_CHECK(ost_sched_rebase(w->s, delta) == 0, "rebase %g",
			  delta);
		w->offset += delta;
		_compare(w);
		_compare_campaigns(w);
	}
}

/* The pending job of uid in its oldest campaign with one (lowest id among
 * them), or NULL. */
static pjob_t *_oldest_pending(world_t *w, uint32_t uid)
{
	pjob_t *best = NULL;

	for (uint32_t i = 0; i < NJOBS; i++) {
		pjob_t *j = &w->jobs[i];

		if (j->state == 1 && j->uid == uid &&
		    (!best || j->camp < best->camp))
			best = j;
	}
	return best;
}

/*
 * Many-campaign loops: cancel pending jobs of random users, in their
 * oldest campaigns and anywhere (so one user gets changes in several
 * campaigns), then resize one in an oldest campaign.  No comparison
 * between them: the caller compares after the instant's finishes and
 * cancels.
 */
static void _early(world_t *w, double t, uint32_t users, uint32_t *done)
{
	uint32_t n = _rand(4), i, uid = 1 + _rand(users);
	pjob_t *j;

	for (i = 0; i < n; i++) {
		j = _rand(2) ? _oldest_pending(w, uid) : _some(w, 1, uid);
		if (!j)
			continue;
		OST_CHECK(ost_job_cancel(w->s, j->id, t + w->offset) == 0,
			  "cancel %llu", (unsigned long long)j->id);
		ref_cancel(w->r, j->id, t + w->base);
		j->state = 3;
		(*done)++;
		w->events++;
	}
	if (_rand(2) && (j = _oldest_pending(w, 1 + _rand(users)))) {
		uint32_t q = 1 + _rand(w->m < 8 ? w->m : 8);
		double e = 1 + _rand(60);

		OST_CHECK(ost_job_update(w->s, j->id, q, e,
					 t + w->offset) == 0,
			  "update %llu", (unsigned long long)j->id);
		ref_update(w->r, j->id, q, e, t + w->base);
		j->p = 1 + _rand((uint32_t)(1.3 * e));
		j->q = q;
		j->e = e;
		w->events++;
	}
}

static void _run(uint64_t seed, bool churn, bool many)
{
	static world_t w;
	ost_config_t cfg;
	double t = 0;
	uint32_t users, u, i, done = 0, per_camp, count[10] = { 0 };

	memset(&w, 0, sizeof(w));
	_rng = seed;
	w.churn = churn;
	w.many = many;
	/* 1.5 * 2^30: every time of the run stays in [2^30, 2^31) */
	w.base = churn ? 1610612736.0 : 0.0;
	w.offset = w.base;
	ost_config_init(&cfg);
	cfg.procs = w.m = w.free = 4 + _rand(13);
	cfg.mode = _rand(4) ? OST_MODE_OSTRICH : OST_MODE_FAIRCAMP;
	cfg.capacity = _rand(2) ? OST_CAPACITY_USED : OST_CAPACITY_FULL;
	cfg.gate = _rand(3) ? OST_GATE_SOFT : OST_GATE_STRICT;
	cfg.intra = (ost_intra_t)_rand(4);
	cfg.think_time = _rand(2) ? 0 : 20 * _rand(5);
	cfg.faircamp_users = _rand(3) ? 0 : 3;
	/* from the seed, not the generator, so the workloads stay those of
	 * the default key: every key (§13, §14) over the seeds */
	cfg.rank = (ost_rank_t)(seed % 3);
	cfg.rank_cap = (double)(seed % 5);
	cfg.evidence = seed / 3 % 2;
	cfg.evidence_floor = 1 + (double)(seed % 7) * 4;
	/* §24: every lead and kappa over the seeds, and gate=none in
	 * place of soft for half of them (from the seed, as above) */
	cfg.lead = (ost_lead_t)(seed / 6 % 3);
	cfg.lead_cap = 0.5 * (double)(seed / 2 % 4);
	if (cfg.gate == OST_GATE_SOFT && seed / 18 % 2)
		cfg.gate = OST_GATE_NONE;
	/* §24: a capped campaign can end in V before an earlier one of
	 * its user; the strict gate would then wait for a V that stopped */
	if (cfg.lead == OST_LEAD_CAP && cfg.gate == OST_GATE_STRICT)
		cfg.gate = OST_GATE_SOFT;
	/* §27: overdue work rejoining V, for half of the seeds */
	cfg.overdue = (ost_overdue_t)(seed / 4 % 2);
	w.s = ost_sched_create(&cfg);
	w.r = ref_create(&cfg);
	users = many ? 2 + _rand(2) : 2 + _rand(7);
	per_camp = 1 + _rand(4);
	for (u = 1; u <= users; u++) {
		double wt = 1 + _rand(3);

		ck_assert_int_eq(ost_user_set_weight(w.s, u, wt, w.offset), 0);
		ref_set_weight(w.r, u, wt);
	}
	for (i = 0; i < NJOBS; i++) {
		pjob_t *j = &w.jobs[i];

		t += _rand(4) ? (many ? _rand(3) : 0.5 * _rand(20)) : 0;
		j->id = i + 1;
		j->uid = 1 + _rand(users);
		j->q = 1 + _rand(many ? 2 : w.m < 8 ? w.m : 8);
		j->e = 1 + _rand(60);
		/* may exceed e; whole seconds in many-campaign loops, so that
		 * finishes coincide */
		j->p = many ? 1 + _rand((uint32_t)(1.3 * j->e))
			    : j->e * (0.1 + 0.01 * _rand(120));
		j->submit = t;
		j->camp = many ? 1 + count[j->uid]++ / per_camp : 0;
	}
	while (done < NJOBS) {
		double next = INFINITY;

		for (i = 0; i < NJOBS; i++) {
			if (w.jobs[i].state == 0 && w.jobs[i].submit < next)
				next = w.jobs[i].submit;
			if (w.jobs[i].state == 2 && w.jobs[i].end < next)
				next = w.jobs[i].end;
		}
		/* gate=strict: nothing runs and only queued campaigns are
		 * left; wake up when v reaches the first S */
		if (isinf(next))
			next = ost_sched_next_vevent(w.s) - w.offset;
		OST_CHECK(isfinite(next), "%u jobs left and no event",
			  NJOBS - done);
		t = next;
		for (i = 0; i < NJOBS; i++) {	/* completions */
			pjob_t *j = &w.jobs[i];

			if (j->state != 2 || j->end != t)
				continue;
			OST_CHECK(ost_job_finish(w.s, j->id, t + w.offset,
						 j->p) == 0,
				  "finish %llu", (unsigned long long)j->id);
			ref_finish(w.r, j->id, t + w.base, j->p);
			w.free += j->q;
			j->state = 3;
			done++;
			w.events++;
			if (!many)
				_compare(&w);
		}
		if (many)
			_early(&w, t, users, &done);
		for (i = 0; i < NJOBS; i++) {	/* submissions */
			pjob_t *j = &w.jobs[i];
			uint32_t c1;

			if (j->state != 0 || j->submit != t)
				continue;
			if (many) {
				sub_in(w.s, j->id, j->uid, j->q, j->e,
				       t + w.offset, j->camp);
				c1 = j->camp;
			} else {
				c1 = sub(w.s, j->id, j->uid, j->q, j->e,
					 t + w.offset);
			}
			OST_CHECK(c1 == (many ? ref_submit_in(w.r, j->id,
							      j->uid, j->q,
							      j->e, t + w.base,
							      j->camp)
					      : ref_submit(w.r, j->id, j->uid,
							   j->q, j->e,
							   t + w.base)),
				  "job %llu: campaign %u differs from the "
				  "reference", (unsigned long long)j->id, c1);
			j->state = 1;
			w.events++;
			if (!many)
				_compare(&w);
		}
		if (many) {
			_compare(&w);
			_compare_campaigns(&w);
		}
		if (!_rand(10)) {		/* cancel a pending job */
			pjob_t *j = _some(&w, 1, 0);

			if (j) {
				OST_CHECK(ost_job_cancel(w.s, j->id,
							 t + w.offset) == 0,
					  "cancel %llu",
					  (unsigned long long)j->id);
				ref_cancel(w.r, j->id, t + w.base);
				j->state = 3;
				done++;
				w.events++;
				_compare(&w);
			}
		}
		if (churn)
			_churn(&w, t);
		ost_sched_advance(w.s, t + w.offset);
		ref_advance(w.r, t + w.base);
		_compare(&w);
		_compare_campaigns(&w);
		_dispatch(&w, t);
	}
	ost_sched_destroy(w.s);
	ref_destroy(w.r);
}

START_TEST(test_property_random_workloads)
{
	_run(1000 + (uint64_t)_i, false, false);
}
END_TEST

START_TEST(test_property_updates_wide_starts_rebases)
{
	_run(5000 + (uint64_t)_i, true, false);
}
END_TEST

START_TEST(test_property_many_campaigns)
{
	/* odd loops also resize, start wide and rebase */
	_run(9000 + (uint64_t)_i, _i & 1, true);
}
END_TEST

Suite *suite(void)
{
	const char *env = getenv("OST_PROPERTY_LOOPS");
	int loops = env ? atoi(env) : 24;
	Suite *s = suite_create("property");
	/* one random workload takes up to 0.5 s, about 2 s under ASan with a
	 * busy core: 300 s each */
	TCase *tc = ost_tcase("Invariants", 300);

	tcase_add_loop_test(tc, test_property_random_workloads, 0,
			    loops > 0 ? loops : 24);
	tcase_add_loop_test(tc, test_property_updates_wide_starts_rebases, 0,
			    loops > 0 ? loops : 24);
	tcase_add_loop_test(tc, test_property_many_campaigns, 0,
			    loops > 0 ? loops : 24);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
