/*****************************************************************************\
 *  campaigns.c - campaigns rebuilt from the jobs' OStrich summaries
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaigns.h"

static bool _same(const sc_campaign_t *c, const sc_job_t *j)
{
	return c->seq == j->sum.campaign && !strcmp(c->user, j->sum.user) &&
	       !strcmp(c->partition, j->partition);
}

static int _cmp(const void *a, const void *b)
{
	const sc_campaign_t *x = a, *y = b;
	int r = strcmp(x->partition, y->partition);

	if (r)
		return r;
	if (!x->first_rank != !y->first_rank)
		return x->first_rank ? -1 : 1;
	if (x->first_rank != y->first_rank)
		return x->first_rank < y->first_rank ? -1 : 1;
	if ((r = strcmp(x->user, y->user)))
		return r;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

size_t sc_unranked(const sc_job_t *jobs, size_t n, const char *partition)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += jobs[i].has_summary && jobs[i].fresh &&
		     jobs[i].state == SC_PENDING &&
		     (!partition || !strcmp(jobs[i].partition, partition));
	return k;
}

int sc_group(const sc_job_t *jobs, size_t n, sc_campaign_t **out,
	     size_t *nout)
{
	sc_campaign_t *cs = calloc(n ? n : 1, sizeof(*cs));
	size_t nc = 0, i, k;

	if (!cs)
		return -1;
	for (i = 0; i < n; i++) {
		const sc_job_t *j = &jobs[i];
		sc_campaign_t *c = NULL;

		if (!j->has_summary)
			continue;
		for (k = 0; k < nc && !c; k++)	/* XXX: O(n c), fine for a CLI */
			if (_same(&cs[k], j))
				c = &cs[k];
		if (!c) {
			c = &cs[nc++];
			snprintf(c->partition, sizeof(c->partition), "%s",
				 j->partition);
			snprintf(c->user, sizeof(c->user), "%s", j->sum.user);
			c->seq = j->sum.campaign;
			c->vct = NAN;
		}
		if (j->state == SC_PENDING && j->fresh) {
			c->pending++;
			c->unranked++;
		} else if (j->state == SC_PENDING) {
			c->pending++;
			if (j->sum.rank && (!c->first_rank ||
					    j->sum.rank < c->first_rank))
				c->first_rank = j->sum.rank;
		} else if (j->state == SC_RUNNING) {
			c->running++;
		} else {
			c->done++;
		}
		/* a submission's line is of another moment than the pass's
		 * (§23 "Inspection"): its share and C~ are never mixed in */
		if (j->fresh)
			continue;
		if (j->state != SC_DONE || !c->passed) {
			c->passed = true;
			c->vct = j->sum.vct;
			c->share = j->sum.share;
			c->own = j->own;
			c->mode = j->sum.mode;
			if (j->sum.pending > c->partition_pending)
				c->partition_pending = j->sum.pending;
		}
	}
	qsort(cs, nc, sizeof(*cs), _cmp);
	*out = cs;
	*nout = nc;
	return 0;
}

const char *sc_time_str(double t, double now, char *buf)
{
	time_t tt, tn;
	struct tm tm, tmn;

	if (!isfinite(t)) {
		strcpy(buf, t == INFINITY ? "never" : "unknown");
		return buf;
	}
	tt = (time_t)t;
	tn = (time_t)now;
	localtime_r(&tt, &tm);
	localtime_r(&tn, &tmn);
	if (tm.tm_yday == tmn.tm_yday && tm.tm_year == tmn.tm_year)
		strftime(buf, 32, "%H:%M:%S", &tm);
	else
		strftime(buf, 32, "%Y-%m-%d %H:%M", &tm);
	return buf;
}

/* "in 5 min" / "2 h 10 min ago" relative to now. */
static const char *_rel(double t, double now, char *buf)
{
	double d = t - now, a = fabs(d);
	const char *ago = d < 0 ? " ago" : "", *in = d < 0 ? "" : "in ";

	if (t == INFINITY)
		snprintf(buf, 48, "not in this millennium at the current rate");
	else if (!isfinite(t))
		snprintf(buf, 48, "at an unknown time");
	else if (a < 90)
		snprintf(buf, 48, "%s%.0f s%s", in, a, ago);
	else if (a < 5400)
		snprintf(buf, 48, "%s%.0f min%s", in, a / 60, ago);
	else
		snprintf(buf, 48, "%s%.0f h %.0f min%s", in, floor(a / 3600),
			 fmod(a, 3600) / 60, ago);
	return buf;
}

