/*****************************************************************************\
 *  osl_evlog.c - the event log (EventLog= in ostrich.conf): every event the
 *  engine hands a partition's core, one line each, so that a replay
 *  through the core (osl_evlog_apply, osl_evlog_replay.c, run by
 *  tests/live/ost-replay.c) gives the ranks the engine had.  Its format,
 *  its one writer and its one reader.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  FORMAT.  Text, one record a line, fields separated by one space:
 *
 *    PART create PROCS MODE THINK CAPACITY INTRA K DEFWEIGHT T KEY=VALUE...
 *    PART config PROCS MODE THINK CAPACITY INTRA K DEFWEIGHT T KEY=VALUE...
 *    PART load FILE
 *    PART weight UID WEIGHT T
 *    PART account ID PARENT SHARE T
 *    PART own UID ACCOUNT T
 *    PART submit JOBID UID PROCS ESTIMATE GROUP T NICE ACCOUNT
 *    PART start JOBID T PROCS
 *    PART update JOBID PROCS ESTIMATE T
 *    PART finish JOBID T RUNTIME
 *    PART cancel JOBID T
 *    PART requeue JOBID T
 *    PART advance T
 *    PART pass T
 *    PART rebase DELTA T
 *    PART nice JOBID NICE T
 *
 *  PART is the partition's name; T, THINK, ESTIMATE and RUNTIME are seconds
 *  (T since the epoch), written with %.17g so that they read back to the
 *  same double; MODE, CAPACITY and INTRA are the names of ost_mode_name()
 *  and friends; K is FairCampUsers; JOBID the core job id (a task t of array
 *  a is a << 32 | t); GROUP the array job id or 0.  "create" starts a new
 *  schedule (dropping any older one: a rebuild), "config" reconfigures it,
 *  "load" replaces it by the state saved in FILE (a copy kept next to the
 *  log), "pass" ends a pass: a replay stops at the last one, the moment
 *  the priorities in Slurm match the ranks.  PROCS of "start" is the width
 *  Slurm allocated (ost_job_start_alloc); logs written before it was
 *  recorded have "start JOBID T", read as PROCS 0: the width asked for
 *  (ost_job_start).  "update" is a pending job whose width or estimate
 *  changed (ost_job_update); "finish" carries the run time charged, after
 *  any cap; "rebase" shifts every real time of the schedule by DELTA
 *  seconds after a step of the wall clock (ost_sched_rebase), T being the
 *  clock that showed it.  NICE is the job's nice (semantics.md §22;
 *  "nice" when a pass saw it change, ost_job_set_nice); logs written before
 *  it was recorded have no NICE on "submit", read as 0.
 *
 *  The KEY=VALUE pairs of "create" and "config" are the rest of the core's
 *  configuration: hierarchy, gate, varea, rank (the names of
 *  ost_hier_name() and friends), memory (off, on or key), evidence (off or
 *  on), memory_credit, evidence_floor and rank_cap (seconds), and, only
 *  when one is not the default, lead, lead_cap and overdue (semantics.md
 *  §24, §27); logs written before they were recorded have none, read as
 *  ost_config_init's defaults.  A key this reader does not know refuses the line.
 *
 *  Accounts (semantics.md §21, §23), so that a nested schedule replays
 *  nested: "account" declares account ID under PARENT (0: the root) with
 *  share SHARE, or gives a declared one a new share (ost_acct_declare);
 *  "own" makes ACCOUNT user UID's own account (ost_user_set_account);
 *  ACCOUNT of "submit" is the account the job names (0: its owner's own;
 *  absent in older logs, read as 0).  The ids are the adapter's
 *  (StateSaveLocation/ostrich_accounts names them).
 *
 *  A process killed by a signal can leave its last record half written
 *  (stdio writes the buffer in pieces).  The next process starts with a
 *  newline if the file does not end with one (osl_evlog_seal), then writes
 *  "create" or "load" before any event; a reader skips a line it cannot
 *  parse when it is the last one or comes just before such a record
 *  (osl_evlog_torn), and refuses any other.
 *
 *  Free of Slurm types and of the engine: ost-replay and tests/plugin link it.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* pread, strdup */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ostrich.h"
#include "osl_evlog.h"

