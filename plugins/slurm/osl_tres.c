/*****************************************************************************\
 *  osl_tres.c - the unit of Charge= (doc/semantics.md §19) read from
 *  Slurm: each partition's resources (its TRES, and the GRES that
 *  ChargeWeights= names but Slurm does not account as TRES), their
 *  weights and totals, the partition's capacity; a job's width from its
 *  TRES request (pending) or allocation (running).  The arithmetic is
 *  src/ost_charge.c's, the simulator's too.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

#define OSL_COMPAT_GRES			/* gres.h, osl_compat.h section 2 */
#include "ost_charge.h"
#include "osl_comment.h"
#include "osl_compat.h"
#include "osl_conf.h"
#include "osl_partition.h"
#include "osl_slurm.h"

/* A partition's resources: n = the TRES (index i is Slurm's TRES index)
 * then the extra GRES of ChargeWeights= that are not TRES. */
struct osl_tres {
	ost_charge_t charge;		/* Charge= when built */
	int n;				/* resources */
	int ntres;			/* of them TRES: 0..ntres-1 */
	ost_res_t *kind;		/* n kinds */
	char **label;			/* n labels (cpu, mem, gpu, ...) */
	double *w;			/* n weights; NULL: none (CPU count) */
	uint64_t *total;		/* n totals of the partition */
	uint64_t *cnt;			/* n counts: a job's, scratch */
	unsigned flags;			/* OST_CHARGE_MAX_TRES* */
	uint32_t capacity;		/* in the unit, >= 1 */
};

static void _free(osl_tres_t *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		xfree(t->label[i]);
	xfree(t->label);
	xfree(t->kind);
	xfree(t->w);
	xfree(t->total);
	xfree(t->cnt);
	xfree(t);
}

extern void osl_tres_free(osl_tres_t *t)
{
	_free(t);
}

/* The kind and label of TRES i.  NOTE: TRES read lock. */
static ost_res_t _kind(int i, char **label)
{
	slurmdb_tres_rec_t *r = assoc_mgr_tres_array[i];

	if (i == TRES_ARRAY_BILLING) {
		*label = xstrdup("billing");
		return OST_RES_SKIP;
	}
	if (r->name && *r->name && !xstrcasecmp(r->type, "gres")) {
		*label = xstrdup(r->name);
		return OST_RES_GRES;
	}
	*label = r->name && *r->name ?
		 xstrdup_printf("%s/%s", r->type, r->name) : xstrdup(r->type);
	if (i == TRES_ARRAY_CPU)
		return OST_RES_CPU;
	if (i == TRES_ARRAY_MEM)
		return OST_RES_MEM;
	if (i == TRES_ARRAY_NODE)
		return OST_RES_NODE;
	return OST_RES_OTHER;
}

/* Does ChargeWeights item cw name TRES i?  NOTE: TRES read lock. */
static bool _names(const osl_charge_weight_t *cw, int i)
{
	slurmdb_tres_rec_t *r = assoc_mgr_tres_array[i];

	if (xstrcasecmp(cw->type, r->type))
		return false;
	if (!cw->name[0])
		return !r->name || !*r->name;
	return r->name && !xstrcasecmp(cw->name, r->name);
}

/* GRES name[:type] in gres list l: the sum of the jobs' total_gres
 * (node: false) or of the nodes' configured counts (node: true). */
static uint64_t _gres_count(list_t *l, const char *name, bool node)
{
	list_itr_t *it;
	gres_state_t *gs;
	uint64_t c = 0;
	const char *colon = strchr(name, ':');
	size_t nl = colon ? (size_t) (colon - name) : strlen(name);

	if (!l)
		return 0;
	it = list_iterator_create(l);
	while ((gs = list_next(it))) {
		if (!gs->gres_name || strlen(gs->gres_name) != nl ||
		    xstrncasecmp(gs->gres_name, name, nl))
			continue;
		if (!node && gs->state_type == GRES_STATE_TYPE_JOB) {
			gres_job_state_t *js = gs->gres_data;

			if (colon && xstrcasecmp(js->type_name, colon + 1))
				continue;
			if (js->total_gres != NO_CONSUME_VAL64)
				c += js->total_gres;
		} else if (node && gs->state_type == GRES_STATE_TYPE_NODE) {
			gres_node_state_t *ns = gs->gres_data;

			c += ns->gres_cnt_config;
		}
	}
	list_iterator_destroy(it);
	return c;
}

