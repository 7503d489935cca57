/*****************************************************************************\
 *  check_acct.c - accounts in the plugins (doc/semantics.md §23): the
 *  name -> id table and its file, the places ostrich.conf gives, what a
 *  partition's core is told, the SystemComment's account=, and the shares
 *  a submission through the adapter produces (one user in one account,
 *  four in another, equal shares: 1/2 against 1/8 each).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "ostrich.h"
#include "osl_acct.h"
#include "osl_apply.h"
#include "osl_comment.h"
#include "osl_conf.h"
#include "osl_evlog.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_sync.h"
#include "osl_vec.h"

/* A partition of procs CPUs under hier. */
static osl_part_t _part(uint32_t procs, ost_hier_t hier)
{
	osl_part_t p = mk_part(procs);
	ost_config_t cfg = *ost_sched_config(p.sched);

	cfg.hierarchy = hier;
	ck_assert_int_eq(ost_sched_reconfigure(p.sched, &cfg, T0), 0);
	return p;
}

/* Submit a pending job of uid counting in account (0: own) at t. */
static void _submit(osl_part_t *p, uint64_t key, uint32_t uid,
		    uint32_t account, uint32_t own, double t)
{
	osl_obs_t o = pend(key, uid, t, NULL);
	osl_event_t e = { .t = t, .order = OSL_ORD_SUBMIT,
			  .kind = OSL_EV_SUBMIT, .o = &o, .key = key };

	o.account = account;
	o.own = own;
	osl_apply(p, &e, t, NULL);
}

static double _share(const osl_part_t *p, uint32_t uid)
{
	double s = -1;

	ck_assert_int_eq(ost_sched_user_share(p->sched, uid, &s), 0);
	return s;
}

/* Ids: 1, 2, ... at first sight, any case the same, root and non-names
 * 0; the table's text loads back to the same ids; damaged texts are
 * refused and leave it empty. */
START_TEST(test_acct_ids)
{
	static const char *const bad[] = {
		"", "ostrich-accounts 2\n", "ostrich-accounts 1\n2 a\n",
		"ostrich-accounts 1\n1 a\n1 b\n", "ostrich-accounts 1\n1 A\n",
		"ostrich-accounts 1\n1 a\n2 a\n", "ostrich-accounts 1\n1 a",
		"ostrich-accounts 1\n1 root\n", "ostrich-accounts 1\n1 a b\n",
		"ostrich-accounts 1\nx a\n",
	};
	char err[128], *txt;
	size_t len, i;

	osl_acct_free();
	ck_assert_uint_eq(osl_acct_id("Physics"), 1);
	ck_assert_uint_eq(osl_acct_id("chem"), 2);
	ck_assert_uint_eq(osl_acct_id("physics"), 1);
	ck_assert_uint_eq(osl_acct_id("root"), 0);
	ck_assert_uint_eq(osl_acct_id("ROOT"), 0);
	ck_assert_uint_eq(osl_acct_id(""), 0);
	ck_assert_uint_eq(osl_acct_id(NULL), 0);
	ck_assert_uint_eq(osl_acct_id("two words"), 0);
	ck_assert_uint_eq(osl_acct_find("bio"), 0);
	ck_assert_str_eq(osl_acct_name(1), "physics");
	ck_assert_ptr_null(osl_acct_name(3));
	ck_assert(osl_acct_dirty());
	txt = osl_acct_save(&len);
	ck_assert(!osl_acct_dirty());
	ck_assert_str_eq(txt, "ostrich-accounts 1\n1 physics\n2 chem\n");
	for (i = 0; i < 200; i++) {	/* the hash table grows */
		char name[16];

		snprintf(name, sizeof(name), "a%zu", i);
		ck_assert_uint_eq(osl_acct_id(name), 3 + i);
	}
	ck_assert_uint_eq(osl_acct_find("a150"), 153);
	osl_acct_free();
	ck_assert_int_eq(osl_acct_load(txt, len, err, sizeof(err)), 0);
	ck_assert_int_eq(osl_acct_count(), 2);
	ck_assert_uint_eq(osl_acct_find("chem"), 2);
	ck_assert_uint_eq(osl_acct_id("bio"), 3);	/* the next id */
	free(txt);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(osl_acct_load(bad[i], strlen(bad[i]), err,
					    sizeof(err)) == -1,
			      "loaded '%s'", bad[i]);
		ck_assert_int_eq(osl_acct_count(), 0);
	}
	osl_acct_free();
}
END_TEST

