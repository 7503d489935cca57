/*****************************************************************************\
 *  check_conf.c - ostrich.conf without Slurm (plugins/lib/osl_conf.c,
 *  osl_conf_parse.c): the key table, the value parsers (strict numbers,
 *  ranges, enumerations, weight and name lists, the account tree,
 *  Charge=), the log line
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ck_run.h"
#include "ost_charge.h"
#include "ostrich.h"
#include "osl_conf.h"

static osl_conf_t _conf(void)
{
	osl_conf_t c;

	osl_conf_defaults(&c);
	return c;
}

/* Values out of range or not wholly numbers are refused, conf untouched,
 * with a message naming the key and the value. */
START_TEST(test_conf_bad_values)
{
	static const char *const bad[][2] = {
		{ "ThinkTime", "-1" }, { "ThinkTime", "10minutes" },
		{ "ThinkTime", "" }, { "ThinkTime", " 5" }, { "ThinkTime", "+5" },
		{ "ThinkTime", "4294967296" }, { "ThinkTime", "1e3" },
		{ "Interval", "0" }, { "Interval", "3601" }, { "Interval", "5s" },
		{ "DefaultEstimate", "0" }, { "DefaultEstimate", "99999999999" },
		{ "FairCampUsers", "-2" }, { "FairCampUsers", "x" },
		{ "DefaultWeight", "0" }, { "DefaultWeight", "1e-300" },
		{ "DefaultWeight", "0x1p-1074" }, { "DefaultWeight", "1e7" },
		{ "DefaultWeight", "inf" }, { "DefaultWeight", "nan" },
		{ "DefaultWeight", "-1" }, { "DefaultWeight", "1 " },
		{ "DefaultWeight", " 1" }, { "DefaultWeight", "+1" },
		{ "Mode", "lottery" }, { "Capacity", "maybe" },
		{ "IntraOrder", "random" }, { "Weights", "both" },
		{ "VirtualArea", "guessed" }, { "VirtualArea", "" },
		{ "Memory", "yes" }, { "Memory", "1" }, { "Memory", "" },
		{ "Memory", "keys" },
		{ "MemoryCredit", "-1" }, { "MemoryCredit", "1h" },
		{ "MemoryCredit", "4294967296" }, { "MemoryCredit", " 60" },
		{ "MemoryCredit", "1e3" }, { "MemoryCredit", "" },
		{ "Evidence", "yes" }, { "Evidence", "" },
		{ "EvidenceFloor", "0" }, { "EvidenceFloor", "4294967296" },
		{ "EvidenceFloor", "10m" }, { "Rank", "start" }, { "Rank", "" },
		{ "RankCap", "-1" }, { "RankCap", "1h" },
		{ "Gate", "strict" }, { "Gate", "STRICT" }, { "Gate", "" },
		{ "Gate", "off" },
		{ "Backfill", "yes" }, { "Bogus", "1" },
		{ "Hierarchy", "tree" }, { "Hierarchy", "" },
		{ "Hierarchy", "account" }, { "AccountParents", "a:b" },
		{ "UserAccounts", "alice:physics" },
		{ "Charge", "tres" }, { "Charge", "" }, { "Charge", "cpus" },
		{ "ChargeWeights", "GPU=1" }, { "ChargeWeights", "GRES=1" },
		{ "ChargeWeights", "GRES/=1" }, { "ChargeWeights", "CPU=-1" },
		{ "ChargeWeights", "CPU=" }, { "ChargeWeights", "=1" },
		{ "ChargeWeights", "CPU=1x" }, { "ChargeWeights", "Mem=1GB" },
		{ "ChargeWeights", "Mem=1Q" }, { "ChargeWeights", "CPU=inf" },
		{ "ChargeWeights", "CPU=nan" }, { "ChargeWeights", "CPU:1" },
		{ "ChargeWeights", "CPU=1,,Mem=1" },
		{ "ChargeWeights", "Billing=1" }, { "ChargeWeights", "CPU/x=1" },
		{ "ChargeWeights", "CPU=1,CPU=1,CPU=1,CPU=1,CPU=1,CPU=1,"
				   "CPU=1,CPU=1,CPU=1,CPU=1,CPU=1,CPU=1,"
				   "CPU=1,CPU=1,CPU=1,CPU=1,CPU=1" },
	};
	size_t i, first_bad = SIZE_MAX;
	char err[256], why[300] = "";

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		osl_conf_t c = _conf(), before = c;
		int rc = osl_conf_set_value(&c, bad[i][0], bad[i][1], err,
					 sizeof(err));

		if ((rc != -1 || memcmp(&c, &before, sizeof(c)) ||
		     !strstr(err, bad[i][0])) && first_bad == SIZE_MAX) {
			first_bad = i;
			snprintf(why, sizeof(why), "rc %d, err '%s'", rc, err);
		}
	}
	ck_assert_msg(first_bad == SIZE_MAX, "%s=%s: %s",
		      first_bad < SIZE_MAX ? bad[first_bad][0] : "",
		      first_bad < SIZE_MAX ? bad[first_bad][1] : "", why);
}
END_TEST