static const char *const _op_names[] = {
	[OSL_LOG_CREATE] = "create",
	[OSL_LOG_CONFIG] = "config",
	[OSL_LOG_LOAD] = "load",
	[OSL_LOG_WEIGHT] = "weight",
	[OSL_LOG_SUBMIT] = "submit",
	[OSL_LOG_START] = "start",
	[OSL_LOG_FINISH] = "finish",
	[OSL_LOG_CANCEL] = "cancel",
	[OSL_LOG_REQUEUE] = "requeue",
	[OSL_LOG_ADVANCE] = "advance",
	[OSL_LOG_PASS] = "pass",
	[OSL_LOG_UPDATE] = "update",
	[OSL_LOG_REBASE] = "rebase",
	[OSL_LOG_NICE] = "nice",
	[OSL_LOG_ACCOUNT] = "account",
	[OSL_LOG_OWN] = "own",
};

#define _NOPS ((int) (sizeof(_op_names) / sizeof(_op_names[0])))

extern const char *osl_evlog_op_name(osl_log_op_t op)
{
	return (int) op >= 0 && (int) op < _NOPS ? _op_names[op] : "?";
}

extern void osl_evlog_write(FILE *f, const osl_evlog_rec_t *r)
{
	const char *op;

	if (!f || (int) r->op < 0 || (int) r->op >= _NOPS)
		return;
	op = _op_names[r->op];
	switch (r->op) {
	case OSL_LOG_CREATE:
	case OSL_LOG_CONFIG:
		fprintf(f, "%s %s %u %s %.17g %s %s %u %.17g %.17g "
			"hierarchy=%s gate=%s varea=%s memory=%s "
			"memory_credit=%.17g evidence=%s evidence_floor=%.17g "
			"rank=%s rank_cap=%.17g",
			r->part, op, r->cfg.procs, ost_mode_name(r->cfg.mode),
			r->cfg.think_time, ost_capacity_name(r->cfg.capacity),
			ost_intra_name(r->cfg.intra), r->cfg.faircamp_users,
			r->cfg.default_weight, r->t,
			ost_hier_name(r->cfg.hierarchy),
			ost_gate_name(r->cfg.gate),
			ost_varea_name(r->cfg.varea),
			r->cfg.memory_key ? "key" : r->cfg.memory ? "on" : "off",
			r->cfg.memory_credit, r->cfg.evidence ? "on" : "off",
			r->cfg.evidence_floor, ost_rank_name(r->cfg.rank),
			r->cfg.rank_cap);
		/* §24, §27: only when set, so that older readers still read
		 * the logs of the defaults */
		if (r->cfg.lead != OST_LEAD_KEEP ||
		    r->cfg.overdue != OST_OVERDUE_RANK)
			fprintf(f, " lead=%s lead_cap=%.17g overdue=%s",
				ost_lead_name(r->cfg.lead), r->cfg.lead_cap,
				ost_overdue_name(r->cfg.overdue));
		fputc('\n', f);
		break;
	case OSL_LOG_LOAD:
		fprintf(f, "%s %s %s\n", r->part, op, r->path);
		break;
	case OSL_LOG_WEIGHT:
		fprintf(f, "%s %s %u %.17g %.17g\n", r->part, op, r->job.uid,
			r->x, r->t);
		break;
	case OSL_LOG_SUBMIT:
		fprintf(f, "%s %s %"PRIu64" %u %u %.17g %"PRIu64" %.17g %d %u\n",
			r->part, op, r->job.id, r->job.uid, r->job.procs,
			r->job.estimate, r->job.group, r->t, (int)r->job.nice,
			r->job.account);
		break;
	case OSL_LOG_ACCOUNT:
		fprintf(f, "%s %s %u %u %.17g %.17g\n", r->part, op,
			r->job.account, r->parent, r->x, r->t);
		break;
	case OSL_LOG_OWN:
		fprintf(f, "%s %s %u %u %.17g\n", r->part, op, r->job.uid,
			r->job.account, r->t);
		break;
	case OSL_LOG_NICE:
		fprintf(f, "%s %s %"PRIu64" %d %.17g\n", r->part, op,
			r->job.id, (int)r->job.nice, r->t);
		break;
	case OSL_LOG_START:
		fprintf(f, "%s %s %"PRIu64" %.17g %u\n", r->part, op,
			r->job.id, r->t, r->job.procs);
		break;
	case OSL_LOG_UPDATE:
		fprintf(f, "%s %s %"PRIu64" %u %.17g %.17g\n", r->part, op,
			r->job.id, r->job.procs, r->job.estimate, r->t);
		break;
	case OSL_LOG_REBASE:
		fprintf(f, "%s %s %.17g %.17g\n", r->part, op, r->x, r->t);
		break;
	case OSL_LOG_CANCEL:
	case OSL_LOG_REQUEUE:
		fprintf(f, "%s %s %"PRIu64" %.17g\n", r->part, op, r->job.id,
			r->t);
		break;
	case OSL_LOG_FINISH:
		fprintf(f, "%s %s %"PRIu64" %.17g %.17g\n", r->part, op,
			r->job.id, r->t, r->x);
		break;
	case OSL_LOG_ADVANCE:
	case OSL_LOG_PASS:
		fprintf(f, "%s %s %.17g\n", r->part, op, r->t);
		break;
	}
}

