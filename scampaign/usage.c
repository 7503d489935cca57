/*****************************************************************************\
 *  usage.c - scampaign --usage (table, JSON) and --metrics (Prometheus) from
 *  the engine's usage snapshot.  Names in the snapshot are checked by its
 *  parser (osl_usnap_name_ok: no space, quote or backslash), so they go
 *  into JSON strings and label values as they are.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "usage.h"

bool sc_in_list(const char *list, const char *name, uint32_t uid)
{
	char *dup = strdup(list), *save = NULL, *tok;
	bool found = false;

	if (!dup)
		return false;
	for (tok = strtok_r(dup, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);

		found = !strcmp(tok, name) || (end != tok && !*end && v == uid);
	}
	free(dup);
	return found;
}

/* Keep the users of p that f lets through. */
static void _filter_users(osl_usnap_part_t *p, const sc_usage_filter_t *f)
{
	int i, m = 0;

	for (i = 0; i < p->nusers; i++) {
		const osl_usnap_user_t *u = &p->users[i];

		if (f->own_only && u->uid != f->uid)
			continue;
		if (f->users && !sc_in_list(f->users, u->name, u->uid))
			continue;
		p->users[m++] = *u;
	}
	p->nusers = m;
}

void sc_usage_filter(osl_usnap_t *s, const sc_usage_filter_t *f)
{
	int i, m = 0;

	for (i = 0; i < s->nparts; i++) {
		if (f->partitions &&
		    !sc_in_list(f->partitions, s->parts[i].name, ~0u)) {
			free(s->parts[i].users);
			continue;
		}
		s->parts[m] = s->parts[i];
		_filter_users(&s->parts[m++], f);
	}
	s->nparts = m;
}

void sc_usage_table(FILE *fp, const osl_usnap_t *s, bool noheader)
{
	int i, j;

	if (!noheader)
		fprintf(fp, "%-12s %-12s %16s %-8s %6s\n", "PARTITION", "USER",
			"CHARGED", "UNIT", "SHARE");
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++) {
			const osl_usnap_user_t *u = &s->parts[i].users[j];

			fprintf(fp, "%-12s %-12s %16.0f %-8s %6.3f\n",
				s->parts[i].name, u->name, u->charged,
				s->parts[i].unit, u->share);
		}
}

void sc_usage_json(FILE *fp, const osl_usnap_t *s)
{
	const char *sep = "";
	int i, j;

	fprintf(fp, "{\"usage\":[");
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++) {
			const osl_usnap_part_t *p = &s->parts[i];
			const osl_usnap_user_t *u = &p->users[j];

			fprintf(fp, "%s\n{\"partition\":\"%s\",\"user\":\"%s\",\"uid\":%"PRIu32",\"charged\":%.17g,\"unit\":\"%s\",\"share\":%.6g,\"since\":%.0f}",
				sep, p->name, u->name, u->uid, u->charged,
				p->unit, u->share, p->since);
			sep = ",";
		}
	fprintf(fp, "\n],\"time\":%.0f}\n", s->time);
}

/* Values below print with %.15g: exact for what the file holds to
 * that precision, without the binary noise of %.17g (0.0041 stays 0.0041). */

