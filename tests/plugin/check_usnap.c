/*****************************************************************************\
 *  check_usnap.c - the usage snapshot file (plugins/lib/osl_usnap.c): what
 *  the engine writes reads back the same; later keys are skipped; every
 *  damage is refused with its line.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "osl_stretch.h"
#include "osl_usnap.h"

/* A snapshot of two partitions. */
static void sample(osl_usnap_t *s)
{
	osl_usnap_part_t *p;
	osl_usnap_user_t *u;
	int b;

	memset(s, 0, sizeof(*s));
	s->time = T0;
	p = osl_usnap_part_add(s);
	strcpy(p->name, "batch");
	strcpy(p->unit, "cpu");
	p->capacity = 8;
	p->active_users = 2;
	p->campaigns = 3;
	p->pending = 17;
	p->since = T0 - 100;
	p->pass_s = 0.00123;
	p->hold_s = 1.0 / 3;
	p->hold_max_s = 0.5;
	u = osl_usnap_user_add(p);
	strcpy(u->name, "alice");
	u->uid = 1001;
	u->charged = 1234.5;
	u->share = 0.5;
	p->nb = OSL_STRETCH_NB;
	for (b = 0; b < p->nb; b++) {
		p->le[b] = osl_stretch_le[b];
		p->count[b] = b;
		p->total += b;
	}
	p->sum = 77.25;
	p = osl_usnap_part_add(s);
	strcpy(p->name, "gpu");
	strcpy(p->unit, "billing");
}

/* r, parsed from txt[0..len) (s formatted), formats to the same bytes;
 * all four freed. */
static void formats_back(osl_usnap_t *s, osl_usnap_t *r, char *txt, size_t len)
{
	size_t len2;
	char *txt2 = osl_usnap_format(r, &len2);

	ck_assert_uint_eq(len, len2);
	ck_assert(!memcmp(txt, txt2, len));
	free(txt);
	free(txt2);
	osl_usnap_free(s);
	osl_usnap_free(r);
}

START_TEST(test_round_trip)
{
	osl_usnap_t s, r;
	char err[128], *txt;
	size_t len;

	sample(&s);
	txt = osl_usnap_format(&s, &len);
	ck_assert_ptr_nonnull(txt);
	ck_assert_int_eq(osl_usnap_parse(&r, txt, len, err, sizeof(err)), 0);
	ck_assert_int_eq(r.nparts, 2);
	ck_assert_str_eq(r.parts[0].users[0].name, "alice");
	ck_assert(r.parts[0].hold_s == 1.0 / 3);
	ck_assert(isinf(r.parts[0].le[OSL_STRETCH_NB - 1]));
	ck_assert_uint_eq(r.parts[0].total, 45);
	formats_back(&s, &r, txt, len);
}
END_TEST

/* Format 1 without accounts; 2 with, and they read back the same. */
START_TEST(test_round_trip_accounts)
{
	osl_usnap_t s, r;
	osl_usnap_acct_t *a;
	osl_usnap_leaf_t *l;
	char err[128], *txt;
	size_t len;

	sample(&s);
	txt = osl_usnap_format(&s, &len);
	ck_assert(!strncmp(txt, "ostrich-usage 1\n", 16));
	free(txt);
	a = osl_usnap_acct_add(&s.parts[1]);
	strcpy(a->name, "physics");
	strcpy(a->parent, "root");
	a->share = 2;
	a->norm = 2.0 / 3;
	a->frac = 2.0 / 3;
	a->active = 1;
	l = osl_usnap_leaf_add(&s.parts[1]);
	strcpy(l->user, "alice");
	strcpy(l->account, "physics");
	l->uid = 1001;
	l->weight = 1;
	l->frac = 1.0 / 3;
	txt = osl_usnap_format(&s, &len);
	ck_assert(!strncmp(txt, "ostrich-usage 2\n", 16));
	ck_assert_int_eq(osl_usnap_parse(&r, txt, len, err, sizeof(err)), 0);
	ck_assert_int_eq(r.parts[1].naccts, 1);
	ck_assert_int_eq(r.parts[1].nleaves, 1);
	ck_assert_str_eq(r.parts[1].accts[0].parent, "root");
	ck_assert(r.parts[1].accts[0].norm == 2.0 / 3);
	ck_assert_str_eq(r.parts[1].leaves[0].account, "physics");
	ck_assert_uint_eq(r.parts[1].leaves[0].active, 0);
	formats_back(&s, &r, txt, len);
}
END_TEST

