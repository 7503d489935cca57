/*****************************************************************************\
 *  check_workload.c - unit tests of the SWF and closed-loop readers and of
 *  trace grouping.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ck_run.h"
#include "grouping.h"
#include "lines.h"
#include "workload.h"

static char _path[64];

/* Write text to a fresh temporary file (gzip'ed when gz). */
static const char *_tmp(const char *text, bool gz)
{
	int fd;

	snprintf(_path, sizeof(_path), "/tmp/ost-check-XXXXXX");
	fd = mkstemp(_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	if (gz) {
		gzFile g = gzopen(_path, "wb");
		gzputs(g, text);
		gzclose(g);
	} else {
		FILE *f = fopen(_path, "w");
		fputs(text, f);
		fclose(f);
	}
	return _path;
}

/* Read text (gzip'ed when gz) on a machine of gpus GPUs (SIM_GPUS_FILE:
 * the file's).  RET: sim_workload_read_in's. */
static int _read_gpus(const char *text, bool gz, uint32_t procs,
		      uint32_t gpus, bool exact, sim_workload_t *w)
{
	char err[256];
	FILE *devnull = fopen("/dev/null", "w");
	sim_input_t in = { .procs = procs, .gpus = gpus, .exact = exact,
			   .unlimited = -1 };
	int rc = sim_workload_read_in(_tmp(text, gz), &in, w, devnull, err,
				      sizeof(err));

	fclose(devnull);
	unlink(_path);
	return rc;
}

static int _read(const char *text, bool gz, uint32_t procs, bool exact,
		 sim_workload_t *w)
{
	return _read_gpus(text, gz, procs, SIM_GPUS_FILE, exact, w);
}

START_TEST(test_swf_fields_ok)
{
	double f[18];
	const char *why;

	ck_assert_int_eq(sim_swf_parse_fields(
		" 1 0 5 10.5 2 -1 -1 2 20 -1 1 7 1 -1 -1 -1 -1 -1 ", f, &why), 0);
	ck_assert_double_eq(f[3], 10.5);
	ck_assert_double_eq(f[11], 7);
}
END_TEST

START_TEST(test_swf_fields_bad)
{
	double f[18];
	const char *why = NULL;

	ck_assert_int_eq(sim_swf_parse_fields("1 2 3", f, &why), -1);
	ck_assert_str_eq(why, "fewer than 18 fields");
	ck_assert_int_eq(sim_swf_parse_fields(
		"1 0 5 x 2 -1 -1 2 20 -1 1 7 1 -1 -1 -1 -1 -1", f, &why), -1);
	ck_assert_str_eq(why, "non-numeric field");
	ck_assert_int_eq(sim_swf_parse_fields(
		"1 0 5 1 2 -1 -1 2 20 -1 1 7 1 -1 -1 -1 -1 -1 9", f, &why), -1);
	ck_assert_str_eq(why, "more than 18 fields");
	ck_assert_int_eq(sim_swf_parse_fields(
		"1 0 5 1e999 2 -1 -1 2 20 -1 1 7 1 -1 -1 -1 -1 -1", f, &why),
		-1);
}
END_TEST

static const char _swf[] =
	"; MaxNodes: 2\n"
	"; MaxProcs: 8\n"
	"2 10 -1 5 -1 -1 -1 3 -1 -1 1 4 1 -1 -1 -1 -1 -1\n"
	"1 10 2 7 2 -1 -1 2 9 -1 1 3 1 -1 -1 -1 -1 -1\n"
	"3 0 0 -1 2 -1 -1 2 9 -1 1 3 1 -1 -1 -1 -1 -1\n"
	"4 0 0 1 -1 -1 -1 -1 9 -1 1 3 1 -1 -1 -1 -1 -1\n"
	"5 0 0 1 9 -1 -1 9 9 -1 1 3 1 -1 -1 -1 -1 -1\n"
	"garbage\n";

START_TEST(test_swf_mapping)
{
	sim_workload_t w;

	ck_assert_int_eq(_read(_swf, false, 0, false, &w), 0);
	ck_assert_uint_eq(w.procs, 8);
	ck_assert_uint_eq(w.njobs, 2);
	/* replay order (submit, number): job 1 then job 2 */
	ck_assert_uint_eq(w.jobs[0].number, 1);
	ck_assert_double_eq(w.jobs[0].rec_start, 12);
	ck_assert_double_eq(w.jobs[0].estimate, 9);
	ck_assert_uint_eq(w.jobs[1].procs, 3);       /* field 8 */
	ck_assert_double_eq(w.jobs[1].estimate, 5);  /* e = p */
	ck_assert_double_eq(w.jobs[1].rec_start, 10);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_MALFORMED], 1);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_RUNTIME], 1);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_PROCS], 1);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_TOO_BIG], 1);
	ck_assert_uint_eq(w.nusers, 2);
	ck_assert_uint_eq(w.jobs[1].uidx, 1);
	sim_workload_free(&w);
}
END_TEST