/* ostrich.conf's places: AccountWeights shares, AccountParents parents,
 * UserAccounts; a new configuration puts back under the root what it no
 * longer places; a path goes up to the root's child. */
START_TEST(test_acct_configure)
{
	osl_acct_weight_t w[] = { { "physics", 3 }, { "science", 2 } };
	osl_acct_parent_t par[] = { { "physics", "science" },
				    { "chem", "science" },
				    { "science", "root" } };
	osl_user_acct_t ua[] = { { 1001, "physics" }, { 1000, "chem" } };
	osl_conf_t c;
	uint32_t path[8];

	osl_acct_free();
	osl_conf_defaults(&c);
	c.acct_w = w;
	c.n_acct_w = 2;
	c.acct_par = par;
	c.n_acct_par = 3;
	c.user_acct = ua;
	c.n_user_acct = 2;
	osl_acct_configure(&c);
	ck_assert_int_eq(osl_acct_path(osl_acct_find("physics"), path, 8), 2);
	ck_assert_uint_eq(path[1], osl_acct_find("science"));
	ck_assert_int_eq(osl_acct_path(osl_acct_find("science"), path, 8), 1);
	ck_assert_int_eq(osl_acct_path(0, path, 8), 0);
	ck_assert_int_eq(osl_acct_path(osl_acct_find("physics"), path, 1), -1);
	ck_assert_uint_eq(osl_acct_user(1001), osl_acct_find("physics"));
	ck_assert_uint_eq(osl_acct_user(1000), osl_acct_find("chem"));
	ck_assert_uint_eq(osl_acct_user(999), 0);
	/* physics moves to the root when the file says nothing of it */
	c.n_acct_par = 0;
	c.n_user_acct = 0;
	osl_acct_configure(&c);
	ck_assert_int_eq(osl_acct_path(osl_acct_find("physics"), path, 8), 1);
	ck_assert_uint_eq(osl_acct_user(1001), 0);
	osl_acct_free();
}
END_TEST

/* §23: a job's account counts only where ostrich.conf lets its owner
 * count: a user's UserAccounts= entries (the first its own); a name a
 * user makes up gets no id (the table stays what is configured), and each
 * refusal is news to log once, a bounded number of times. */
START_TEST(test_acct_given)
{
	osl_acct_weight_t w[] = { { "physics", 1 }, { "chem", 1 } };
	osl_user_acct_t ua[] = { { 1001, "physics" }, { 1000, "chem" },
				 { 1001, "chem" } };
	osl_conf_t c;
	char name[16];
	int i, n;

	osl_acct_free();
	osl_conf_defaults(&c);
	c.acct_w = w;
	c.n_acct_w = 2;
	c.user_acct = ua;
	c.n_user_acct = 3;
	osl_acct_configure(&c);
	n = osl_acct_count();
	ck_assert_uint_eq(osl_acct_user(1001), osl_acct_find("physics"));
	ck_assert_uint_eq(osl_acct_given(1001, "PHYSICS"),
			  osl_acct_find("physics"));
	ck_assert_uint_eq(osl_acct_given(1001, "chem"), osl_acct_find("chem"));
	ck_assert_uint_eq(osl_acct_given(1000, "chem"), osl_acct_find("chem"));
	ck_assert_uint_eq(osl_acct_given(1000, "physics"), 0);
	ck_assert_uint_eq(osl_acct_given(1002, "physics"), 0);
	ck_assert_uint_eq(osl_acct_given(1001, NULL), 0);
	ck_assert_uint_eq(osl_acct_given(1001, "root"), 0);
	for (i = 0; i < 1000; i++) {	/* alice's -A x1, -A x2, ... */
		snprintf(name, sizeof(name), "x%d", i);
		ck_assert_uint_eq(osl_acct_given(1000, name), 0);
	}
	ck_assert_int_eq(osl_acct_count(), n);
	/* logged once per (user, name), at most 256 pairs */
	ck_assert(osl_acct_refused_new(1000, "x1"));
	ck_assert(!osl_acct_refused_new(1000, "x1"));
	ck_assert(osl_acct_refused_new(1002, "x1"));
	for (i = 2; i < 300; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		ck_assert(osl_acct_refused_new(1000, name) == (i < 256));
	}
	osl_acct_configure(&c);		/* a reconfigure logs them again */
	ck_assert(osl_acct_refused_new(1000, "x1"));
	osl_acct_free();
}
END_TEST

