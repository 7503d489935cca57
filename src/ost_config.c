/*****************************************************************************\
 *  ost_config.c - configuration defaults, checks, names; intra orders
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <strings.h>

#include "ost_charge.h"
#include "ost_internal.h"

static const char *const _errs[] = {
	[OST_OK] = "success",
	[OST_EINVAL] = "invalid argument",
	[OST_ENOENT] = "unknown job",
	[OST_EEXIST] = "job id already known",
	[OST_ESTATE] = "job is not in a state allowing this event",
	[OST_ENOMEM] = "out of memory",
	[OST_ECORRUPT] = "state is truncated or corrupt",
	[OST_EVERSION] = "state has an unknown format version",
};

const char *ost_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= (int)(sizeof(_errs) / sizeof(_errs[0])))
		return "unknown error";
	return _errs[err];
}

void ost_config_init(ost_config_t *cfg)
{
	cfg->procs = 1;
	cfg->mode = OST_MODE_OSTRICH;
	cfg->think_time = 600.0;
	cfg->capacity = OST_CAPACITY_USED;
	cfg->gate = OST_GATE_SOFT;
	cfg->intra = OST_INTRA_LPT;
	cfg->faircamp_users = 0;
	cfg->default_weight = 1.0;
	cfg->varea = OST_VAREA_REQUESTED;
	cfg->memory = false;
	cfg->memory_key = false;
	cfg->memory_credit = 3600.0;
	cfg->evidence = false;
	cfg->evidence_floor = 600.0;
	cfg->rank = OST_RANK_FINISH;
	cfg->rank_cap = 3600.0;
	cfg->hierarchy = OST_HIER_USERS;
	cfg->lead = OST_LEAD_KEEP;
	cfg->lead_cap = 1.0;
	cfg->overdue = OST_OVERDUE_RANK;
}

int ost_config_check(const ost_config_t *cfg, const char **why)
{
	const char *w = NULL;

	if (!cfg)
		w = "no configuration";
	else if (cfg->procs == 0)
		w = "procs must be > 0";
	else if ((unsigned)cfg->mode > OST_MODE_FAIRCAMP)
		w = "unknown mode";
	else if (!ost_duration_ok(cfg->think_time))
		w = "think time must be a number of seconds in [0, 1e12]";
	else if ((unsigned)cfg->capacity > OST_CAPACITY_FULL)
		w = "unknown capacity";
	else if ((unsigned)cfg->gate > OST_GATE_NONE)
		w = "unknown gate";
	else if ((unsigned)cfg->intra > OST_INTRA_LJF)
		w = "unknown intra-campaign order";
	else if (!ost_weight_ok(cfg->default_weight))
		w = "default weight must be a number in [1e-6, 1e6]";
	else if ((unsigned)cfg->varea > OST_VAREA_BOUNDED)
		w = "unknown virtual area";
	else if (!ost_duration_ok(cfg->memory_credit))
		w = "memory credit must be a duration in [0, 1e12] s";
	else if (!(cfg->evidence_floor >= 1.0) ||
		 !ost_duration_ok(cfg->evidence_floor))
		w = "evidence floor must be a duration in [1, 1e12] s";
	else if ((unsigned)cfg->rank > OST_RANK_CAPPED)
		w = "unknown rank";
	else if (!ost_duration_ok(cfg->rank_cap))
		w = "rank cap must be a duration in [0, 1e12] s";
	else if ((unsigned)cfg->hierarchy > OST_HIER_ACCOUNTS)
		w = "unknown hierarchy";
	else if ((unsigned)cfg->lead > OST_LEAD_CAP)
		w = "unknown lead";
	else if (!(cfg->lead_cap >= 0.0 && cfg->lead_cap <= 1e6))
		w = "lead cap must be a number in [0, 1e6]";
	else if (cfg->lead == OST_LEAD_CAP && cfg->gate == OST_GATE_STRICT)
		w = "lead cap needs gate soft or none";
	else if ((unsigned)cfg->overdue > OST_OVERDUE_RESTART)
		w = "unknown overdue";
	else if (cfg->overdue != OST_OVERDUE_RANK &&
		 cfg->hierarchy != OST_HIER_USERS)
		w = "overdue other than rank needs hierarchy users";
	if (why)
		*why = w;
	return w ? -OST_EINVAL : 0;
}

bool ost_config_nested(const ost_config_t *cfg)
{
	return cfg->hierarchy == OST_HIER_ACCOUNTS;
}

static int _parse(const char *s, const char *const *names, int n, int *out)
{
	int i;

	if (!s)
		return -OST_EINVAL;
	for (i = 0; i < n; i++)
		if (!strcasecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return -OST_EINVAL;
}

#define OST_NAMES(type, prefix, ...)					\
	static const char *const prefix##_names[] = { __VA_ARGS__ };	\
	const char *ost_##prefix##_name(type x)				\
	{								\
		unsigned n = sizeof(prefix##_names) / sizeof(char *);	\
		return ((unsigned)x < n) ? prefix##_names[x] : "?";	\
	}								\
	int ost_##prefix##_parse(const char *s, type *out)		\
	{								\
		int v = 0, rc = _parse(s, prefix##_names,		\
			sizeof(prefix##_names) / sizeof(char *), &v);	\
		if (!rc)						\
			*out = (type)v;					\
		return rc;						\
	}

OST_NAMES(ost_mode_t, mode, "ostrich", "faircamp")
OST_NAMES(ost_capacity_t, capacity, "used", "full")
OST_NAMES(ost_gate_t, gate, "soft", "strict", "none")
OST_NAMES(ost_intra_t, intra, "lpt", "spt", "fifo", "ljf")
OST_NAMES(ost_varea_t, varea, "requested", "learned", "pooled",
	  "predicted", "bounded")
OST_NAMES(ost_rank_t, rank, "finish", "served", "capped")
OST_NAMES(ost_hier_t, hier, "users", "accounts")
OST_NAMES(ost_lead_t, lead, "keep", "forgive", "cap")
OST_NAMES(ost_overdue_t, overdue, "rank", "restart")
/* not a field of ost_config_t, but its names are parsed as theirs are */
OST_NAMES(ost_charge_t, charge, "cpu", "billing", "dominant")

