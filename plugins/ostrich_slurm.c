/*****************************************************************************\
 *  ostrich_slurm.c - the OStrich engine inside slurmctld: feeds the core
 *  library (src/ostrich.h) with the jobs' submissions, starts and ends as
 *  Slurm records them, and writes the core's ranks back as job priorities.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
 *
 *  One virtual schedule (ost_sched_t) per partition.  No scheduling
 *  arithmetic here: this file only translates job records into core events
 *  (with Slurm's own timestamps) and core ranks into priorities.
 *
 *  Locks: slurmctld locks, then the assoc_mgr lock, then _eng_lock (never
 *  the other way round; priority_p_set() comes here with the job write lock
 *  held).
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include <stdarg.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/run_in_daemon.h"
#include "src/common/slurm_mcs.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"

#include "ostrich.h"
#include "ostrich_conf.h"
#include "ostrich_slurm.h"

/*
 * Data symbols of slurmctld that this library reads.  Inside slurmctld the
 * executable's definitions take precedence (symbol interposition); these
 * copies only let the priority plugin load in other programs (sshare).
 */
List job_list = NULL;
List part_list = NULL;
time_t last_job_update = (time_t) 0;
int slurmctld_tres_cnt = 0;
void *acct_db_conn = NULL;

/* Core job id of task t of array a (plain jobs use their job id < 2^32). */
#define OST_ARRAY_KEY(a, t) ((((uint64_t) (a)) << 32) | (uint64_t) (t))
#define OST_STATE_PREFIX "ostrich_state."

typedef struct {
	char *name;			/* partition name */
	ost_sched_t *sched;		/* its virtual schedule */
	uint32_t procs;			/* CPUs given to the core */
	ost_user_weight_t *w;		/* weights given to the core */
	int nw;
	struct ost_prio_cell *prios;	/* last pass: priority by rank */
	int nprios, cap_prios;
} ost_part_t;

/* The priority the last pass gave the job record first reached at rank. */
typedef struct ost_prio_cell {
	uint64_t rank;
	uint32_t prio;
} ost_prio_cell_t;

/* Room for n cells in p->prios (grows by doubling: the table is refilled
 * every pass and grows by one at every submission). */
static void _prios_reserve(ost_part_t *p, int n)
{
	if (n <= p->cap_prios)
		return;
	p->cap_prios = n > 2 * p->cap_prios ? n : 2 * p->cap_prios;
	xrecalloc(p->prios, p->cap_prios, sizeof(*p->prios));
}

/* One job of one partition as seen in job_list during a pass. */
typedef struct {
	uint64_t key;			/* core job id */
	int part;			/* index in _parts */
	int slot;			/* priority_array index, -1 if none */
	job_record_t *job_ptr;		/* valid while the job lock is held */
	char st;			/* 'P'ending, 'R'unning, 'F'inished */
	bool ran;			/* finished after running */
	bool writable;			/* the plugin may set its priority */
	uint32_t uid, procs;
	double estimate, weight;
	uint64_t group;
	time_t submit, start, end;
	double runtime;
	uint64_t rank;			/* rank in its partition, 0: none */
	uint32_t prio;			/* priority to write for its record in
					 * this partition, 0: none */
	uint32_t campaign;		/* its campaign (pending, from the rank
					 * walk), 0: unknown */
} ost_obs_t;

typedef struct {
	ost_obs_t *v;
	int n, cap;
} ost_obs_vec_t;

/* Core event of a pass; sorted by (t, order). */
typedef struct {
	double t;
	int order;			/* ties at one instant, see _ev_cmp */
	char kind;			/* 's'ubmit 'b'egin 'f'inish 'c'ancel 'r'equeue */
	const ost_obs_t *o;		/* for submit and finish */
	uint64_t key;
} ost_event_t;

static pthread_mutex_t _eng_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t _eng_cond = PTHREAD_COND_INITIALIZER;
static pthread_t _eng_thread;
static bool _thread_running = false;
static int _users[2];			/* init() count per plugin type */
static bool _stop = false;		/* fini: the thread must exit */
static bool _reconf = false;		/* re-read ostrich.conf */
static bool _wake = false;		/* a pass is wanted soon */
static ost_conf_t *_conf = NULL;	/* configuration in force */
static ost_part_t *_parts = NULL;	/* one per partition seen */
static int _nparts = 0;
static FILE *_evlog_fp = NULL;		/* EventLog= (tests, debugging) */
static uint64_t _passes = 0;

/* ------------------------------------------------------------ helpers --- */

static double _now_hr(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static void _evlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void _evlog(const char *fmt, ...)
{
	va_list ap;

	if (!_evlog_fp)
		return;
	va_start(ap, fmt);
	vfprintf(_evlog_fp, fmt, ap);
	va_end(ap);
}

static void _evlog_open(void)
{
	if (_evlog_fp) {
		fclose(_evlog_fp);
		_evlog_fp = NULL;
	}
	if (_conf && _conf->event_log &&
	    !(_evlog_fp = fopen(_conf->event_log, "a")))
		error("ostrich: EventLog %s: %s", _conf->event_log,
		      strerror(errno));
}

/* Core configuration of a partition of procs CPUs. */
static void _core_config(ost_config_t *cfg, uint32_t procs)
{
	ost_config_init(cfg);
	cfg->procs = procs ? procs : 1;
	cfg->mode = _conf->mode;
	cfg->think_time = _conf->think_time;
	cfg->capacity = _conf->capacity;
	cfg->gate = OST_GATE_SOFT;
	cfg->intra = _conf->intra;
	cfg->faircamp_users = _conf->faircamp_users;
	cfg->default_weight = _conf->default_weight;
}

static void _evlog_config(const ost_part_t *p, const char *what, double t)
{
	_evlog("%s %s %u %s %.17g %s %s %u %.17g %.17g\n", p->name, what,
	       p->procs, ost_mode_name(_conf->mode), _conf->think_time,
	       ost_capacity_name(_conf->capacity), ost_intra_name(_conf->intra),
	       _conf->faircamp_users, _conf->default_weight, t);
}

static int _write_atomic(const char *path, const char *buf, size_t len);

/* EventLog: keep a copy of a restored state so that the log stays
 * replayable ("PART load FILE"). */
static void _evlog_load(const ost_part_t *p, const char *buf, size_t len)
{
	static int count = 0;
	char *copy;

	if (!_evlog_fp)
		return;
	copy = xstrdup_printf("%s.%s.%d", _conf->event_log, p->name, ++count);
	if (!_write_atomic(copy, buf, len))
		_evlog("%s load %s\n", p->name, copy);
	xfree(copy);
}

static char *_state_path(const char *part)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      OST_STATE_PREFIX, part);
}