/* body on a partition of 10 CPUs, nested then flat, with the ids of
 * accounts solo and big (a fresh table each time). */
static void _both(void (*body)(osl_part_t *p, bool nested, uint32_t solo,
			       uint32_t big))
{
	ost_hier_t hier[] = { OST_HIER_ACCOUNTS, OST_HIER_USERS };
	size_t h;

	for (h = 0; h < 2; h++) {
		osl_part_t p = _part(10, hier[h]);
		uint32_t solo, big;

		osl_acct_free();
		solo = osl_acct_id("solo");
		big = osl_acct_id("big");
		body(&p, hier[h] == OST_HIER_ACCOUNTS, solo, big);
		free_part(&p);
	}
	osl_acct_free();
}

/*
 * The case through the adapter: accounts solo (uid 1) and big
 * (uids 2..5) at equal shares, every user busy.  Nested, solo's user has
 * half the partition and each of big's an eighth; flat, a fifth each.
 * Jobs that name their account count there even when the owner's own is
 * the root.
 */
static void _shares(osl_part_t *p, bool nested, uint32_t solo, uint32_t big)
{
	uint64_t key = 1;
	uint32_t uid;

	for (uid = 1; uid <= 5; uid++) {
		uint32_t a = uid == 1 ? solo : big;
		int j;

		for (j = 0; j < 3; j++)
			_submit(p, key++, uid, a, a, T0 + 1);
	}
	(void) ost_sched_advance(p->sched, T0 + 2);
	if (nested) {
		ck_assert_double_eq_tol(_share(p, 1), 0.5, 1e-9);
		ck_assert_double_eq_tol(_share(p, 2), 0.125, 1e-9);
		ck_assert(p->acct[solo - 1].declared &&
			  p->acct[big - 1].declared);
	} else {
		ck_assert_double_eq_tol(_share(p, 1), 0.2, 1e-9);
		ck_assert_double_eq_tol(_share(p, 2), 0.2, 1e-9);
		ck_assert_int_eq(p->nacct, 0);	/* never told */
	}
}

START_TEST(test_acct_shares)
{
	_both(_shares);
}
END_TEST

/*
 * scontrol update account= of a pending job (§23): the next pass moves it
 * (a cancel, then a submission now in the account it names), once;
 * nested, the share follows; flat, nothing moves.
 */
static void _moved(osl_part_t *p, bool nested, uint32_t solo, uint32_t big)
{
	osl_obs_t o[4];
	ost_job_info_t info;
	char log[512];
	int i;

	for (i = 0; i < 4; i++) {	/* uid 1 in solo, 2 in big */
		o[i] = pend((uint64_t)i + 1, i < 2 ? 1 : 2, T0, NULL);
		o[i].account = o[i].own = i < 2 ? solo : big;
	}
	sync_log(p, o, 4, T0 + 1, OSL_SYNC_ALL, log, sizeof(log));
	o[3].account = solo;		/* job 4 of uid 2 to solo */
	sync_log(p, o, 4, T0 + 2, OSL_SYNC_ALL, log, sizeof(log));
	ck_assert_int_eq(ost_job_get(p->sched, 4, &info), 0);
	ck_assert_uint_eq(info.state, OST_JOB_PENDING);
	if (nested) {
		ck_assert_str_eq(log, "cancel:4 submit:4");
		ck_assert_uint_eq(info.account, solo);
		ck_assert(info.submit == T0 + 2);
		(void) ost_sched_advance(p->sched, T0 + 3);
		/* solo: uid 1 and uid 2's leaf; big: uid 2 */
		ck_assert_double_eq_tol(_share(p, 1), 0.25, 1e-9);
	} else {
		ck_assert_str_eq(log, "");
		ck_assert_uint_eq(info.account, 0);
	}
	ck_assert_int_eq(sync_log(p, o, 4, T0 + 4, OSL_SYNC_ALL, log,
				  sizeof(log)), 0);	/* once */
}

