/*****************************************************************************\
 *  check_acct_state.c - the state file of the nested schedule (§21)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The property: random workloads on 2 and 3 levels of accounts (users at
 *  the root too), with accounts declared as the run goes, shares and
 *  weights changed, jobs submitted with -A (a user in two accounts) and
 *  users moved between accounts, drive two schedules in lockstep.  Every
 *  few events the second is replaced by the load of the first's save:
 *  that load saves the same bytes again, and after every later event the
 *  two save the same bytes (every v_n, W_n, tag, key and heap) and rank
 *  the same jobs in the same order.  Shares of 3 make sums inexact, so
 *  the order they are taken in matters.
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "util.h"

static uint64_t _rng;

static uint32_t _rand(uint32_t n)
{
	_rng = _rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((_rng >> 33) % n);
}

static double _share(void)
{
	static const double s[] = { 0.5, 1, 1, 2, 3 };

	return s[_rand(5)];
}

#define MAXA 12
#define MAXJ 400

typedef struct {
	uint32_t acct[MAXA], parent[MAXA];
	int na, levels;
	uint32_t nu;			/* uids 1..nu */
	uint64_t pend[MAXJ], run[MAXJ];
	int np, nr;
	uint64_t next_id;
	double t;
} world_t;

static int _moves, _dash_a, _nices;	/* what the runs did, all seeds */

static char *_save(const ost_sched_t *s, size_t *len)
{
	char *buf = NULL;

	ck_assert_int_eq(ost_sched_save(s, &buf, len), 0);
	return buf;
}

/* The same text, else the first line that differs. */
static void _same_text(const char *x, const char *y)
{
	size_t i = 0, line = 0;

	while (x[i] && x[i] == y[i])
		i++;
	while (i && x[i - 1] != '\n')
		i--;
	for (size_t k = 0; k < i; k++)
		line += x[k] == '\n';
	ck_assert_msg(!strcmp(x, y), "line %zu: '%.*s' != '%.*s'", line + 1,
		      (int)strcspn(x + i, "\n"), x + i,
		      (int)strcspn(y + i, "\n"), y + i);
}

/* a's save, loaded: it saves the same bytes. */
static ost_sched_t *_reload(const ost_sched_t *a)
{
	ost_sched_t *b = NULL;
	char err[256], *s1, *s2;
	size_t l1, l2;

	s1 = _save(a, &l1);
	ck_assert_msg(!ost_sched_load(s1, l1, &b, err, sizeof(err)),
		      "load: %s", err);
	s2 = _save(b, &l2);
	_same_text(s1, s2);
	free(s1);
	free(s2);
	return b;
}

static bool _flat;	/* the run has Hierarchy=users */

/* Sort the ties of the root line's active= in place, and drop the end
 * line: a version-1 file does not keep the heap's layout (its loader
 * rebuilds it), so a version-2 file saved later may list the same
 * users in another order. */
static void _canon_root(char *s)
{
	char *p = strstr(s, "\nend "), *v, *end;
	uint64_t tie[64];
	size_t n = 0, i, k;

	if (p)
		p[1] = '\0';	/* and the end line's checksum with it */
	p = strstr(s, "\nroot ");
	if (!p || !(v = strstr(p, " active=")) || v[8] == '-')
		return;
	v += 8;
	for (end = v; *end != '\n'; end++)
		;
	for (p = v; p < end && n < 64; p++) {
		tie[n++] = strtoull(p, &p, 10);
		if (*p != ',')
			break;
	}
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && tie[k - 1] > tie[k]; k--) {
			uint64_t x = tie[k];

			tie[k] = tie[k - 1];
			tie[k - 1] = x;
		}
	for (p = v, i = 0; i < n; i++)
		p += sprintf(p, "%s%llu", i ? "," : "",
			     (unsigned long long)tie[i]);
	*p = '\n';	/* the same length: the same ties */
}

