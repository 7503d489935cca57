/*****************************************************************************\
 *  osl_conf.c - ostrich.conf without Slurm: the table of keys, how each
 *  key's value is set and shown, the defaults, the log line.  The values
 *  that are lists or numbers are parsed in osl_conf_parse.c.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* strcasecmp */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ost_charge.h"
#include "ostrich.h"
#include "osl_conf.h"

/* The field of conf a key's off points at, as type T. */
#define FIELD(T, key, conf) ((T *) ((char *) (conf) + (key)->off))
#define CFIELD(T, key, conf) ((const T *) ((const char *) (conf) + (key)->off))

int osl_conf_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
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

/* --------------------------------------------- setters and showers --- */

/* A whole number of seconds in [lo, hi], kept as a double. */
static int _set_seconds(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	uint64_t x;

	if (osl_conf_uint(v, k->lo, k->hi, &x))
		return -1;
	*FIELD(double, k, c) = (double) x;
	return 0;
}

static void _show_seconds(const osl_conf_key_t *k, const osl_conf_t *c,
			  char *buf, size_t size)
{
	snprintf(buf, size, "%.0f", *CFIELD(double, k, c));
}

/* A whole number in [lo, hi]. */
static int _set_u32(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	uint64_t x;

	if (osl_conf_uint(v, k->lo, k->hi, &x))
		return -1;
	*FIELD(uint32_t, k, c) = (uint32_t) x;
	return 0;
}

static void _show_u32(const osl_conf_key_t *k, const osl_conf_t *c, char *buf,
		      size_t size)
{
	snprintf(buf, size, "%" PRIu32, *CFIELD(uint32_t, k, c));
}

static int _set_weight(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	return osl_conf_parse_weight(v, FIELD(double, k, c));
}

static void _show_weight(const osl_conf_key_t *k, const osl_conf_t *c,
			 char *buf, size_t size)
{
	snprintf(buf, size, "%g", *CFIELD(double, k, c));
}

/* A bool written as the words yes and no (Backfill, SystemComment). */
static void _show_yesno(const osl_conf_key_t *k, const osl_conf_t *c,
			char *buf, size_t size)
{
	snprintf(buf, size, "%s", *CFIELD(bool, k, c) ? "yes" : "no");
}

/* A bool written as on and off (Evidence). */
static int _set_onoff(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	return ost_onoff_parse(v, FIELD(bool, k, c)) ? -1 : 0;
}

static void _show_onoff(const osl_conf_key_t *k, const osl_conf_t *c,
			char *buf, size_t size)
{
	snprintf(buf, size, "%s", *CFIELD(bool, k, c) ? "on" : "off");
}

/* The length of a list (UserWeights, AccountWeights): off is its count. */
static void _show_count(const osl_conf_key_t *k, const osl_conf_t *c,
			char *buf, size_t size)
{
	snprintf(buf, size, "%d", *CFIELD(int, k, c));
}

static void _show_path(const osl_conf_key_t *k, const osl_conf_t *c,
		       char *buf, size_t size)
{
	const char *p = *CFIELD(char *, k, c);

	snprintf(buf, size, "%s", p ? p : "");
}

/* The core's enumerations, by their own parsers and names (ostrich.h). */
#define ENUM_KEY(fn, field)					\
static int _set_##fn(const osl_conf_key_t *k, osl_conf_t *c, const char *v) \
{									\
	(void) k;							\
	return ost_##fn##_parse(v, &c->core.field) ? -1 : 0;		\
}									\
static void _show_##fn(const osl_conf_key_t *k, const osl_conf_t *c,	\
		       char *buf, size_t size)				\
{									\
	(void) k;							\
	snprintf(buf, size, "%s", ost_##fn##_name(c->core.field));	\
}
ENUM_KEY(mode, mode)
ENUM_KEY(capacity, capacity)
ENUM_KEY(intra, intra)
ENUM_KEY(varea, varea)
ENUM_KEY(rank, rank)
ENUM_KEY(hier, hierarchy)
ENUM_KEY(lead, lead)
ENUM_KEY(overdue, overdue)
#undef ENUM_KEY

/* LeadCap=kappa (§24): a number in [0, 1e6], as strtod reads it, whole. */
static int _set_lead_cap(const osl_conf_key_t *k, osl_conf_t *c,
			 const char *v)
{
	char *end;
	double x;

	(void) k;
	if (!*v || isspace((unsigned char) *v))
		return -1;
	x = strtod(v, &end);
	if (*end || !(x >= 0.0 && x <= 1e6))
		return -1;
	c->core.lead_cap = x;
	return 0;
}

static void _show_lead_cap(const osl_conf_key_t *k, const osl_conf_t *c,
			   char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%g", c->core.lead_cap);
}

/* Gate=soft|none (§4, §24).  The core's third gate, strict (a campaign
 * does not start before V reaches it, §4), is the simulator's only: a
 * plugin cannot hold back the jobs Slurm may start, so it is refused with
 * the key's message. */
static int _set_gate(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	ost_gate_t g;

	(void) k;
	if (ost_gate_parse(v, &g) || g == OST_GATE_STRICT)
		return -1;
	c->core.gate = g;
	return 0;
}

static void _show_gate(const osl_conf_key_t *k, const osl_conf_t *c,
		       char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%s", ost_gate_name(c->core.gate));
}

/* Memory=on|off|key: two fields of the core (§11, §15). */
static int _set_memory(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	bool key = !strcasecmp(v, "key"), on = key;

	(void) k;
	if (!key && ost_onoff_parse(v, &on))
		return -1;
	c->core.memory = on;
	c->core.memory_key = key;
	return 0;
}

static void _show_memory(const osl_conf_key_t *k, const osl_conf_t *c,
			 char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%s", c->core.memory_key ? "key" :
		 c->core.memory ? "on" : "off");
}