START_TEST(test_swf_gzip_procs_exact)
{
	sim_workload_t w;

	ck_assert_int_eq(_read(_swf, true, 2, true, &w), 0);
	ck_assert_uint_eq(w.procs, 2);
	ck_assert_uint_eq(w.njobs, 1);               /* q = 3 > 2 now */
	ck_assert_double_eq(w.jobs[0].estimate, 7);  /* exact */
	ck_assert_uint_eq(w.skipped[SIM_SKIP_TOO_BIG], 2);
	sim_workload_free(&w);
}
END_TEST

START_TEST(test_swf_all_bad)
{
	sim_workload_t w;

	ck_assert_int_eq(_read("; MaxProcs: 4\nx y z\n", false, 0, false, &w),
			 -1);
	ck_assert_int_eq(_read("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1\n",
			       false, 0, false, &w), -1);  /* no m */
}
END_TEST

START_TEST(test_cwl)
{
	sim_workload_t w;
	static const char text[] =
		"%ostrich-campaigns 1\nprocs 4\nthink 7\n"
		"user 2 start 100 class short\n"
		"campaign 2\njob 1 10\njob 2 5 8   # comment\n"
		"campaign 1 think 3\njob 9 1\n"       /* q > m: empty */
		"campaign 1\njob 1 4\nbogus line\n"
		"campaign 2\njob 3 6 2\n";

	ck_assert_int_eq(_read(text, false, 0, false, &w), 0);
	ck_assert(w.closed);
	ck_assert_uint_eq(w.procs, 4);
	ck_assert_uint_eq(w.ncamps, 3);
	ck_assert_uint_eq(w.njobs, 4);
	ck_assert_uint_eq(w.camps[0].uid, 2);
	ck_assert_double_eq(w.camps[0].start, 100);
	ck_assert_double_eq(w.camps[0].think, 7);
	ck_assert_uint_eq(w.camps[0].next, 2);
	ck_assert_uint_eq(w.camps[1].uid, 1);
	ck_assert_uint_eq(w.camps[1].seq, 1);        /* empty one dropped */
	ck_assert_uint_eq(w.camps[2].seq, 2);
	ck_assert_double_eq(w.jobs[1].estimate, 8);
	ck_assert_uint_eq(w.jobs[3].campaign, 2);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_MALFORMED], 1);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_TOO_BIG], 1);
	sim_workload_free(&w);
}
END_TEST

/* GPU counts (§20): the `gpus` header and the optional `gpus N` of a job
 * line; a job above G is skipped; --gpus (the gpus argument) overrides
 * the header; a line without it asks for none; an SWF trace has none. */
START_TEST(test_cwl_gpus)
{
	static const char cwl[] =
		"%ostrich-campaigns 1\nprocs 8\ngpus 4\n"
		"campaign 1\njob 2 10 gpus 4\njob 1 5 7\njob 1 5 7 gpus 1\n"
		"job 1 5 gpus 5\njob 1 5 gpus 1.5\njob 1 5 gpus\n"
		"job 1 5 gpus -1\n";
	static const struct { uint32_t gpus; double e; } want[] = {
		{ 4, 10 }, { 0, 7 }, { 1, 7 },
	};
	sim_workload_t w;

	ck_assert_int_eq(_read(cwl, false, 0, false, &w), 0);
	ck_assert_uint_eq(w.gpus, 4);
	ck_assert_uint_eq(w.njobs, 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert_msg(w.jobs[i].gpus == want[i].gpus &&
			      w.jobs[i].estimate == want[i].e, "job %zu", i);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_GPUS], 1);
	ck_assert_uint_eq(w.skipped[SIM_SKIP_MALFORMED], 3);
	sim_workload_free(&w);
	ck_assert_int_eq(_read_gpus(cwl, false, 0, 2, false, &w), 0);
	ck_assert_uint_eq(w.gpus * 10 + w.njobs, 22); /* 4 GPUs > 2 now */
	ck_assert_uint_eq(w.skipped[SIM_SKIP_GPUS], 2);
	sim_workload_free(&w);
	ck_assert_int_eq(_read_gpus(_swf, false, 0, 3, false, &w), 0);
	ck_assert_uint_eq(w.gpus, 3);
	ck_assert_uint_eq(w.jobs[0].gpus + w.jobs[1].gpus, 0);
	sim_workload_free(&w);
}
END_TEST

