/*****************************************************************************\
 *  check_usage_view.c - scampaign --usage and --metrics without Slurm (usage.c):
 *  the rows a caller may see under PrivateData, the table, the JSON, the
 *  Prometheus text of the sample snapshot (usage-sample.txt); --tree
 *  (tree.c) of a nested one.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "sc_list.h"
#include "tree.h"
#include "usage.h"

/* The sample snapshot, parsed. */
static void sample(osl_usnap_t *s)
{
	char err[256], *buf = malloc(65536);
	FILE *f = fopen(SRCDIR "/usage-sample.txt", "r");
	size_t len;

	ck_assert_ptr_nonnull(f);
	len = fread(buf, 1, 65536, f);
	fclose(f);
	ck_assert_int_eq(osl_usnap_parse(s, buf, len, err, sizeof(err)), 0);
	free(buf);
}

/* What fn prints of s, into a malloc'ed string. */
static char *print(void (*fn)(FILE *, const osl_usnap_t *),
		   const osl_usnap_t *s)
{
	char *out = calloc(1, 65536);
	FILE *f = tmpfile();

	fn(f, s);
	rewind(f);
	(void) !fread(out, 1, 65535, f);
	fclose(f);
	return out;
}

START_TEST(test_private_rows)
{
	osl_usnap_t s;
	sc_usage_filter_t own = { .own_only = true, .uid = 1002 };
	sc_usage_filter_t part = { .partitions = "gpu" };
	char *json;

	sample(&s);
	sc_usage_filter(&s, &own);
	ck_assert_int_eq(s.nparts, 2);
	ck_assert_int_eq(s.parts[0].nusers, 1);
	ck_assert_str_eq(s.parts[0].users[0].name, "bob");
	json = print(sc_usage_json, &s);
	ck_assert_ptr_null(strstr(json, "alice"));
	free(json);
	osl_usnap_free(&s);
	sample(&s);
	sc_usage_filter(&s, &part);
	ck_assert_int_eq(s.nparts, 1);
	ck_assert_str_eq(s.parts[0].name, "gpu");
	osl_usnap_free(&s);
}
END_TEST

/* What fn prints of the sample contains want. */
static void sample_prints(void (*fn)(FILE *, const osl_usnap_t *),
			  const char *want)
{
	osl_usnap_t s;
	char *t;

	sample(&s);
	t = print(fn, &s);
	ck_assert_msg(strstr(t, want), "no %s in\n%s", want, t);
	free(t);
	osl_usnap_free(&s);
}

START_TEST(test_json)
{
	sample_prints(sc_usage_json, "{\"usage\":[\n{\"partition\":\"batch\",\"user\":\"alice\",\"uid\":1001,\"charged\":12345.5,\"unit\":\"cpu\",\"share\":0.5,\"active\":null,\"since\":1764120000},\n");
}
END_TEST

static void table(FILE *f, const osl_usnap_t *s)
{
	sc_usage_table(f, s, false);
}

START_TEST(test_table)
{
	sample_prints(table, "PARTITION    USER                  CHARGED UNIT      SHARE\n"
			     "batch        alice                   12346 cpu       0.500\n");
}
END_TEST

START_TEST(test_metrics)
{
	osl_usnap_t s;
	char *m;

	static const char *const want[] = {
		"ostrich_pending_jobs{partition=\"batch\"} 17\n",
		"ostrich_campaign_stretch_bucket{partition=\"batch\",le=\"1.5\"} 2\n",
		"ostrich_campaign_stretch_bucket{partition=\"batch\",le=\"5\"} 4\n",
		"ostrich_campaign_stretch_count{partition=\"batch\"} 4\n",
		"ostrich_lock_hold_max_seconds{partition=\"gpu\"} 0.0041\n",
		/* one +Inf bucket per partition, even when the file has none */
		"ostrich_campaign_stretch_bucket{partition=\"gpu\",le=\"+Inf\"} 0\n",
		NULL
	};
	int i;

	sample(&s);
	m = print(sc_metrics, &s);
	for (i = 0; want[i]; i++)
		ck_assert_msg(strstr(m, want[i]), "no %s in\n%s", want[i], m);
	free(m);
	osl_usnap_free(&s);
}
END_TEST

/* A partition nested along accounts (format 2). */
#define TREE_SNAP "ostrich-usage 2\nsnapshot time=5\n" \
	"part name=p unit=billing capacity=16 active_users=2 campaigns=2 pending=3 since=1 pass_seconds=0 hold_seconds=0 hold_max_seconds=0\n" \
	"acct name=solo parent=root share=1 norm=0.5 frac=0.5 active=1\n" \
	"acct name=big parent=root share=1 norm=0.5 frac=0.5 active=1\n" \
	"acct name=lab parent=big share=3 norm=0.75 frac=0.375 active=0\n" \
	"leaf user=a uid=1 account=solo weight=1 frac=0.5 active=1\n" \
	"leaf user=b uid=2 account=big weight=1 frac=0.125 active=1\n" \
	"leaf user=c uid=3 account=lab weight=2 frac=0.375 active=0\n" \
	"stretch sum=0 count=0\nend\n"

static void tree(FILE *f, const osl_usnap_t *s)
{
	sc_tree(f, s, false);
}

static void parse_text(osl_usnap_t *s, const char *txt)
{
	char err[256];

	ck_assert_msg(!osl_usnap_parse(s, txt, strlen(txt), err, sizeof(err)),
		      "%s", err);
}

/* scampaign --tree: accounts by depth then name, each followed by its
 * leaves; under PrivateData a user sees their leaves and the accounts
 * above them only. */
