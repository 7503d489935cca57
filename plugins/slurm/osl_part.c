/*****************************************************************************\
 *  osl_part.c - the partition registry: one virtual schedule per Slurm
 *  partition, created where the engine first meets it (each pass for every
 *  partition, a submission for its own; restored from its state file when
 *  there is a valid one), reconfigured when ostrich.conf or its CPU count
 *  changes.  Observing a job only looks partitions up (osl_part_find).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "slurm/slurm.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_compat.h"
#include "ost_charge.h"
#include "ostrich.h"
#include "osl_acct.h"
#include "osl_clock.h"
#include "osl_comment.h"
#include "osl_conf.h"
#include "osl_evlog.h"
#include "osl_partition.h"
#include "osl_ptab.h"
#include "osl_report_write.h"
#include "osl_slurm.h"
#include "osl_stretch.h"
#include "osl_usage.h"
#include "osl_vec.h"
#include "ostrich_slurm.h"

/* Core configuration of a partition of procs CPUs. */
static void _core_config(ost_config_t *cfg, uint32_t procs)
{
	osl_conf_core(osl_eng.conf, procs, cfg);
}

static void _log_config(const osl_part_t *p, osl_log_op_t op,
			const ost_config_t *cfg, double t)
{
	osl_evlog_rec_t r = { .op = op, .part = p->name, .t = t, .cfg = *cfg };

	osl_evlog_write(osl_eng.evlog, &r);
}

/* EventLog: keep a copy of a restored state so that the log stays
 * replayable ("PART load FILE").  The log outlives restarts, so the copy
 * takes the first free number: a later restart must not overwrite the copy
 * an earlier "load" line names. */
static void _log_load(const osl_part_t *p, const char *buf, size_t len)
{
	osl_evlog_rec_t r = { .op = OSL_LOG_LOAD, .part = p->name };
	const char *step = "";
	struct stat st;
	char *copy = NULL;
	int count = 0;

	if (!osl_eng.evlog)
		return;
	do {
		xfree(copy);
		copy = xstrdup_printf("%s.%s.%d", osl_eng.conf->event_log,
				      p->name, ++count);
	} while (!lstat(copy, &st) && count < 1000000);
	r.path = copy;
	if (!osl_write_atomic(copy, buf, len, &step))
		osl_evlog_write(osl_eng.evlog, &r);
	else
		error("ostrich: EventLog: cannot keep a copy of the restored state in %s (%s: %s): the log is not replayable past this point",
		      copy, step, strerror(errno));
	xfree(copy);
}

/* Index of the partition called name, or -1. */
static int _lookup(const char *name)
{
	int i;

	for (i = 0; i < osl_eng.nparts; i++)
		if (!xstrcmp(osl_eng.parts[i].name, name))
			return i;
	return -1;
}

/* The schedule of p from its state file, or NULL (logged). */
static ost_sched_t *_restore(const osl_part_t *p, const ost_config_t *cfg)
{
	ost_sched_t *s = NULL;
	char *path = osl_state_path(p->name), *buf, errbuf[256] = "";
	double now = (double) time(NULL);
	size_t len = 0;

	if ((buf = osl_read_file(path, &len))) {
		int rc = ost_sched_load(buf, len, &s, errbuf, sizeof(errbuf));

		if (rc) {
			char *aside = osl_state_aside(path, buf, len);

			error("ostrich: state file %s unusable (%s: %s): moved to %s; rebuilding partition %s from the job records",
			      path, ost_strerror(rc), errbuf,
			      aside ? aside : "nowhere", p->name);
			xfree(aside);
			s = NULL;
		} else if (osl_state_stale(ost_sched_now(s), now)) {
			error("ostrich: state file %s was saved %.1f days ago, more than %.0f: rebuilding partition %s from the job records",
			      path, (now - ost_sched_now(s)) / 86400.0,
			      OSL_STATE_MAX_AGE / 86400.0, p->name);
			ost_sched_destroy(s);
			s = NULL;
		} else if (ost_sched_config(s)->hierarchy != cfg->hierarchy) {
			/* planned: a Hierarchy change applies at a start by a
			 * rebuild (§23), the core refusing the saved tree */
			info("ostrich: state file %s was saved under Hierarchy=%s, now Hierarchy=%s: rebuilding partition %s from the job records",
			     path, ost_hier_name(ost_sched_config(s)->hierarchy),
			     ost_hier_name(cfg->hierarchy), p->name);
			ost_sched_destroy(s);
			s = NULL;
		} else if ((rc = ost_sched_reconfigure(s, cfg,
						       ost_sched_now(s)))) {
			error("ostrich: state file %s: configuration refused (%s): rebuilding",
			      path, ost_strerror(rc));
			ost_sched_destroy(s);
			s = NULL;
		} else {
			ost_stats_t st;

			ost_sched_stats(s, &st);
			info("ostrich: partition %s restored from %s: %"PRIu64" campaigns, %"PRIu64" pending, %"PRIu64" running jobs",
			     p->name, path, st.campaigns, st.pending,
			     st.running);
			_log_load(p, buf, len);
			/* the file holds the configuration it was saved
			 * under; the one just applied (a new ostrich.conf
			 * read by a restart, or by a 23.11+ reconfigure,
			 * which is one) must follow it, or the log replays
			 * the old one */
			_log_config(p, OSL_LOG_CONFIG, cfg, ost_sched_now(s));
		}
		xfree(buf);
	} else if (errno != ENOENT) {
		error("ostrich: cannot read state file %s: %s: rebuilding partition %s from the job records",
		      path, strerror(errno), p->name);
	} else {
		info("ostrich: no state file %s: partition %s starts from the job records",
		     path, p->name);
	}
	xfree(path);
	return s;
}

