/*****************************************************************************\
 *  check_save_load.c - saving and loading the engine state
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <string.h>

#include "util.h"

static void _tau(ost_config_t *c)
{
	c->think_time = 60;
	c->capacity = OST_CAPACITY_USED;
}

/* A state with every kind of record: users with weights, several
 * campaigns, pending and running jobs, groups, forgotten campaigns. */
static ost_sched_t *_busy_sched(void)
{
	ost_sched_t *s = mk_sched(8, _tau);
	ost_job_desc_t d = { .id = 100, .uid = 3, .procs = 2, .estimate = 30,
			     .group = 100 };

	ck_assert_int_eq(ost_user_set_weight(s, 2, 2.5, 0), 0);
	sub(s, 1, 1, 4, 10, 0);
	sub(s, 2, 2, 2, 7.5, 0.25);
	ck_assert_int_eq(ost_job_submit(s, &d, 1, NULL), 0);
	ck_assert_int_eq(ost_job_start(s, 1, 1), 0);
	ck_assert_int_eq(ost_job_start(s, 2, 1), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 5, 4), 0);
	sub_in(s, 3, 1, 1, 100, 200, 4);
	sub(s, 4, 2, 8, 1, 3);
	return s;
}

static char *_save(const ost_sched_t *s, size_t *len)
{
	char *buf = NULL;

	ck_assert_int_eq(ost_sched_save(s, &buf, len), 0);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(strlen(buf), *len);
	return buf;
}

/* A caller's allocator that counts its blocks and bytes, and fails the
 * call numbered fail_at (0: never). */
typedef struct {
	int calls, fail_at, blocks;
	size_t bytes;
} _count_t;

static void *_count_resize(void *p, size_t old, size_t size, void *arg)
{
	_count_t *c = arg;
	void *q;

	if (++c->calls == c->fail_at)
		return NULL;
	q = realloc(p, size);
	ck_assert_ptr_nonnull(q);
	if (!p)
		c->blocks++;
	c->bytes += size - old;
	return q;
}

static void _count_release(void *p, size_t size, void *arg)
{
	_count_t *c = arg;

	c->blocks--;
	c->bytes -= size;
	free(p);
}

/* ost_sched_save_with: the same text as ost_sched_save, every block from
 * the caller's allocator and released but the text (of *cap bytes); a
 * failure at any call is -OST_ENOMEM with every block released. */
START_TEST(test_state_save_with)
{
	ost_sched_t *s = _busy_sched();
	_count_t c = { 0 };
	ost_alloc_t a = { _count_resize, _count_release, &c };
	char *ref, *buf = NULL;
	size_t rlen, len = 0, cap = 0;
	int k, calls;

	for (k = 0; k < 200; k++)	/* a text past the first 4 KiB */
		sub(s, 1000 + k, 5 + k % 7, 1, 60 + k, 10);
	ref = _save(s, &rlen);
	ck_assert_uint_gt(rlen, 8192);
	ck_assert_int_eq(ost_sched_save_with(s, &a, &buf, &len, &cap), 0);
	ck_assert_uint_eq(len, rlen);
	ck_assert_str_eq(buf, ref);
	ck_assert_int_eq(c.blocks, 1);
	ck_assert_uint_eq(c.bytes, cap);
	ck_assert_uint_gt(cap, len);
	_count_release(buf, cap, &c);
	calls = c.calls;
	ck_assert_int_ge(calls, 4);	/* two arrays, the text, a growth */
	for (k = 1; k <= calls; k++) {
		_count_t f = { .fail_at = k };
		ost_alloc_t fa = { _count_resize, _count_release, &f };

		buf = NULL;
		ck_assert_int_eq(ost_sched_save_with(s, &fa, &buf, &len, &cap),
				 -OST_ENOMEM);
		ck_assert_ptr_null(buf);
		ck_assert_int_eq(f.blocks, 0);
		ck_assert_uint_eq(f.bytes, 0);
	}
	free(ref);
	ost_sched_destroy(s);
}
END_TEST

