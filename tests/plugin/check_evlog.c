/*****************************************************************************\
 *  check_evlog.c - the event log: every record written reads back the same,
 *  doubles to the bit; malformed lines are refused
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* mkstemp, pread */

#include <fcntl.h>
#include <unistd.h>

#include "plug_util.h"
#include "ostrich.h"
#include "osl_evlog.h"
#include "osl_obs.h"

/* Every kind of record, with values that do not print exactly in few
 * digits. */
static osl_evlog_rec_t _records(int op)
{
	osl_evlog_rec_t r = { .op = (osl_log_op_t) op, .part = "batch",
			      .t = T0 + 0.1 };

	ost_config_init(&r.cfg);
	switch (r.op) {
	case OSL_LOG_CREATE:
	case OSL_LOG_CONFIG:
		r.cfg.procs = 96;
		r.cfg.mode = OST_MODE_FAIRCAMP;
		r.cfg.think_time = 600.5;
		r.cfg.capacity = OST_CAPACITY_FULL;
		r.cfg.intra = OST_INTRA_SPT;
		r.cfg.faircamp_users = 3;
		r.cfg.default_weight = 1.0 / 3;
		r.cfg.hierarchy = OST_HIER_ACCOUNTS;
		/* strict (the simulator's) on create, none (Gate=none,
		 * §24) on config: every gate reads back */
		r.cfg.gate = r.op == OSL_LOG_CONFIG ? OST_GATE_NONE
						    : OST_GATE_STRICT;
		r.cfg.varea = OST_VAREA_POOLED;
		r.cfg.memory = r.cfg.memory_key = true;
		r.cfg.memory_credit = 1e-9;
		r.cfg.evidence = true;
		r.cfg.evidence_floor = 7200.125;
		r.cfg.rank = OST_RANK_CAPPED;
		r.cfg.rank_cap = 1.0 / 3;
		/* §24, §27 on config (written only when set), the defaults
		 * on create (absent: read back as them) */
		if (r.op == OSL_LOG_CONFIG) {
			r.cfg.lead = OST_LEAD_CAP;
			r.cfg.lead_cap = 1.0 / 7;
			r.cfg.overdue = OST_OVERDUE_RESTART;
		}
		break;
	case OSL_LOG_LOAD:
		r.path = "/var/spool/ostrich/events.log.batch.1";
		break;
	case OSL_LOG_WEIGHT:
		r.job.uid = 1001;
		r.x = 2.0 / 3;
		break;
	case OSL_LOG_SUBMIT:
		r.job.id = OSL_ARRAY_KEY(4294967295u, 12);
		r.job.uid = 1002;
		r.job.procs = 7;
		r.job.estimate = 1e-300;
		r.job.group = 4294967295u;
		r.job.nice = 2147483647;
		r.job.account = 4294967295u;
		break;
	case OSL_LOG_ACCOUNT:
		r.job.account = 7;
		r.parent = 4294967295u;
		r.x = 1.0 / 7;
		break;
	case OSL_LOG_OWN:
		r.job.uid = 4294967294u;
		r.job.account = 3;
		break;
	case OSL_LOG_NICE:
		r.job.id = 44;
		r.job.nice = -7;
		break;
	case OSL_LOG_START:
		r.job.id = 43;
		r.job.procs = 12;
		break;
	case OSL_LOG_UPDATE:
		r.job.id = OSL_ARRAY_KEY(9, 3);
		r.job.procs = 64;
		r.job.estimate = 7200.25;
		break;
	case OSL_LOG_REBASE:
		r.x = -86400.5;
		break;
	case OSL_LOG_FINISH:
		r.x = 3599.999999;
		/* fall through */
	default:
		r.job.id = 42;
		break;
	}
	return r;
}