/* The GRES count of the partition's nodes.  NOTE: node read lock. */
static uint64_t _part_gres(const part_record_t *part_ptr, const char *name)
{
	node_record_t *node_ptr;
	uint64_t c = 0;
	int i;

	if (!part_ptr->node_bitmap)
		return 0;
	for (i = 0; (node_ptr = next_node(&i)); i++)
		if (bit_test(part_ptr->node_bitmap, node_ptr->index))
			c += _gres_count(node_ptr->gres_list, name, true);
	return c;
}

extern void osl_tres_locks(const osl_conf_t *conf, int billed_parts,
			   bool *tres, bool *node)
{
	*tres = conf->charge == OST_CHARGE_DOMINANT ||
		(conf->charge == OST_CHARGE_BILLING &&
		 (conf->n_charge_w || billed_parts));
	*node = *tres && conf->n_charge_w;
}

/*
 * PriorityFlags as ost_charge_billing() takes them (doc/slurm-versions.md
 * section 17): MAX_TRES maxes the node TRES; MAX_TRES_GRES (25.11+) maxes
 * CPU, memory and nodes and adds the GRES to that maximum.
 */
static unsigned _bill_flags(uint16_t priority_flags)
{
	unsigned f = (priority_flags & PRIORITY_FLAGS_MAX_TRES) ?
		     OST_CHARGE_MAX_TRES : 0;

	if (priority_flags & OSL_PRIORITY_FLAGS_MAX_TRES_GRES)
		f |= OST_CHARGE_MAX_TRES_GRES;
	return f;
}

/* Is part_ptr charged CPUs under conf, whatever the TRES table says? */
static bool _cpu_only(const part_record_t *part_ptr, const osl_conf_t *conf)
{
	return conf->charge == OST_CHARGE_CPU ||
	       (conf->charge == OST_CHARGE_BILLING && !conf->n_charge_w &&
		!part_ptr->billing_weights);
}

extern osl_tres_t *osl_tres_build(const part_record_t *part_ptr,
				  const osl_conf_t *conf, bool tres_locked,
				  bool node_locked)
{
	osl_tres_t *t;
	int i, j, ntres, nx = 0;
	bool matched[OSL_CHARGE_WEIGHTS_MAX] = { false };

	if (!_cpu_only(part_ptr, conf) &&
	    (!tres_locked || (conf->n_charge_w && !node_locked)))
		return NULL;
	t = xmalloc(sizeof(*t));
	t->charge = OST_CHARGE_CPU;
	t->capacity = part_ptr->total_cpus ? part_ptr->total_cpus : 1;
	if (_cpu_only(part_ptr, conf))
		return t;	/* no assoc_mgr global read */
	ntres = MIN((int) g_tres_count, slurmctld_tres_cnt);
	if (!assoc_mgr_tres_array || ntres <= TRES_ARRAY_BILLING)
		return t;
	t->charge = conf->charge;
	/* ChargeWeights' GRES that are not TRES come after the TRES */
	for (j = 0; j < conf->n_charge_w; j++) {
		for (i = 0; i < ntres && !matched[j]; i++)
			matched[j] = _names(&conf->charge_w[j], i);
		if (!matched[j] && !xstrcasecmp(conf->charge_w[j].type, "gres"))
			nx++;
	}
	t->ntres = ntres;
	t->n = ntres + nx;
	t->kind = xcalloc(t->n, sizeof(*t->kind));
	t->label = xcalloc(t->n, sizeof(*t->label));
	t->total = xcalloc(t->n, sizeof(*t->total));
	t->cnt = xcalloc(t->n, sizeof(*t->cnt));
	for (i = 0; i < ntres; i++) {
		t->kind[i] = _kind(i, &t->label[i]);
		t->total[i] = part_ptr->tres_cnt ? part_ptr->tres_cnt[i] : 0;
	}
	for (j = 0, i = ntres; j < conf->n_charge_w; j++)
		if (!matched[j] && !xstrcasecmp(conf->charge_w[j].type, "gres")) {
			t->kind[i] = OST_RES_GRES;
			t->label[i] = xstrdup(conf->charge_w[j].name);
			t->total[i++] = _part_gres(part_ptr,
						   conf->charge_w[j].name);
		}
	t->flags = _bill_flags(slurm_conf.priority_flags);
	if (conf->n_charge_w) {
		t->w = xcalloc(t->n, sizeof(*t->w));
		for (j = 0, i = ntres; j < conf->n_charge_w; j++) {
			int k;

			for (k = 0; k < ntres; k++)
				if (_names(&conf->charge_w[j], k))
					t->w[k] = conf->charge_w[j].weight;
			if (!matched[j] &&
			    !xstrcasecmp(conf->charge_w[j].type, "gres"))
				t->w[i++] = conf->charge_w[j].weight;
		}
	} else if (part_ptr->billing_weights) {
		t->w = xcalloc(t->n, sizeof(*t->w));
		memcpy(t->w, part_ptr->billing_weights, ntres * sizeof(*t->w));
	}
	if (t->charge == OST_CHARGE_DOMINANT || !t->w)
		t->capacity = part_ptr->total_cpus ? part_ptr->total_cpus : 1;
	else
		t->capacity = ost_charge_units(ost_charge_billing(
			t->n, t->kind, t->w, t->total, t->flags));
	return t;
}