/* Read a whole file; RET xmalloc'ed buffer or NULL (errno set) */
static char *_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n + 4096 > cap) {
			cap = (cap + 4096) * 2;
			xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	if (r < 0) {
		xfree(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/*
 * Write buf to path atomically: path.new, fsync, rename.
 * RET 0 or -1 (logged)
 */
static int _write_atomic(const char *path, const char *buf, size_t len)
{
	char *tmp = xstrdup_printf("%s.new", path);
	size_t off = 0;
	int fd, rc = 0;

	fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("ostrich: cannot create %s: %s", tmp, strerror(errno));
		xfree(tmp);
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = -1;
			break;
		}
		off += w;
	}
	if (!rc && fsync(fd) < 0)
		rc = -1;
	if (close(fd) < 0)
		rc = -1;
	if (!rc && rename(tmp, path) < 0)
		rc = -1;
	if (rc) {
		error("ostrich: cannot save %s: %s", path, strerror(errno));
		(void) unlink(tmp);
	}
	xfree(tmp);
	return rc;
}

/* -------------------------------------------------------- partitions --- */

/*
 * The schedule of a partition, created on first sight: restored from its
 * state file when there is a valid one, else empty (the jobs still in
 * job_list are then fed again by the next pass).
 * NOTE: _eng_lock held.
 */
static ost_part_t *_get_part(const part_record_t *part_ptr, int *index)
{
	ost_config_t cfg;
	ost_part_t *p;
	char *path, *buf, errbuf[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < _nparts; i++)
		if (!xstrcmp(_parts[i].name, part_ptr->name)) {
			*index = i;
			return &_parts[i];
		}
	xrecalloc(_parts, _nparts + 1, sizeof(*_parts));
	p = &_parts[_nparts];
	p->name = xstrdup(part_ptr->name);
	p->procs = part_ptr->total_cpus ? part_ptr->total_cpus : 1;
	_core_config(&cfg, p->procs);

	path = _state_path(p->name);
	if ((buf = _read_file(path, &len))) {
		int rc = ost_sched_load(buf, len, &p->sched, errbuf,
					sizeof(errbuf));
		if (rc) {
			error("ostrich: state file %s unusable (%s: %s): rebuilding partition %s from the job records",
			      path, ost_strerror(rc), errbuf, p->name);
			p->sched = NULL;
		} else if ((rc = ost_sched_reconfigure(p->sched, &cfg,
						       ost_sched_now(p->sched)))) {
			error("ostrich: state file %s: configuration refused (%s): rebuilding",
			      path, ost_strerror(rc));
			ost_sched_destroy(p->sched);
			p->sched = NULL;
		} else {
			ost_stats_t st;

			ost_sched_stats(p->sched, &st);
			info("ostrich: partition %s restored from %s: %"PRIu64" campaigns, %"PRIu64" pending, %"PRIu64" running jobs",
			     p->name, path, st.campaigns, st.pending,
			     st.running);
			_evlog_load(p, buf, len);
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
	if (!p->sched) {
		if (!(p->sched = ost_sched_create(&cfg))) {
			error("ostrich: cannot create the schedule of partition %s",
			      p->name);
			xfree(p->name);
			return NULL;
		}
		_evlog_config(p, "create", 0);
	}
	*index = _nparts++;
	return p;
}

/* Apply a changed configuration or CPU count to a partition. */
static void _part_reconfigure(ost_part_t *p, uint32_t procs, double now)
{
	ost_config_t cfg;
	int rc;

	p->procs = procs ? procs : 1;
	_core_config(&cfg, p->procs);
	if ((rc = ost_sched_reconfigure(p->sched, &cfg, now)))
		error("ostrich: partition %s: reconfigure refused: %s",
		      p->name, ost_strerror(rc));
	else
		_evlog_config(p, "config", now);
}

/* Give the core the weight of uid before it sees a job of that user. */
static void _part_weight(ost_part_t *p, uint32_t uid, double w, double t)
{
	int i, rc;

	for (i = 0; i < p->nw; i++)
		if (p->w[i].uid == uid)
			break;
	if (i < p->nw && p->w[i].weight == w)
		return;
	if ((rc = ost_user_set_weight(p->sched, uid, w, t))) {
		error("ostrich: partition %s: weight %g of uid %u refused: %s",
		      p->name, w, uid, ost_strerror(rc));
		return;
	}
	_evlog("%s weight %u %.17g %.17g\n", p->name, uid, w, t);
	if (i == p->nw) {
		xrecalloc(p->w, p->nw + 1, sizeof(*p->w));
		p->nw++;
	}
	p->w[i].uid = uid;
	p->w[i].weight = w;
}

/* ------------------------------------------------------ observations --- */

static ost_obs_t *_obs_add(ost_obs_vec_t *vec)
{
	if (vec->n == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 256;
		xrecalloc(vec->v, vec->cap, sizeof(*vec->v));
	}
	memset(&vec->v[vec->n], 0, sizeof(vec->v[0]));
	return &vec->v[vec->n++];
}

/* Estimate e (seconds) of job_ptr in part_ptr (SEMANTICS §1). */
static double _estimate(const job_record_t *job_ptr,
			const part_record_t *part_ptr)
{
	uint32_t lim = job_ptr->time_limit;

	if (lim == NO_VAL || lim == INFINITE)
		lim = part_ptr->max_time;
	if (lim == NO_VAL || lim == INFINITE)
		return _conf->default_estimate;
	return (double) lim * 60.0;
}

static uint32_t _procs(const job_record_t *job_ptr)
{
	uint32_t q = 0;

	if (!IS_JOB_PENDING(job_ptr) && job_ptr->total_cpus)
		q = job_ptr->total_cpus;
	else if (job_ptr->details) {
		q = job_ptr->details->min_cpus;
		if (job_ptr->tres_req_cnt &&
		    job_ptr->tres_req_cnt[TRES_ARRAY_CPU] > q &&
		    job_ptr->tres_req_cnt[TRES_ARRAY_CPU] < NO_VAL)
			q = job_ptr->tres_req_cnt[TRES_ARRAY_CPU];
	}
	return q ? q : 1;
}

/*
 * Jobs left alone (documented in ostrich.conf(5)): held (priority 0),
 * in a reservation, heterogeneous, revoked (federation).
 */
static bool _ignored(const job_record_t *job_ptr)
{
	if (job_ptr->het_job_id || IS_JOB_REVOKED(job_ptr) ||
	    job_ptr->resv_name || job_ptr->resv_ptr || !job_ptr->details)
		return true;
	if (IS_JOB_PENDING(job_ptr) && job_ptr->priority == 0)
		return true;
	return false;
}

static void _fill(ost_obs_t *o, job_record_t *job_ptr,
		  const part_record_t *part_ptr, int part, int slot,
		  uint64_t key, uint64_t group)
{
	o->key = key;
	o->part = part;
	o->slot = slot;
	o->job_ptr = job_ptr;
	o->group = group;
	o->uid = job_ptr->user_id;
	o->procs = _procs(job_ptr);
	o->estimate = _estimate(job_ptr, part_ptr);
	o->submit = job_ptr->details->submit_time;
	if (IS_JOB_PENDING(job_ptr)) {
		o->st = 'P';
		o->writable = !job_ptr->direct_set_prio;
	} else if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) {
		o->st = 'R';
		o->start = job_ptr->start_time;
	} else {
		o->st = 'F';
		o->start = job_ptr->start_time;
		o->end = job_ptr->end_time;
		o->ran = job_ptr->nodes && job_ptr->nodes[0] &&
			 job_ptr->start_time;
		o->runtime = difftime(o->end, o->start) -
			     (double) job_ptr->tot_sus_time;
		if (!(o->runtime >= 0))
			o->runtime = 0;
	}
	o->weight = ost_conf_weight(_conf, job_ptr->user_id, job_ptr->account,
				    job_ptr->assoc_ptr ?
				    job_ptr->assoc_ptr->shares_raw : NO_VAL);
}

/* Observations of one job record for every partition it concerns. */
static void _observe_part(ost_obs_vec_t *vec, job_record_t *job_ptr,
			  part_record_t *part_ptr, int slot)
{
	uint64_t group = 0;
	ost_part_t *p;
	int part;

	if (!part_ptr || !(p = _get_part(part_ptr, &part)))
		return;
	if (job_ptr->array_recs && job_ptr->array_task_id == NO_VAL) {
		bitstr_t *bm = job_ptr->array_recs->task_id_bitmap;
		int64_t t, last;

		if (!bm || !IS_JOB_PENDING(job_ptr))
			return;
		last = bit_fls(bm);
		for (t = bit_ffs(bm); t >= 0 && t <= last; t++)
			if (bit_test(bm, t))
				_fill(_obs_add(vec), job_ptr, part_ptr, part,
				      slot, OST_ARRAY_KEY(job_ptr->array_job_id,
							  t),
				      job_ptr->array_job_id);
		return;
	}
	if (job_ptr->array_task_id != NO_VAL && job_ptr->array_job_id)
		group = job_ptr->array_job_id;
	_fill(_obs_add(vec), job_ptr, part_ptr, part, slot,
	      group ? OST_ARRAY_KEY(job_ptr->array_job_id,
				    job_ptr->array_task_id) :
		      (uint64_t) job_ptr->job_id,
	      group);
}

/* NOTE: job read lock (at least) and _eng_lock held */
static void _observe(ost_obs_vec_t *vec, job_record_t *job_ptr)
{
	if (_ignored(job_ptr))
		return;
	if (job_ptr->part_ptr_list && IS_JOB_PENDING(job_ptr)) {
		ListIterator it = list_iterator_create(job_ptr->part_ptr_list);
		part_record_t *part_ptr;
		int slot = 0;

		while ((part_ptr = list_next(it)))
			_observe_part(vec, job_ptr, part_ptr, slot++);
		list_iterator_destroy(it);
	} else {
		_observe_part(vec, job_ptr, job_ptr->part_ptr, -1);
	}
}

/* ------------------------------------------------------------ events --- */

/*
 * Order of events at one instant (SEMANTICS §6): completions of jobs that
 * started earlier, requeues, submissions, starts, then completions of jobs
 * that started at that very instant.
 */
enum { _ORD_END = 0, _ORD_REQUEUE, _ORD_SUBMIT, _ORD_START, _ORD_END_LATE };

static int _ev_cmp(const void *a, const void *b)
{
	const ost_event_t *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->order != y->order)
		return x->order - y->order;
	return (x->key > y->key) - (x->key < y->key);
}

typedef struct {
	ost_event_t *v;
	int n, cap;
} ost_ev_vec_t;

static void _ev_add(ost_ev_vec_t *ev, double t, int order, char kind,
		    const ost_obs_t *o, uint64_t key)
{
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 64;
		xrecalloc(ev->v, ev->cap, sizeof(*ev->v));
	}
	ev->v[ev->n].t = t;
	ev->v[ev->n].order = order;
	ev->v[ev->n].kind = kind;
	ev->v[ev->n].o = o;
	ev->v[ev->n].key = key;
	ev->n++;
}