START_TEST(test_tree)
{
	sc_usage_filter_t own = { .own_only = true, .uid = 3 };
	osl_usnap_t s;
	char *t;

	parse_text(&s, TREE_SNAP);
	t = print(tree, &s);
	ck_assert_str_eq(t,
		"Partition p: 16 billing units, Hierarchy=accounts\n"
		"Account              User          RawShares  NormShares   PartShare Active\n"
		"root                                                        1.000000\n"
		" big                                       1    0.500000    0.500000    yes\n"
		"                     b                     1    0.250000    0.125000    yes\n"
		"  lab                                      3    0.750000    0.375000     no\n"
		"                     c                     2    1.000000    0.375000     no\n"
		" solo                                      1    0.500000    0.500000    yes\n"
		"                     a                     1    1.000000    0.500000    yes\n");
	free(t);
	sc_usage_filter(&s, &own);
	{
		char *e = calloc(1, 4096);
		FILE *f = tmpfile();

		ck_assert_int_eq(sc_tree_explain(f, &s, "p", "lab", 3, "c"), 0);
		ck_assert_int_eq(sc_tree_explain(f, &s, "p", "big", 1, "a"), 0);
		ck_assert_int_eq(sc_tree_explain(f, &s, "p", "none", 3, "c"), -1);
		ck_assert_int_eq(sc_tree_explain(f, &s, "q", "lab", 3, "c"), -1);
		rewind(f);
		(void) !fread(e, 1, 4095, f);
		fclose(f);
		ck_assert_str_eq(e,
			"Account lab has 38% of partition p now; c has 100% of the account's share.\n"
			"Account big has 50% of partition p now.\n");
		free(e);
	}
	t = print(tree, &s);
	ck_assert_ptr_null(strstr(t, "solo"));
	ck_assert_ptr_null(strstr(t, " b "));
	ck_assert_ptr_nonnull(strstr(t, " big "));
	ck_assert_ptr_nonnull(strstr(t, "  lab "));
	free(t);
	osl_usnap_free(&s);
	/* a damaged file: parents in a cycle, a leaf of no account */
	parse_text(&s, "ostrich-usage 2\nsnapshot time=5\n"
		   "part name=p unit=cpu capacity=4 active_users=0 campaigns=0 pending=0 since=1 pass_seconds=0 hold_seconds=0 hold_max_seconds=0\n"
		   "acct name=x parent=y share=1 norm=0 frac=0 active=0\n"
		   "acct name=y parent=x share=1 norm=0 frac=0 active=0\n"
		   "acct name=z parent=z share=1 norm=0 frac=0 active=0\n"
		   "leaf user=u uid=1 account=w weight=1 frac=0 active=0\n"
		   "stretch sum=0 count=0\nend\n");
	t = print(tree, &s);
	ck_assert_ptr_null(strstr(t, " x "));
	free(t);
	osl_usnap_free(&s);
	/* Hierarchy=users: the users, flat */
	sample_prints(tree, "Partition batch: 8 cpu units, Hierarchy=users\n");
}
END_TEST

/* Hierarchy=users: every active user (pending or running), its share
 * now; an idle one with none; the metric the same (0); a file of an
 * older writer (no active=) parses, its activity unknown. */
#define FLAT_SNAP "ostrich-usage 1\nsnapshot time=5\n" \
	"part name=p unit=cpu capacity=32 active_users=1 campaigns=3 pending=4 since=1 pass_seconds=0 hold_seconds=0 hold_max_seconds=0\n" \
	"user name=alice uid=1 charged=100 share=1 active=1\n" \
	"user name=dave uid=4 charged=1 share=0 active=0\n" \
	"user name=bob uid=2 charged=0 share=0 active=1\n" \
	"stretch sum=0 count=0\nend\n"

START_TEST(test_tree_flat)
{
	sc_usage_filter_t pub = { .no_users = true };
	osl_usnap_t s;
	char *t;

	parse_text(&s, FLAT_SNAP);
	ck_assert_uint_eq(s.parts[0].users[1].active, 0);
	t = print(tree, &s);
	ck_assert_str_eq(t,
		"Partition p: 32 cpu units, Hierarchy=users\n"
		"Account              User          RawShares  NormShares   PartShare Active\n"
		"root                                                        1.000000\n"
		"                     alice                      1.000000    1.000000    yes\n"
		"                     dave                              -           -     no\n"
		"                     bob                        0.000000    0.000000    yes\n");
	free(t);
	t = print(sc_metrics, &s);
	ck_assert_ptr_nonnull(strstr(t, "ostrich_user_share_ratio{partition=\"p\",user=\"dave\"} 0\n"));
	free(t);
	/* --metrics under PrivateData: published, so no user's rows */
	sc_usage_filter(&s, &pub);
	t = print(sc_metrics, &s);
	ck_assert_ptr_null(strstr(t, "user="));
	ck_assert_ptr_nonnull(strstr(t, "ostrich_active_users{partition=\"p\"} 1\n"));
	free(t);
	osl_usnap_free(&s);
	sample(&s);
	ck_assert_uint_eq(s.parts[0].users[0].active, OSL_USNAP_UNKNOWN);
	t = print(tree, &s);
	ck_assert_ptr_nonnull(strstr(t, "alice                      0.500000    0.500000      ?\n"));
	free(t);
	osl_usnap_free(&s);
}
END_TEST

START_TEST(test_in_list)
{
	ck_assert(sc_in_list("alice,1002", "bob", 1002));
	ck_assert(sc_in_list("alice,1002", "alice", 5));
	ck_assert(!sc_in_list("alice,1002", "carol", 1003));
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_private_rows,
		test_json,
		test_table,
		test_metrics,
		test_in_list,
		test_tree,
		test_tree_flat,
		NULL
	};

	return ost_check_tests("usage", OST_TIMEOUT_LIGHT, tests);
}
