/*****************************************************************************\
 *  osl_apply.c - one core event applied to a partition's core, and logged
 *  to the event log: the only file of the adapter that changes a core.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_apply.h"
#include "osl_evlog.h"
#include "osl_log.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_vec.h"

static const char *const _ev_names[] = {
	"submit", "start", "finish", "cancel", "requeue", "vanish", "update",
	"nice",
};

static void _log(FILE *evlog, const osl_part_t *p, osl_log_op_t op, double t,
		 uint64_t id, double x)
{
	osl_evlog_rec_t r = { .op = op, .part = p->name, .t = t, .x = x };

	if (!evlog)
		return;
	r.job.id = id;
	osl_evlog_write(evlog, &r);
}

/* Give the core the weight of uid before it sees a job of that user. */
static void _weight(osl_part_t *p, uint32_t uid, double w, double t,
		    FILE *evlog)
{
	int i, rc;

	for (i = 0; i < p->nw; i++)
		if (p->w[i].uid == uid)
			break;
	if (i < p->nw && p->w[i].weight == w)
		return;
	if ((rc = ost_user_set_weight(p->sched, uid, w, t))) {
		osl_error("ostrich: partition %s: weight %g of uid %u refused: %s",
			  p->name, w, uid, ost_strerror(rc));
		return;
	}
	if (evlog) {
		osl_evlog_rec_t r = { .op = OSL_LOG_WEIGHT, .part = p->name,
				      .t = t, .x = w };
		r.job.uid = uid;
		osl_evlog_write(evlog, &r);
	}
	if (i == p->nw) {
		p->w = osl_grow(p->w, &p->cap_w, p->nw + 1, sizeof(*p->w), 4);
		p->nw++;
	}
	p->w[i].uid = uid;
	p->w[i].weight = w;
}

/*
 * Hierarchy=accounts (§23): put uid in its own account own (declared
 * first), unless the core has it there already.  The core refuses while
 * the user has work in V (its tags live in the old account's time); that
 * is tried again at its next submission, and meanwhile its jobs that name
 * an account count there all the same.
 */
static void _place(osl_part_t *p, uint32_t uid, uint32_t own, double t,
		   FILE *evlog)
{
	uint32_t acct = own ? osl_acct_declare(p, own, t, evlog) : 0;
	int i, rc;

	for (i = 0; i < p->nw; i++)
		if (p->w[i].uid == uid)
			break;
	if (i < p->nw && p->w[i].placed && p->w[i].account == acct)
		return;
	if ((rc = ost_user_set_account(p->sched, uid, acct, t))) {
		osl_debug("ostrich: partition %s: uid %u stays out of account %s for now: %s",
			  p->name, uid, acct ? osl_acct_name(acct) : "root",
			  ost_strerror(rc));
		return;
	}
	if (evlog) {
		osl_evlog_rec_t r = { .op = OSL_LOG_OWN, .part = p->name,
				      .t = t };

		r.job.uid = uid;
		r.job.account = acct;
		osl_evlog_write(evlog, &r);
	}
	if (i == p->nw) {	/* its weight is the next _weight's */
		p->w = osl_grow(p->w, &p->cap_w, p->nw + 1, sizeof(*p->w), 4);
		p->w[p->nw].uid = uid;
		p->w[p->nw].weight = 0;
		p->nw++;
	}
	p->w[i].account = acct;
	p->w[i].placed = true;
}

/* Submit o at t (its user's weight and accounts first).  RET 0 or the
 * core's error */
static int _apply_submit(osl_part_t *p, const osl_obs_t *o, double t,
			 FILE *evlog)
{
	ost_job_desc_t d = {
		.id = o->key, .uid = o->uid, .procs = o->procs,
		.estimate = o->estimate, .group = o->group, .campaign = 0,
		.nice = o->nice,
	};
	osl_evlog_rec_t r = { .op = OSL_LOG_SUBMIT, .part = p->name, .t = t };
	int rc;

	if (ost_sched_nested(p->sched)) {
		_place(p, o->uid, o->own, t, evlog);
		d.account = o->account ?
			    osl_acct_declare(p, o->account, t, evlog) : 0;
	}
	_weight(p, o->uid, o->weight, t, evlog);
	if (!(rc = ost_job_submit(p->sched, &d, t, NULL)) && evlog) {
		r.job = d;
		osl_evlog_write(evlog, &r);
	}
	return rc;
}