START_TEST(test_acct_job_moved)
{
	_both(_moved);
}
END_TEST

/* A share change reaches the core (at a submission, or a pass's
 * refresh); a moved account stays where the core has it, logged once; a
 * nested parent is declared before its child. */
START_TEST(test_acct_declare)
{
	osl_part_t p = _part(10, OST_HIER_ACCOUNTS);
	uint32_t sci, phy, chem;

	osl_acct_free();
	sci = osl_acct_id("science");
	phy = osl_acct_id("physics");
	chem = osl_acct_id("chem");
	osl_acct_place(phy, sci, 1);
	osl_acct_place(sci, 0, 1);
	osl_acct_place(chem, 0, 1);
	_submit(&p, 1, 1, phy, phy, T0 + 1);	/* science > physics */
	_submit(&p, 2, 2, chem, chem, T0 + 1);
	(void) ost_sched_advance(p.sched, T0 + 2);
	ck_assert(p.acct[sci - 1].declared);
	ck_assert_double_eq_tol(_share(&p, 1), 0.5, 1e-9);
	osl_acct_place(chem, 0, 3);		/* chem 3 : science 1 */
	_submit(&p, 3, 2, chem, chem, T0 + 3);
	ck_assert_double_eq_tol(_share(&p, 1), 0.25, 1e-9);
	osl_acct_place(chem, 0, 1);		/* a pass hands it over */
	osl_acct_refresh(&p, T0 + 3, NULL);
	ck_assert_double_eq_tol(_share(&p, 1), 0.5, 1e-9);
	stub_nerrors = 0;
	osl_acct_place(phy, chem, 1);		/* moved: kept, said once */
	_submit(&p, 4, 1, phy, phy, T0 + 4);
	_submit(&p, 5, 1, phy, phy, T0 + 4);
	ck_assert_int_eq(stub_nerrors, 1);
	ck_assert_msg(strstr(stub_last_error, "account physics moved"),
		      "%s", stub_last_error);
	ck_assert_double_eq_tol(_share(&p, 1), 0.5, 1e-9);
	free_part(&p);
	osl_acct_free();
}
END_TEST

/* Each pending job's key in rank order, into a string (as "k k ..."). */
static int _rank_str(const ost_rank_info_t *r, void *arg)
{
	char *out = arg;
	size_t len = strlen(out);

	snprintf(out + len, 512 - len, "%s%llu", len ? " " : "",
		 (unsigned long long) r->job_id);
	return 0;
}

static void _ranks(const ost_sched_t *s, char out[512])
{
	out[0] = '\0';
	ck_assert_int_eq(ost_sched_foreach_pending(s, _rank_str, out), 0);
}

/* osl_sync of obs[0..n) at now, its events appended to log. */
static void _sync_to(osl_part_t *p, osl_obs_t *obs, int n, double now,
		     FILE *log)
{
	osl_obs_vec_t vec = { .v = obs, .n = n, .cap = n };
	osl_obs_t **idx = osl_obs_index(&vec);

	osl_sync(p, idx, n, now, OSL_SYNC_ALL, log);
	osl_evlog_write(log, &(osl_evlog_rec_t) { .op = OSL_LOG_PASS,
						   .part = p->name,
						   .t = now });
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
}

/*
 * The event log of a nested schedule replays nested (osl_evlog_apply, as
 * ost-replay runs it): accounts, own accounts, -A and share changes are
 * logged, and the replayed core ranks every job as the engine's did, with
 * the same shares.  Flat, the same accounts are logged but shape nothing,
 * and the replay agrees too.  Science (physics below it) and chem, uid 1
 * in physics, uids 2 and 3 in chem, uid 3's last job with -A physics; then
 * chem's share goes to 3, and a job of uid 2 runs and ends.
 */