/* The core's jobs of one schedule, sorted by id. */
typedef struct {
	uint64_t id;
	ost_job_state_t state;
	double start;
} ost_known_t;

typedef struct {
	ost_known_t *v;
	int n, cap;
} ost_known_vec_t;

static int _known_add(const ost_job_info_t *job, void *arg)
{
	ost_known_vec_t *k = arg;

	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 256;
		xrecalloc(k->v, k->cap, sizeof(*k->v));
	}
	k->v[k->n].id = job->id;
	k->v[k->n].state = job->state;
	k->v[k->n].start = job->start;
	k->n++;
	return 0;
}

static int _known_cmp(const void *a, const void *b)
{
	const ost_known_t *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int _obs_ptr_cmp(const void *a, const void *b)
{
	const ost_obs_t *x = *(ost_obs_t * const *) a;
	const ost_obs_t *y = *(ost_obs_t * const *) b;

	return (x->key > y->key) - (x->key < y->key);
}

/*
 * Events that bring the core's view of one job in line with Slurm's.
 * IN k - what the core knows (NULL: nothing)
 * IN o - what Slurm shows (NULL: the record is gone or left alone)
 */
static void _diff_one(ost_ev_vec_t *ev, const ost_known_t *k,
		      const ost_obs_t *o, double now)
{
	if (!k) {
		if (o->st == 'P') {
			_ev_add(ev, o->submit, _ORD_SUBMIT, 's', o, o->key);
		} else if (o->st == 'R') {
			_ev_add(ev, o->submit, _ORD_SUBMIT, 's', o, o->key);
			_ev_add(ev, o->start, _ORD_START, 'b', o, o->key);
		}
		return;
	}
	if (!o) {
		if (k->state == OST_JOB_PENDING)
			_ev_add(ev, now, _ORD_END, 'c', NULL, k->id);
		else
			_ev_add(ev, now, _ORD_END, 'g', NULL, k->id);
		return;
	}
	if (k->state == OST_JOB_PENDING) {
		if (o->st == 'R') {
			_ev_add(ev, o->start, _ORD_START, 'b', o, o->key);
		} else if (o->st == 'F' && o->ran) {
			_ev_add(ev, o->start, _ORD_START, 'b', o, o->key);
			_ev_add(ev, o->end, _ORD_END_LATE, 'f', o, o->key);
		} else if (o->st == 'F') {
			_ev_add(ev, o->end, _ORD_END, 'c', o, o->key);
		}
	} else {
		if (o->st == 'P')
			_ev_add(ev, o->submit > now ? now : o->submit,
				_ORD_REQUEUE, 'r', o, o->key);
		else if (o->st == 'F')
			_ev_add(ev, o->end, _ORD_END, 'f', o, o->key);
	}
}

/* Apply one event to the core of p; failures are logged, never fatal. */
static void _apply(ost_part_t *p, const ost_event_t *e, double now)
{
	const ost_obs_t *o = e->o;
	ost_job_info_t info;
	int rc = 0;

	switch (e->kind) {
	case 's': {
		ost_job_desc_t d = {
			.id = o->key, .uid = o->uid, .procs = o->procs,
			.estimate = o->estimate, .group = o->group,
			.campaign = 0,
		};
		_part_weight(p, o->uid, o->weight, e->t);
		rc = ost_job_submit(p->sched, &d, e->t, NULL);
		if (!rc)
			_evlog("%s submit %"PRIu64" %u %u %.17g %"PRIu64" %.17g\n",
			       p->name, d.id, d.uid, d.procs, d.estimate,
			       d.group, e->t);
		break;
	}
	case 'b':
		rc = ost_job_start(p->sched, e->key, e->t);
		if (!rc)
			_evlog("%s start %"PRIu64" %.17g\n", p->name, e->key,
			       e->t);
		break;
	case 'f':
		rc = ost_job_finish(p->sched, e->key, e->t, o->runtime);
		if (!rc)
			_evlog("%s finish %"PRIu64" %.17g %.17g\n", p->name,
			       e->key, e->t, o->runtime);
		break;
	case 'g':	/* record purged while running: ended by now at worst */
		if (!ost_job_get(p->sched, e->key, &info)) {
			double run = isnan(info.start) ? 0 : now - info.start;

			if (run < 0)
				run = 0;
			rc = ost_job_finish(p->sched, e->key, now, run);
			if (!rc)
				_evlog("%s finish %"PRIu64" %.17g %.17g\n",
				       p->name, e->key, now, run);
			debug("ostrich: job %"PRIu64" vanished while running: finished at %.0f",
			      e->key, now);
		}
		break;
	case 'c':
		rc = ost_job_cancel(p->sched, e->key, e->t);
		if (!rc)
			_evlog("%s cancel %"PRIu64" %.17g\n", p->name, e->key,
			       e->t);
		break;
	case 'r':
		rc = ost_job_requeue(p->sched, e->key, e->t);
		if (!rc)
			_evlog("%s requeue %"PRIu64" %.17g\n", p->name,
			       e->key, e->t);
		break;
	}
	if (rc)
		error("ostrich: partition %s: event %c of job %"PRIu64" at %.0f refused: %s",
		      p->name, e->kind, e->key, e->t, ost_strerror(rc));
}

/*
 * Bring schedule p in line with the observations obs[0..n) (sorted by key)
 * of the same partition.
 * RET number of events applied
 */
static int _sync_part(ost_part_t *p, ost_obs_t **obs, int n, double now)
{
	ost_known_vec_t known = { 0 };
	ost_ev_vec_t ev = { 0 };
	int i = 0, j = 0, e;

	(void) ost_sched_foreach_job(p->sched, _known_add, &known);
	if (known.n)
		qsort(known.v, known.n, sizeof(*known.v), _known_cmp);
	while (i < known.n || j < n) {
		if (j == n || (i < known.n && known.v[i].id < obs[j]->key)) {
			_diff_one(&ev, &known.v[i++], NULL, now);
		} else if (i == known.n || obs[j]->key < known.v[i].id) {
			_diff_one(&ev, NULL, obs[j++], now);
		} else {
			_diff_one(&ev, &known.v[i++], obs[j++], now);
		}
	}
	if (ev.n)
		qsort(ev.v, ev.n, sizeof(*ev.v), _ev_cmp);
	for (e = 0; e < ev.n; e++)
		_apply(p, &ev.v[e], now);
	xfree(ev.v);
	xfree(known.v);
	return ev.n;
}

/* ------------------------------------------------------- write-back --- */

typedef struct {
	ost_obs_t **obs;	/* observations of the partition, by key */
	int n;
} ost_rank_ctx_t;

static int _rank_visit(const ost_rank_info_t *r, void *arg)
{
	ost_rank_ctx_t *ctx = arg;
	ost_obs_t key = { .key = r->job_id }, *kp = &key, **hit;

	hit = bsearch(&kp, ctx->obs, ctx->n, sizeof(*ctx->obs), _obs_ptr_cmp);
	if (hit) {
		(*hit)->rank = r->rank;
		(*hit)->campaign = r->campaign;
	}
	return 0;
}

/* The priority slot of obs o in its record: priority_array[slot] for a
 * job submitted to several partitions, else the job's priority. */
static uint32_t _cur_prio(const ost_obs_t *o)
{
	job_record_t *job_ptr = o->job_ptr;

	if (o->slot < 0)
		return job_ptr->priority;
	if (!job_ptr->priority_array || !job_ptr->part_ptr_list ||
	    o->slot >= list_count(job_ptr->part_ptr_list))
		return 0;
	return job_ptr->priority_array[o->slot];
}

typedef struct {
	ost_obs_t *o;			/* the record's best-ranked obs */
	uint64_t rank;
} ost_cell_t;

static int _cell_job_cmp(const void *a, const void *b)
{
	const ost_cell_t *x = a, *y = b;
	uintptr_t px = (uintptr_t) x->o->job_ptr, py = (uintptr_t) y->o->job_ptr;

	if (px != py)
		return px < py ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static int _cell_rank_cmp(const void *a, const void *b)
{
	const ost_cell_t *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * New priorities for the writable pending records of partition p, whose
 * observations obs[0..n) carry this pass's ranks: one value per record (at
 * its best rank), strictly decreasing along the ranks, the current value
 * kept wherever it still fits (ost_prio_renumber).  Sets o->prio on the
 * record's best-ranked observation and remembers the values by rank for
 * the jobs submitted before the next pass (_prio_for_new).
 * NOTE: job write lock and _eng_lock held.
 */
static void _renumber(ost_part_t *p, ost_obs_t **obs, int n)
{
	ost_cell_t *cell = xcalloc(n + 1, sizeof(*cell));
	uint32_t *val;
	int i, m = 0, k;

	for (i = 0; i < n; i++) {
		if (obs[i]->st != 'P' || !obs[i]->writable || !obs[i]->rank)
			continue;
		cell[m].o = obs[i];
		cell[m++].rank = obs[i]->rank;
	}
	/* one cell per record: its best rank (array tasks share a record) */
	qsort(cell, m, sizeof(*cell), _cell_job_cmp);
	for (i = 0, k = 0; i < m; i++)
		if (!k || cell[i].o->job_ptr != cell[k - 1].o->job_ptr)
			cell[k++] = cell[i];
	m = k;
	qsort(cell, m, sizeof(*cell), _cell_rank_cmp);

	val = xcalloc(m + 1, sizeof(*val));
	for (i = 0; i < m; i++)
		val[i] = _cur_prio(cell[i].o);
	if (ost_prio_renumber(val, m, OST_PRIO_LO, OST_PRIO_TOP - 1, NULL)) {
		/* more records than values: plain ranks, ties at the end */
		for (i = 0; i < m; i++)
			val[i] = cell[i].rank < OST_PRIO_TOP - 1 ?
				 OST_PRIO_TOP - (uint32_t) cell[i].rank : 1;
	}
	_prios_reserve(p, m);
	for (i = 0; i < m; i++) {
		cell[i].o->prio = val[i];
		p->prios[i].rank = cell[i].rank;
		p->prios[i].prio = val[i];
	}
	p->nprios = m;
	xfree(val);
	xfree(cell);
}

/*
 * Priority for a job just ranked at rank in p, before the next pass
 * renumbers: between those of its neighbours at that rank in the last
 * pass's table, which then records it (later ranks move down by one), so
 * that a burst of submissions gets distinct values in order.  Approximate
 * (jobs may have started since the pass); the pass woken by the
 * submission puts it right.  O(records).
 */
static uint32_t _prio_for_new(ost_part_t *p, uint64_t rank)
{
	int a = 0, b = p->nprios, i;
	uint32_t hi, lo, v;

	while (a < b) {		/* first cell ranked at or after rank */
		int m = a + (b - a) / 2;

		if (p->prios[m].rank < rank)
			a = m + 1;
		else
			b = m;
	}
	hi = a > 0 ? p->prios[a - 1].prio : OST_PRIO_TOP;
	lo = a < p->nprios ? p->prios[a].prio : OST_PRIO_LO - 1;
	if (hi > lo + 1)
		v = lo + (hi - lo) / 2;
	else		/* no room: a tie, until the pass */
		v = hi - 1 >= OST_PRIO_LO ? hi - 1 : OST_PRIO_LO;
	_prios_reserve(p, p->nprios + 1);
	memmove(&p->prios[a + 1], &p->prios[a],
		(p->nprios - a) * sizeof(*p->prios));
	p->prios[a].rank = rank;
	p->prios[a].prio = v;
	p->nprios++;
	for (i = a + 1; i < p->nprios; i++)
		p->prios[i].rank++;
	return v;
}

/*
 * Set the priorities of the observations obs[a..b) of one job record: the
 * best rank of its tasks in each partition (priority_array for a job
 * submitted to several partitions), the best of all in job_ptr->priority.
 * NOTE: job write lock held; the caller checked the record is writable.
 * RET true if anything changed
 */
static bool _write_job(ost_obs_t *obs, int a, int b)
{
	job_record_t *job_ptr = obs[a].job_ptr;
	uint32_t best = 0, *slot_prio = NULL;
	bool changed = false;
	int i, nslots = 0;

	if (job_ptr->part_ptr_list)
		nslots = list_count(job_ptr->part_ptr_list);
	if (nslots)
		slot_prio = xcalloc(nslots, sizeof(uint32_t));
	for (i = a; i < b; i++) {
		uint32_t prio;

		if (!obs[i].prio)
			continue;
		prio = obs[i].prio;
		if (slot_prio && obs[i].slot >= 0 && obs[i].slot < nslots &&
		    prio > slot_prio[obs[i].slot])
			slot_prio[obs[i].slot] = prio;
		if (prio > best)
			best = prio;
	}
	if (best && slot_prio) {
		if (!job_ptr->priority_array)
			job_ptr->priority_array = xcalloc(nslots + 1,
							  sizeof(uint32_t));
		for (i = 0; i < nslots; i++) {
			uint32_t v = slot_prio[i] ? slot_prio[i] : 1;

			if (job_ptr->priority_array[i] != v) {
				job_ptr->priority_array[i] = v;
				changed = true;
			}
		}
	}
	if (best && job_ptr->priority != best) {
		job_ptr->priority = best;
		changed = true;
	}
	xfree(slot_prio);
	return changed;
}

/* --------------------------------------------------- system comment --- */

typedef struct {
	uint32_t uid, seq;
	double vct;
	double share;			/* of its user */
} ost_camp_t;

typedef struct {
	ost_camp_t *v;
	int n, cap;
} ost_camp_vec_t;

static int _camp_visit(const ost_campaign_info_t *c, void *arg)
{
	ost_camp_vec_t *cv = arg;

	if (cv->n == cv->cap) {
		cv->cap = cv->cap ? cv->cap * 2 : 32;
		xrecalloc(cv->v, cv->cap, sizeof(*cv->v));
	}
	cv->v[cv->n].uid = c->uid;
	cv->v[cv->n].seq = c->seq;
	cv->v[cv->n].vct = c->vct;
	cv->n++;
	return 0;
}

static int _camp_cmp(const void *a, const void *b)
{
	const ost_camp_t *x = a, *y = b;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Campaign (uid, seq) in cv (sorted by _camp_cmp), or NULL; O(log n). */
static const ost_camp_t *_camp_find(const ost_camp_vec_t *cv, uint32_t uid,
				    uint32_t seq)
{
	ost_camp_t key = { .uid = uid, .seq = seq };

	if (!cv->n)
		return NULL;
	return bsearch(&key, cv->v, cv->n, sizeof(*cv->v), _camp_cmp);
}

/* Fraction of the partition user uid gets in the virtual schedule now
 * (0 for a user the core has never seen). */
static double _share(ost_part_t *p, uint32_t uid)
{
	double share = 0;

	if (ost_sched_user_share(p->sched, uid, &share))
		return 0;
	return share;
}

/*
 * SystemComment of one job: the core's summary format (ost_summary_t), e.g.
 * "ostrich campaign=alice/3 rank=2/14 vct=2026-11-21T23:10:05Z share=0.33
 * mode=ostrich"; rank=0 for a running job.  Written only when it changed.
 */
static void _system_comment(ost_part_t *p, ost_obs_t *o,
			    const ost_camp_vec_t *cv, uint64_t pending)
{
	job_record_t *job_ptr = o->job_ptr;
	const ost_camp_t *c;
	ost_summary_t sum;
	ost_job_info_t info;
	char buf[OST_SUMMARY_MAX];

	memset(&sum, 0, sizeof(sum));
	if (o->st == 'P' && o->campaign) {	/* known from the walk */
		info.uid = o->uid;
		info.campaign = o->campaign;
	} else if (ost_job_get(p->sched, o->key, &info)) {
		return;
	}
	snprintf(sum.user, sizeof(sum.user), "%s",
		 uid_to_string_cached(info.uid));
	sum.campaign = info.campaign;
	sum.rank = o->st == 'P' ? o->rank : 0;
	sum.pending = pending;
	c = _camp_find(cv, info.uid, info.campaign);
	sum.vct = c && isfinite(c->vct) ? c->vct : NAN;
	sum.share = c ? c->share : _share(p, info.uid);
	sum.mode = _conf->mode;
	if (ost_summary_format(buf, sizeof(buf), &sum) < 0)
		return;
	if (xstrcmp(buf, job_ptr->system_comment)) {
		xfree(job_ptr->system_comment);
		job_ptr->system_comment = xstrdup(buf);
	}
}

/*
 * SystemComment of every job of partition p seen in this pass.
 * NOTE: job write lock and _eng_lock held.
 */
static void _comments(ost_part_t *p, ost_obs_t **obs, int n)
{
	ost_camp_vec_t cv = { 0 };
	ost_stats_t st;
	int i;

	ost_sched_stats(p->sched, &st);
	(void) ost_sched_foreach_campaign(p->sched, _camp_visit, &cv);
	if (cv.n)
		qsort(cv.v, cv.n, sizeof(*cv.v), _camp_cmp);
	for (i = 0; i < cv.n; i++)
		cv.v[i].share = _share(p, cv.v[i].uid);
	for (i = 0; i < n; i++) {
		ost_obs_t *o = obs[i];
		int j;

		if (o->st == 'F' || (o->st == 'P' && !o->rank) || o->slot > 0)
			continue;	/* multi-partition: the first one */
		/* a pending array record: the summary of its best task */
		for (j = i + 1; j < n && obs[j]->job_ptr == o->job_ptr; j++)
			if (obs[j]->rank && obs[j]->rank < o->rank)
				o = obs[j];
		i = j - 1;
		_system_comment(p, o, &cv, st.pending);
	}
	xfree(cv.v);
}

/* ------------------------------------------------------- job_list order --- */

typedef struct {
	job_record_t *job_ptr;
	uint32_t prio, job_id;
} ost_qrec_t;

static int _qrec_cmp(const void *a, const void *b)
{
	const ost_qrec_t *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

static int _ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) *(void * const *) a;
	uintptr_t y = (uintptr_t) *(void * const *) b;

	return (x > y) - (x < y);
}

/*
 * Keep the pending records whose priorities the pass wrote in priority
 * order in job_list.  The main scheduler and backfill build their queues
 * by walking job_list and then sort them (sort_job_queue, glibc's merge
 * sort, whose comparator reads both job records): a queue already in
 * order costs about half the comparisons, all between neighbours, as FIFO
 * priorities get for free.  Nothing else depends on the order of job_list
 * (records are found through a hash table).
 * When those records are out of order (a new job ranked ahead of older
 * ones, campaigns that swapped), job_list becomes: the other records in
 * their current order, then these in priority order; jobs that start stay
 * where they are, so the common pass (starts and ends only) finds the list
 * in order and changes nothing.  O(n log n) on our own arrays.
 * NOTE: job write lock held (no iterator on job_list can exist).
 * RET true if job_list was reordered
 */
static bool _order_job_list(const ost_obs_vec_t *vec)
{
	ost_qrec_t *q = xcalloc(vec->n + 1, sizeof(*q));
	void **sorted, **cur, **want;
	ListIterator it;
	job_record_t *job_ptr;
	int a, i, m = 0, n = 0, k = 0;
	bool differ = false;

	/* the written records (observations of a record are contiguous) */
	for (a = 0; a < vec->n; a = i) {
		for (i = a + 1; i < vec->n &&
		     vec->v[i].job_ptr == vec->v[a].job_ptr; i++)
			;
		job_ptr = vec->v[a].job_ptr;
		if (!vec->v[a].writable || !IS_JOB_PENDING(job_ptr))
			continue;
		q[m].job_ptr = job_ptr;
		q[m].prio = job_ptr->priority;
		q[m++].job_id = job_ptr->job_id;
	}
	qsort(q, m, sizeof(*q), _qrec_cmp);
	sorted = xcalloc(m + 1, sizeof(*sorted));
	for (i = 0; i < m; i++)
		sorted[i] = q[i].job_ptr;
	qsort(sorted, m, sizeof(*sorted), _ptr_cmp);

	cur = xcalloc(list_count(job_list) + 1, sizeof(*cur));
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		cur[n++] = job_ptr;
	list_iterator_destroy(it);

	/* is the subsequence of written records already in order? */
	want = xcalloc(n + 1, sizeof(*want));
	for (i = 0, a = 0; i < n; i++)
		if (bsearch(&cur[i], sorted, m, sizeof(*sorted), _ptr_cmp)) {
			if (a >= m || cur[i] != q[a].job_ptr)
				differ = true;
			a++;
		} else {
			want[k++] = cur[i];
		}
	if (a != m || k + m != n) {	/* cannot happen under the lock */
		error("ostrich: job_list holds %d of the %d records written: order left alone",
		      a, m);
		differ = false;
	}
	if (differ) {
		for (i = 0; i < m; i++)
			want[k++] = q[i].job_ptr;
		/* list_pop() unlinks without the destructor */
		while (list_pop(job_list))
			;
		for (i = 0; i < n; i++)
			list_append(job_list, want[i]);
	}
	xfree(want);
	xfree(cur);
	xfree(sorted);
	xfree(q);
	return differ;
}

/* -------------------------------------------------------------- pass --- */

static int _obs_order_cmp(const void *a, const void *b)
{
	const ost_obs_t *x = *(ost_obs_t * const *) a;
	const ost_obs_t *y = *(ost_obs_t * const *) b;

	if (x->part != y->part)
		return x->part - y->part;
	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * One pass: scan job_list, feed the core, write the priorities back.
 * NOTE: takes the slurmctld locks and _eng_lock itself.
 */
static void _pass(void)
{
	/* conf R (slurm_conf strings), job W (priorities), part R */
	slurmctld_lock_t job_write_lock = {
		READ_LOCK, WRITE_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	/* association shares for Weights=assoc */
	assoc_mgr_lock_t assoc_read_lock = { .assoc = READ_LOCK };
	ost_obs_vec_t vec = { 0 };
	ost_obs_t **by_part = NULL;
	ListIterator it;
	job_record_t *job_ptr;
	part_record_t *part_ptr;
	double t0 = _now_hr(), t_lock, t_obs, t_core, t_comm = 0, t_order, t_end;
	double now;
	bool reordered;
	int i, a, events = 0, changed = 0, written = 0, njobs;
	uint64_t campaigns = 0;
	bool assoc = false;

	lock_slurmctld(job_write_lock);
	slurm_mutex_lock(&_eng_lock);
	if (_conf->weights_assoc) {
		slurm_mutex_unlock(&_eng_lock);
		assoc_mgr_lock(&assoc_read_lock);
		slurm_mutex_lock(&_eng_lock);
		assoc = true;
	}
	t_lock = _now_hr();
	now = (double) time(NULL);

	/* partitions: CPU counts may change with nodes and reconfigure */
	it = list_iterator_create(part_list);
	while ((part_ptr = list_next(it))) {
		ost_part_t *p = _get_part(part_ptr, &i);
		uint32_t procs = part_ptr->total_cpus ? part_ptr->total_cpus : 1;

		if (p && p->procs != procs)
			_part_reconfigure(p, procs, now);
	}
	list_iterator_destroy(it);

	njobs = list_count(job_list);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it)))
		_observe(&vec, job_ptr);
	list_iterator_destroy(it);

	by_part = xcalloc(vec.n + 1, sizeof(*by_part));
	for (i = 0; i < vec.n; i++)
		by_part[i] = &vec.v[i];
	if (vec.n)
		qsort(by_part, vec.n, sizeof(*by_part), _obs_order_cmp);
	t_obs = _now_hr();

	/* feed every schedule (also those whose jobs are all gone) */
	for (i = 0, a = 0; i < _nparts; i++) {
		ost_rank_ctx_t ctx;
		ost_stats_t st;
		int b = a;

		while (b < vec.n && by_part[b]->part == i)
			b++;
		events += _sync_part(&_parts[i], by_part + a, b - a, now);
		(void) ost_sched_advance(_parts[i].sched, now);
		_evlog("%s advance %.17g\n", _parts[i].name, now);
		ctx.obs = by_part + a;
		ctx.n = b - a;
		(void) ost_sched_foreach_pending(_parts[i].sched, _rank_visit,
						 &ctx);
		_renumber(&_parts[i], by_part + a, b - a);
		if (_conf->system_comment) {
			double tc = _now_hr();

			_comments(&_parts[i], by_part + a, b - a);
			t_comm += _now_hr() - tc;
		}
		ost_sched_stats(_parts[i].sched, &st);
		campaigns += st.campaigns;
		a = b;
	}

	t_core = _now_hr();

	/* observations of one record are contiguous in vec */
	for (a = 0; a < vec.n; a = i) {
		for (i = a + 1; i < vec.n && vec.v[i].job_ptr == vec.v[a].job_ptr;
		     i++)
			;
		if (!vec.v[a].writable)
			continue;
		written++;
		if (_write_job(vec.v, a, i))
			changed++;
	}
	for (i = 0; i < _nparts; i++)
		_evlog("%s pass %.17g\n", _parts[i].name, now);
	if (_evlog_fp)
		fflush(_evlog_fp);
	_passes++;
	if (changed)
		last_job_update = time(NULL);
	t_order = _now_hr();
	reordered = _order_job_list(&vec);
	t_end = _now_hr();
	slurm_mutex_unlock(&_eng_lock);
	if (assoc)
		assoc_mgr_unlock(&assoc_read_lock);
	unlock_slurmctld(job_write_lock);

	if (changed)
		schedule(false);
	/* DebugFlags=Priority: one line per pass, at info level */
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: pass %"PRIu64" took %.3f ms: %d job records, %d observations, %d events, %d pending records, %d priorities changed, %d partitions, %"PRIu64" campaigns; job_list %s; locks held %.3f ms (scan %.3f, core %.3f, comments %.3f, priorities %.3f, job_list %.3f), waited %.3f ms",
		     _passes, (t_end - t0) * 1e3, njobs, vec.n, events, written, changed, _nparts, campaigns,
		     reordered ? "reordered" : "in order",
		     (t_end - t_lock) * 1e3, (t_obs - t_lock) * 1e3,
		     (t_core - t_obs - t_comm) * 1e3, t_comm * 1e3,
		     (t_order - t_core) * 1e3, (t_end - t_order) * 1e3,
		     (t_lock - t0) * 1e3);
	xfree(by_part);
	xfree(vec.v);
}