/* Cut the next space-separated word out of *s (NULL at the end). */
static char *_word(char **s)
{
	char *w = *s, *e;

	while (*w && isspace((unsigned char) *w))
		w++;
	if (!*w)
		return NULL;
	for (e = w; *e && !isspace((unsigned char) *e); e++)
		;
	if (*e)
		*e++ = '\0';
	*s = e;
	return w;
}

/* One KEY=VALUE of a create or config record into r->cfg.  RET 0, or -1
 * (unknown key or bad value: a log of a newer release is refused, not
 * replayed wrong) */
static int _config_kv(char *w, ost_config_t *c)
{
	char *v = strchr(w, '='), *end;

	if (!v)
		return -1;
	*v++ = '\0';
	if (!strcmp(w, "hierarchy"))
		return ost_hier_parse(v, &c->hierarchy) ? -1 : 0;
	if (!strcmp(w, "gate"))
		return ost_gate_parse(v, &c->gate) ? -1 : 0;
	if (!strcmp(w, "lead"))
		return ost_lead_parse(v, &c->lead) ? -1 : 0;
	if (!strcmp(w, "overdue"))
		return ost_overdue_parse(v, &c->overdue) ? -1 : 0;
	if (!strcmp(w, "varea"))
		return ost_varea_parse(v, &c->varea) ? -1 : 0;
	if (!strcmp(w, "rank"))
		return ost_rank_parse(v, &c->rank) ? -1 : 0;
	if (!strcmp(w, "evidence"))
		return ost_onoff_parse(v, &c->evidence) ? -1 : 0;
	if (!strcmp(w, "memory")) {
		c->memory_key = !strcmp(v, "key");
		if (c->memory_key)
			c->memory = true;
		return c->memory_key || !ost_onoff_parse(v, &c->memory) ?
		       0 : -1;
	}
	if (!strcmp(w, "memory_credit"))
		c->memory_credit = strtod(v, &end);
	else if (!strcmp(w, "evidence_floor"))
		c->evidence_floor = strtod(v, &end);
	else if (!strcmp(w, "rank_cap"))
		c->rank_cap = strtod(v, &end);
	else if (!strcmp(w, "lead_cap"))
		c->lead_cap = strtod(v, &end);
	else
		return -1;
	return *v && !*end ? 0 : -1;
}

/*
 * create, config: the 8 fields every log has, then the KEY=VALUE pairs
 * (absent in older logs: ost_config_init's defaults, as the plugins then
 * ran them).
 */
static int _config(char *rest, osl_evlog_rec_t *r)
{
	char mode[32], cap[32], intra[32], *w;
	int used = 0;

	ost_config_init(&r->cfg);
	if (sscanf(rest, "%u %31s %lf %31s %31s %u %lf %lf%n", &r->cfg.procs,
		   mode, &r->cfg.think_time, cap, intra,
		   &r->cfg.faircamp_users, &r->cfg.default_weight, &r->t,
		   &used) != 8 || !used)
		return -1;
	if (ost_mode_parse(mode, &r->cfg.mode) ||
	    ost_capacity_parse(cap, &r->cfg.capacity) ||
	    ost_intra_parse(intra, &r->cfg.intra))
		return -1;
	rest += used;
	while ((w = _word(&rest)))
		if (_config_kv(w, &r->cfg))
			return -1;
	return 0;
}