extern uint32_t osl_tres_capacity(const osl_tres_t *t)
{
	return t->capacity;
}

extern ost_charge_t osl_tres_charge(const osl_tres_t *t)
{
	return t->charge == OST_CHARGE_BILLING && !t->w ? OST_CHARGE_CPU :
	       t->charge;
}

/* The job's counts into t->cnt: its allocation once started, else its
 * request.  RET false if it has none (no TRES array yet). */
static bool _counts(osl_tres_t *t, const job_record_t *job_ptr)
{
	bool run = !IS_JOB_PENDING(job_ptr) && job_ptr->tres_alloc_cnt;
	const uint64_t *c = run ? job_ptr->tres_alloc_cnt :
				  job_ptr->tres_req_cnt;
	list_t *gres = run ? job_ptr->gres_list_alloc : job_ptr->gres_list_req;
	int i;

	if (!c)
		return false;
	memcpy(t->cnt, c, MIN(t->ntres, slurmctld_tres_cnt) * sizeof(*c));
	for (i = t->ntres; i < t->n; i++)
		t->cnt[i] = _gres_count(gres, t->label[i], false);
	return true;
}

extern uint32_t osl_tres_width(osl_tres_t *t, const job_record_t *job_ptr,
			       uint32_t procs)
{
	if (!t || osl_tres_charge(t) == OST_CHARGE_CPU || t->ntres > slurmctld_tres_cnt ||
	    !_counts(t, job_ptr))
		return procs;
	if (t->charge == OST_CHARGE_DOMINANT)
		return ost_charge_dominant(t->n, t->kind, t->cnt, t->total,
					 t->capacity, NULL);
	return ost_charge_units(ost_charge_billing(t->n, t->kind, t->w, t->cnt,
						t->flags));
}

extern int osl_tres_text(osl_tres_t *t, const job_record_t *job_ptr,
			 char *buf, size_t size)
{
	int dom;

	if (size)
		buf[0] = '\0';
	if (!t || osl_tres_charge(t) == OST_CHARGE_CPU || t->ntres > slurmctld_tres_cnt ||
	    !_counts(t, job_ptr))
		return 0;
	if (t->charge == OST_CHARGE_DOMINANT) {
		(void) ost_charge_dominant(t->n, t->kind, t->cnt, t->total,
					 t->capacity, &dom);
		if (dom < 0)
			return 0;
		return snprintf(buf, size, "%s:%llu/%llu", t->label[dom],
				(unsigned long long) t->cnt[dom],
				(unsigned long long) t->total[dom]);
	}
	return osl_bill_text(buf, size, t->n, (const char *const *) t->label,
			     t->kind, t->w, t->cnt);
}
