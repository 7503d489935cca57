/*****************************************************************************\
 *  osl_report_track.c - the engine's side of the campaign report (§26):
 *  a campaign's runs as the ledger charges them, its place in V at each
 *  pass, and its close into the ring (osl_report_track.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_report_track.h"

extern void osl_report_job(osl_report_t *r, const osl_obs_t *o, double run,
			   uint32_t campaign, double submit,
			   const char *account)
{
	osl_report_camp_t *c = osl_report_open_get(r, o->uid, campaign, true);
	double start = (double) o->start, end = (double) o->end;

	if (!c)
		return;		/* out of memory: the campaign misses a run */
	/* the account of its earliest job that ran names the campaign */
	if (account && account[0] &&
	    (!c->account[0] || submit < c->release) &&
	    strlen(account) < sizeof(c->account))
		strcpy(c->account, account);
	if (submit < c->release)
		c->release = submit;
	if (o->start > 0 && (isnan(c->start) || start < c->start))
		c->start = start;
	if (end > c->end)
		c->end = end;
	if (submit + run > c->span)
		c->span = submit + run;
	c->work += (double) o->procs * run;
	c->jobs++;
	r->dirty = true;
}

/* One campaign of the core at r's pass time: its vct (§26). */
typedef struct {
	osl_report_t *r;
	double now;
} osl_vvisit_t;

static int _virtual_visit(const ost_campaign_info_t *ci, void *arg)
{
	osl_vvisit_t *vv = arg;
	osl_report_camp_t *c;
	bool done = ci->vstate == OST_VSTATE_COMPLETE;

	/* a campaign with no unfinished job and none open here is over
	 * (or was before this process): not opened again */
	c = osl_report_open_get(vv->r, ci->uid, ci->seq,
				ci->pending + ci->running > 0);
	if (!c)
		return 0;
	/* kept while the core tracks it: the ledger may fold its last run
	 * a pass after the core took the finish (a job completing) */
	c->mark = true;
	if (!isfinite(c->release) && isfinite(ci->submit))
		c->release = ci->submit;	/* nothing ran yet */
	if (!done) {
		/* v stalled (C = 0 for now: C~ infinite) says nothing of
		 * when V will complete it: the last projection stays */
		c->vseen = false;
		if (isfinite(ci->vct))
			c->vct = ci->vct;
	} else if (!c->vseen) {
		/* V reached F_c since the last pass: when the last
		 * projection said, if nothing moved it, else by now */
		c->vseen = true;
		c->vct = isnan(c->vct) || c->vct > vv->now ? vv->now : c->vct;
	}
	return 0;
}

extern void osl_report_virtual(osl_report_t *r, const ost_sched_t *s,
			       double now)
{
	osl_vvisit_t vv = { .r = r, .now = now };
	int i, k = 0;

	for (i = 0; i < r->nopen; i++)
		r->open[i].mark = false;
	(void) ost_sched_foreach_campaign(s, _virtual_visit, &vv);
	/* one that never ran and that the core forgot (its jobs cancelled
	 * pending) has nothing to report */
	for (i = 0; i < r->nopen; i++)
		if (r->open[i].mark || r->open[i].jobs)
			r->open[k++] = r->open[i];
	if (k < r->nopen)
		r->dirty = true;
	r->nopen = k;
}

/* The core holds a job of the campaign: mark it. */
static int _held_visit(const ost_job_info_t *job, void *arg)
{
	osl_report_camp_t *c = osl_report_open_get(arg, job->uid,
						   job->campaign, false);

	if (c)
		c->mark = true;
	return 0;
}

extern int osl_report_close(osl_report_t *r, const ost_sched_t *s, double m,
			    double now, double tau)
{
	int i, k = 0, closed = 0;
	bool due = false;

	/* only a campaign that ran may close: one that did not is
	 * forgotten by osl_report_virtual once the core forgets it */
	for (i = 0; i < r->nopen && !due; i++)
		due = r->open[i].jobs && now - r->open[i].end > tau;
	if (!due)
		return 0;
	for (i = 0; i < r->nopen; i++)
		r->open[i].mark = false;
	(void) ost_sched_foreach_job(s, _held_visit, r);
	for (i = 0; i < r->nopen; i++) {
		osl_report_camp_t *c = &r->open[i];

		if (c->mark || !c->jobs || now - c->end <= tau) {
			r->open[k++] = *c;
			continue;
		}
		c->capacity = m;
		if (osl_report_push(r, c)) {
			r->open[k++] = *c;	/* again next pass */
			continue;
		}
		closed++;
	}
	r->nopen = k;
	return closed;
}

extern int osl_report_take(osl_report_t *r, const osl_report_file_t *f,
			   const char *part)
{
	int i, n = 0;

	osl_report_free(r);
	for (i = 0; i < f->n; i++) {
		const osl_report_camp_t *x = &f->v[i];
		osl_report_camp_t *c;

		if (strcmp(x->part, part))
			continue;
		if (!x->open) {
			n += !osl_report_push(r, x);
			continue;
		}
		if (!(c = osl_report_open_get(r, x->uid, x->seq, true)))
			continue;
		*c = *x;
		n++;
	}
	r->dirty = false;
	return n;
}