/* The value of key (" key=") in line into buf[0..size) ("" if none). */
static void _token(const char *line, const char *key, char *buf, size_t size)
{
	const char *at = strstr(line, key);
	size_t n;

	buf[0] = '\0';
	if (!at)
		return;
	at += strlen(key);
	n = strcspn(at, " ");
	if (n < size)
		snprintf(buf, size, "%.*s", (int)n, at);
}

/* width=, unit=, bill= (§19) and account= (§23) of a summary line: later
 * keys that the core's parser ignores.  The engine's account= (the one the
 * job counts in) replaces Slurm's. */
static void _width_read(const char *line, sc_job_t *out)
{
	char w[16], acct[sizeof(out->account)];
	char *end;
	unsigned long x;

	_token(line, " account=", acct, sizeof(acct));
	if (acct[0])
		snprintf(out->account, sizeof(out->account), "%s", acct);
	out->width = 0;
	_token(line, " width=", w, sizeof(w));
	_token(line, " unit=", out->unit, sizeof(out->unit));
	_token(line, " bill=", out->bill, sizeof(out->bill));
	x = strtoul(w, &end, 10);
	if (w[0] >= '0' && w[0] <= '9' && !*end && x <= UINT32_MAX &&
	    out->unit[0])
		out->width = (uint32_t)x;
	else
		out->unit[0] = out->bill[0] = '\0';
}

bool sc_summary_read(const char *field, sc_job_t *out)
{
	char line[OST_SUMMARY_MAX];
	size_t len = 0;
	const char *at = ost_summary_find(field, &len);

	out->has_summary = false;
	out->own = out->fresh = false;
	out->width = 0;
	out->unit[0] = out->bill[0] = '\0';
	if (!at || len >= sizeof(line))
		return false;
	memcpy(line, at, len);
	line[len] = '\0';
	if (ost_summary_parse(line, &out->sum))
		return false;
	out->has_summary = true;
	out->own = strstr(line, " view=own") != NULL;
	_width_read(line, out);
	{
		char v[4];

		_token(line, " new=", v, sizeof(v));
		out->fresh = !strcmp(v, "1");
	}
	return true;
}

/* The label of a bill= term in words: cpu and the GRES in capitals (CPU,
 * GPU), mem as MB of memory, the rest as Slurm names them. */
static void _term_label(const char *l, size_t n, char *buf, size_t size)
{
	size_t i;

	if (n == 3 && !strncmp(l, "mem", 3)) {
		snprintf(buf, size, "MB of memory");
		return;
	}
	if (memchr(l, '/', n)) {
		snprintf(buf, size, "%.*s", (int)n, l);
		return;
	}
	for (i = 0; i < n && i + 1 < size; i++)
		buf[i] = (char)toupper((unsigned char)l[i]);
	buf[i] = '\0';
}

const char *sc_width_str(const sc_job_t *job, char *buf, size_t size)
{
	size_t len;
	const char *p = job->bill;
	bool billing = !strcmp(job->unit, "billing");
	int k;

	if (size)
		buf[0] = '\0';
	if (!job->width || !size)
		return buf;
	if (!strcmp(job->unit, "cpu"))
		k = snprintf(buf, size, "%u CPU%s", job->width,
			     job->width == 1 ? "" : "s");
	else
		k = snprintf(buf, size, "%u %s unit%s", job->width, job->unit,
			     job->width == 1 ? "" : "s");
	len = k > 0 ? (size_t)k : 0;
	/* billing: "c LABEL [x w]" terms; dominant: its share */
	while (*p && len + 1 < size) {
		size_t n = strcspn(p, ","), ln = strcspn(p, ":");
		char lab[64], term[160];
		const char *cnt = p + ln + 1, *x;

		if (ln >= n)
			break;
		_term_label(p, ln, lab, sizeof(lab));
		x = memchr(cnt, 'x', n - ln - 1);
		if (!billing)
			snprintf(term, sizeof(term), "%s%.*s %s of the "
				 "partition's, its dominant share",
				 p == job->bill ? ": " : ", ",
				 (int)(n - ln - 1), cnt, lab);
		else if (x)
			snprintf(term, sizeof(term), "%s%.*s %s \u00d7 %.*s",
				 p == job->bill ? ": " : " + ",
				 (int)(x - cnt), cnt, lab,
				 (int)(p + n - x - 1), x + 1);
		else
			snprintf(term, sizeof(term), "%s%.*s %s",
				 p == job->bill ? ": " : " + ",
				 (int)(n - ln - 1), cnt, lab);
		k = snprintf(buf + len, size - len, "%s", term);
		len += k > 0 ? (size_t)k : 0;
		if (len >= size)
			len = size - 1;
		p += n + (p[n] == ',');
	}
	return buf;
}

