/*****************************************************************************\
 *  print.c - scampaign output: squeue-like columns, or JSON
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "print.h"

typedef struct {
	char letter;
	const char *header;
} _field_t;

static const _field_t _fields[] = {
	{ 'P', "PARTITION" }, { 'u', "USER" }, { 'c', "CAMP" },
	{ 'p', "PENDING" }, { 'r', "RUNNING" }, { 'd', "DONE" },
	{ 'R', "RANK" }, { 'v', "VIRTUAL_COMPLETION" }, { 's', "SHARE" },
	{ 'm', "MODE" }, { 'N', "QUEUED" },
};

static const _field_t *_field(char c)
{
	size_t i;

	for (i = 0; i < sizeof(_fields) / sizeof(_fields[0]); i++)
		if (_fields[i].letter == c)
			return &_fields[i];
	return NULL;
}

/* Walk fmt: literal text goes to fp, each %[-][width]X to cb. */
typedef void (*_spec_f)(FILE *fp, const _field_t *f, bool left, int width,
			const void *arg);

static int _walk(FILE *fp, const char *fmt, _spec_f cb, const void *arg,
		 const char **why)
{
	const char *p = fmt;

	while (*p) {
		bool left = false;
		int width = 0;
		const _field_t *f;

		if (*p != '%') {
			if (fp)
				fputc(*p, fp);
			p++;
			continue;
		}
		p++;
		if (*p == '%') {
			if (fp)
				fputc('%', fp);
			p++;
			continue;
		}
		if (*p == '-') {
			left = true;
			p++;
		}
		while (*p >= '0' && *p <= '9' && width < 1000)
			width = width * 10 + (*p++ - '0');
		if (!(f = _field(*p))) {
			if (why)
				*why = "unknown field (valid: %P %u %c %p %r "
				       "%d %R %v %s %m %N)";
			return -1;
		}
		p++;
		if (cb)
			cb(fp, f, left, width, arg);
	}
	return 0;
}

int sc_format_check(const char *fmt, const char **why)
{
	return _walk(NULL, fmt, NULL, NULL, why);
}

static void _out(FILE *fp, bool left, int width, const char *s)
{
	fprintf(fp, left ? "%-*.*s" : "%*.*s", width, width ? width : 1000, s);
}

static void _header(FILE *fp, const _field_t *f, bool left, int width,
		    const void *arg)
{
	(void)arg;
	_out(fp, left, width, f->header);
}

typedef struct {
	const sc_campaign_t *c;
	double now;
} _row_t;

static void _cell(FILE *fp, const _field_t *f, bool left, int width,
		  const void *arg)
{
	const _row_t *r = arg;
	const sc_campaign_t *c = r->c;
	char b[64];

	switch (f->letter) {
	case 'P': _out(fp, left, width, c->partition); return;
	case 'u': _out(fp, left, width, c->user); return;
	case 'c': snprintf(b, sizeof(b), "%u", c->seq); break;
	case 'p': snprintf(b, sizeof(b), "%u", c->pending); break;
	case 'r': snprintf(b, sizeof(b), "%u", c->running); break;
	case 'd': snprintf(b, sizeof(b), "%u", c->done); break;
	case 'N': snprintf(b, sizeof(b), "%llu",
			   (unsigned long long)c->partition_pending); break;
	case 'R':
		if (c->first_rank)
			snprintf(b, sizeof(b), "%llu",
				 (unsigned long long)c->first_rank);
		else
			strcpy(b, "-");
		break;
	case 'v':
		if (c->passed)
			sc_time_str(c->vct, r->now, b);
		else
			strcpy(b, "-");	/* only new=1 lines: next pass */
		break;
	case 's':
		if (c->own || !c->passed)
			strcpy(b, "-");	/* not shown: PrivateData=jobs */
		else
			snprintf(b, sizeof(b), "%.0f%%", 100 * c->share);
		break;
	case 'm': snprintf(b, sizeof(b), "%s", ost_mode_name(c->mode)); break;
	default: strcpy(b, "?");
	}
	_out(fp, left, width, b);
}

void sc_print_table(FILE *fp, const char *fmt, bool noheader,
		    const sc_campaign_t *cs, size_t n, double now)
{
	size_t i;

	if (!noheader) {
		_walk(fp, fmt, _header, NULL, NULL);
		fputc('\n', fp);
	}
	for (i = 0; i < n; i++) {
		_row_t r = { .c = &cs[i], .now = now };

		_walk(fp, fmt, _cell, &r, NULL);
		fputc('\n', fp);
	}
}

/* A JSON string: the names come from Slurm, escape what JSON needs. */
static void _json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", *s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

void sc_print_json(FILE *fp, const sc_campaign_t *cs, size_t n)
{
	size_t i;

	fprintf(fp, "{\"campaigns\": [");
	for (i = 0; i < n; i++) {
		const sc_campaign_t *c = &cs[i];

		fprintf(fp, "%s\n  {\"partition\": ", i ? "," : "");
		_json_str(fp, c->partition);
		fprintf(fp, ", \"user\": ");
		_json_str(fp, c->user);
		fprintf(fp, ", \"campaign\": %u, \"pending\": %u, "
			"\"running\": %u, \"done\": %u, \"rank\": %llu, "
			"\"partition_pending\": %llu, \"vct\": ", c->seq,
			c->pending, c->running, c->done,
			(unsigned long long)c->first_rank,
			(unsigned long long)c->partition_pending);
		if (c->passed && isfinite(c->vct))
			fprintf(fp, "%.0f", c->vct);
		else
			fprintf(fp, "null");
		if (c->own)	/* PrivateData=jobs: counts are the owner's */
			fprintf(fp, ", \"share\": null, \"view\": \"own\"");
		else if (!c->passed)	/* only new=1 lines */
			fprintf(fp, ", \"share\": null");
		else
			fprintf(fp, ", \"share\": %.4f", c->share);
		fprintf(fp, ", \"unranked\": %u, \"mode\": \"%s\"}",
			c->unranked, ost_mode_name(c->mode));
	}
	fprintf(fp, "%s]}\n", n ? "\n" : "");
}