/* Does b read back as a (the fields its op carries)? */
static bool _same(const osl_evlog_rec_t *a, const osl_evlog_rec_t *b)
{
	if (a->op != b->op || strcmp(a->part, b->part))
		return false;
	switch (a->op) {
	case OSL_LOG_CREATE:
	case OSL_LOG_CONFIG:
		return a->t == b->t && a->cfg.procs == b->cfg.procs &&
		       a->cfg.mode == b->cfg.mode &&
		       a->cfg.think_time == b->cfg.think_time &&
		       a->cfg.capacity == b->cfg.capacity &&
		       a->cfg.intra == b->cfg.intra &&
		       a->cfg.faircamp_users == b->cfg.faircamp_users &&
		       a->cfg.default_weight == b->cfg.default_weight &&
		       a->cfg.hierarchy == b->cfg.hierarchy &&
		       a->cfg.gate == b->cfg.gate &&
		       a->cfg.varea == b->cfg.varea &&
		       a->cfg.memory == b->cfg.memory &&
		       a->cfg.memory_key == b->cfg.memory_key &&
		       a->cfg.memory_credit == b->cfg.memory_credit &&
		       a->cfg.evidence == b->cfg.evidence &&
		       a->cfg.evidence_floor == b->cfg.evidence_floor &&
		       a->cfg.rank == b->cfg.rank &&
		       a->cfg.rank_cap == b->cfg.rank_cap &&
		       a->cfg.lead == b->cfg.lead &&
		       a->cfg.lead_cap == b->cfg.lead_cap &&
		       a->cfg.overdue == b->cfg.overdue;
	case OSL_LOG_LOAD:
		return !strcmp(a->path, b->path);
	case OSL_LOG_WEIGHT:
		return a->t == b->t && a->job.uid == b->job.uid && a->x == b->x;
	case OSL_LOG_SUBMIT:
		return a->t == b->t && a->job.id == b->job.id &&
		       a->job.uid == b->job.uid &&
		       a->job.procs == b->job.procs &&
		       a->job.estimate == b->job.estimate &&
		       a->job.group == b->job.group &&
		       a->job.nice == b->job.nice &&
		       a->job.account == b->job.account;
	case OSL_LOG_ACCOUNT:
		return a->t == b->t && a->job.account == b->job.account &&
		       a->parent == b->parent && a->x == b->x;
	case OSL_LOG_OWN:
		return a->t == b->t && a->job.uid == b->job.uid &&
		       a->job.account == b->job.account;
	case OSL_LOG_NICE:
		return a->t == b->t && a->job.id == b->job.id &&
		       a->job.nice == b->job.nice;
	case OSL_LOG_FINISH:
		return a->t == b->t && a->job.id == b->job.id && a->x == b->x;
	case OSL_LOG_START:
		return a->t == b->t && a->job.id == b->job.id &&
		       a->job.procs == b->job.procs;
	case OSL_LOG_UPDATE:
		return a->t == b->t && a->job.id == b->job.id &&
		       a->job.procs == b->job.procs &&
		       a->job.estimate == b->job.estimate;
	case OSL_LOG_REBASE:
		return a->t == b->t && a->x == b->x;
	case OSL_LOG_ADVANCE:
	case OSL_LOG_PASS:
		return a->t == b->t;
	default:
		return a->t == b->t && a->job.id == b->job.id;
	}
}

START_TEST(test_round_trip)
{
	FILE *f = tmpfile();
	char line[512];
	int op, bad = -1, n = 0;

	ck_assert_ptr_nonnull(f);
	for (op = OSL_LOG_CREATE; op <= OSL_LOG_OWN; op++) {
		osl_evlog_rec_t r = _records(op);

		osl_evlog_write(f, &r);
	}
	osl_evlog_write(NULL, &(osl_evlog_rec_t) { .op = OSL_LOG_PASS });
	rewind(f);
	for (op = OSL_LOG_CREATE; fgets(line, sizeof(line), f); op++, n++) {
		osl_evlog_rec_t want = _records(op), got;

		if (bad < 0 && (osl_evlog_parse(line, &got) ||
				!_same(&want, &got)))
			bad = op;
	}
	fclose(f);
	ck_assert_msg(bad < 0, "record %d does not read back", bad);
	ck_assert_int_eq(n, OSL_LOG_OWN + 1);
}
END_TEST