/* vstart= (§24): the job's campaign opened at the virtual finish of its
 * user's previous one, which the real schedule served ahead of the fair
 * one, so it starts in V (and, with Gate=soft, ranks among the started
 * campaigns) only when V reaches it.  Said while that is still to come;
 * once past, the next pass drops the key. */
static void _explain_lead(const ost_summary_t *s, double now, FILE *fp)
{
	char t1[32], r1[48];

	if (s->vstart == 0 || (isfinite(s->vstart) && s->vstart <= now))
		return;
	if (isfinite(s->vstart))
		fprintf(fp, "%s's previous campaign was served ahead of its "
			"fair share; this one starts in the fair schedule at "
			"%s (%s).\n", s->user, sc_time_str(s->vstart, now, t1),
			_rel(s->vstart, now, r1));
	else
		fprintf(fp, "%s's previous campaign was served ahead of its "
			"fair share; this one starts in the fair schedule "
			"when the fair schedule catches up.\n", s->user);
}

/* The explanation under PrivateData=jobs: the caller sees their own jobs,
 * and the summaries count only those (view=own). */
static void _explain_own(const sc_job_t *job, double now, FILE *fp)
{
	const ost_summary_t *s = &job->sum;
	char t1[32], r1[48];

	fprintf(fp, "Job %u of %s waits in partition %s: rank %llu of %s's "
		"%llu pending jobs there. Other users' jobs are private "
		"(PrivateData=jobs): how many wait ahead of it is not shown.\n",
		job->job_id, s->user, job->partition,
		(unsigned long long)s->rank, s->user,
		(unsigned long long)s->pending);
	fprintf(fp, "It belongs to %s's campaign %u, which would be complete "
		"at %s (%s) in a fair sharing of the partition among the users "
		"active now.\n", s->user, s->campaign,
		sc_time_str(s->vct, now, t1), _rel(s->vct, now, r1));
	_explain_lead(s, now, fp);
	if (s->rank > 1)
		fprintf(fp, "%llu of %s's own pending jobs in %s go before "
			"it.\n", (unsigned long long)s->rank - 1, s->user,
			job->partition);
}