extern osl_part_t *osl_part_get(const char *name, uint32_t total_cpus,
				int *index)
{
	ost_config_t cfg;
	osl_part_t *p;
	int i = _lookup(name);

	if (i >= 0) {
		*index = i;
		return &osl_eng.parts[i];
	}
	xrecalloc(osl_eng.parts, osl_eng.nparts + 1, sizeof(*osl_eng.parts));
	p = &osl_eng.parts[osl_eng.nparts];
	p->name = xstrdup(name);
	p->procs = total_cpus ? total_cpus : 1;
	_core_config(&cfg, p->procs);
	p->ledger = osl_calloc(1, sizeof(*p->ledger));
	osl_usage_init(&p->ledger->usage, (double) time(NULL));
	if ((p->sched = _restore(p, &cfg))) {
		if (isfinite(ost_sched_now(p->sched)))
			p->restored_at = ost_sched_now(p->sched);
		osl_ledger_restore(p, true);
	} else {
		osl_ledger_restore(p, false);
		if (!(p->sched = ost_sched_create(&cfg))) {
			error("ostrich: cannot create the schedule of partition %s",
			      p->name);
			osl_usage_free(&p->ledger->usage);
			osl_report_free(&p->ledger->report);
			free(p->ledger);
			xfree(p->name);
			return NULL;
		}
		_log_config(p, OSL_LOG_CREATE, &cfg, 0);
	}
	osl_report_restore(p, isfinite(p->restored_at) && p->restored_at);
	*index = osl_eng.nparts++;
	return p;
}

extern osl_part_t *osl_part_find(const char *name, int *index)
{
	int i = _lookup(name);

	if (i < 0)
		return NULL;
	if (index)
		*index = i;
	return &osl_eng.parts[i];
}

extern void osl_part_add_job(const job_record_t *job_ptr)
{
	int i;

	if (job_ptr->part_ptr_list) {
		list_itr_t *it = list_iterator_create(job_ptr->part_ptr_list);
		part_record_t *part_ptr;

		while ((part_ptr = list_next(it)))
			(void) osl_part_get(part_ptr->name,
					    part_ptr->total_cpus, &i);
		list_iterator_destroy(it);
	} else if (job_ptr->part_ptr) {
		(void) osl_part_get(job_ptr->part_ptr->name,
				    job_ptr->part_ptr->total_cpus, &i);
	}
}

extern void osl_part_reconfigure(osl_part_t *p, uint32_t procs, double now)
{
	ost_config_t cfg;
	int rc;

	p->procs = procs ? procs : 1;
	_core_config(&cfg, p->procs);
	if ((rc = ost_sched_reconfigure(p->sched, &cfg, now)))
		error("ostrich: partition %s: reconfigure refused: %s",
		      p->name, ost_strerror(rc));
	else
		_log_config(p, OSL_LOG_CONFIG, &cfg, now);
}

extern void osl_parts_free(void)
{
	int i;

	for (i = 0; i < osl_eng.nparts; i++) {
		osl_part_t *p = &osl_eng.parts[i];

		ost_sched_destroy(p->sched);
		osl_tres_free(p->tres);
		osl_usage_free(&p->ledger->usage);
		osl_stretch_free(&p->ledger->stretch);
		osl_report_free(&p->ledger->report);
		free(p->ledger);
		xfree(p->name);
		free(p->w);
		osl_acct_view_free(p);
		osl_ptab_free(&p->prios);
	}
	xfree(osl_eng.parts);
	osl_eng.nparts = 0;
}

extern int osl_user_share(const char *part, uint32_t uid, double *share)
{
	osl_part_t *p;
	int rc = -1;

	slurm_mutex_lock(&osl_eng.lock);
	if ((p = osl_part_find(part, NULL))) {
		*share = osl_share(p, uid);
		rc = 0;
	}
	slurm_mutex_unlock(&osl_eng.lock);
	return rc;
}

extern uint32_t osl_job_width(const char *part, job_record_t *job_ptr)
{
	osl_part_t *p;
	uint32_t w = 0;

	slurm_mutex_lock(&osl_eng.lock);
	if ((p = osl_part_find(part, NULL)) && p->tres &&
	    p->unit != OST_CHARGE_CPU)
		w = osl_tres_width(p->tres, job_ptr, 0);
	slurm_mutex_unlock(&osl_eng.lock);
	return w;
}