/* The format as documented, to the character. */
START_TEST(test_format)
{
	static const char *const want[] = {
		"debug submit 5 1001 2 600 0 1000 0 0\n",
		"debug finish 5 1660.5 60.5\n",
		"debug update 5 8 1200 1010\n",
		"debug start 5 1060 16\n",
		"debug rebase -3600 1000\n",
		"debug nice 5 -2 1070\n",
		"debug account 3 2 0.5 1080\n",
		"debug own 1001 3 1090\n",
		"debug submit 6 1001 1 60 0 1100 0 3\n",
		"debug create 32 ostrich 600 used lpt 0 1 0 hierarchy=accounts "
		"gate=soft varea=requested memory=off memory_credit=3600 "
		"evidence=off evidence_floor=600 rank=finish rank_cap=3600\n",
	};
	osl_evlog_rec_t r[] = {
		{ .op = OSL_LOG_SUBMIT, .t = 1000,
		  .job = { .id = 5, .uid = 1001, .procs = 2, .estimate = 600 } },
		{ .op = OSL_LOG_FINISH, .t = 1660.5, .x = 60.5,
		  .job = { .id = 5 } },
		{ .op = OSL_LOG_UPDATE, .t = 1010,
		  .job = { .id = 5, .procs = 8, .estimate = 1200 } },
		{ .op = OSL_LOG_START, .t = 1060, .job = { .id = 5, .procs = 16 } },
		{ .op = OSL_LOG_REBASE, .t = 1000, .x = -3600 },
		{ .op = OSL_LOG_NICE, .t = 1070, .job = { .id = 5, .nice = -2 } },
		{ .op = OSL_LOG_ACCOUNT, .t = 1080, .parent = 2, .x = 0.5,
		  .job = { .account = 3 } },
		{ .op = OSL_LOG_OWN, .t = 1090,
		  .job = { .uid = 1001, .account = 3 } },
		{ .op = OSL_LOG_SUBMIT, .t = 1100,
		  .job = { .id = 6, .uid = 1001, .procs = 1, .estimate = 60,
			   .account = 3 } },
		{ .op = OSL_LOG_CREATE },
	};
	FILE *f = tmpfile();
	char line[512];
	size_t i, n = sizeof(want) / sizeof(want[0]);

	ck_assert_uint_eq(n, sizeof(r) / sizeof(r[0]));
	ck_assert_ptr_nonnull(f);
	ost_config_init(&r[n - 1].cfg);
	r[n - 1].cfg.procs = 32;
	r[n - 1].cfg.hierarchy = OST_HIER_ACCOUNTS;
	for (i = 0; i < n; i++) {
		r[i].part = "debug";
		osl_evlog_write(f, &r[i]);
	}
	rewind(f);
	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
		ck_assert_str_eq(line, want[i]);
	}
	fclose(f);
}
END_TEST

/* A log written before starts carried their width still reads: such a
 * start has procs 0 (the width asked for); one written before submissions
 * carried the nice, nice 0, and before they carried the account, account
 * 0; a create written before the hierarchy was recorded, users, and
 * before the gate was, soft (the only gate the plugins had).  A nice
 * reads back signed. */