int sc_explain(const sc_job_t *jobs, size_t n, const sc_job_t *job,
	       double now, FILE *fp)
{
	const ost_summary_t *s = &job->sum;
	sc_campaign_t *cs = NULL;
	size_t nc = 0, i, shown = 0;
	uint64_t visible_ahead = 0, hidden;
	size_t unranked;
	double head = now;
	char t1[32], r1[48], width[2 * OST_SUMMARY_MAX];

	if (!job->has_summary) {
		fprintf(fp, "Job %u has no OStrich summary: OStrich leaves "
			"it alone (held, unable to run as configured, "
			"priority set by an operator, in a reservation), it "
			"is newer than the last pass, or SystemComment=no in "
			"ostrich.conf.\n",
			job->job_id);
		return -1;
	}
	/* a width in CPUs (no weights, Charge=cpu) goes unsaid, as before
	 * billing units (semantics.md §19) */
	if (strcmp(job->unit, "cpu"))
		sc_width_str(job, width, sizeof(width));
	else
		width[0] = '\0';
	if (job->state != SC_PENDING) {
		fprintf(fp, "Job %u (%s, campaign %u) is %s.\n", job->job_id,
			s->user, s->campaign,
			job->state == SC_RUNNING ? "running" : "finished");
		if (width[0])
			fprintf(fp, "Its width: %s.\n", width);
		return 0;
	}
	if (job->fresh) {
		fprintf(fp, "Job %u of %s (campaign %u) was submitted after the "
			"engine's last pass in partition %s. Its priority is set: "
			"at its submission it ranked %llu of %llu pending jobs%s. "
			"The other jobs' places are those of the last pass: how "
			"it compares with them is shown after the next pass "
			"(within Interval).\n", job->job_id, s->user, s->campaign,
			job->partition, (unsigned long long)s->rank,
			(unsigned long long)s->pending,
			job->own ? " of its owner's" : "");
		if (width[0])
			fprintf(fp, "Its width: %s.\n", width);
		return 0;
	}
	if (job->own) {
		_explain_own(job, now, fp);
		if (width[0])
			fprintf(fp, "Its width: %s.\n",
				width);
		return 0;
	}
	if (sc_group(jobs, n, &cs, &nc))
		return -1;
	fprintf(fp, "Job %u of %s waits in partition %s: rank %llu of %llu "
		"pending jobs.\n", job->job_id, s->user, job->partition,
		(unsigned long long)s->rank, (unsigned long long)s->pending);
	if (width[0])
		fprintf(fp, "Its width: %s.\n", width);
	fprintf(fp, "It belongs to %s's campaign %u. In a fair sharing of the "
		"partition among the users active now, %s gets %.0f%% of it and "
		"this campaign would be complete at %s (%s).\n", s->user,
		s->campaign, s->user, 100 * s->share,
		sc_time_str(s->vct, now, t1), _rel(s->vct, now, r1));
	_explain_lead(s, now, fp);
	for (i = 0; i < nc; i++) {
		const sc_campaign_t *c = &cs[i];

		if (strcmp(c->partition, job->partition) || !c->first_rank ||
		    c->first_rank >= s->rank ||
		    (c->seq == s->campaign && !strcmp(c->user, s->user)))
			continue;
		if (!shown++)
			fprintf(fp, "Ahead of it, by %s:\n",
				s->mode == OST_MODE_FAIRCAMP ? "deadline"
				: "virtual completion time (the campaign that "
				  "would finish first in the fair share goes "
				  "first)");
		fprintf(fp, "  %-12s campaign %-4u %4u pending  would complete "
			"at %s\n", c->user, c->seq, c->pending,
			sc_time_str(c->vct, now, t1));
		visible_ahead += c->pending - c->unranked;
		/* unknown (NaN) wins over never (+inf) over any time */
		if (isnan(c->vct))
			head = NAN;
		else if (c->vct > head)
			head = c->vct;
	}
	for (i = 0; i < n; i++)	/* own campaign's jobs ahead are visible */
		if (jobs[i].has_summary && jobs[i].state == SC_PENDING &&
		    !jobs[i].fresh &&
		    jobs[i].sum.rank && jobs[i].sum.rank < s->rank &&
		    jobs[i].sum.campaign == s->campaign &&
		    !strcmp(jobs[i].sum.user, s->user) &&
		    !strcmp(jobs[i].partition, job->partition))
			visible_ahead++;
	/* Not view=own: PrivateData=jobs is off, every job is visible to
	 * everyone; the rest ahead at the last pass are array tasks (one
	 * record, one line) or jobs that started or left since. */
	hidden = visible_ahead + 1 < s->rank ? s->rank - 1 - visible_ahead : 0;
	if (hidden)
		fprintf(fp, "%s%llu more pending jobs ahead of it at the last "
			"pass are not listed (tasks of job arrays, or jobs "
			"that started or left since).\n",
			shown ? "  and " : "",
			(unsigned long long)hidden);
	if ((unranked = sc_unranked(jobs, n, job->partition)))
		fprintf(fp, "%zu job%s submitted since the last pass, not yet "
			"ranked among these (the next pass, within Interval, "
			"places %s).\n", unranked, unranked == 1 ? "" : "s",
			unranked == 1 ? "it" : "them");
	else if (!shown && s->rank > 1)
		fprintf(fp, "Ahead of it are only earlier jobs of its own "
			"campaign.\n");
	if (shown)
		fprintf(fp, "If nothing else changes, its campaign reaches the "
			"head of the queue around %s (%s); the job then starts "
			"as soon as resources free up.\n",
			sc_time_str(head, now, t1), _rel(head, now, r1));
	else if (!hidden)
		fprintf(fp, "Its campaign is at the head of the queue; the job "
			"starts as soon as resources free up.\n");
	free(cs);
	return 0;
}

void sc_explain_site(const sc_job_t *job, FILE *fp)
{
	const ost_summary_t *s = &job->sum;

	if (!job->has_summary || job->state != SC_PENDING || !s->rank ||
	    !s->pending || s->rank > s->pending || job->own)
		return;
	if (!job->site) {
		fprintf(fp, "Its site factor is 0 (site_factor/ostrich in "
			"shadow mode, weight=0, or before its first "
			"PriorityCalcPeriod): its priority %u is "
			"priority/multifactor's alone (sprio -j %u lists the "
			"factors).\n", job->priority, job->job_id);
		return;
	}
	/* osl_site_value() of plugins/lib/osl_site.c */
	fprintf(fp, "Its priority %u under priority/multifactor: %lld from "
		"the OStrich site factor (site_factor/ostrich: its weight "
		"\u00d7 %.3f, rank %llu of %llu normalised, as of multifactor's "
		"last PriorityCalcPeriod) and %lld from multifactor's other "
		"factors (age, fair-share, job size, partition, QOS, TRES, "
		"nice; sprio -j %u lists them).\n", job->priority,
		(long long)job->site,
		(double)(s->pending - s->rank + 1) / (double)s->pending,
		(unsigned long long)s->rank, (unsigned long long)s->pending,
		(long long)job->priority - (long long)job->site, job->job_id);
}
