/*****************************************************************************\
 *  check_sacct.c - unit tests of the sacct reader (§17): Slurm's text
 *  forms, the partition table, the row mapping, names to ids, --by tables.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ck_run.h"
#include "groups.h"
#include "partinfo.h"
#include "slurmfmt.h"
#include "workload.h"

static char _path[64];

/* Write text to a fresh temporary file.  RET: its path. */
static const char *_tmp(const char *text)
{
	FILE *f;
	int fd;

	snprintf(_path, sizeof(_path), "/tmp/ost-check-XXXXXX");
	fd = mkstemp(_path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return _path;
}

START_TEST(test_duration)
{
	static const struct {
		const char *in;
		double s;            /* -1: refused */
	} cases[] = {
		{ "01:02:03", 3723 }, { "2-01:02:03", 2 * 86400 + 3723 },
		{ "2-01", 2 * 86400 + 3600 }, { "2-01:30", 2 * 86400 + 5400 },
		{ "05:30", 330 },            /* MM:SS */
		{ "7", 420 },                /* MM */
		{ "UNLIMITED", -1 }, { "Partition_Limit", -1 }, { "", -1 },
		{ "1:2:3:4", -1 }, { "-1", -1 }, { "1-", -1 },
		{ "1234567890:00", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double s = -1;
		int rc = sim_slurm_duration(cases[i].in, &s);

		ck_assert_msg(rc == (cases[i].s < 0 ? -1 : 0) &&
			      (rc || s == cases[i].s), "'%s': rc %d, %g s",
			      cases[i].in, rc, s);
	}
}
END_TEST

START_TEST(test_date)
{
	double t;

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(sim_slurm_date("2023-11-14T22:13:20", &t), 0);
	ck_assert_double_eq(t, 1700000000);
	ck_assert_int_eq(sim_slurm_date("Unknown", &t), -1);
	ck_assert_int_eq(sim_slurm_date("None", &t), -1);
	ck_assert_int_eq(sim_slurm_date("2023-13-14T22:13:20", &t), -1);
	ck_assert_int_eq(sim_slurm_date("2023-11-14 22:13:20", &t), -1);
	ck_assert_int_eq(sim_slurm_date("2023-11-14T22:13:2", &t), -1);
	/* a zone with daylight saving time: 2026-03-29 01:30 UTC+1 and
	 * 03:30 UTC+2 are one hour apart in local time, one in UTC too */
	setenv("TZ", "Europe/Paris", 1);
	tzset();
	ck_assert_int_eq(sim_slurm_date("2026-01-15T12:00:00", &t), 0);
	ck_assert_double_eq(t, 1768474800);
	setenv("TZ", "UTC", 1);
	tzset();
}
END_TEST

START_TEST(test_tres)
{
	const char *t = "billing=17,cpu=1,gres/gpu=4,mem=1000M,node=1";
	double v;

	ck_assert_int_eq(sim_tres_get(t, strlen(t), "billing", &v), 0);
	ck_assert_double_eq(v, 17);
	ck_assert_int_eq(sim_tres_get(t, strlen(t), "cpu", &v), 0);
	ck_assert_double_eq(v, 1);
	ck_assert_int_eq(sim_tres_get(t, strlen(t), "mem", &v), 0);
	ck_assert_double_eq(v, 1000.0 * 1024 * 1024);
	ck_assert_int_eq(sim_tres_get(t, strlen(t), "gres/gpu", &v), 0);
	ck_assert_double_eq(v, 4);
	ck_assert_int_eq(sim_tres_get(t, strlen(t), "energy", &v), -1);
	ck_assert_int_eq(sim_tres_get(t, 10, "cpu", &v), -1);  /* len ends it */
	ck_assert_int_eq(sim_tres_get("cpu=x", 5, "cpu", &v), -1);
	ck_assert_int_eq(sim_tres_get("cpu=4Q", 6, "cpu", &v), -1);
}
END_TEST

START_TEST(test_partinfo)
{
	sim_partitions_t ps;
	char err[256];

	ck_assert_int_eq(sim_partitions_read(_tmp(
		"PartitionName=a MaxTime=1-00:00:00 TotalCPUs=8 "
		"TRES=cpu=8,mem=1G,node=2,billing=24\n"
		"\n"
		"PartitionName=b MaxTime=UNLIMITED TotalCPUs=16 "
		"TRES=cpu=16,node=4\n"), &ps, err, sizeof(err)), 0);
	unlink(_path);
	ck_assert_uint_eq(ps.n, 2);
	ck_assert_uint_eq(sim_partition_find(&ps, "a")->total, 24);
	ck_assert_double_eq(sim_partition_find(&ps, "a")->max_time, 86400);
	ck_assert_uint_eq(sim_partition_find(&ps, "b")->total, 16);
	ck_assert(sim_partition_find(&ps, "b")->max_time < 0);
	ck_assert_ptr_null(sim_partition_find(&ps, "c"));
	sim_partitions_free(&ps);
	ck_assert_int_eq(sim_partitions_read(_tmp(
		"PartitionName=a\nPartitionName=b TotalCPUs=0\n"), &ps, err,
		sizeof(err)), -1);
	unlink(_path);
	ck_assert_msg(strstr(err, ":1: no TRES billing= or TotalCPUs"), "%s",
		      err);
}
END_TEST

/* Two users named and one numeric, two accounts, a partition table. */
static const char _dump[] =
	"User|State|JobIDRaw|Submit|Start|End|Timelimit|AllocTRES|Account|"
	"Partition\n"
	"zoe|COMPLETED|7|2023-11-14T22:13:20|2023-11-14T22:13:30|"
	"2023-11-14T22:14:30|00:02:00|billing=6,cpu=2|phys|a\n"
	"501|COMPLETED|8+1|2023-11-14T22:13:20|2023-11-14T22:13:20|"
	"2023-11-14T22:13:50|Partition_Limit|cpu=3|chem|a\n"
	"adam|TIMEOUT|9|2023-11-14T22:13:21|2023-11-14T22:13:21|"
	"2023-11-14T22:13:31|UNLIMITED|cpu=1|chem|a\n"
	"adam|RUNNING|10|2023-11-14T22:13:21|2023-11-14T22:13:21|Unknown|"
	"UNLIMITED|cpu=1|chem|a\n";

START_TEST(test_rows)
{
	sim_partition_t pt = { "a", 24, 900 };
	sim_partitions_t ps = { &pt, 1 };
	sim_input_t in = { .parts = &ps, .unlimited = -1 };
	sim_workload_t w;
	char err[256], buf[16];

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(sim_workload_read_in(_tmp(_dump), &in, &w, NULL,
					      err, sizeof(err)), 0);
	unlink(_path);
	ck_assert(w.sacct);
	ck_assert_uint_eq(w.procs, 24);
	ck_assert_uint_eq(w.njobs, 3);
	ck_assert_uint_eq(w.sacct_skipped[SIM_SACCT_RUNNING], 1);
	/* replay order: (submit, number) */
	ck_assert_uint_eq(w.jobs[0].number, 7);
	ck_assert_uint_eq(w.jobs[1].number, 8);
	ck_assert_uint_eq(w.jobs[2].number, 9);
	ck_assert_double_eq(w.jobs[0].submit, 1700000000);
	ck_assert_double_eq(w.jobs[0].rec_start, 1700000010);
	ck_assert_double_eq(w.jobs[0].runtime, 60);
	ck_assert_double_eq(w.jobs[0].estimate, 120);
	ck_assert_uint_eq(w.jobs[0].procs, 6);             /* billing */
	ck_assert_uint_eq(w.jobs[1].procs, 3);             /* cpu */
	ck_assert_double_eq(w.jobs[1].estimate, 900);      /* MaxTime */
	ck_assert_double_eq(w.jobs[2].estimate, 10);       /* e = p */
	/* 501 keeps its id; adam, zoe follow in name order */
	ck_assert_uint_eq(w.jobs[1].uid, 501);
	ck_assert_uint_eq(w.jobs[2].uid, 502);
	ck_assert_uint_eq(w.jobs[0].uid, 503);
	ck_assert_str_eq(sim_user_name(&w, 503, buf), "zoe");
	ck_assert_str_eq(sim_user_name(&w, 501, buf), "501");
	ck_assert_uint_eq(w.naccounts, 2);
	ck_assert_str_eq(w.accounts[w.jobs[0].account], "phys");
	ck_assert_str_eq(w.accounts[w.jobs[1].account], "chem");
	ck_assert_str_eq(w.partitions, "a");
	sim_workload_free(&w);
	in.unlimited = 5;
	in.procs = 10;
	ck_assert_int_eq(sim_workload_read_in(_tmp(_dump), &in, &w, NULL,
					      err, sizeof(err)), 0);
	unlink(_path);
	ck_assert_uint_eq(w.procs, 10);
	ck_assert_double_eq(w.jobs[2].estimate, 5);
	sim_workload_free(&w);
}
END_TEST

START_TEST(test_groups)
{
	sim_partition_t pt = { "a", 24, 900 };
	sim_partitions_t ps = { &pt, 1 };
	sim_input_t in = { .parts = &ps, .unlimited = -1 };
	sim_workload_t w;
	sim_metrics_t mt;
	sim_group_t *g;
	size_t n;
	char err[256];

	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_int_eq(sim_workload_read_in(_tmp(_dump), &in, &w, NULL,
					      err, sizeof(err)), 0);
	unlink(_path);
	/* a made-up schedule: one campaign per user, each job waits 2 s */
	for (size_t i = 0; i < w.njobs; i++) {
		w.jobs[i].campaign = 1;
		w.jobs[i].start = w.jobs[i].submit + 2;
		w.jobs[i].end = w.jobs[i].start + w.jobs[i].runtime;
	}
	ck_assert_int_eq(sim_metrics_compute(&w, w.procs, &mt), 0);
	ck_assert_int_eq(sim_groups_compute(&w, &mt, SIM_BY_ACCOUNT, &g, &n),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(g[0].name, "chem");
	ck_assert_uint_eq(g[0].campaigns, 2);
	ck_assert_uint_eq(g[0].jobs, 2);
	ck_assert_double_eq(g[0].mean_wait, 2);
	ck_assert_str_eq(g[1].name, "phys");
	ck_assert_uint_eq(g[1].campaigns, 1);
	free(g);
	ck_assert_int_eq(sim_groups_compute(&w, &mt, SIM_BY_USER, &g, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(g[0].name, "501");
	ck_assert_str_eq(g[1].name, "adam");
	ck_assert_str_eq(g[2].name, "zoe");
	free(g);
	sim_metrics_free(&mt);
	sim_workload_free(&w);
}
END_TEST

START_TEST(test_errors)
{
	sim_input_t in = { .procs = 4, .unlimited = -1 };
	sim_workload_t w;
	char err[256];

	ck_assert_int_eq(sim_workload_read_in(_tmp(
		"7|zoe|2023-11-14T22:13:20\n"), &in, &w, NULL, err,
		sizeof(err)), -1);
	unlink(_path);
	ck_assert_msg(strstr(err, ":1: not a sacct header line"), "%s", err);
	in.procs = 0;
	ck_assert_int_eq(sim_workload_read_in(_tmp(_dump), &in, &w, NULL,
					      err, sizeof(err)), -1);
	unlink(_path);
	ck_assert_msg(strstr(err, "give --procs or --partition-info"), "%s",
		      err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sacct");
	TCase *fmt = ost_tcase("Slurm forms", OST_TIMEOUT_LIGHT);
	TCase *rd = ost_tcase("Reader", OST_TIMEOUT_LIGHT);
	const TTest *forms[] = { test_duration, test_date, test_tres,
				 test_partinfo };
	const TTest *reader[] = { test_rows, test_groups, test_errors };

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		tcase_add_test(fmt, forms[i]);
	for (size_t i = 0; i < sizeof(reader) / sizeof(reader[0]); i++)
		tcase_add_test(rd, reader[i]);
	suite_add_tcase(s, fmt);
	suite_add_tcase(s, rd);
	return ost_check_run(s);
}
