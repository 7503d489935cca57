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

#include "sc_list.h"
#include "tree.h"
#include "usage.h"

/* Keep the users of p that f lets through. */
static void _filter_users(osl_usnap_part_t *p, const sc_usage_filter_t *f)
{
	int i, m = 0;

	for (i = 0; i < p->nusers; i++) {
		const osl_usnap_user_t *u = &p->users[i];

		if (f->no_users || (f->own_only && u->uid != f->uid))
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
			osl_usnap_part_free(&s->parts[i]);
			continue;
		}
		s->parts[m] = s->parts[i];
		if (f->no_users)
			s->parts[m].nleaves = s->parts[m].naccts = 0;
		else
			sc_tree_filter(&s->parts[m], f->own_only, f->uid,
				       f->users);
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

			fprintf(fp, "%s\n{\"partition\":\"%s\",\"user\":\"%s\",\"uid\":%"PRIu32",\"charged\":%.17g,\"unit\":\"%s\",\"share\":%.6g,\"active\":%s,\"since\":%.0f}",
				sep, p->name, u->name, u->uid, u->charged,
				p->unit, u->share, u->active == 1 ? "true" :
				u->active ? "null" : "false", p->since);
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

/* The per-partition gauges. */
typedef enum {
	G_CAPACITY, G_ACTIVE_USERS, G_CAMPAIGNS, G_PENDING, G_PASS, G_HOLD,
	G_HOLD_MAX, G_N
} sc_gauge_t;

static const struct {
	const char *name, *help;
} sc_gauges[G_N] = {
	{ "ostrich_capacity", "Capacity of the partition, in its unit." },
	{ "ostrich_active_users", "Users active in the virtual schedule." },
	{ "ostrich_campaigns",
	  "Campaigns tracked (with unfinished jobs, or a user's latest)." },
	{ "ostrich_pending_jobs", "Pending jobs." },
	{ "ostrich_last_pass_seconds", "Duration of the engine's last pass." },
	{ "ostrich_lock_hold_seconds",
	  "slurmctld locks held by the engine's last pass." },
	{ "ostrich_lock_hold_max_seconds",
	  "Longest hold of slurmctld locks by a pass since the engine started." },
};

/* Gauge g of partition p. */
static double _gauge_of(const osl_usnap_part_t *p, sc_gauge_t g)
{
	switch (g) {
	case G_CAPACITY: return p->capacity;
	case G_ACTIVE_USERS: return (double) p->active_users;
	case G_CAMPAIGNS: return (double) p->campaigns;
	case G_PENDING: return (double) p->pending;
	case G_PASS: return p->pass_s;
	case G_HOLD: return p->hold_s;
	default: return p->hold_max_s;
	}
}

/* Every per-partition gauge, one sample per partition each. */
static void _gauges(FILE *fp, const osl_usnap_t *s)
{
	int g, i;

	for (g = 0; g < G_N; g++) {
		_head(fp, sc_gauges[g].name, "gauge", sc_gauges[g].help);
		for (i = 0; i < s->nparts; i++)
			fprintf(fp, "%s{partition=\"%s\"} %.15g\n",
				sc_gauges[g].name, s->parts[i].name,
				_gauge_of(&s->parts[i], (sc_gauge_t) g));
	}
}

/* One sample per partition and user: the charge (a counter, with the
 * unit) or the share (a gauge). */
static void _per_user(FILE *fp, const osl_usnap_t *s, bool charged)
{
	const char *name = charged ? "ostrich_charged_unit_seconds_total" :
				     "ostrich_user_share_ratio";
	int i, j;

	_head(fp, name, charged ? "counter" : "gauge", charged ?
	      "Work charged to the user since the ledger began (width x seconds, in the partition's unit)." :
	      "Fraction of the partition the user gets in the virtual schedule now.");
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++) {
			const osl_usnap_user_t *u = &s->parts[i].users[j];

			fprintf(fp, "%s{partition=\"%s\",user=\"%s\"", name,
				s->parts[i].name, u->name);
			if (charged)
				fprintf(fp, ",unit=\"%s\"", s->parts[i].unit);
			fprintf(fp, "} %.15g\n", charged ? u->charged : u->share);
		}
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
	_gauges(fp, s);
	_per_user(fp, s, true);
	_per_user(fp, s, false);
	_stretch(fp, s);
}