/* Weights=config|assoc. */
static int _set_weights(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	(void) k;
	if (!strcasecmp(v, "assoc"))
		c->weights_assoc = true;
	else if (!strcasecmp(v, "config"))
		c->weights_assoc = false;
	else
		return -1;
	return 0;
}

static void _show_weights(const osl_conf_key_t *k, const osl_conf_t *c,
			  char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%s", c->weights_assoc ? "assoc" : "config");
}

/* Charge=billing|cpu|dominant: the core's names (ost_charge.h). */
static int _set_charge(const osl_conf_key_t *k, osl_conf_t *c, const char *v)
{
	(void) k;
	return ost_charge_parse(v, &c->charge) ? -1 : 0;
}

static void _show_charge(const osl_conf_key_t *k, const osl_conf_t *c,
			 char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%s", ost_charge_name(c->charge));
}

/* ChargeWeights=: parsed, and kept as written for the log line. */
static int _set_charge_weights(const osl_conf_key_t *k, osl_conf_t *c,
			       const char *v)
{
	osl_charge_weight_t w[OSL_CHARGE_WEIGHTS_MAX];
	char err[8];
	int n = 0;

	(void) k;
	if (strlen(v) >= sizeof(c->charge_w_str) ||
	    osl_conf_parse_charge_weights(v, w, OSL_CHARGE_WEIGHTS_MAX, &n,
					  err, sizeof(err)))
		return -1;
	memcpy(c->charge_w, w, sizeof(w));
	c->n_charge_w = n;
	snprintf(c->charge_w_str, sizeof(c->charge_w_str), "%s", v);
	return 0;
}

static void _show_charge_weights(const osl_conf_key_t *k, const osl_conf_t *c,
				 char *buf, size_t size)
{
	(void) k;
	snprintf(buf, size, "%s", c->n_charge_w ? c->charge_w_str : "none");
}

/* ---------------------------------------------------------- the table --- */

#define OFF(field) offsetof(osl_conf_t, field)
#define SECONDS(name, field, lo)					\
	{ name, OSL_KEY_VALUE, _set_seconds, _show_seconds, OFF(field),	\
	  lo, UINT32_MAX, "must be a whole number of seconds in [" #lo	\
	  ", 4294967295]" }