static void _replayed(osl_part_t *p, bool nested, uint32_t phy, uint32_t chem)
{
	uint32_t sci = osl_acct_id("science");
	osl_evlog_rec_t create = { .op = OSL_LOG_CREATE, .part = p->name,
				   .cfg = *ost_sched_config(p->sched) };
	FILE *log = tmpfile();
	ost_sched_t *r = NULL;
	osl_obs_t o[7];
	char line[512], err[256], want[512], got[512];
	int i, n = 0;
	uint32_t uid;

	ck_assert_ptr_nonnull(log);
	osl_acct_place(phy, sci, 1);
	osl_acct_place(sci, 0, 1);
	osl_evlog_write(log, &create);
	for (i = 0; i < 7; i++) {
		uid = i < 2 ? 1 : i < 4 ? 2 : 3;
		o[i] = pend((uint64_t)i + 1, uid, T0, NULL);
		o[i].estimate = 600 + 60 * i;
		o[i].own = uid == 1 ? phy : chem;
		o[i].account = i == 6 ? phy : o[i].own;
	}
	_sync_to(p, o, 7, T0 + 1, log);
	osl_acct_place(chem, 0, 3);		/* sacctmgr: chem 3 */
	_sync_to(p, o, 7, T0 + 2, log);
	o[2] = running(3, 2, T0, T0 + 3, NULL);
	_sync_to(p, o, 7, T0 + 3, log);
	o[2] = finished(3, 2, T0, T0 + 3, T0 + 50, NULL);
	_sync_to(p, o, 7, T0 + 60, log);

	rewind(log);
	while (fgets(line, sizeof(line), log)) {
		osl_evlog_rec_t rec;

		ck_assert_int_eq(osl_evlog_parse(line, &rec), 0);
		n += rec.op == OSL_LOG_ACCOUNT || rec.op == OSL_LOG_OWN;
		ck_assert_msg(!osl_evlog_apply(&r, &rec, err, sizeof(err)),
			      "%s: %s", line, err);
	}
	fclose(log);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(ost_sched_config(r)->hierarchy,
			 nested ? OST_HIER_ACCOUNTS : OST_HIER_USERS);
	/* science, physics, chem; its share again; uids 1, 2, 3 placed */
	ck_assert_int_eq(n, nested ? 7 : 0);
	_ranks(p->sched, want);
	_ranks(r, got);
	ck_assert_str_eq(got, want);
	for (uid = 1; uid <= 3; uid++) {
		double x = -1;

		ck_assert_int_eq(ost_sched_user_share(r, uid, &x), 0);
		ck_assert_double_eq_tol(_share(p, uid), x, 1e-12);
	}
	ost_sched_destroy(r);
}

START_TEST(test_acct_evlog_replay)
{
	_both(_replayed);
}
END_TEST

/* account= follows the other keys, within the 200-byte line, and names
 * the account the job counts in. */
START_TEST(test_acct_comment)
{
	char buf[OST_SUMMARY_MAX] = "ostrich campaign=a/1";
	size_t len = strlen(buf), n;
	char big[OST_SUMMARY_MAX];

	n = osl_comment_account(buf, len, sizeof(buf), "physics");
	ck_assert_str_eq(buf, "ostrich campaign=a/1 account=physics");
	ck_assert_uint_eq(n, strlen(buf));
	ck_assert_uint_eq(osl_comment_account(buf, n, sizeof(buf), NULL), n);
	ck_assert_uint_eq(osl_comment_account(buf, n, sizeof(buf), ""), n);
	memset(big, 'x', sizeof(big) - 12);
	big[sizeof(big) - 12] = '\0';	/* 188 bytes: " account=ab" fits
					 * (199), " account=abc" does not */
	len = strlen(big);
	ck_assert_uint_eq(osl_comment_account(big, len, sizeof(big), "abc"),
			  len);
	ck_assert_uint_eq(osl_comment_account(big, len, sizeof(big), "ab"),
			  len + 11);
	ck_assert_uint_lt(strlen(big), OST_SUMMARY_MAX);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_acct_ids, test_acct_configure, test_acct_given,
		test_acct_shares,
		test_acct_job_moved, test_acct_evlog_replay,
		test_acct_declare, test_acct_comment, NULL,
	};

	return ost_check_tests("acct", PLUG_TIMEOUT, tests);
}