/* HELP and TYPE lines of one metric. */
static void _head(FILE *fp, const char *name, const char *type,
		  const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A per-partition gauge: one sample per partition of field off. */
static void _gauge(FILE *fp, const osl_usnap_t *s, const char *name,
		   const char *help, double (*get)(const osl_usnap_part_t *))
{
	int i;

	_head(fp, name, "gauge", help);
	for (i = 0; i < s->nparts; i++)
		fprintf(fp, "%s{partition=\"%s\"} %.15g\n", name,
			s->parts[i].name, get(&s->parts[i]));
}

static double _active_users(const osl_usnap_part_t *p)
{
	return (double) p->active_users;
}

static double _campaigns(const osl_usnap_part_t *p)
{
	return (double) p->campaigns;
}

static double _pending(const osl_usnap_part_t *p)
{
	return (double) p->pending;
}

static double _pass(const osl_usnap_part_t *p)
{
	return p->pass_s;
}

static double _hold(const osl_usnap_part_t *p)
{
	return p->hold_s;
}

static double _hold_max(const osl_usnap_part_t *p)
{
	return p->hold_max_s;
}

static double _capacity(const osl_usnap_part_t *p)
{
	return p->capacity;
}

/* Per user: charged usage (counter) and share (gauge). */
static void _users(FILE *fp, const osl_usnap_t *s)
{
	int i, j;

	_head(fp, "ostrich_charged_unit_seconds_total", "counter",
	      "Work charged to the user since the ledger began (width x seconds, in the partition's unit).");
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++)
			fprintf(fp, "ostrich_charged_unit_seconds_total{partition=\"%s\",user=\"%s\",unit=\"%s\"} %.15g\n",
				s->parts[i].name, s->parts[i].users[j].name,
				s->parts[i].unit,
				s->parts[i].users[j].charged);
	_head(fp, "ostrich_user_share_ratio", "gauge",
	      "Fraction of the partition the user gets in the virtual schedule now.");
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++)
			fprintf(fp, "ostrich_user_share_ratio{partition=\"%s\",user=\"%s\"} %.15g\n",
				s->parts[i].name, s->parts[i].users[j].name,
				s->parts[i].users[j].share);
}

/* The stretch histogram, cumulative buckets as Prometheus wants them. */
static void _stretch(FILE *fp, const osl_usnap_t *s)
{
	int i, b;

	_head(fp, "ostrich_campaign_stretch", "histogram",
	      "Stretch (flow / lower bound) of the campaigns that ended since the engine started.");
	for (i = 0; i < s->nparts; i++) {
		const osl_usnap_part_t *p = &s->parts[i];
		uint64_t cum = 0;
		bool inf = false;

		for (b = 0; b < p->nb; b++) {
			cum += p->count[b];
			inf = isinf(p->le[b]);
			if (inf)
				fprintf(fp, "ostrich_campaign_stretch_bucket{partition=\"%s\",le=\"+Inf\"} %"PRIu64"\n",
					p->name, cum);
			else
				fprintf(fp, "ostrich_campaign_stretch_bucket{partition=\"%s\",le=\"%g\"} %"PRIu64"\n",
					p->name, p->le[b], cum);
		}
		if (!inf)
			fprintf(fp, "ostrich_campaign_stretch_bucket{partition=\"%s\",le=\"+Inf\"} %"PRIu64"\n",
				p->name, p->total);
		fprintf(fp, "ostrich_campaign_stretch_sum{partition=\"%s\"} %.15g\n",
			p->name, p->sum);
		fprintf(fp, "ostrich_campaign_stretch_count{partition=\"%s\"} %"PRIu64"\n",
			p->name, p->total);
	}
}

void sc_metrics(FILE *fp, const osl_usnap_t *s)
{
	_head(fp, "ostrich_snapshot_timestamp_seconds", "gauge",
	      "When the engine wrote the usage snapshot (seconds since the epoch).");
	fprintf(fp, "ostrich_snapshot_timestamp_seconds %.0f\n", s->time);
	_gauge(fp, s, "ostrich_capacity", "Capacity of the partition, in its unit.",
	       _capacity);
	_gauge(fp, s, "ostrich_active_users",
	       "Users active in the virtual schedule.", _active_users);
	_gauge(fp, s, "ostrich_campaigns",
	       "Campaigns tracked (with unfinished jobs, or a user's latest).",
	       _campaigns);
	_gauge(fp, s, "ostrich_pending_jobs", "Pending jobs.", _pending);
	_gauge(fp, s, "ostrich_last_pass_seconds",
	       "Duration of the engine's last pass.", _pass);
	_gauge(fp, s, "ostrich_lock_hold_seconds",
	       "slurmctld locks held by the engine's last pass.", _hold);
	_gauge(fp, s, "ostrich_lock_hold_max_seconds",
	       "Longest hold of slurmctld locks by a pass since the engine started.",
	       _hold_max);
	_users(fp, s);
	_stretch(fp, s);
}