START_TEST(test_old_start)
{
	char line[] = "debug start 5 1060\n";
	char sub[] = "debug submit 5 1001 2 600 0 1000\n";
	char sub2[] = "debug submit 5 1001 2 600 0 1000 -3\n";
	char create[] = "debug create 8 ostrich 600 used lpt 0 1 0\n";
	char nice[] = "debug nice 5 -2147483648 1070\n";
	osl_evlog_rec_t r;

	ck_assert_int_eq(osl_evlog_parse(sub, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_SUBMIT);
	ck_assert_int_eq(r.job.nice, 0);
	ck_assert_uint_eq(r.job.account, 0);
	ck_assert(r.t == 1000);
	ck_assert_int_eq(osl_evlog_parse(sub2, &r), 0);
	ck_assert_int_eq(r.job.nice, -3);
	ck_assert_uint_eq(r.job.account, 0);
	ck_assert_int_eq(osl_evlog_parse(create, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_CREATE);
	ck_assert_uint_eq(r.cfg.procs, 8);
	ck_assert_int_eq(r.cfg.hierarchy, OST_HIER_USERS);
	ck_assert_int_eq(r.cfg.gate, OST_GATE_SOFT);	/* no gate=: soft */
	ck_assert_int_eq(osl_evlog_parse(nice, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_NICE);
	ck_assert_int_eq(r.job.nice, INT32_MIN);

	ck_assert_int_eq(osl_evlog_parse(line, &r), 0);
	ck_assert_int_eq(r.op, OSL_LOG_START);
	ck_assert_uint_eq(r.job.id, 5);
	ck_assert(r.t == 1060);
	ck_assert_uint_eq(r.job.procs, 0);
}
END_TEST

/* A process killed in the middle of a record: the next one starts on a new
 * line (seal), and a reader skips the torn line only before a record that
 * starts the schedule anew, or at the end. */
START_TEST(test_torn)
{
	char path[] = "/tmp/check_evlog.XXXXXX", buf[256];
	int fd = mkstemp(path);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(osl_evlog_seal(fd), 0);	/* empty: nothing */
	ck_assert_int_eq(write(fd, "debug finish 5 17955", 20), 20);
	ck_assert_int_eq(osl_evlog_seal(fd), 0);
	ck_assert_int_eq(osl_evlog_seal(fd), 0);	/* once only */
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	ck_assert_int_eq(n, 21);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "debug finish 5 17955\n");
	close(fd);

	/* the engine's own open (osl_engine.c): append, and read for the
	 * seal; a write-only descriptor cannot be sealed, and says so */
	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "debug pass 17", 13), 13);
	ck_assert_int_lt(osl_evlog_seal(fd), 0);
	close(fd);
	fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(osl_evlog_seal(fd), 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	ck_assert_int_eq(n, 35);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "debug finish 5 17955\ndebug pass 17\n");
	close(fd);
	unlink(path);

	ck_assert(osl_evlog_torn(NULL));
	ck_assert(osl_evlog_torn("debug load /var/spool/x.debug.2\n"));
	ck_assert(osl_evlog_torn("debug create 8 ostrich 600 used lpt 0 1 0\n"));
	ck_assert(!osl_evlog_torn("debug finish 6 1795512635 1\n"));
	ck_assert(!osl_evlog_torn("garbage\n"));
}
END_TEST

START_TEST(test_malformed)
{
	static const char *const bad[] = {
		"", "debug", "debug frobnicate 1", "debug submit 1 2 3",
		"debug start x 1", "debug create 4 nomode 600 used lpt 0 1 0",
		"debug create 4 ostrich 600 used lpt 0 1", "debug load",
		"debug weight 1 2", "debug pass", "debug update 5 8 1200",
		"debug rebase 5", "debug start 5", "debug account 3 0 1",
		"debug own 1001 3",
		"debug create 4 ostrich 600 used lpt 0 1 0 hierarchy=flat",
		"debug create 4 ostrich 600 used lpt 0 1 0 accounts",
		"debug create 4 ostrich 600 used lpt 0 1 0 colour=red",
		"debug config 4 ostrich 600 used lpt 0 1 0 rank_cap=",
		"debug config 4 ostrich 600 used lpt 0 1 0 rank_cap=5s",
		"debug config 4 ostrich 600 used lpt 0 1 0 memory=maybe",
	};
	char line[128];
	osl_evlog_rec_t r;
	size_t i;
	int first = -1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i]);
		if (first < 0 && !osl_evlog_parse(line, &r))
			first = (int) i;
	}
	ck_assert_msg(first < 0, "accepted: \"%s\"", first < 0 ? "" : bad[first]);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_round_trip,
		test_format,
		test_malformed,
		test_old_start,
		test_torn,
		NULL
	};

	return ost_check_tests("evlog", PLUG_TIMEOUT, tests);
}