extern int osl_evlog_parse(char *line, osl_evlog_rec_t *r)
{
	char *rest = line, *op;
	int i;

	memset(r, 0, sizeof(*r));
	if (!(r->part = _word(&rest)) || !(op = _word(&rest)))
		return -1;
	for (i = 0; i < _NOPS && strcmp(op, _op_names[i]); i++)
		;
	if (i == _NOPS)
		return -1;
	r->op = (osl_log_op_t) i;
	switch (r->op) {
	case OSL_LOG_CREATE:
	case OSL_LOG_CONFIG:
		return _config(rest, r);
	case OSL_LOG_LOAD:
		return (r->path = _word(&rest)) ? 0 : -1;
	case OSL_LOG_WEIGHT:
		return sscanf(rest, "%u %lf %lf", &r->job.uid, &r->x,
			      &r->t) == 3 ? 0 : -1;
	case OSL_LOG_SUBMIT: {	/* NICE, ACCOUNT absent in older logs */
		int n = sscanf(rest, "%"SCNu64" %u %u %lf %"SCNu64" %lf %"
			       SCNd32" %u", &r->job.id, &r->job.uid,
			       &r->job.procs, &r->job.estimate, &r->job.group,
			       &r->t, &r->job.nice, &r->job.account);

		return n >= 6 && n <= 8 ? 0 : -1;
	}
	case OSL_LOG_ACCOUNT:
		return sscanf(rest, "%u %u %lf %lf", &r->job.account,
			      &r->parent, &r->x, &r->t) == 4 ? 0 : -1;
	case OSL_LOG_OWN:
		return sscanf(rest, "%u %u %lf", &r->job.uid, &r->job.account,
			      &r->t) == 3 ? 0 : -1;
	case OSL_LOG_NICE:
		return sscanf(rest, "%"SCNu64" %"SCNd32" %lf", &r->job.id,
			      &r->job.nice, &r->t) == 3 ? 0 : -1;
	case OSL_LOG_START: {	/* PROCS absent in older logs */
		int n = sscanf(rest, "%"SCNu64" %lf %u", &r->job.id, &r->t,
			       &r->job.procs);

		return n == 2 || n == 3 ? 0 : -1;
	}
	case OSL_LOG_UPDATE:
		return sscanf(rest, "%"SCNu64" %u %lf %lf", &r->job.id,
			      &r->job.procs, &r->job.estimate, &r->t) == 4 ?
		       0 : -1;
	case OSL_LOG_REBASE:
		return sscanf(rest, "%lf %lf", &r->x, &r->t) == 2 ? 0 : -1;
	case OSL_LOG_CANCEL:
	case OSL_LOG_REQUEUE:
		return sscanf(rest, "%"SCNu64" %lf", &r->job.id, &r->t) == 2 ?
		       0 : -1;
	case OSL_LOG_FINISH:
		return sscanf(rest, "%"SCNu64" %lf %lf", &r->job.id, &r->t,
			      &r->x) == 3 ? 0 : -1;
	case OSL_LOG_ADVANCE:
	case OSL_LOG_PASS:
		return sscanf(rest, "%lf", &r->t) == 1 ? 0 : -1;
	}
	return -1;
}

extern int osl_evlog_seal(int fd)
{
	struct stat st;
	char c;

	if (fstat(fd, &st) < 0)
		return -1;
	if (st.st_size == 0)
		return 0;
	if (pread(fd, &c, 1, st.st_size - 1) != 1)
		return -1;
	if (c == '\n')
		return 0;
	return write(fd, "\n", 1) == 1 ? 0 : -1;
}

extern bool osl_evlog_torn(const char *next)
{
	char *copy;
	osl_evlog_rec_t r;
	bool anew;

	if (!next)
		return true;
	if (!(copy = strdup(next)))
		return false;
	anew = !osl_evlog_parse(copy, &r) &&
	       (r.op == OSL_LOG_CREATE || r.op == OSL_LOG_LOAD);
	free(copy);
	return anew;
}