static void _same(const ost_sched_t *a, const ost_sched_t *b)
{
	static camp_infos_t ia, ib;
	size_t la, lb, i;
	char *sa = _save(a, &la), *sb = _save(b, &lb);
	order_t oa = order_of(a), ob = order_of(b);

	if (_flat) {
		_canon_root(sa);
		_canon_root(sb);
	}
	_same_text(sa, sb);
	camp_infos(a, &ia);
	camp_infos(b, &ib);
	ck_assert_uint_eq(ia.n, ib.n);
	for (i = 0; i < ia.n; i++)
		ck_assert(ia.v[i].uid == ib.v[i].uid &&
			  ia.v[i].seq == ib.v[i].seq &&
			  ia.v[i].vstart == ib.v[i].vstart &&
			  ia.v[i].vfinish == ib.v[i].vfinish &&
			  ia.v[i].eligible == ib.v[i].eligible);
	ck_assert_uint_eq(oa.n, ob.n);
	for (i = 0; i < oa.n && i < 256; i++) {
		ck_assert_uint_eq(oa.ids[i], ob.ids[i]);
		ck_assert_int_eq(oa.elig[i], ob.elig[i]);
	}
	free(sa);
	free(sb);
}

/* A new account, on a and (unless NULL) b. */
static void _declare(ost_sched_t *a, ost_sched_t *b, world_t *w)
{
	uint32_t id = 100 + (uint32_t)w->na, parent = 0;
	double sh = _share();

	if (w->levels == 3 && w->na && _rand(2))
		parent = w->acct[_rand((uint32_t)w->na)];
	if (w->na == MAXA || !w->levels)	/* flat: no account */
		return;
	ck_assert_int_eq(ost_acct_declare(a, id, parent, sh, w->t), 0);
	if (b)
		ck_assert_int_eq(ost_acct_declare(b, id, parent, sh, w->t), 0);
	w->parent[w->na] = parent;
	w->acct[w->na++] = id;
}

static uint32_t _some_acct(const world_t *w)
{
	return w->na ? w->acct[_rand((uint32_t)w->na)] : 0;
}

static void _take(uint64_t *v, int *n, int i)
{
	v[i] = v[--*n];
}

/* One random event, the same on a and b (same return code). */
static void _event(ost_sched_t *a, ost_sched_t *b, world_t *w)
{
	uint32_t k = _rand(22), uid = 1 + _rand(w->nu);
	int ra, rb, i;

	w->t += (double)_rand(4) * 2.5;
	if (k < 8 && w->np + w->nr < MAXJ) {
		ost_job_desc_t d = { .id = ++w->next_id, .uid = uid,
				     .procs = 1 + _rand(3),
				     .estimate = 10.0 + (double)_rand(40) / 3,
				     .account = _rand(4) ? 0 : _some_acct(w),
				     .nice = _rand(4) ? 0 : (int32_t)_rand(5) - 2 };

		ra = ost_job_submit(a, &d, w->t, NULL);
		rb = ost_job_submit(b, &d, w->t, NULL);
		ck_assert_int_eq(ra, 0);
		_dash_a += d.account != 0;
		w->pend[w->np++] = d.id;
	} else if (k < 12 && w->np) {
		i = (int)_rand((uint32_t)w->np);
		ra = ost_job_start(a, w->pend[i], w->t);
		rb = ost_job_start(b, w->pend[i], w->t);
		ck_assert_int_eq(ra, 0);
		w->run[w->nr++] = w->pend[i];
		_take(w->pend, &w->np, i);
	} else if (k < 15 && w->nr) {
		double p = (double)_rand(30) / 4;

		i = (int)_rand((uint32_t)w->nr);
		ra = ost_job_finish(a, w->run[i], w->t, p);
		rb = ost_job_finish(b, w->run[i], w->t, p);
		ck_assert_int_eq(ra, 0);
		_take(w->run, &w->nr, i);
	} else if (k == 15 && w->np) {
		i = (int)_rand((uint32_t)w->np);
		ra = ost_job_cancel(a, w->pend[i], w->t);
		rb = ost_job_cancel(b, w->pend[i], w->t);
		ck_assert_int_eq(ra, 0);
		_take(w->pend, &w->np, i);
	} else if (k == 16 && w->na) {	/* a share changes */
		double sh = _share();

		i = (int)_rand((uint32_t)w->na);
		ra = ost_acct_declare(a, w->acct[i], w->parent[i], sh, w->t);
		rb = ost_acct_declare(b, w->acct[i], w->parent[i], sh, w->t);
		ck_assert_int_eq(ra, 0);
	} else if (k == 17) {
		double wt = _share();

		ra = ost_user_set_weight(a, uid, wt, w->t);
		rb = ost_user_set_weight(b, uid, wt, w->t);
		ck_assert_int_eq(ra, 0);
	} else if (k == 18) {	/* a move: refused while it has work */
		uint32_t to = _rand(3) ? _some_acct(w) : 0;

		ra = ost_user_set_account(a, uid, to, w->t);
		rb = ost_user_set_account(b, uid, to, w->t);
		ck_assert(ra == 0 || ra == -OST_ESTATE);
		_moves += ra == 0;
	} else if (k >= 20 && w->np) {	/* §22: a user reorders */
		int32_t nice = (int32_t)_rand(5) - 2;

		i = (int)_rand((uint32_t)w->np);
		ra = ost_job_set_nice(a, w->pend[i], nice, w->t);
		rb = ost_job_set_nice(b, w->pend[i], nice, w->t);
		ck_assert_int_eq(ra, 0);
		_nices++;
	} else {
		_declare(a, b, w);	/* an account joins */
		ra = rb = 0;
	}
	ck_assert_int_eq(ra, rb);
}