/* Save every schedule (atomically, one file per partition). */
static void _save_all(void)
{
	char **bufs, **paths;
	size_t *lens, bytes = 0;
	double t0 = _now_hr();
	int i, n;
	/* conf R: StateSaveLocation */
	slurmctld_lock_t conf_read_lock = { .conf = READ_LOCK };

	lock_slurmctld(conf_read_lock);
	slurm_mutex_lock(&_eng_lock);
	n = _nparts;
	bufs = xcalloc(n + 1, sizeof(*bufs));
	paths = xcalloc(n + 1, sizeof(*paths));
	lens = xcalloc(n + 1, sizeof(*lens));
	for (i = 0; i < n; i++) {
		int rc = ost_sched_save(_parts[i].sched, &bufs[i], &lens[i]);

		if (rc) {
			error("ostrich: cannot serialize partition %s: %s",
			      _parts[i].name, ost_strerror(rc));
			bufs[i] = NULL;
			continue;
		}
		paths[i] = _state_path(_parts[i].name);
	}
	slurm_mutex_unlock(&_eng_lock);
	unlock_slurmctld(conf_read_lock);

	for (i = 0; i < n; i++) {
		if (bufs[i] && !_write_atomic(paths[i], bufs[i], lens[i]))
			bytes += lens[i];
		free(bufs[i]);
		xfree(paths[i]);
	}
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: state saved in %.3f ms: %zu bytes, %d partitions",
		     (_now_hr() - t0) * 1e3, bytes, n);
	xfree(bufs);
	xfree(paths);
	xfree(lens);
}

