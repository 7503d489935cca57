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
 *   rank PART RANK JOBKEY UID CAMPAIGN
 *   campaign PART UID SEQ PENDING RUNNING DONE
 * JOBKEY is the Slurm job id, or ARRAYID_TASK for a task of a job array.
 * Exit status: 0, 1 on a bad input or a core error (with a message).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"

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
	char k[48];

	(void) arg;
	key_str(r->job_id, k, sizeof(k));
	printf("rank %s %" PRIu64 " %s %u %u\n", cur_part, r->rank, k, r->uid,
	       r->campaign);
	return 0;
}

static int print_campaign(const ost_campaign_info_t *c, void *arg)
{
	(void) arg;
	printf("campaign %s %u %u %u %u %u\n", cur_part, c->uid, c->seq,
	       c->pending, c->running, c->done);
	return 0;
}

static void print_sched(const char *name, const ost_sched_t *s)
{
	cur_part = name;
	ost_sched_foreach_pending(s, print_rank, NULL);
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

static int die(int line, const char *what, int rc)
{
	fprintf(stderr, "ost-replay: line %d: %s%s%s\n", line, what,
		rc ? ": " : "", rc ? ost_strerror(rc) : "");
	return 1;
}

/* "create"/"config" fields: procs mode think capacity intra k defw t */
static int parse_config(const char *rest, ost_config_t *cfg, double *t)
{
	char mode[32], cap[32], intra[32];

	ost_config_init(cfg);
	if (sscanf(rest, "%u %31s %lf %31s %31s %u %lf %lf", &cfg->procs, mode,
		   &cfg->think_time, cap, intra, &cfg->faircamp_users,
		   &cfg->default_weight, t) != 8)
		return -1;
	if (ost_mode_parse(mode, &cfg->mode) ||
	    ost_capacity_parse(cap, &cfg->capacity) ||
	    ost_intra_parse(intra, &cfg->intra))
		return -1;
	return 0;
}

/* Whole file in a new buffer (NULL on error). */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, r;

	if (!f)
		return NULL;
	*len = 0;
	do {
		if (*len + 4096 > cap) {
			if (!(nb = realloc(buf, cap += 65536))) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + *len, 1, cap - *len, f);
		*len += r;
	} while (r > 0);
	fclose(f);
	return buf;
}

static int apply(part_t *p, const char *op, const char *rest, int line)
{
	ost_config_t cfg;
	ost_job_desc_t d;
	uint64_t id;
	double t, x;
	uint32_t uid;
	size_t len = 0;
	int rc = 0;

	if (!strcmp(op, "create") || !strcmp(op, "config")) {
		if (parse_config(rest, &cfg, &t))
			return die(line, "bad configuration", 0);
		if (op[1] == 'r') {	/* a new schedule (e.g. after a rebuild) */
			ost_sched_destroy(p->s);
			p->s = NULL;
		}
		if (!p->s) {
			if (!(p->s = ost_sched_create(&cfg)))
				return die(line, "create failed", 0);
		} else if ((rc = ost_sched_reconfigure(p->s, &cfg, t))) {
			return die(line, "reconfigure", rc);
		}
		return 0;
	}
	if (!strcmp(op, "load")) {	/* the plugin restored this state */
		char path[400], *buf;
		ost_sched_t *s = NULL;
		char err[256] = "";

		if (sscanf(rest, "%399s", path) != 1 || !(buf = read_all(path, &len)))
			return die(line, "load: cannot read the state copy", 0);
		rc = ost_sched_load(buf, len, &s, err, sizeof(err));
		free(buf);
		if (rc)
			return die(line, err, rc);
		ost_sched_destroy(p->s);
		p->s = s;
		return 0;
	}
	if (!p->s)
		return die(line, "event before create", 0);
	if (!strcmp(op, "weight")) {
		if (sscanf(rest, "%u %lf %lf", &uid, &x, &t) != 3)
			return die(line, "bad weight", 0);
		rc = ost_user_set_weight(p->s, uid, x, t);
	} else if (!strcmp(op, "submit")) {
		memset(&d, 0, sizeof(d));
		if (sscanf(rest, "%" SCNu64 " %u %u %lf %" SCNu64 " %lf", &d.id,
			   &d.uid, &d.procs, &d.estimate, &d.group, &t) != 6)
			return die(line, "bad submit", 0);
		rc = ost_job_submit(p->s, &d, t, NULL);
	} else if (!strcmp(op, "start") || !strcmp(op, "cancel") ||
		   !strcmp(op, "requeue")) {
		if (sscanf(rest, "%" SCNu64 " %lf", &id, &t) != 2)
			return die(line, "bad event", 0);
		rc = op[0] == 's' ? ost_job_start(p->s, id, t) :
		     op[0] == 'c' ? ost_job_cancel(p->s, id, t) :
				    ost_job_requeue(p->s, id, t);
	} else if (!strcmp(op, "finish")) {
		if (sscanf(rest, "%" SCNu64 " %lf %lf", &id, &t, &x) != 3)
			return die(line, "bad finish", 0);
		rc = ost_job_finish(p->s, id, t, x);
	} else if (!strcmp(op, "advance")) {
		if (sscanf(rest, "%lf", &t) != 1)
			return die(line, "bad advance", 0);
		rc = ost_sched_advance(p->s, t);
	} else if (!strcmp(op, "pass")) {
		return 0;
	} else {
		return die(line, "unknown event", 0);
	}
	return rc ? die(line, op, rc) : 0;
}

static int replay(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[512], part[64], op[32];
	long last_pass = 0, n = 0;
	int i, off;

	if (!f) {
		perror(path);
		return 1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, " pass "))
			last_pass = n;
	}
	rewind(f);
	for (n = 1; n <= last_pass && fgets(buf, sizeof(buf), f); n++) {
		part_t *p;

		if (sscanf(buf, "%63s %31s %n", part, op, &off) != 2)
			return die((int) n, "malformed line", 0);
		if (!(p = get_part(part)))
			return die((int) n, "too many partitions", 0);
		if (apply(p, op, buf + off, (int) n))
			return 1;
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

	if (!(buf = read_all(path, &len))) {
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