START_TEST(test_conf_good_values)
{
	osl_conf_t c = _conf();
	char err[256];
	int rc = 0;

	rc |= osl_conf_set_value(&c, "thinktime", "0", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Interval", "3600", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "DefaultEstimate", "4294967295", err,
			      sizeof(err));
	rc |= osl_conf_set_value(&c, "FairCampUsers", "7", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "DefaultWeight", "1e-6", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Mode", "FairCamp", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Capacity", "full", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "IntraOrder", "ljf", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Weights", "assoc", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "VirtualArea", "Pooled", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Memory", "ON", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "MemoryCredit", "4294967295", err,
			      sizeof(err));
	ck_assert_int_eq(c.core.hierarchy, OST_HIER_USERS);	/* default */
	rc |= osl_conf_set_value(&c, "Hierarchy", "Accounts", err, sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert_int_eq(c.core.hierarchy, OST_HIER_ACCOUNTS);
	ck_assert_double_eq(c.core.think_time, 0);
	ck_assert_uint_eq(c.interval, 3600);
	ck_assert_uint_eq(c.default_estimate, 4294967295u);
	ck_assert_uint_eq(c.core.faircamp_users, 7);
	ck_assert_double_eq(c.core.default_weight, 1e-6);
	ck_assert_int_eq(c.core.mode, OST_MODE_FAIRCAMP);
	ck_assert_int_eq(c.core.capacity, OST_CAPACITY_FULL);
	ck_assert_int_eq(c.core.intra, OST_INTRA_LJF);
	ck_assert(c.weights_assoc);
	ck_assert_int_eq(c.core.varea, OST_VAREA_POOLED);
	ck_assert(c.core.memory);
	ck_assert_double_eq(c.core.memory_credit, 4294967295.0);
	rc |= osl_conf_set_value(&c, "VirtualArea", "learned", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Memory", "off", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "MemoryCredit", "0", err, sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert_int_eq(c.core.varea, OST_VAREA_LEARNED);
	rc |= osl_conf_set_value(&c, "VirtualArea", "predicted", err,
				 sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert_int_eq(c.core.varea, OST_VAREA_PREDICTED);
	rc |= osl_conf_set_value(&c, "VirtualArea", "bounded", err,
				 sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert_int_eq(c.core.varea, OST_VAREA_BOUNDED);
	ck_assert(!c.core.memory);
	ck_assert_double_eq(c.core.memory_credit, 0);
	ck_assert(!c.core.evidence);
	ck_assert_int_eq(c.core.rank, OST_RANK_FINISH);
	rc |= osl_conf_set_value(&c, "evidence", "On", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "EvidenceFloor", "1", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "Rank", "Capped", err, sizeof(err));
	rc |= osl_conf_set_value(&c, "RankCap", "0", err, sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert(c.core.evidence);
	ck_assert_double_eq(c.core.evidence_floor, 1);
	ck_assert(!c.core.memory_key);
	rc |= osl_conf_set_value(&c, "Memory", "Key", err, sizeof(err));
	ck_assert_msg(!rc, "refused: %s", err);
	ck_assert(c.core.memory && c.core.memory_key);
	rc |= osl_conf_set_value(&c, "Memory", "on", err, sizeof(err));
	ck_assert(c.core.memory && !c.core.memory_key);
	ck_assert_int_eq(c.core.rank, OST_RANK_CAPPED);
	ck_assert_double_eq(c.core.rank_cap, 0);
	ck_assert_int_eq(osl_conf_set_value(&c, "DefaultWeight", "1e6", err,
					 sizeof(err)), 0);
	ck_assert_int_eq(osl_conf_set_value(&c, "DefaultWeight", "0x1p-3", err,
					 sizeof(err)), 0);
	ck_assert_double_eq(c.core.default_weight, 0.125);
}
END_TEST

/* Gate= (§24): soft (the default) and none; strict, the simulator's
 * only, refused with a message that says so, the gate in force kept. */
START_TEST(test_conf_gate)
{
	osl_conf_t c = _conf();
	char err[256];

	ck_assert_int_eq(c.core.gate, OST_GATE_SOFT);
	ck_assert_int_eq(osl_conf_set_value(&c, "gate", "None", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.core.gate, OST_GATE_NONE);
	ck_assert_int_eq(osl_conf_set_value(&c, "Gate", "strict", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(c.core.gate, OST_GATE_NONE);
	ck_assert_msg(strstr(err, "Gate=strict") &&
		      strstr(err, "must be soft or none") &&
		      strstr(err, "simulator only"), "%s", err);
	ck_assert_int_eq(osl_conf_set_value(&c, "Gate", "soft", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.core.gate, OST_GATE_SOFT);
}
END_TEST

/* Lead=, LeadCap=, Overdue= (§24, §27): the core's names in any case, κ a
 * number in [0, 1e6]; a bad value is refused with the key's message and
 * the value in force kept. */
START_TEST(test_conf_lead_overdue)
{
	osl_conf_t c = _conf();
	char err[256];

	ck_assert_int_eq(c.core.lead, OST_LEAD_KEEP);
	ck_assert_int_eq(c.core.overdue, OST_OVERDUE_RANK);
	ck_assert_double_eq(c.core.lead_cap, 1.0);
	ck_assert_int_eq(osl_conf_set_value(&c, "Lead", "Cap", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.core.lead, OST_LEAD_CAP);
	ck_assert_int_eq(osl_conf_set_value(&c, "lead", "forever", err,
					    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "must be keep, forgive or cap"), "%s", err);
	ck_assert_int_eq(c.core.lead, OST_LEAD_CAP);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", "0.5", err,
					    sizeof(err)), 0);
	ck_assert_double_eq(c.core.lead_cap, 0.5);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", "-1", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", "2e6", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", "nan", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", " 1", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(osl_conf_set_value(&c, "LeadCap", "1x", err,
					    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "must be a number in [0, 1e6]"), "%s", err);
	ck_assert_double_eq(c.core.lead_cap, 0.5);
	ck_assert_int_eq(osl_conf_set_value(&c, "Overdue", "RESTART", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.core.overdue, OST_OVERDUE_RESTART);
	ck_assert_int_eq(osl_conf_set_value(&c, "Overdue", "later", err,
					    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "must be rank or restart"), "%s", err);
	ck_assert_int_eq(c.core.overdue, OST_OVERDUE_RESTART);
}
END_TEST

typedef struct {
	char names[8][32];
	double w[8];
	int n;
} pairs_t;

static int _collect_pair(const char *name, double w, void *arg, char *err,
		    size_t errlen)
{
	pairs_t *p = arg;

	if (p->n == 8) {
		snprintf(err, errlen, "too many");
		return -1;
	}
	snprintf(p->names[p->n], sizeof(p->names[0]), "%s", name);
	p->w[p->n++] = w;
	return 0;
}

/* Parse list as a name:name list (names) or a name:weight one.  RET the
 * parser's */
static int _parse_list(bool names, const char *key, const char *list,
		       char *err, size_t errlen);

/* Each of bad[0..n) is refused with a message naming key. */
static void _all_refused(bool names, const char *key,
			 const char *const *bad, size_t n)
{
	char err[256];
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(_parse_list(names, key, bad[i], err,
					  sizeof(err)) == -1 &&
			      strstr(err, key), "%s: accepted '%s' (%s)", key,
			      bad[i], err);
}

START_TEST(test_conf_weight_lists)
{
	static const char *const bad[] = {
		"", "alice", "alice:", ":2", "alice:2,", ",alice:2",
		"alice:2,,bob:1", "alice:1e-300", "alice:0", "alice:-1",
		"alice:inf", "alice:nan", "alice:2x", "alice:1e7",
		"alice: 2", "alice:+2", "a:b:2",
	};
	pairs_t p;
	char err[256];

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(osl_conf_parse_weight_list("UserWeights",
						 "alice:2,bob:0.5,c:1e-6",
						 _collect_pair, &p, err,
						 sizeof(err)), 0);
	ck_assert_int_eq(p.n, 3);
	ck_assert_str_eq(p.names[1], "bob");
	ck_assert_double_eq(p.w[1], 0.5);
	ck_assert_double_eq(p.w[2], 1e-6);
	_all_refused(false, "UserWeights", bad,
		     sizeof(bad) / sizeof(bad[0]));
	/* the callback's refusal stops the list */
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(osl_conf_parse_weight_list("AccountWeights",
		"a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1,j:1", _collect_pair, &p, err,
		sizeof(err)), -1);
	ck_assert_str_eq(err, "too many");
}
END_TEST

typedef struct {
	char a[8][32], b[8][32];
	int n;
} names_t;

static int _collect_names(const char *a, const char *b, void *arg,
			  char *err, size_t errlen)
{
	names_t *p = arg;

	if (p->n == 8) {
		snprintf(err, errlen, "too many");
		return -1;
	}
	snprintf(p->a[p->n], sizeof(p->a[0]), "%s", a);
	snprintf(p->b[p->n++], sizeof(p->b[0]), "%s", b);
	return 0;
}

static int _parse_list(bool names, const char *key, const char *list,
		       char *err, size_t errlen)
{
	pairs_t p;
	names_t q;

	memset(&p, 0, sizeof(p));
	memset(&q, 0, sizeof(q));
	if (names)
		return osl_conf_parse_name_list(key, list, _collect_names, &q,
						err, errlen);
	return osl_conf_parse_weight_list(key, list, _collect_pair, &p, err,
					  errlen);
}

/* AccountParents= and UserAccounts= (§23): name:name items, strictly;
 * the message names the key and the item. */
START_TEST(test_conf_name_lists)
{
	static const char *const bad[] = {
		"", "physics", "physics:", ":science", "physics:science,",
		",physics:science", "a:b,,c:d", "a:b:c", "a b:c", "a:b c",
		"a:\tb", "a:b\n",
	};
	names_t p;
	char err[256];

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(osl_conf_parse_name_list("AccountParents",
		"physics:science,chem:science,science:root", _collect_names,
		&p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.n, 3);
	ck_assert_str_eq(p.a[1], "chem");
	ck_assert_str_eq(p.b[1], "science");
	_all_refused(true, "UserAccounts", bad,
		     sizeof(bad) / sizeof(bad[0]));
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(osl_conf_parse_name_list("UserAccounts", "ab:c,d e:f",
						  _collect_names, &p, err,
						  sizeof(err)), -1);
	ck_assert_msg(strstr(err, "\"d e:f\""), "%s", err);
	ck_assert_int_eq(p.n, 1);	/* the items before it were taken */
}
END_TEST

/* The tree as a whole: no second parent, no cycle, root never a child,
 * at most OSL_ACCT_DEPTH_MAX levels. */
START_TEST(test_conf_parents)
{
	osl_acct_parent_t ok[] = { { "physics", "science" },
				   { "chem", "Science" },
				   { "science", "root" }, { "bio", "lab" } };
	osl_acct_parent_t two[] = { { "a", "b" }, { "A", "c" } };
	osl_acct_parent_t cyc[] = { { "x", "a" }, { "a", "b" },
				    { "b", "a" } };
	osl_acct_parent_t self[] = { { "a", "a" } };
	osl_acct_parent_t root[] = { { "Root", "a" } };
	osl_acct_parent_t deep[OSL_ACCT_DEPTH_MAX + 1];
	char names[OSL_ACCT_DEPTH_MAX + 2][8], err[256];
	int i;

	ck_assert_int_eq(osl_conf_check_parents(ok, 4, err, sizeof(err)), 0);
	ck_assert_int_eq(osl_conf_check_parents(NULL, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(osl_conf_check_parents(two, 2, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "AccountParents: A has two parents (b, c)"),
		      "%s", err);
	ck_assert_int_eq(osl_conf_check_parents(cyc, 3, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "\"a:b\" makes a cycle"), "%s", err);
	ck_assert_int_eq(osl_conf_check_parents(self, 1, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, "cycle"), "%s", err);
	ck_assert_int_eq(osl_conf_check_parents(root, 1, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, "root is the top"), "%s", err);
	/* a0 under a1 under ... : OSL_ACCT_DEPTH_MAX levels pass, one more
	 * does not */
	for (i = 0; i <= OSL_ACCT_DEPTH_MAX + 1; i++)
		snprintf(names[i], sizeof(names[i]), "a%d", i);
	for (i = 0; i <= OSL_ACCT_DEPTH_MAX; i++) {
		deep[i].account = names[i];
		deep[i].parent = names[i + 1];
	}
	ck_assert_int_eq(osl_conf_check_parents(deep + 1, OSL_ACCT_DEPTH_MAX - 1,
						err, sizeof(err)), 0);
	ck_assert_int_eq(osl_conf_check_parents(deep, OSL_ACCT_DEPTH_MAX + 1,
						err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "more than 32 levels"), "%s", err);
}
END_TEST

/* One table: every key found in any case, each name once, every key of
 * ostrich.conf(5) in it and nothing else, and the log line of the
 * defaults walks it in order. */
START_TEST(test_conf_key_table)
{
	static const char *const man[] = {	/* ostrich.conf(5), in order */
		"Mode", "ThinkTime", "Interval", "Capacity", "IntraOrder",
		"VirtualArea", "Memory", "MemoryCredit", "Evidence",
		"EvidenceFloor", "Rank", "RankCap", "Gate", "Lead", "LeadCap",
		"Overdue", "DefaultEstimate",
		"FairCampUsers", "DefaultWeight", "Hierarchy", "UserWeights",
		"AccountWeights", "AccountParents", "UserAccounts", "Weights",
		"Charge", "ChargeWeights",
		"Backfill", "SystemComment", "EventLog",
	};
	osl_conf_t c = _conf();
	char line[1024], lower[64], err[256];
	size_t i, j;
	int n;

	ck_assert_uint_eq(osl_conf_nkeys, sizeof(man) / sizeof(man[0]));
	for (i = 0; i < sizeof(man) / sizeof(man[0]); i++) {
		for (j = 0; man[i][j] && j + 1 < sizeof(lower); j++)
			lower[j] = (char) (man[i][j] | 0x20);
		lower[j] = '\0';
		ck_assert_msg(osl_conf_key(lower) &&
			      !strcmp(osl_conf_key(lower)->name, man[i]),
			      "key %s of ostrich.conf(5) not in the table", man[i]);
	}
	for (i = 0; i < osl_conf_nkeys; i++)
		for (j = i + 1; j < osl_conf_nkeys; j++)
			ck_assert_str_ne(osl_conf_keys[i].name,
					 osl_conf_keys[j].name);
	ck_assert_ptr_null(osl_conf_key("Nonsense"));
	ck_assert_int_eq(osl_conf_set_value(&c, "Backfill", "yes", err,
					    sizeof(err)), -1);
	n = osl_conf_line(&c, line, sizeof(line));
	ck_assert_str_eq(line, "Mode=ostrich ThinkTime=600 Interval=30 "
			 "Capacity=used IntraOrder=lpt VirtualArea=requested "
			 "Memory=off MemoryCredit=3600 Evidence=off "
			 "EvidenceFloor=600 Rank=finish RankCap=3600 "
			 "Gate=soft Lead=keep LeadCap=1 Overdue=rank "
			 "DefaultEstimate=86400 FairCampUsers=0 "
			 "DefaultWeight=1 Hierarchy=users Weights=config "
			 "UserWeights=0 AccountWeights=0 AccountParents=0 "
			 "UserAccounts=0 Charge=billing ChargeWeights=none "
			 "Backfill=yes SystemComment=yes");
	ck_assert_int_eq(n, (int) strlen(line));
	/* cut to fit, the length it wanted still said */
	ck_assert_int_eq(osl_conf_line(&c, line, 10), n);
	ck_assert_str_eq(line, "Mode=ostr");
	ck_assert_int_eq(osl_conf_set_value(&c, "Memory", "key", err,
					    sizeof(err)), 0);
	c.event_log = (char *) "/tmp/ev";
	(void) osl_conf_line(&c, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, " Memory=key "));
	ck_assert_ptr_nonnull(strstr(line, " SystemComment=yes EventLog=/tmp/ev"));
}
END_TEST

/* Charge= and ChargeWeights= (§19): TRESBillingWeights' syntax, units
 * dividing by 1024 per step above the TRES's base unit (MB for Mem), the
 * text kept for the log line; an empty list is none. */
START_TEST(test_conf_charge)
{
	osl_conf_t c = _conf();
	osl_charge_weight_t w[2];
	char err[256], line[1024];
	int n = -1;

	ck_assert_int_eq(c.charge, OST_CHARGE_BILLING);
	ck_assert_int_eq(osl_conf_set_value(&c, "charge", "Dominant", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.charge, OST_CHARGE_DOMINANT);
	ck_assert_int_eq(osl_conf_set_value(&c, "Charge", "cpu", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.charge, OST_CHARGE_CPU);
	ck_assert_int_eq(osl_conf_set_value(&c, "ChargeWeights",
					    "CPU=1,GRES/gpu=8,Mem=0.25G,"
					    "license/Matlab=2k,BB/x=1024G",
					    err, sizeof(err)), 0);
	ck_assert_int_eq(c.n_charge_w, 5);
	ck_assert_str_eq(c.charge_w[0].type, "cpu");
	ck_assert_str_eq(c.charge_w[0].name, "");
	ck_assert_double_eq(c.charge_w[0].weight, 1.0);
	ck_assert_str_eq(c.charge_w[1].type, "gres");
	ck_assert_str_eq(c.charge_w[1].name, "gpu");
	ck_assert_double_eq(c.charge_w[1].weight, 8.0);
	ck_assert_str_eq(c.charge_w[2].type, "mem");
	ck_assert_double_eq(c.charge_w[2].weight, 0.25 / 1024);
	ck_assert_str_eq(c.charge_w[3].name, "Matlab");
	ck_assert_double_eq(c.charge_w[3].weight, 2.0 / 1024);
	ck_assert_double_eq(c.charge_w[4].weight, 1.0);
	(void) osl_conf_line(&c, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, " Charge=cpu ChargeWeights=CPU=1,"
				     "GRES/gpu=8,Mem=0.25G,license/Matlab=2k,"
				     "BB/x=1024G "));
	/* a refused list leaves the one in force */
	ck_assert_int_eq(osl_conf_set_value(&c, "ChargeWeights", "GPU=4", err,
					    sizeof(err)), -1);
	ck_assert_int_eq(c.n_charge_w, 5);
	ck_assert_int_eq(osl_conf_set_value(&c, "ChargeWeights", "", err,
					    sizeof(err)), 0);
	ck_assert_int_eq(c.n_charge_w, 0);
	/* the parser alone: its message, and a list longer than room */
	ck_assert_int_eq(osl_conf_parse_charge_weights("Mem=1,GPU=1", w, 2, &n,
						       err, sizeof(err)), -1);
	ck_assert_int_eq(n, -1);
	ck_assert_ptr_nonnull(strstr(err, "GPU"));
	ck_assert_int_eq(osl_conf_parse_charge_weights("Mem=1,CPU=1,Node=1", w,
						       2, &n, err, sizeof(err)),
			 -1);
	ck_assert_int_eq(osl_conf_parse_charge_weights("node=0.5", w, 2, &n,
						       err, sizeof(err)), 0);
	ck_assert_int_eq(n, 1);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_conf_bad_values,
		test_conf_good_values,
		test_conf_gate,
		test_conf_lead_overdue,
		test_conf_weight_lists,
		test_conf_name_lists,
		test_conf_parents,
		test_conf_key_table,
		test_conf_charge,
		NULL
	};

	return ost_check_tests("conf", OST_TIMEOUT_LIGHT, tests);
}