/* save -> load -> save gives the same bytes, and the loaded scheduler
 * continues exactly as the original. */
START_TEST(test_state_round_trip)
{
	ost_sched_t *a = _busy_sched(), *b = NULL;
	char err[256], *s1, *s2, *s3, *s4;
	size_t l1, l2, l3, l4;
	order_t oa, ob;
	size_t i;

	s1 = _save(a, &l1);
	ck_assert_int_eq(ost_sched_load(s1, l1, &b, err, sizeof(err)), 0);
	s2 = _save(b, &l2);
	ck_assert_str_eq(s1, s2);
	oa = order_of(a);
	ob = order_of(b);
	ck_assert_uint_eq(oa.n, ob.n);
	for (i = 0; i < oa.n; i++)
		ck_assert_uint_eq(oa.ids[i], ob.ids[i]);
	/* same future */
	ck_assert_int_eq(ost_job_start(a, 4, 250), 0);
	ck_assert_int_eq(ost_job_start(b, 4, 250), 0);
	ck_assert_int_eq(ost_job_finish(a, 2, 260, 12), 0);
	ck_assert_int_eq(ost_job_finish(b, 2, 260, 12), 0);
	s3 = _save(a, &l3);
	s4 = _save(b, &l4);
	ck_assert_str_eq(s3, s4);
	free(s1);
	free(s2);
	free(s3);
	free(s4);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* An empty scheduler round-trips too (clock -inf). */
START_TEST(test_state_empty)
{
	ost_sched_t *a = mk_sched(3, NULL), *b = NULL;
	char err[128], *buf;
	size_t len;

	buf = _save(a, &len);
	ck_assert_int_eq(ost_sched_load(buf, len, &b, err, sizeof(err)), 0);
	ck_assert(isinf(ost_sched_now(b)));
	ck_assert_uint_eq(ost_sched_config(b)->procs, 3);
	free(buf);
	ost_sched_destroy(a);
	ost_sched_destroy(b);
}
END_TEST

/* Expect load to fail with rc, leaving *out alone and saying why. */
static void _bad(const char *buf, size_t len, int rc, const char *needle)
{
	ost_sched_t *out = (ost_sched_t *)0x1;
	char err[256];

	ck_assert_int_eq(ost_sched_load(buf, len, &out, err, sizeof(err)), rc);
	ck_assert_ptr_eq(out, (ost_sched_t *)0x1);
	ck_assert_msg(strstr(err, needle), "error '%s' lacks '%s'", err,
		      needle);
}

/* Every truncation of a valid state is refused. */
START_TEST(test_state_truncated)
{
	ost_sched_t *a = _busy_sched();
	size_t len, cut;
	char *buf = _save(a, &len);

	for (cut = 0; cut < len; cut++) {
		ost_sched_t *out = NULL;
		char err[256];

		ck_assert_int_lt(ost_sched_load(buf, cut, &out, err,
						sizeof(err)), 0);
		ck_assert_ptr_null(out);
		ck_assert(err[0]);
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

/* Every single flipped byte is refused (CRC or parse). */
START_TEST(test_state_bit_flips)
{
	ost_sched_t *a = _busy_sched();
	size_t len, i;
	char *buf = _save(a, &len);

	for (i = 0; i < len; i++) {
		ost_sched_t *out = NULL;
		char err[256];

		buf[i] ^= 0x20;
		ck_assert_msg(ost_sched_load(buf, len, &out, err,
					     sizeof(err)) < 0,
			      "flip at %zu (%.20s) accepted", i,
			      buf + (i > 10 ? i - 10 : 0));
		ck_assert_ptr_null(out);
		buf[i] ^= 0x20;
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

START_TEST(test_state_bad_inputs)
{
	static const char nul[] = "ostrich-state 1\n\0config";

	_bad("", 0, -OST_ECORRUPT, "empty");
	_bad("hello\n", 6, -OST_ECORRUPT, "not an ostrich state");
	_bad("ostrich-state 9\n", 16, -OST_EVERSION, "version 9");
	_bad(nul, sizeof(nul) - 1, -OST_ECORRUPT, "NUL");
	_bad("ostrich-state 1\nclock now=0 vtime=0\n", 36, -OST_ECORRUPT,
	     "expected config");
	_bad("ostrich-state 1\nend records=0 crc32=00000000\n", 45,
	     -OST_ECORRUPT, "end before clock");
}
END_TEST

/* A record that is well formed but inconsistent is refused by line. */
START_TEST(test_state_inconsistent)
{
	const char *body =
		"ostrich-state 1\n"
		"config procs=4 mode=ostrich think_time=0x0p+0 capacity=full "
		"gate=soft intra=lpt faircamp_users=0 default_weight=0x1p+0\n"
		"clock now=0x0p+0 vtime=0x0p+0\n"
		"job id=1 uid=5 campaign=1 procs=1 estimate=0x1p+0 "
		"submit=0x0p+0 start=nan state=pending\n";
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%send records=3 crc32=00000000\n",
			 body);

	_bad(buf, (size_t)n, -OST_ECORRUPT, "line 4: job of unknown campaign");
}
END_TEST

/* CRC-32 of the state format, to reseal a state edited by a test. */
static uint32_t _crc(const char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= (unsigned char)*p++;
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

/* A copy of buf whose first line starting with `rec` has field key set to
 * val, resealed (count and CRC right), so only the value can be refused.
 * NULL when no such line has the key. */
static char *_edit(const char *buf, const char *rec, const char *key,
		   const char *val, size_t *len)
{
	char *out = malloc(strlen(buf) + strlen(val) + 64), *end;
	const char *line = buf, *k, *v_end, *tail;
	char pat[64];
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	while (line && strncmp(line, rec, strlen(rec)))
		line = (line = strchr(line, '\n')) ? line + 1 : NULL;
	if (!line || !(k = strstr(line, pat)) || k > strchr(line, '\n')) {
		free(out);
		return NULL;
	}
	k += strlen(pat);
	v_end = k + strcspn(k, " \n");
	n = (size_t)(k - buf);
	memcpy(out, buf, n);
	strcpy(out + n, val);
	tail = v_end;
	strcat(out, tail);
	end = strstr(out, "\nend records=");
	OST_CHECK(end, "no end line");
	end++;
	n = (size_t)(end - out);
	/* keep "end records=N", replace the CRC */
	sprintf(end + 4 + strcspn(end + 4, " "), " crc32=%08x\n",
		(unsigned)_crc(out, n));
	*len = strlen(out);
	return out;
}

/* Every field refuses values out of its range (doc/state-format.md),
 * even in a file whose checksum is right: a value the engine could not
 * have written would freeze the clock, merge campaigns or poison tags. */
START_TEST(test_state_ranges)
{
	static const struct {
		const char *rec, *key, *val;
	} bad[] = {
		{ "clock", "now", "inf" },
		{ "clock", "now", "nan" },
		{ "clock", "now", "0x1p+60" },
		{ "clock", "vtime", "-0x1p+0" },
		{ "clock", "vtime", "inf" },
		{ "clock", "now", " 0x0p+0" },
		{ "clock", "now", "+0x0p+0" },
		{ "config", "think_time", "0x1p+60" },
		{ "config", "think_time", "-0x1p+0" },
		{ "config", "default_weight", "0x1p-1074" },
		{ "config", "default_weight", "0x1p+30" },
		{ "config", "procs", "-1" },
		{ "config", "procs", "+4" },
		{ "user uid=2", "weight", "0x1p-1074" },
		{ "user uid=2", "weight", "1e-300" },
		{ "user uid=2", "weight", "1e7" },
		{ "user uid=2", "weight", "nan" },
		{ "user uid=2", "base_vfinish", "inf" },
		{ "user uid=2", "base_vfinish", "nan" },
		{ "user uid=2", "base_deadline", "inf" },
		{ "user uid=2", "last_seq", " 3" },
		{ "campaign uid=1", "last_end", "inf" },
		{ "campaign uid=1", "last_end", "0x1p+60" },
		{ "campaign uid=1", "t_c", "-inf" },
		{ "campaign uid=1", "max_e_done", "inf" },
		{ "campaign uid=1", "max_e_done", "-0x1p+0" },
		{ "campaign uid=1", "phi", "-0x1p+0" },
		{ "campaign uid=1", "len", "inf" },
		{ "campaign uid=1", "area", "inf" },
		{ "campaign uid=1", "area_est", "-0x1p+0" },
		{ "campaign uid=3", "groups", "+100" },
		{ "job id=2 ", "start", "GARBAGE" },
		{ "job id=2 ", "start", "nan" },
		{ "job id=2 ", "start", "inf" },
		{ "job id=4 ", "start", "0x1p+0" },
		{ "job id=4 ", "start", "GARBAGE" },
		{ "job id=4 ", "estimate", "0x1p+60" },
		{ "job id=4 ", "estimate", "-0x1p+0" },
		{ "job id=4 ", "submit", "inf" },
		{ "job id=4 ", "submit", "-0x1p+60" },
		{ "job id=4 ", "procs", "0" },
	};
	ost_sched_t *a = _busy_sched();
	size_t len, i, first_bad = SIZE_MAX;
	char *buf = _save(a, &len), why[320] = "";

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ost_sched_t *out = NULL;
		char err[256], *ed;
		size_t el;
		int rc;

		ed = _edit(buf, bad[i].rec, bad[i].key, bad[i].val, &el);
		OST_CHECK(ed, "no field %s in %s", bad[i].key, bad[i].rec);
		rc = ost_sched_load(ed, el, &out, err, sizeof(err));
		if ((rc != -OST_ECORRUPT || out || !strstr(err, bad[i].key) ||
		     strstr(err, "checksum")) && first_bad == SIZE_MAX) {
			first_bad = i;
			snprintf(why, sizeof(why), "rc %d, err '%s'", rc, err);
		}
		ost_sched_destroy(out);
		free(ed);
	}
	ck_assert_msg(first_bad == SIZE_MAX, "%s %s=%s accepted or misreported"
		      ": %s", first_bad < SIZE_MAX ? bad[first_bad].rec : "",
		      first_bad < SIZE_MAX ? bad[first_bad].key : "",
		      first_bad < SIZE_MAX ? bad[first_bad].val : "", why);
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

/* The edge values of each range still load. */
START_TEST(test_state_range_edges)
{
	static const struct {
		const char *rec, *key, *val;
	} good[] = {
		{ "user uid=2", "weight", "1e-6" },
		{ "user uid=2", "weight", "1e6" },
		{ "clock", "now", "-inf" },
		{ "clock", "now", "1e13" },
		{ "job id=4 ", "estimate", "1e12" },
		{ "job id=4 ", "start", "-nan" },
		{ "job id=2 ", "start", "-1e13" },
	};
	ost_sched_t *a = _busy_sched();
	size_t len, i;
	char *buf = _save(a, &len);

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ost_sched_t *out = NULL;
		char err[256], *ed;
		size_t el;

		ed = _edit(buf, good[i].rec, good[i].key, good[i].val, &el);
		OST_CHECK(ed, "no field %s", good[i].key);
		OST_CHECK(!ost_sched_load(ed, el, &out, err, sizeof(err)),
			  "%s=%s refused: %s", good[i].key, good[i].val, err);
		ost_sched_destroy(out);
		free(ed);
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

/* The magic line is exactly "ostrich-state N". */
START_TEST(test_state_magic)
{
	static const char *const bad[] = {
		"ostrich-state 1junk", "ostrich-state  1", "ostrich-state +1",
		"ostrich-state -1", "ostrich-state 1 ", "ostrich-state",
		"ostrich-state 0x1", "ostrich-state 99999999999",
	};
	ost_sched_t *a = _busy_sched();
	size_t len, i;
	char *buf = _save(a, &len);
	const char *rest = strchr(buf, '\n');

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *ed = malloc(len + 64);

		sprintf(ed, "%s%s", bad[i], rest);
		_bad(ed, strlen(ed), -OST_ECORRUPT, "not an ostrich state");
		free(ed);
	}
	free(buf);
	ost_sched_destroy(a);
}
END_TEST

#ifndef OST_TEST_DATA
#define OST_TEST_DATA "data"
#endif

/* A checksummed state with a denormal weight (it used to load, give NaN
 * tags and make the campaign query read out of bounds) is refused. */
START_TEST(test_state_denormal_weight_file)
{
	FILE *f = fopen(OST_TEST_DATA "/nan-weight.state", "rb");
	char buf[8192];
	size_t n;

	ck_assert_msg(f, "cannot open %s", OST_TEST_DATA "/nan-weight.state");
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	_bad(buf, n, -OST_ECORRUPT, "line 11: bad or out-of-range number "
	     "weight=0x1p-1074");
}
END_TEST

static int _count_campaign(const ost_campaign_info_t *c, void *arg)
{
	(void)c;
	++*(int *)arg;
	return 0;
}

/* The campaign numbers of a user saturate at UINT32_MAX: later jobs join
 * that campaign, and the state still saves and loads. */
START_TEST(test_state_seq_saturates)
{
	ost_sched_t *s = mk_sched(4, _tau), *b = NULL;
	ost_job_info_t ji;
	uint32_t c = 0;
	char err[256], *buf, *buf2;
	size_t len, len2;
	int n = 0;

	sub_in(s, 1, 7, 1, 10, 0, UINT32_MAX);
	ck_assert_int_eq(ost_job_start(s, 1, 0), 0);
	ck_assert_int_eq(ost_job_finish(s, 1, 10, 10), 0);
	/* far beyond the think time: would open campaign UINT32_MAX + 1 */
	c = sub(s, 2, 7, 1, 10, 10000);
	ck_assert_uint_eq(c, UINT32_MAX);
	ck_assert_int_eq(ost_job_get(s, 2, &ji), 0);
	ck_assert_uint_eq(ji.campaign, UINT32_MAX);
	/* an explicit later campaign cannot exist */
	{
		ost_job_desc_t d = { .id = 3, .uid = 7, .procs = 1,
				     .estimate = 1, .campaign = 5 };

		ck_assert_int_eq(ost_job_submit(s, &d, 10001, NULL),
				 -OST_EINVAL);
	}
	buf = _save(s, &len);
	ck_assert_msg(!ost_sched_load(buf, len, &b, err, sizeof(err)),
		      "saturated state refused: %s", err);
	buf2 = _save(b, &len2);
	ck_assert_str_eq(buf, buf2);
	ost_sched_foreach_campaign(b, _count_campaign, &n);
	ck_assert_int_eq(n, 1);
	free(buf);
	free(buf2);
	ost_sched_destroy(s);
	ost_sched_destroy(b);
}
END_TEST

/* The API refuses what the state file could not hold. */
START_TEST(test_api_ranges)
{
	ost_sched_t *s = mk_sched(4, NULL);
	ost_job_desc_t d = { .id = 1, .uid = 1, .procs = 1, .estimate = 1 };
	ost_config_t cfg;
	int bad = 0;

	bad |= (ost_user_set_weight(s, 1, 0x1p-1074, 0) != -OST_EINVAL) << 0;
	bad |= (ost_user_set_weight(s, 1, 1e-300, 0) != -OST_EINVAL) << 1;
	bad |= (ost_user_set_weight(s, 1, 2e6, 0) != -OST_EINVAL) << 2;
	bad |= (ost_user_set_weight(s, 1, 1e-6, 0) != 0) << 3;
	bad |= (ost_user_set_weight(s, 1, 1e6, 0) != 0) << 4;
	bad |= (ost_user_set_weight(s, 1, 1, INFINITY) != -OST_EINVAL) << 5;
	bad |= (ost_job_submit(s, &d, INFINITY, NULL) != -OST_EINVAL) << 6;
	bad |= (ost_job_submit(s, &d, 1e14, NULL) != -OST_EINVAL) << 7;
	d.estimate = 1e13;
	bad |= (ost_job_submit(s, &d, 0, NULL) != -OST_EINVAL) << 8;
	d.estimate = 1e12;
	bad |= (ost_job_submit(s, &d, 0, NULL) != 0) << 9;
	bad |= (ost_job_start(s, 1, INFINITY) != -OST_EINVAL) << 10;
	bad |= (ost_job_start(s, 1, 1) != 0) << 11;
	bad |= (ost_job_finish(s, 1, 2, 1e300) != -OST_EINVAL) << 12;
	bad |= (ost_job_finish(s, 1, -INFINITY, 1) != -OST_EINVAL) << 13;
	bad |= (ost_sched_advance(s, INFINITY) != 0) << 14;
	bad |= (ost_sched_now(s) != 1) << 15;
	ost_config_init(&cfg);
	cfg.default_weight = 1e-300;
	bad |= (ost_config_check(&cfg, NULL) != -OST_EINVAL) << 16;
	cfg.default_weight = 1;
	cfg.think_time = 1e300;
	bad |= (ost_config_check(&cfg, NULL) != -OST_EINVAL) << 17;
	bad |= (ost_sched_reconfigure(s, ost_sched_config(s), NAN) !=
		-OST_EINVAL) << 18;
	d.id = 2;
	d.estimate = 10;
	bad |= (ost_job_submit(s, &d, 3, NULL) != 0) << 19;
	bad |= (ost_job_update(s, 2, 1, 1e13, 4) != -OST_EINVAL) << 20;
	bad |= (ost_job_update(s, 2, 1, 5, INFINITY) != -OST_EINVAL) << 21;
	bad |= (ost_job_start_alloc(s, 2, -1e14, 2) != -OST_EINVAL) << 22;
	bad |= (ost_job_start_alloc(s, 2, 5, 2) != 0) << 23;
	/* a rebase that would push the clock or a start out of range */
	bad |= (ost_sched_rebase(s, 1e13) != -OST_EINVAL) << 24;
	bad |= (ost_sched_rebase(s, -1e13 - 6) != -OST_EINVAL) << 25;
	bad |= (ost_sched_now(s) != 5) << 26;
	bad |= (ost_sched_rebase(s, 100) != 0) << 27;
	bad |= (ost_job_finish_capped(s, 2, 1e14, 1, 1, NULL) !=
		-OST_EINVAL) << 28;
	bad |= (ost_job_finish_capped(s, 2, 110, 1, 1, NULL) != 0) << 29;
	ck_assert_msg(!bad, "range checks failed, bit mask 0x%x", bad);
	ost_sched_destroy(s);
}
END_TEST

Suite *suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = ost_tcase("Core", OST_TIMEOUT_LIGHT);
	TCase *lim = ost_tcase("Limits", OST_TIMEOUT_LIGHT);

	tcase_add_test(tc, test_state_round_trip);
	tcase_add_test(tc, test_state_empty);
	tcase_add_test(tc, test_state_save_with);
	tcase_add_test(lim, test_state_truncated);
	tcase_add_test(lim, test_state_bit_flips);
	tcase_add_test(lim, test_state_bad_inputs);
	tcase_add_test(lim, test_state_inconsistent);
	tcase_add_test(lim, test_state_ranges);
	tcase_add_test(lim, test_state_range_edges);
	tcase_add_test(lim, test_state_magic);
	tcase_add_test(lim, test_state_denormal_weight_file);
	tcase_add_test(lim, test_state_seq_saturates);
	tcase_add_test(lim, test_api_ranges);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, lim);
	return s;
}

OST_TEST_MAIN
