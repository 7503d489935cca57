/*****************************************************************************\
 *  osl_evlog_replay.c - the replay of the event log (format: osl_evlog.c):
 *  each record turned back into the core call the engine made, so that
 *  tests/live/ost-replay.c rebuilds the ranks the engine had.  Free of
 *  Slurm types and of the engine.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_evlog.h"

extern char *osl_evlog_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, r;
	int e;

	if (!f)
		return NULL;
	*len = 0;
	do {
		if (*len + 4096 > cap) {
			if (!(nb = realloc(buf, cap += 65536))) {
				e = errno;
				goto fail;
			}
			buf = nb;
		}
		r = fread(buf + *len, 1, cap - *len - 1, f);
		*len += r;
	} while (r > 0);
	e = errno;
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[*len] = '\0';
	return buf;
fail:
	free(buf);
	fclose(f);
	errno = e;
	return NULL;
}

/* Replace *s by a core of the state the copy at path holds. */
static int _load(ost_sched_t **s, const char *path, char *err, size_t errlen)
{
	ost_sched_t *n = NULL;
	char why[256] = "";
	size_t len = 0;
	char *buf = osl_evlog_read_file(path, &len);
	int rc;

	if (!buf) {
		snprintf(err, errlen, "load: cannot read the state copy %s: %s",
			 path, strerror(errno));
		return -1;
	}
	rc = ost_sched_load(buf, len, &n, why, sizeof(why));
	free(buf);
	if (rc) {
		snprintf(err, errlen, "load: %s: %s: %s", path,
			 ost_strerror(rc), why);
		return -1;
	}
	ost_sched_destroy(*s);
	*s = n;
	return 0;
}

extern int osl_evlog_apply(ost_sched_t **s, const osl_evlog_rec_t *r,
			   char *err, size_t errlen)
{
	ost_sched_t *c = *s;
	int rc = 0;

	switch (r->op) {
	case OSL_LOG_CONFIG:	/* with no core yet, as a create */
		if (c)
			break;
		/* fall through */
	case OSL_LOG_CREATE:	/* a new schedule (e.g. after a rebuild) */
		if (!(c = ost_sched_create(&r->cfg))) {
			snprintf(err, errlen, "create refused (configuration or memory)");
			return -1;
		}
		ost_sched_destroy(*s);
		*s = c;
		return 0;
	case OSL_LOG_LOAD:	/* the plugin restored this state */
		return _load(s, r->path, err, errlen);
	case OSL_LOG_PASS:
		return 0;
	default:
		break;
	}
	if (!c) {
		snprintf(err, errlen, "%s before create or load",
			 osl_evlog_op_name(r->op));
		return -1;
	}
	switch (r->op) {
	case OSL_LOG_CONFIG:
		rc = ost_sched_reconfigure(c, &r->cfg, r->t);
		break;
	case OSL_LOG_WEIGHT:
		rc = ost_user_set_weight(c, r->job.uid, r->x, r->t);
		break;
	case OSL_LOG_ACCOUNT:
		rc = ost_acct_declare(c, r->job.account, r->parent, r->x, r->t);
		break;
	case OSL_LOG_OWN:
		rc = ost_user_set_account(c, r->job.uid, r->job.account, r->t);
		break;
	case OSL_LOG_SUBMIT:
		rc = ost_job_submit(c, &r->job, r->t, NULL);
		break;
	case OSL_LOG_START:	/* procs 0: a log older than the width */
		rc = r->job.procs ?
		     ost_job_start_alloc(c, r->job.id, r->t, r->job.procs) :
		     ost_job_start(c, r->job.id, r->t);
		break;
	case OSL_LOG_UPDATE:
		rc = ost_job_update(c, r->job.id, r->job.procs,
				    r->job.estimate, r->t);
		break;
	case OSL_LOG_REBASE:
		rc = ost_sched_rebase(c, r->x);
		break;
	case OSL_LOG_NICE:
		rc = ost_job_set_nice(c, r->job.id, r->job.nice, r->t);
		break;
	case OSL_LOG_CANCEL:
		rc = ost_job_cancel(c, r->job.id, r->t);
		break;
	case OSL_LOG_REQUEUE:
		rc = ost_job_requeue(c, r->job.id, r->t);
		break;
	case OSL_LOG_FINISH:
		rc = ost_job_finish(c, r->job.id, r->t, r->x);
		break;
	case OSL_LOG_ADVANCE:
		rc = ost_sched_advance(c, r->t);
		break;
	default:
		break;
	}
	if (rc)
		snprintf(err, errlen, "%s refused: %s",
			 osl_evlog_op_name(r->op), ost_strerror(rc));
	return rc ? -1 : 0;
}