START_TEST(test_group_trace)
{
	sim_job_t jobs[] = {
		{ .uid = 1, .submit = 0, .rec_start = 0, .runtime = 100 },
		{ .uid = 1, .submit = 50, .rec_start = 500, .runtime = 10 },
		{ .uid = 2, .submit = 60, .rec_start = 60, .runtime = 1 },
		{ .uid = 1, .submit = 1110, .rec_start = 1110, .runtime = 1 },
		{ .uid = 1, .submit = 1712, .rec_start = 1712, .runtime = 1 },
	};
	sim_workload_t w = { .jobs = jobs, .njobs = 5, .nusers = 2 };

	for (int i = 0; i < 5; i++)
		jobs[i].uidx = jobs[i].uid - 1;
	ck_assert_int_eq(sim_group_trace(&w, 600), 0);
	ck_assert_uint_eq(jobs[0].campaign, 1);
	ck_assert_uint_eq(jobs[1].campaign, 1);
	ck_assert_uint_eq(jobs[2].campaign, 1);
	ck_assert_uint_eq(jobs[3].campaign, 1);  /* 1110 - 510 <= 600 */
	ck_assert_uint_eq(jobs[4].campaign, 2);  /* 1712 - 1111 > 600 */
	ck_assert_int_eq(sim_group_trace(&w, 0), 0);
	ck_assert_uint_eq(jobs[1].campaign, 1);  /* overlaps: MAX rule */
	ck_assert_uint_eq(jobs[3].campaign, 2);
}
END_TEST

/* sim_getline on n bytes of data (gzip'ed when gz): a NUL byte stays in
 * its own line, which keeps its whole length, and a last line that fills
 * the first buffer (255 bytes, no newline) comes back terminated. */
static void _getline_case(bool gz)
{
	char data[1200], *buf = NULL;
	size_t n = 0, cap = 0;
	gzFile g;
	int fd;

	memcpy(data, "ab\0cd\nef\n", 9);
	n = 9;
	memset(data + n, 'x', 600);	/* 600 bytes, a NUL at 300 */
	data[n + 300] = '\0';
	data[n + 600] = '\n';
	n += 601;
	memset(data + n, 'y', 255);	/* the last line, no newline */
	n += 255;
	snprintf(_path, sizeof(_path), "/tmp/ost-check-XXXXXX");
	ck_assert_int_ge(fd = mkstemp(_path), 0);
	close(fd);
	g = gzopen(_path, gz ? "wb" : "wbT");
	ck_assert_int_eq(gzwrite(g, data, (unsigned) n), (int) n);
	gzclose(g);
	g = gzopen(_path, "rb");
	ck_assert_int_eq(sim_getline(g, &buf, &cap), 5);
	ck_assert_uint_eq(strlen(buf), 2);
	ck_assert_str_eq(sim_line_why(buf, 5), "NUL byte in the line");
	ck_assert_int_eq(sim_getline(g, &buf, &cap), 2);
	ck_assert_str_eq(buf, "ef");
	ck_assert_ptr_null(sim_line_why(buf, 2));
	ck_assert_int_eq(sim_getline(g, &buf, &cap), 600);
	ck_assert_uint_eq(strlen(buf), 300);
	ck_assert_int_eq(sim_getline(g, &buf, &cap), 255);
	ck_assert_uint_eq(strlen(buf), 255);
	ck_assert_int_eq(sim_getline(g, &buf, &cap), -1);
	gzclose(g);
	free(buf);
	unlink(_path);
}

START_TEST(test_getline)
{
	_getline_case(false);
	_getline_case(true);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("workload");
	TCase *swf = ost_tcase("SWF", OST_TIMEOUT_LIGHT), *cwl = ost_tcase("Closed loop", OST_TIMEOUT_LIGHT);
	TCase *grp = ost_tcase("Grouping", OST_TIMEOUT_LIGHT);
	tcase_add_test(swf, test_getline);
	tcase_add_test(swf, test_swf_fields_ok);
	tcase_add_test(swf, test_swf_fields_bad);
	tcase_add_test(swf, test_swf_mapping);
	tcase_add_test(swf, test_swf_gzip_procs_exact);
	tcase_add_test(swf, test_swf_all_bad);
	tcase_add_test(cwl, test_cwl);
	tcase_add_test(cwl, test_cwl_gpus);
	tcase_add_test(grp, test_group_trace);
	suite_add_tcase(s, swf);
	suite_add_tcase(s, cwl);
	suite_add_tcase(s, grp);
	return ost_check_run(s);
}