#define ENUM(name, fn, must)						\
	{ name, OSL_KEY_VALUE, _set_##fn, _show_##fn, 0, 0, 0, must }

/* In ostrich.conf(5)'s order, which is the log line's. */
const osl_conf_key_t osl_conf_keys[] = {
	ENUM("Mode", mode, "must be ostrich or faircamp"),
	SECONDS("ThinkTime", core.think_time, 0),
	{ "Interval", OSL_KEY_VALUE, _set_u32, _show_u32, OFF(interval),
	  OSL_CONF_INTERVAL_MIN, OSL_CONF_INTERVAL_MAX, "must be 1..3600 seconds" },
	ENUM("Capacity", capacity, "must be used or full"),
	ENUM("IntraOrder", intra, "must be lpt, spt, fifo or ljf"),
	ENUM("VirtualArea", varea,
	     "must be requested, learned, pooled, predicted or bounded"),
	ENUM("Memory", memory, "must be on, off or key"),
	SECONDS("MemoryCredit", core.memory_credit, 0),
	{ "Evidence", OSL_KEY_VALUE, _set_onoff, _show_onoff,
	  OFF(core.evidence), 0, 0, "must be on or off" },
	SECONDS("EvidenceFloor", core.evidence_floor, 1),
	ENUM("Rank", rank, "must be finish, served or capped"),
	SECONDS("RankCap", core.rank_cap, 0),
	ENUM("Gate", gate, "must be soft or none (strict is simulator only: "
	     "the plugins cannot hold back jobs Slurm may start)"),
	ENUM("Lead", lead, "must be keep, forgive or cap"),
	ENUM("LeadCap", lead_cap, "must be a number in [0, 1e6]"),
	ENUM("Overdue", overdue, "must be rank or restart"),
	{ "DefaultEstimate", OSL_KEY_VALUE, _set_u32, _show_u32,
	  OFF(default_estimate), 1, UINT32_MAX,
	  "must be a whole number of seconds in [1, 4294967295]" },
	{ "FairCampUsers", OSL_KEY_VALUE, _set_u32, _show_u32,
	  OFF(core.faircamp_users), 0, UINT32_MAX,
	  "must be a whole number in [0, 4294967295]" },
	{ "DefaultWeight", OSL_KEY_VALUE, _set_weight, _show_weight,
	  OFF(core.default_weight), 0, 0,
	  "must be a number in " OSL_CONF_WEIGHT_RANGE },
	ENUM("Hierarchy", hier, "must be users or accounts"),
	ENUM("Weights", weights, "must be config or assoc"),
	{ "UserWeights", OSL_KEY_LIST, NULL, _show_count, OFF(n_user_w),
	  0, 0, NULL },
	{ "AccountWeights", OSL_KEY_LIST, NULL, _show_count, OFF(n_acct_w),
	  0, 0, NULL },
	{ "AccountParents", OSL_KEY_NAMES, NULL, _show_count,
	  OFF(n_acct_par), 0, 0, NULL },
	{ "UserAccounts", OSL_KEY_NAMES, NULL, _show_count,
	  OFF(n_user_acct), 0, 0, NULL },
	ENUM("Charge", charge, "must be billing, cpu or dominant"),
	ENUM("ChargeWeights", charge_weights,
	     "must be Type[/name]=weight[unit],... as TRESBillingWeights "
	     "(at most 16 items, 255 bytes)"),
	{ "Backfill", OSL_KEY_BOOL, NULL, _show_yesno, OFF(backfill),
	  0, 0, NULL },
	{ "SystemComment", OSL_KEY_BOOL, NULL, _show_yesno,
	  OFF(system_comment), 0, 0, NULL },
	{ "EventLog", OSL_KEY_PATH, NULL, _show_path, OFF(event_log),
	  0, 0, NULL },
};
const size_t osl_conf_nkeys = sizeof(osl_conf_keys) / sizeof(osl_conf_keys[0]);

#undef OFF
#undef SECONDS
#undef ENUM

extern const osl_conf_key_t *osl_conf_key(const char *name)
{
	size_t i;

	for (i = 0; name && i < osl_conf_nkeys; i++)
		if (!strcasecmp(name, osl_conf_keys[i].name))
			return &osl_conf_keys[i];
	return NULL;
}

/* ----------------------------------------------------------- the API --- */

extern void osl_conf_defaults(osl_conf_t *conf)
{
	memset(conf, 0, sizeof(*conf));
	ost_config_init(&conf->core);
	conf->core.gate = OST_GATE_SOFT;
	conf->charge = OST_CHARGE_BILLING;	/* a zeroed one is cpu */
	conf->interval = 30;
	conf->default_estimate = 86400;
	conf->backfill = true;
	conf->system_comment = true;
}

extern int osl_conf_set_value(osl_conf_t *conf, const char *key,
			      const char *val, char *err, size_t errlen)
{
	const osl_conf_key_t *k = osl_conf_key(key);

	if (errlen)
		err[0] = '\0';
	if (!key || !val)
		return osl_conf_err(err, errlen, "missing key or value");
	if (!k || k->read != OSL_KEY_VALUE)
		return osl_conf_err(err, errlen, "%s: not a key with a single value",
			    key);
	if (k->set(k, conf, val))
		return osl_conf_err(err, errlen, "%s=%s: %s", k->name, val, k->must);
	return 0;
}
extern void osl_conf_core(const osl_conf_t *conf, uint32_t procs,
			  ost_config_t *cfg)
{
	*cfg = conf->core;
	cfg->procs = procs ? procs : 1;
}

extern int osl_conf_line(const osl_conf_t *conf, char *buf, size_t size)
{
	size_t i, len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < osl_conf_nkeys; i++) {
		const osl_conf_key_t *k = &osl_conf_keys[i];
		char val[4096];
		int n;

		if (k->read == OSL_KEY_PATH && !*CFIELD(char *, k, conf))
			continue;
		k->show(k, conf, val, sizeof(val));
		n = snprintf(len < size ? buf + len : NULL,
			     len < size ? size - len : 0, "%s%s=%s",
			     len ? " " : "", k->name, val);
		if (n < 0)
			return n;
		len += (size_t) n;
	}
	return (int) len;
}
