/*****************************************************************************\
 *  fuzz_workload.c - libFuzzer targets: the simulator's workload readers,
 *  SWF (fuzz_swf), closed-loop campaigns (fuzz_cwl, built with
 *  -DFUZZ_CWL: the input gets the "%ostrich-campaigns 1" first line) and
 *  sacct dumps (fuzz_sacct, built with -DFUZZ_SACCT: the machine size from
 *  a fixed partition table, partitions "batch" and "debug", §17)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The input is read through the real path (a memfd named by /proc), the
 *  jobs read must be within the engine's ranges, and a small workload is
 *  replayed under every policy: it must end without a false deadlock.
\*****************************************************************************/

#define _GNU_SOURCE	/* memfd_create */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simloop.h"
#include "workload.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

/* Replays stay small: the readers are the target, the loop a check. */
#define MAX_REPLAY_JOBS 64

static int _fd = -1;
static char _path[64];

/* Every policy, open loop and (SWF) with the users' feedback (§16). */
static void _replay(sim_workload_t *w)
{
	for (int p = 0; p < 2 * SIM_POLICY_COUNT; p++) {
		sim_opts_t o;
		char err[256] = "";
		int rc;

		memset(&o, 0, sizeof(o));
		o.policy = (sim_policy_t) (p % SIM_POLICY_COUNT);
		o.feedback = p >= SIM_POLICY_COUNT;
		o.fb_threshold = 3600;
		if (o.feedback && w->closed)
			continue;
		o.dispatch = SIM_DISPATCH_EASY;
		o.procs = w->procs;
		o.grouping = SIM_GROUP_TRACE;
		o.half_life = 604800;
		ost_config_init(&o.core);
		o.core.procs = w->procs;
		rc = sim_run(w, &o, err, sizeof(err));
		if (rc && strstr(err, "deadlock")) {
			fprintf(stderr, "%s: %s\n", sim_policy_name(o.policy),
				err);
			abort();
		}
		for (size_t i = 0; !rc && i < w->njobs; i++)
			CHECK(w->jobs[i].start >= w->jobs[i].submit &&
			      w->jobs[i].end >= w->jobs[i].start);
	}
}

#ifdef FUZZ_SACCT
/* The sacct names: every job's account and owner are named in w. */
static void _check_names(const sim_workload_t *w)
{
	char buf[16];

	CHECK(w->sacct);
	for (size_t i = 0; i < w->njobs; i++) {
		CHECK(w->jobs[i].account < w->naccounts);
		CHECK(sim_user_name(w, w->jobs[i].uid, buf) != buf);
	}
	for (size_t i = 1; i < w->nunames; i++)
		CHECK(w->unames[i - 1].uid <= w->unames[i].uid);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sim_workload_t w;
	char err[512];
#if defined(FUZZ_CWL)
	static const char head[] = "%ostrich-campaigns 1\n";
#else
	static const char head[] = "";
#endif

	if (_fd < 0) {
		CHECK((_fd = memfd_create("fuzz-workload", 0)) >= 0);
		snprintf(_path, sizeof(_path), "/proc/self/fd/%d", _fd);
	}
	CHECK(!ftruncate(_fd, 0));
	CHECK(pwrite(_fd, head, sizeof(head) - 1, 0) ==
	      (ssize_t) (sizeof(head) - 1));
	CHECK(pwrite(_fd, data, size, sizeof(head) - 1) == (ssize_t) size);
#ifdef FUZZ_SACCT
	static sim_partition_t parts[] = {
		{ "batch", 64, 3600 }, { "debug", 8, -1 },
	};
	static const sim_partitions_t ps = { parts, 2 };
	sim_input_t in = { .parts = &ps, .unlimited = size % 2 ? -1 : 600 };
#else
	sim_input_t in = { .unlimited = -1 };
#endif

	if (sim_workload_read_in(_path, &in, &w, NULL, err, sizeof(err)))
		return 0;
#ifdef FUZZ_SACCT
	_check_names(&w);
#endif
	CHECK(w.procs >= 1 && w.njobs >= 1);
	for (size_t i = 0; i < w.njobs; i++) {
		const sim_job_t *j = &w.jobs[i];

		CHECK(j->procs >= 1 && j->procs <= w.procs);
		CHECK(ost_duration_ok(j->runtime) &&
		      ost_duration_ok(j->estimate));
		CHECK(w.closed || ost_time_ok(j->submit));
	}
	if (w.njobs <= MAX_REPLAY_JOBS)
		_replay(&w);
	sim_workload_free(&w);
	return 0;
}