/* Re-read ostrich.conf; a bad file keeps the old configuration. */
static void _reload_conf(void)
{
	char *err = NULL, *str;
	ost_conf_t *conf = ost_conf_read(NULL, &err);
	double now = (double) time(NULL);
	int i;

	if (!conf) {
		error("ostrich: reconfigure: %s; keeping the previous configuration",
		      err);
		xfree(err);
		return;
	}
	slurm_mutex_lock(&_eng_lock);
	ost_conf_free(_conf);
	_conf = conf;
	_evlog_open();
	for (i = 0; i < _nparts; i++)
		_part_reconfigure(&_parts[i], _parts[i].procs, now);
	str = ost_conf_str(_conf);
	slurm_mutex_unlock(&_eng_lock);
	info("ostrich: reconfigured: %s", str);
	xfree(str);
}

/*
 * The engine thread: a pass every Interval, sooner after a submission
 * (_wake) but at most one pass per second, at once on reconfigure.
 */
static void *_engine(void *arg)
{
	struct timespec begun, soon, full;

	(void) arg;
#if HAVE_SYS_PRCTL_H
	if (prctl(PR_SET_NAME, "ostrich", NULL, NULL, NULL) < 0)
		debug("ostrich: cannot set the thread name");
#endif
	for (;;) {
		bool reconf;

		slurm_mutex_lock(&_eng_lock);
		if (_stop) {
			slurm_mutex_unlock(&_eng_lock);
			break;
		}
		reconf = _reconf;
		_reconf = false;
		_wake = false;
		slurm_mutex_unlock(&_eng_lock);

		clock_gettime(CLOCK_REALTIME, &begun);
		if (reconf)
			_reload_conf();
		_pass();
		_save_all();

		slurm_mutex_lock(&_eng_lock);
		soon = full = begun;
		soon.tv_sec += 1;
		full.tv_sec += _conf->interval;
		while (!_stop && !_reconf) {
			struct timespec *deadline = _wake ? &soon : &full;

			if (pthread_cond_timedwait(&_eng_cond, &_eng_lock,
						   deadline) == ETIMEDOUT &&
			    (deadline == &full || _wake))
				break;
		}
		slurm_mutex_unlock(&_eng_lock);
	}
	return NULL;
}