static int parse(const char *txt, char *err, size_t size)
{
	osl_usnap_t s;
	int rc = osl_usnap_parse(&s, txt, strlen(txt), err, size);

	osl_usnap_free(&s);
	return rc;
}

#define HEAD "ostrich-usage 1\nsnapshot time=5\n"
#define HEAD2 "ostrich-usage 2\nsnapshot time=5\n"
#define ACCT "acct name=a parent=root share=1 norm=0.5 frac=0.5 active=1\n"
#define LEAF "leaf user=u uid=1 account=a weight=1 frac=0.25 active=0\n"
#define PART "part name=p unit=cpu capacity=4 active_users=0 campaigns=0 pending=0 since=1 pass_seconds=0 hold_seconds=0 hold_max_seconds=0\n"

START_TEST(test_refused)
{
	char err[128];
	osl_usnap_t s;
	char *txt;
	size_t len, i;

	ck_assert_int_eq(parse(HEAD PART "user name=a uid=1 charged=2 share=1 later=x\nstretch sum=0 count=0\nend\n",
			       err, sizeof(err)), 0);
	/* buckets and no stretch line (found by fuzz_usage) */
	ck_assert_int_eq(parse(HEAD PART "bucket le=1 count=1\nend\n", err,
			       sizeof(err)), -1);
	ck_assert_str_eq(err, "line 5: a part without its stretch line");
	ck_assert_int_eq(parse(HEAD PART "stretch sum=0 count=0\nbucket le=1 count=0\nstretch sum=0 count=0\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_int_eq(parse(HEAD PART "user name=a uid=1 charged=-2 share=1\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: a number malformed or out of range");
	ck_assert_int_eq(parse(HEAD PART "user name=a\"b uid=1 charged=2 share=1\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_int_eq(parse(HEAD PART "user name=a uid=1 charged=2\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: a field is missing");
	ck_assert_int_eq(parse(HEAD "user name=a uid=1 charged=2 share=0\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_int_eq(parse(HEAD PART "bucket le=2 count=1\nbucket le=1 count=1\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_int_eq(parse(HEAD PART "bucket le=1 count=1\nstretch sum=1 count=2\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_int_eq(parse(HEAD PART "end\nuser\n", err, sizeof(err)), -1);
	ck_assert_int_eq(parse("ostrich-usage 3\nsnapshot time=5\nend\n", err,
			       sizeof(err)), -1);
	ck_assert_str_eq(err, "line 1: not a usage snapshot of format 1 to 2");
	/* accounts: format 2 only, fields checked */
	ck_assert_int_eq(parse(HEAD PART ACCT "stretch sum=0 count=0\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: an unknown record");
	ck_assert_int_eq(parse(HEAD2 PART ACCT LEAF "stretch sum=0 count=0\nend\n",
			       err, sizeof(err)), 0);
	ck_assert_int_eq(parse(HEAD2 PART "acct name=a parent=root share=1 norm=0.5 frac=0.5 active=2\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: a flag not 0 or 1");
	ck_assert_int_eq(parse(HEAD2 PART "leaf user=u uid=1 account=a weight=1 frac=1.5 active=1\nend\n",
			       err, sizeof(err)), -1);
	ck_assert_str_eq(err, "line 4: a number malformed or out of range");
	/* every truncation of a good file is refused */
	sample(&s);
	txt = osl_usnap_format(&s, &len);
	osl_usnap_free(&s);
	for (i = 0; i < len; i++) {
		OST_CHECK(osl_usnap_parse(&s, txt, i, err, sizeof(err)) == -1,
			  "truncation at %zu parsed", i);
		osl_usnap_free(&s);
	}
	free(txt);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_round_trip,
		test_round_trip_accounts,
		test_refused,
		NULL
	};

	return ost_check_tests("usnap", PLUG_TIMEOUT, tests);
}