int ost_onoff_parse(const char *s, bool *out)
{
	static const char *const words[] = { "off", "on" };
	int v = 0, rc = _parse(s, words, 2, &v);

	if (!rc)
		*out = v == 1;
	return rc;
}

/*
 * Intra-campaign orders (§4).  Every order ends with (submit, id), so it is
 * total and the rank of a job never depends on insertion history.  They
 * read e_full, the estimate without §12 (the charge's ceiling).
 */
#define JOB(n) ost_container_of(n, const ost_job_t, node)
#define CMP(x, y) do { if ((x) != (y)) return ((x) < (y)) ? -1 : 1; } while (0)

static int _cmp_fifo_tail(const ost_job_t *a, const ost_job_t *b)
{
	CMP(a->submit, b->submit);
	CMP(a->id, b->id);
	return 0;
}

/* §22 before the intra order: the owner's own order of its jobs (all 0
 * unless it gave them a nice or lowered one). */
#define OWN_ORDER(a, b) do { \
	int o_ = ost_job_order_cmp((a)->lowered, (a)->nice, (b)->lowered, \
				   (b)->nice); \
	if (o_) \
		return o_; \
} while (0)

static int _cmp_lpt(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_job_t *a = JOB(x), *b = JOB(y);

	OWN_ORDER(a, b);
	CMP(b->e_full, a->e_full);
	CMP(b->procs, a->procs);
	return _cmp_fifo_tail(a, b);
}

static int _cmp_spt(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_job_t *a = JOB(x), *b = JOB(y);

	OWN_ORDER(a, b);
	CMP(a->e_full, b->e_full);
	CMP(b->procs, a->procs);
	return _cmp_fifo_tail(a, b);
}

static int _cmp_fifo(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_job_t *a = JOB(x), *b = JOB(y);

	OWN_ORDER(a, b);
	return _cmp_fifo_tail(a, b);
}

static int _cmp_ljf(const ost_tnode_t *x, const ost_tnode_t *y)
{
	const ost_job_t *a = JOB(x), *b = JOB(y);

	OWN_ORDER(a, b);
	CMP(b->procs, a->procs);
	CMP(b->e_full, a->e_full);
	return _cmp_fifo_tail(a, b);
}

ost_tree_cmp_f ost_intra_cmp(ost_intra_t intra)
{
	switch (intra) {
	case OST_INTRA_SPT:
		return _cmp_spt;
	case OST_INTRA_FIFO:
		return _cmp_fifo;
	case OST_INTRA_LJF:
		return _cmp_ljf;
	case OST_INTRA_LPT:
	default:
		return _cmp_lpt;
	}
}