/* --------------------------------------------------------- interface --- */

extern int ost_slurm_init(ost_user_t who)
{
	char *err = NULL, *str;
	bool start;

	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	slurm_mutex_lock(&_eng_lock);
	_users[who]++;
	start = !_thread_running;
	if (start && !_conf) {
		if (!(_conf = ost_conf_read(NULL, &err))) {
			slurm_mutex_unlock(&_eng_lock);
			fatal("ostrich: bad configuration: %s", err);
		}
		_evlog_open();
		str = ost_conf_str(_conf);
		info("ostrich: engine configured: %s", str);
		xfree(str);
	}
	if (start) {
		_stop = false;
		slurm_thread_create(&_eng_thread, _engine, NULL);
		_thread_running = true;
	}
	slurm_mutex_unlock(&_eng_lock);
	return SLURM_SUCCESS;
}

extern void ost_slurm_fini(ost_user_t who)
{
	bool last;
	int i;

	if (!running_in_slurmctld())
		return;
	slurm_mutex_lock(&_eng_lock);
	if (_users[who] > 0)
		_users[who]--;
	last = _thread_running && !_users[0] && !_users[1];
	if (last) {
		_stop = true;
		slurm_cond_broadcast(&_eng_cond);
	}
	slurm_mutex_unlock(&_eng_lock);
	if (!last)
		return;
	pthread_join(_eng_thread, NULL);
	_save_all();

	slurm_mutex_lock(&_eng_lock);
	_thread_running = false;
	for (i = 0; i < _nparts; i++) {
		ost_sched_destroy(_parts[i].sched);
		xfree(_parts[i].name);
		xfree(_parts[i].w);
		xfree(_parts[i].prios);
	}
	xfree(_parts);
	_nparts = 0;
	if (_evlog_fp) {
		fclose(_evlog_fp);
		_evlog_fp = NULL;
	}
	ost_conf_free(_conf);
	_conf = NULL;
	slurm_mutex_unlock(&_eng_lock);
}