static void _tweak(ost_config_t *c)
{
	c->hierarchy = OST_HIER_ACCOUNTS;
	c->think_time = 20;
	c->capacity = OST_CAPACITY_USED;
}

/* Hierarchy=users: accounts kept but shaping nothing; nice values make
 * the file version 2 */
static void _tweak_flat(ost_config_t *c)
{
	_tweak(c);
	c->hierarchy = OST_HIER_USERS;
}

static void _run(uint64_t seed, int levels)
{
	world_t w = { .levels = levels };
	ost_sched_t *a = mk_sched(4 + (uint32_t)(seed % 5),
				  levels ? _tweak : _tweak_flat), *b;
	uint32_t u;
	int e;

	_rng = seed;
	_flat = !levels;
	w.nu = 3 + _rand(6);
	for (e = 0; e < 2 + (int)_rand(3); e++)
		_declare(a, NULL, &w);	/* b will be a's load */
	for (u = 1; u <= w.nu; u++) {
		if (u > 1)
			ck_assert_int_eq(ost_user_set_weight(a, u, _share(), 0),
					 0);
		ck_assert_int_eq(ost_user_set_account(a, u,
			_rand(5) ? _some_acct(&w) : 0, 0), 0);
	}
	b = _reload(a);
	for (e = 0; e < 240; e++) {
		_event(a, b, &w);
		_same(a, b);
		if (e % 7 == 6) {	/* restart from the saved file */
			ost_sched_destroy(b);
			b = _reload(a);
		}
	}
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}

static int _loops(void)
{
	const char *e = getenv("OST_PROPERTY_LOOPS");

	return e ? atoi(e) : 30;
}

/* loop 0: 2 levels, 1: 3 levels, 2: Hierarchy=users */
START_TEST(test_acct_state_lockstep)
{
	int seed;

	_moves = _dash_a = _nices = 0;
	for (seed = 1; seed <= _loops(); seed++)
		_run(0x5000 + (uint64_t)seed * 7919 + (uint64_t)_i,
		     _i < 2 ? 2 + _i : 0);
	ck_assert_int_gt(_moves, _loops());
	if (_i < 2)	/* the flat runs declare no account */
		ck_assert_int_gt(_dash_a, 5 * _loops());
	ck_assert_int_gt(_nices, 5 * _loops());
}
END_TEST

/* The file says version 2 and carries the accounts, the -A leaf and the
 * user's own account; a flat schedule still writes version 1. */
/* Account 20 under 10; user 1 in 10 with a job, and one with -A 20. */
static ost_sched_t *_small(void)
{
	ost_sched_t *s = mk_sched(4, _tweak);
	ost_job_desc_t d = { .id = 2, .uid = 1, .procs = 1, .estimate = 10,
			     .account = 20 };

	ck_assert_int_eq(ost_acct_declare(s, 10, 0, 1, 0), 0);
	ck_assert_int_eq(ost_acct_declare(s, 20, 10, 3, 0), 0);
	ck_assert_int_eq(ost_user_set_account(s, 1, 10, 0), 0);
	sub(s, 1, 1, 2, 10, 0);
	ck_assert_int_eq(ost_job_submit(s, &d, 0, NULL), 0);
	return s;
}