/* Start job e->key at e->t on the width Slurm allocated (o->procs), or
 * give it a new request (OSL_EV_UPDATE).  RET 0 or the core's error */
static int _apply_width(osl_part_t *p, const osl_event_t *e, FILE *evlog)
{
	osl_evlog_rec_t r = { .part = p->name, .t = e->t };
	int rc;

	r.job.id = e->key;
	if (e->kind == OSL_EV_START) {
		rc = ost_job_start_alloc(p->sched, e->key, e->t, e->o->procs);
		r.op = OSL_LOG_START;
		r.job.procs = e->o->procs;
	} else {
		rc = ost_job_update(p->sched, e->key, e->procs, e->estimate,
				    e->t);
		r.op = OSL_LOG_UPDATE;
		r.job.procs = e->procs;
		r.job.estimate = e->estimate;
	}
	if (!rc && evlog)
		osl_evlog_write(evlog, &r);
	return rc;
}

/* Pending job e->key has nice e->o->nice now (§22: scontrol top, or
 * update nice=).  RET 0 or the core's error */
static int _apply_nice(osl_part_t *p, const osl_event_t *e, FILE *evlog)
{
	osl_evlog_rec_t r = { .op = OSL_LOG_NICE, .part = p->name,
			      .t = e->t };
	int rc = ost_job_set_nice(p->sched, e->key, e->o->nice, e->t);

	if (!rc && evlog) {
		r.job.id = e->key;
		r.job.nice = e->o->nice;
		osl_evlog_write(evlog, &r);
	}
	return rc;
}

/* A running job whose record Slurm purged before a pass saw it end: ended
 * by now at worst, charged since its start within its estimate, or the
 * larger limit the ledger saw it run under (ran; NAN: unknown), as the
 * ledger charges it.  RET 0 or the core's error */
static int _apply_vanish(osl_part_t *p, uint64_t key, double now,
			 double ran, FILE *evlog)
{
	ost_job_info_t info;
	double run;
	int rc;

	if (ost_job_get(p->sched, key, &info))
		return 0;
	run = isnan(info.start) || now < info.start ? 0 : now - info.start;
	if (!(rc = ost_job_finish_capped(p->sched, key, now, run,
					 ran > info.estimate ? ran :
					 info.estimate, &run)))
		_log(evlog, p, OSL_LOG_FINISH, now, key, run);
	osl_debug("ostrich: job %"PRIu64" vanished while running: finished at %.0f, charged %.0f s",
		  key, now, run);
	return rc;
}

extern void osl_apply(osl_part_t *p, const osl_event_t *e, double now,
		      FILE *evlog)
{
	double run = 0;
	int rc = 0;

	switch (e->kind) {
	case OSL_EV_SUBMIT:
		rc = _apply_submit(p, e->o, e->t, evlog);
		break;
	case OSL_EV_START:
	case OSL_EV_UPDATE:
		rc = _apply_width(p, e, evlog);
		break;
	case OSL_EV_FINISH:	/* Slurm's run time, at most the bound */
		if (!(rc = ost_job_finish_capped(p->sched, e->key, e->t,
						 e->o->runtime, e->estimate,
						 &run)))
			_log(evlog, p, OSL_LOG_FINISH, e->t, e->key, run);
		break;
	case OSL_EV_VANISH:
		rc = _apply_vanish(p, e->key, now, e->estimate, evlog);
		break;
	case OSL_EV_CANCEL:
		if (!(rc = ost_job_cancel(p->sched, e->key, e->t)))
			_log(evlog, p, OSL_LOG_CANCEL, e->t, e->key, 0);
		break;
	case OSL_EV_REQUEUE:
		if (!(rc = ost_job_requeue(p->sched, e->key, e->t)))
			_log(evlog, p, OSL_LOG_REQUEUE, e->t, e->key, 0);
		break;
	case OSL_EV_NICE:
		rc = _apply_nice(p, e, evlog);
		break;
	}
	if (rc)
		osl_error("ostrich: partition %s: event %s of job %"PRIu64" at %.0f refused: %s",
			  p->name, _ev_names[e->kind], e->key, e->t,
			  ost_strerror(rc));
}