extern void ost_slurm_reconfig(void)
{
	slurm_mutex_lock(&_eng_lock);
	_reconf = true;
	slurm_cond_broadcast(&_eng_cond);
	slurm_mutex_unlock(&_eng_lock);
}

extern bool ost_slurm_backfill_wanted(void)
{
	bool bf;

	slurm_mutex_lock(&_eng_lock);
	bf = _conf ? _conf->backfill : true;
	slurm_mutex_unlock(&_eng_lock);
	return bf;
}

extern uint32_t ost_slurm_job_priority(uint32_t last_prio,
				       job_record_t *job_ptr)
{
	ost_obs_vec_t vec = { 0 };
	ost_obs_t **obs;
	uint32_t prio = last_prio >= 2 ? last_prio - 1 : 1;
	double now = (double) time(NULL);
	int i, j;

	if (!running_in_slurmctld())
		return prio;
	slurm_mutex_lock(&_eng_lock);
	if (!_conf || _stop || _ignored(job_ptr) || !IS_JOB_PENDING(job_ptr)) {
		slurm_mutex_unlock(&_eng_lock);
		return prio;
	}
	_observe(&vec, job_ptr);
	obs = xcalloc(vec.n + 1, sizeof(*obs));
	for (i = 0; i < vec.n; i++)
		obs[i] = &vec.v[i];
	if (vec.n)
		qsort(obs, vec.n, sizeof(*obs), _obs_order_cmp);
	/* submit what the core does not know yet */
	for (i = 0; i < vec.n; i = j) {
		ost_part_t *p = &_parts[obs[i]->part];
		ost_ev_vec_t ev = { 0 };
		int e;

		for (j = i; j < vec.n && obs[j]->part == obs[i]->part; j++) {
			ost_job_info_t info;

			if (ost_job_get(p->sched, obs[j]->key, &info))
				_diff_one(&ev, NULL, obs[j], now);
		}
		if (ev.n)
			qsort(ev.v, ev.n, sizeof(*ev.v), _ev_cmp);
		for (e = 0; e < ev.n; e++)
			_apply(p, &ev.v[e], now);
		xfree(ev.v);
		for (e = i; e < j; e++) {
			uint64_t rank = 0;

			if (!ost_sched_rank(p->sched, obs[e]->key, &rank)) {
				obs[e]->rank = rank;
				obs[e]->prio = _prio_for_new(p, rank);
			}
		}
	}
	if (vec.n && vec.v[0].writable && _write_job(vec.v, 0, vec.n))
		prio = job_ptr->priority;
	else if (vec.n && vec.v[0].writable && job_ptr->priority != NO_VAL &&
		 job_ptr->priority)
		prio = job_ptr->priority;
	if (_evlog_fp)
		fflush(_evlog_fp);
	_wake = true;
	slurm_cond_broadcast(&_eng_cond);
	slurm_mutex_unlock(&_eng_lock);
	xfree(obs);
	xfree(vec.v);
	return prio;
}