START_TEST(test_acct_state_format)
{
	ost_sched_t *s = _small(), *f = mk_sched(4, NULL), *b;
	size_t len;
	char *buf, err[256];

	buf = _save(s, &len);
	ck_assert(!strncmp(buf, "ostrich-state 2\n", 16));
	ck_assert_ptr_nonnull(strstr(buf, " hierarchy=accounts\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\naccount id=20 parent=10 "));
	ck_assert_ptr_nonnull(strstr(buf, "\nuser uid=1 account=10 "));
	ck_assert_ptr_nonnull(strstr(buf, "\nleaf uid=1 account=20 "));
	ck_assert_ptr_nonnull(strstr(buf, "\njob id=2 uid=1 leaf=20 "));
	ck_assert_int_eq(ost_sched_load(buf, len, &b, err, sizeof(err)), 0);
	ck_assert_int_eq(ost_sched_config(b)->hierarchy, OST_HIER_ACCOUNTS);
	_same(s, b);
	free(buf);
	sub(f, 1, 1, 2, 10, 0);
	buf = _save(f, &len);
	ck_assert(!strncmp(buf, "ostrich-state 1\nconfig ", 23));
	ck_assert_ptr_null(strstr(buf, "hierarchy"));
	free(buf);
	ost_sched_destroy(s);
	ost_sched_destroy(f);
	ost_sched_destroy(b);
}
END_TEST

/* Reseal buf (a version-2 state) after replacing `from` by `to` and
 * expect the load to be refused with a reason containing `why`. */
static void _bad_edit(const char *buf, const char *from, const char *to,
		      const char *why)
{
	const char *p = strstr(buf, from), *end;
	size_t n = strlen(buf) + strlen(to) + 64, body;
	char *ed = malloc(n), err[256];
	ost_sched_t *out = (ost_sched_t *)0x1;
	unsigned lines = 0;
	const char *q;
	uint32_t crc = 0xffffffffu;

	ck_assert_ptr_nonnull(p);
	snprintf(ed, n, "%.*s%s%s", (int)(p - buf), buf, to, p + strlen(from));
	end = strstr(ed, "\nend ");
	ck_assert_ptr_nonnull(end);
	body = (size_t)(end - ed) + 1;
	for (q = ed; q < ed + body; q++) {
		int b;

		lines += *q == '\n';
		crc ^= (unsigned char)*q;
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	snprintf(ed + body, n - body, "end records=%u crc32=%08x\n",
		 lines - 1, ~crc);
	ck_assert_int_eq(ost_sched_load(ed, strlen(ed), &out, err,
					sizeof(err)), -OST_ECORRUPT);
	ck_assert_ptr_eq(out, (ost_sched_t *)0x1);
	ck_assert_msg(strstr(err, why), "error '%s' lacks '%s'", err, why);
	free(ed);
}

/* Damaged version-2 records are refused with a reason, nothing loaded;
 * a newer version is -OST_EVERSION. */
START_TEST(test_acct_state_damaged)
{
	ost_sched_t *s = _small(), *out = NULL;
	size_t len;
	char *buf, err[128];

	buf = _save(s, &len);
	_bad_edit(buf, "account id=20 parent=10", "account id=20 parent=30",
		  "unknown");
	_bad_edit(buf, "account id=20 parent=10", "account id=10 parent=10",
		  "duplicate");
	_bad_edit(buf, "user uid=1 account=10", "user uid=1 account=30",
		  "unknown account");
	_bad_edit(buf, "leaf uid=1 account=20", "leaf uid=2 account=20",
		  "leaf of unknown user 2");
	_bad_edit(buf, "job id=2 uid=1 leaf=20", "job id=2 uid=1 leaf=10",
		  "unknown campaign");
	_bad_edit(buf, "root weight=0x1p+0 active=", "root weight=0x0p+0 "
		  "active=", "weight sum");
	_bad_edit(buf, "weight=0x1p+0 active=9223372036854775809\n",
		  "weight=0x0p+0 active=-\n", "idle with active children");
	_bad_edit(buf, "\nroot ", "\nroot2 ", "expected root");
	_bad_edit(buf, " gate=nan\n", " gate=inf\n", "gate=inf");
	buf[14] = '0' + OST_STATE_VERSION_NEWEST + 1;	/* newer */
	ck_assert_int_eq(ost_sched_load(buf, len, &out, err, sizeof(err)),
			 -OST_EVERSION);
	ck_assert_ptr_null(out);
	free(buf);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("acct_state");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT * 5);

	tcase_add_loop_test(tc, test_acct_state_lockstep, 0, 3);
	tcase_add_test(tc, test_acct_state_format);
	tcase_add_test(tc, test_acct_state_damaged);
	suite_add_tcase(s, tc);
	return s;
}

OST_TEST_MAIN
