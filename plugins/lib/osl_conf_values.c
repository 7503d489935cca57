/*****************************************************************************\
 *  osl_conf_values.c - the value parsers of ostrich.conf, without Slurm.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strdup, strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "osl_conf_values.h"

/* OST_WEIGHT_MIN and OST_WEIGHT_MAX as people write them. */
#define OSL_CONF_WEIGHT_RANGE "[1e-6, 1e6]"

static int _err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A decimal integer, digits only, in [min, max].  RET 0 or -1. */
static int _uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long x;
	char *end;

	if (!isdigit((unsigned char) *s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

extern void osl_conf_defaults(osl_conf_t *conf)
{
	ost_config_t core;

	memset(conf, 0, sizeof(*conf));
	ost_config_init(&core);
	conf->mode = core.mode;
	conf->think_time = core.think_time;
	conf->capacity = core.capacity;
	conf->intra = core.intra;
	conf->varea = core.varea;
	conf->memory = core.memory;
	conf->memory_key = core.memory_key;
	conf->memory_credit = core.memory_credit;
	conf->evidence = core.evidence;
	conf->evidence_floor = core.evidence_floor;
	conf->rank = core.rank;
	conf->rank_cap = core.rank_cap;
	conf->faircamp_users = core.faircamp_users;
	conf->default_weight = core.default_weight;
	conf->interval = 30;
	conf->default_estimate = 86400;
	conf->backfill = true;
	conf->system_comment = true;
}

extern int osl_conf_parse_weight(const char *s, double *w)
{
	char *end;
	double x;

	/* strtod skips blanks and takes a sign: neither is a weight */
	if (!isdigit((unsigned char) *s) && *s != '.')
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end || !ost_weight_ok(x))
		return -1;
	*w = x;
	return 0;
}

/* "on" or "off" (any case) into *out.  RET: 0, or -1 (*out unchanged). */
static int _onoff(const char *val, bool *out)
{
	if (!strcasecmp(val, "on"))
		*out = true;
	else if (!strcasecmp(val, "off"))
		*out = false;
	else
		return -1;
	return 0;
}

/* Keys with a whole number of seconds, kept as a double: least value and
 * field. */
static const struct {
	const char *key;
	uint64_t lo;
	size_t off;
} _seconds[] = {
	{ "ThinkTime", 0, offsetof(osl_conf_t, think_time) },
	{ "MemoryCredit", 0, offsetof(osl_conf_t, memory_credit) },
	{ "EvidenceFloor", 1, offsetof(osl_conf_t, evidence_floor) },
	{ "RankCap", 0, offsetof(osl_conf_t, rank_cap) },
};

/* Keys with an integer value: range and where it goes. */
static int _set_uint(osl_conf_t *conf, const char *key, const char *val,
		     char *err, size_t errlen)
{
	uint64_t x;
	size_t i;

	for (i = 0; i < sizeof(_seconds) / sizeof(_seconds[0]); i++) {
		if (strcasecmp(key, _seconds[i].key))
			continue;
		if (_uint(val, _seconds[i].lo, UINT32_MAX, &x))
			return _err(err, errlen, "%s=%s: must be a whole "
				    "number of seconds in [%" PRIu64 ", %u]",
				    _seconds[i].key, val, _seconds[i].lo,
				    UINT32_MAX);
		*(double *) ((char *) conf + _seconds[i].off) = (double) x;
		return 0;
	}
	if (!strcasecmp(key, "Interval")) {
		if (_uint(val, OSL_CONF_INTERVAL_MIN, OSL_CONF_INTERVAL_MAX, &x))
			return _err(err, errlen, "Interval=%s: must be %u..%u "
				    "seconds", val, OSL_CONF_INTERVAL_MIN,
				    OSL_CONF_INTERVAL_MAX);
		conf->interval = (uint32_t) x;
	} else if (!strcasecmp(key, "DefaultEstimate")) {
		if (_uint(val, 1, UINT32_MAX, &x))
			return _err(err, errlen, "DefaultEstimate=%s: must be a "
				    "whole number of seconds in [1, %u]", val,
				    UINT32_MAX);
		conf->default_estimate = (uint32_t) x;
	} else if (!strcasecmp(key, "FairCampUsers")) {
		if (_uint(val, 0, UINT32_MAX, &x))
			return _err(err, errlen, "FairCampUsers=%s: must be a "
				    "whole number in [0, %u]", val, UINT32_MAX);
		conf->faircamp_users = (uint32_t) x;
	} else {
		return 1;
	}
	return 0;
}

extern int osl_conf_set_value(osl_conf_t *conf, const char *key, const char *val,
			   char *err, size_t errlen)
{
	int rc;

	if (errlen)
		err[0] = '\0';
	if (!key || !val)
		return _err(err, errlen, "missing key or value");
	if ((rc = _set_uint(conf, key, val, err, errlen)) <= 0)
		return rc;
	if (!strcasecmp(key, "Mode")) {
		if (ost_mode_parse(val, &conf->mode))
			return _err(err, errlen, "Mode=%s: must be ostrich or "
				    "faircamp", val);
	} else if (!strcasecmp(key, "Capacity")) {
		if (ost_capacity_parse(val, &conf->capacity))
			return _err(err, errlen, "Capacity=%s: must be used or "
				    "full", val);
	} else if (!strcasecmp(key, "IntraOrder")) {
		if (ost_intra_parse(val, &conf->intra))
			return _err(err, errlen, "IntraOrder=%s: must be lpt, "
				    "spt, fifo or ljf", val);
	} else if (!strcasecmp(key, "VirtualArea")) {
		if (ost_varea_parse(val, &conf->varea))
			return _err(err, errlen, "VirtualArea=%s: must be "
				    "requested, learned or pooled", val);
	} else if (!strcasecmp(key, "Rank")) {
		if (ost_rank_parse(val, &conf->rank))
			return _err(err, errlen, "Rank=%s: must be finish, "
				    "served or capped", val);
	} else if (!strcasecmp(key, "Memory")) {
		bool key = !strcasecmp(val, "key"), on = key;

		if (!key && _onoff(val, &on))
			return _err(err, errlen, "Memory=%s: must be on, off "
				    "or key", val);
		conf->memory = on;
		conf->memory_key = key;
	} else if (!strcasecmp(key, "Evidence")) {
		if (_onoff(val, &conf->evidence))
			return _err(err, errlen, "Evidence=%s: must be on or "
				    "off", val);
	} else if (!strcasecmp(key, "DefaultWeight")) {
		if (osl_conf_parse_weight(val, &conf->default_weight))
			return _err(err, errlen, "DefaultWeight=%s: must be a "
				    "number in " OSL_CONF_WEIGHT_RANGE, val);
	} else if (!strcasecmp(key, "Weights")) {
		if (!strcasecmp(val, "assoc"))
			conf->weights_assoc = true;
		else if (!strcasecmp(val, "config"))
			conf->weights_assoc = false;
		else
			return _err(err, errlen, "Weights=%s: must be config "
				    "or assoc", val);
	} else {
		return _err(err, errlen, "%s: not a key with a single value",
			    key);
	}
	return 0;
}

extern int osl_conf_parse_weight_list(const char *key, const char *list,
				   osl_conf_pair_f fn, void *arg, char *err,
				   size_t errlen)
{
	char *copy, *item, *next;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	if (!list || !*list)
		return _err(err, errlen, "%s: empty list", key);
	if (!(copy = strdup(list)))
		return _err(err, errlen, "%s: out of memory", key);
	for (item = copy; item && !rc; item = next) {
		char *colon;
		double w;

		if ((next = strchr(item, ',')))
			*next++ = '\0';
		colon = strchr(item, ':');
		if (!colon || colon == item) {
			rc = _err(err, errlen, "%s: \"%s\" is not name:weight",
				  key, item);
			break;
		}
		*colon = '\0';
		if (osl_conf_parse_weight(colon + 1, &w)) {
			rc = _err(err, errlen, "%s: weight \"%s\" of %s must be "
				  "a number in " OSL_CONF_WEIGHT_RANGE, key,
				  colon + 1, item);
			break;
		}
		rc = fn(item, w, arg, err, errlen);
	}
	free(copy);
	return rc;
}

extern void osl_conf_core(const osl_conf_t *conf, uint32_t procs,
			  ost_config_t *cfg)
{
	ost_config_init(cfg);
	cfg->procs = procs ? procs : 1;
	cfg->mode = conf->mode;
	cfg->think_time = conf->think_time;
	cfg->capacity = conf->capacity;
	cfg->gate = OST_GATE_SOFT;
	cfg->intra = conf->intra;
	cfg->varea = conf->varea;
	cfg->memory = conf->memory;
	cfg->memory_key = conf->memory_key;
	cfg->memory_credit = conf->memory_credit;
	cfg->evidence = conf->evidence;
	cfg->evidence_floor = conf->evidence_floor;
	cfg->rank = conf->rank;
	cfg->rank_cap = conf->rank_cap;
	cfg->faircamp_users = conf->faircamp_users;
	cfg->default_weight = conf->default_weight;
}