/* Is name one of the comma-separated names of csv? */
static bool _in_csv(const char *csv, const char *name)
{
	size_t n = strlen(name);
	const char *p = csv;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		if ((p = strchr(p, ',')))
			p++;
	}
	return false;
}

/* The schedule of partition name, or NULL (never creates one).
 * NOTE: _eng_lock held. */
static ost_part_t *_find_part(const char *name)
{
	int i;

	for (i = 0; i < _nparts; i++)
		if (!xstrcmp(_parts[i].name, name))
			return &_parts[i];
	return NULL;
}

/*
 * One sprio row: the job's OStrich quantities in one partition
 * (doc/admin-guide.md, "sprio"):
 *   PRIORITY  (direct_prio) the priority the engine wrote for this
 *             partition (decreasing along the ranks, ostrich_slurm.h;
 *             or an operator's value);
 *   FAIRSHARE (priority_fs) the owner's share of the partition in the
 *             virtual schedule now, times PriorityWeightFairshare, as
 *             multifactor stores weighted factors (sprio -n divides);
 *   SITE 0, NICE the job's nice (OStrich ignores both), others 0.
 * NOTE: job and partition read locks held; takes _eng_lock.
 */
static void _add_factors(List ret, priority_factors_request_msg_t *req,
			 job_record_t *job_ptr, part_record_t *part_ptr,
			 uint32_t prio)
{
	priority_factors_object_t *f;
	ost_part_t *p;

	if (!part_ptr ||
	    (req && req->partitions && !_in_csv(req->partitions,
						part_ptr->name)))
		return;
	f = xmalloc(sizeof(*f));
	f->job_id = job_ptr->job_id;
	f->user_id = job_ptr->user_id;
	f->partition = part_ptr->name;	/* not freed by the destructor */
	f->direct_prio = prio;
	slurm_mutex_lock(&_eng_lock);
	if ((p = _find_part(part_ptr->name)))
		f->priority_fs = _share(p, job_ptr->user_id) *
				 (double) slurm_conf.priority_weight_fs;
	slurm_mutex_unlock(&_eng_lock);
	f->priority_site = NICE_OFFSET;
	f->nice = job_ptr->details ? job_ptr->details->nice : NICE_OFFSET;
	list_append(ret, f);
}

static int _find_u32(void *x, void *key)
{
	return *(uint32_t *) x == *(uint32_t *) key;
}

/*
 * May uid see job_ptr?  The test squeue and multifactor's sprio apply
 * under PrivateData=jobs: owner, operators, coordinators of the job's
 * account (or the MCS label's owners with PrivateData in MCSParameters).
 */
static bool _visible(job_record_t *job_ptr, uid_t uid, bool operator)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) ||
	    job_ptr->user_id == uid || operator)
		return true;
	if (slurm_mcs_get_privatedata() == 1)
		return !mcs_g_check_mcs_label(uid, job_ptr->mcs_label, false);
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid,
					    job_ptr->account);
}

extern List ost_slurm_prio_factors(priority_factors_request_msg_t *req,
				   uid_t uid)
{
	/* conf R (weights, PrivateData), job R (records), part R (names) */
	slurmctld_lock_t job_read_lock = {
		READ_LOCK, READ_LOCK, NO_LOCK, READ_LOCK, NO_LOCK };
	List ret = list_create(slurm_destroy_priority_factors_object);
	ListIterator it;
	job_record_t *job_ptr;
	bool operator = validate_operator(uid);

	lock_slurmctld(job_read_lock);
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		if (!IS_JOB_PENDING(job_ptr) || job_ptr->priority == 0 ||
		    IS_JOB_REVOKED(job_ptr))
			continue;
		if (!_visible(job_ptr, uid, operator))
			continue;
		if (req && req->job_id_list &&
		    !list_find_first(req->job_id_list, _find_u32,
				     &job_ptr->job_id))
			continue;
		if (req && req->uid_list &&
		    !list_find_first(req->uid_list, _find_u32,
				     &job_ptr->user_id))
			continue;
		if (job_ptr->part_ptr_list && job_ptr->priority_array) {
			ListIterator pit =
				list_iterator_create(job_ptr->part_ptr_list);
			part_record_t *part_ptr;
			int i = 0;

			while ((part_ptr = list_next(pit)))
				_add_factors(ret, req, job_ptr, part_ptr,
					     job_ptr->priority_array[i++]);
			list_iterator_destroy(pit);
		} else {
			_add_factors(ret, req, job_ptr, job_ptr->part_ptr,
				     job_ptr->priority);
		}
	}
	list_iterator_destroy(it);
	unlock_slurmctld(job_read_lock);
	return ret;
}
