/*
 * ost-replay.c - what the core computes for the events a live slurmctld saw.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: ost-replay EVENTLOG     replay an EventLog= file of the plugins
 *                                (up to its last "pass" line) through the
 *                                core and print the pending ranks
 *        ost-replay --state FILE load a state file saved by the plugins and
 *                                print its ranks and campaigns
 *
 * Output, one line per pending job in rank order, then per campaign:
 *   rank PART RANK JOBKEY UID CAMPAIGN PROCS ESTIMATE
 *   campaign PART UID SEQ PENDING RUNNING DONE AREA
 * PROCS and ESTIMATE are the width and estimate the core counts for the
 * job; AREA the campaign's CPU-seconds (finished jobs: width x run time
 * charged).
 * JOBKEY is the Slurm job id, or ARRAYID_TASK for a task of a job array.
 * Exit status: 0, 1 on a bad input or a core error (with a message).
 * The event log's format and its reader are plugins/osl_evlog.c.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_evlog.h"

#define MAXPARTS 16

typedef struct {
	char name[64];
	ost_sched_t *s;
} part_t;

static part_t parts[MAXPARTS];
static int nparts;

static void key_str(uint64_t key, char *buf, size_t len)
{
	if (key >> 32)
		snprintf(buf, len, "%" PRIu64 "_%" PRIu64, key >> 32,
			 key & 0xffffffffu);
	else
		snprintf(buf, len, "%" PRIu64, key);
}

static const char *cur_part;

static int print_rank(const ost_rank_info_t *r, void *arg)
{
	const ost_sched_t *s = arg;
	ost_job_info_t info = { 0 };
	char k[48];

	key_str(r->job_id, k, sizeof(k));
	(void) ost_job_get(s, r->job_id, &info);
	printf("rank %s %" PRIu64 " %s %u %u %u %.17g\n", cur_part, r->rank, k,
	       r->uid, r->campaign, info.procs, info.estimate);
	return 0;
}

static int print_campaign(const ost_campaign_info_t *c, void *arg)
{
	(void) arg;
	printf("campaign %s %u %u %u %u %u %.17g\n", cur_part, c->uid,
	       c->seq, c->pending, c->running, c->done, c->area);
	return 0;
}

static void print_sched(const char *name, const ost_sched_t *s)
{
	cur_part = name;
	ost_sched_foreach_pending(s, print_rank, (void *) s);
	ost_sched_foreach_campaign(s, print_campaign, NULL);
}

static part_t *get_part(const char *name)
{
	int i;

	for (i = 0; i < nparts; i++)
		if (!strcmp(parts[i].name, name))
			return &parts[i];
	if (nparts == MAXPARTS)
		return NULL;
	snprintf(parts[nparts].name, sizeof(parts[nparts].name), "%s", name);
	return &parts[nparts++];
}

static int die(int line, const char *what)
{
	fprintf(stderr, "ost-replay: line %d: %s\n", line, what);
	return 1;
}

static int replay(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[512], err[512];
	osl_evlog_rec_t r;
	long last_pass = 0, n = 0;
	int i;

	if (!f) {
		perror(path);
		return 1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (!osl_evlog_parse(buf, &r) && r.op == OSL_LOG_PASS)
			last_pass = n;
	}
	rewind(f);
	for (n = 1; n <= last_pass && fgets(buf, sizeof(buf), f); n++) {
		part_t *p;

		if (osl_evlog_parse(buf, &r)) {
			/* a record torn by a crash, if the next line starts
			 * the schedule anew (osl_evlog.c) */
			long at = ftell(f);
			char next[sizeof(buf)];
			bool torn = osl_evlog_torn(fgets(next, sizeof(next), f));

			if (!torn || fseek(f, at, SEEK_SET))
				return die((int) n, "malformed line");
			fprintf(stderr, "ost-replay: line %ld: a record torn by a crash, skipped\n", n);
			continue;
		}
		if (!(p = get_part(r.part)))
			return die((int) n, "too many partitions");
		if (osl_evlog_apply(&p->s, &r, err, sizeof(err)))
			return die((int) n, err);
	}
	fclose(f);
	for (i = 0; i < nparts; i++)
		if (parts[i].s)
			print_sched(parts[i].name, parts[i].s);
	return 0;
}

static int load_state(const char *path)
{
	const char *name = strrchr(path, '.');
	char *buf, err[256] = "";
	ost_sched_t *s = NULL;
	size_t len = 0;
	int rc;

	if (!(buf = osl_evlog_read_file(path, &len))) {
		perror(path);
		return 1;
	}
	if ((rc = ost_sched_load(buf, len, &s, err, sizeof(err)))) {
		fprintf(stderr, "ost-replay: %s: %s: %s\n", path,
			ost_strerror(rc), err);
		free(buf);
		return 1;
	}
	print_sched(name ? name + 1 : path, s);
	ost_sched_destroy(s);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--state"))
		return load_state(argv[2]);
	if (argc == 2 && argv[1][0] != '-')
		return replay(argv[1]);
	fprintf(stderr, "usage: ost-replay EVENTLOG | ost-replay --state FILE\n");
	return 2;
}
