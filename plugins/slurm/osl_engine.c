/*****************************************************************************\
 *  osl_engine.c - the life of the engine: started by the first plugin's
 *  init(), one thread that runs a pass every Interval (osl_pass.c) and saves
 *  the state (osl_save.c), ostrich.conf re-read on reconfigure, stopped
 *  and saved by the last plugin's fini().
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#if HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"

#include "src/slurmctld/slurmctld.h"

#include "osl_compat.h"
#include "ostrich.h"
#include "osl_acct.h"
#include "osl_conf.h"
#include "osl_evlog.h"
#include "osl_log.h"
#include "osl_names.h"
#include "osl_report_write.h"
#include "osl_slurm.h"
#include "osl_wait.h"
#include "ostrich_conf.h"
#include "ostrich_slurm.h"

/*
 * The configuration of the engine last stopped in this process.  From Slurm
 * 24.11 a reconfigure that fails (e.g. a bad ostrich.conf in the new
 * process) starts the plugins of the old one again: a bad file then keeps
 * this configuration, as a reconfigure does on 22.05 (_reload_conf()).
 */
static osl_conf_t *_last_conf;

static pthread_once_t osl_cond_once = PTHREAD_ONCE_INIT;

/* The engine thread's waits on the monotonic clock (osl_wait.c).  Failure
 * (logged) leaves a realtime condition variable: waits still end, later
 * after a backward step of the clock. */
static void _cond_init(void)
{
	int rc = osl_cond_init_mono(&osl_eng.cond);

	osl_eng.mono = !rc;
	if (rc) {
		error("ostrich: cannot wait on the monotonic clock: %s",
		      strerror(rc));
		(void) pthread_cond_init(&osl_eng.cond, NULL);
	}
}

/*
 * EventLog holds every user's jobs (ids, owners, sizes, times): readable by
 * SlurmUser only, as slurmctld's own state (PrivateData=jobs).  Created
 * 0600 whatever the umask; an existing file gets 0600 too.
 */
static FILE *_evlog_fopen(const char *path)
{
	/* read too: osl_evlog_seal() reads the last byte */
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fchmod(fd, 0600) < 0)
		error("ostrich: EventLog %s: cannot make it private (mode 0600): %s",
		      path, strerror(errno));
	if (osl_evlog_seal(fd) < 0)
		error("ostrich: EventLog %s: cannot end a torn last record: %s",
		      path, strerror(errno));
	if (!(f = fdopen(fd, "a"))) {
		int err = errno;

		(void) close(fd);
		errno = err;
	}
	return f;
}

/* (Re)open EventLog= for appending.  NOTE: osl_eng.lock held. */
static void _evlog_open(void)
{
	if (osl_eng.evlog) {
		fclose(osl_eng.evlog);
		osl_eng.evlog = NULL;
	}
	if (osl_eng.conf && osl_eng.conf->event_log &&
	    !(osl_eng.evlog = _evlog_fopen(osl_eng.conf->event_log)))
		error("ostrich: EventLog %s: %s", osl_eng.conf->event_log,
		      strerror(errno));
}

/*
 * Hierarchy= cannot change while slurmctld runs: every tag of a schedule
 * lives in one tree (§21), and a live change would have to drop them all.
 * A reconfigure keeps the one in force, logs why, and applies the rest; a
 * restart applies it, each partition then rebuilt from the job records
 * (the state file is refused, osl_part.c), which is the safe moment for
 * it.  NOTE: osl_eng.lock held.
 */
static void _keep_hierarchy(osl_conf_t *conf)
{
	ost_hier_t old = osl_eng.conf->core.hierarchy;

	if (conf->core.hierarchy == old)
		return;
	error("ostrich: reconfigure: Hierarchy=%s cannot change while slurmctld runs (the schedule's tags live in one tree): keeping Hierarchy=%s; restart slurmctld to apply it (each partition is then rebuilt from the job records)",
	      ost_hier_name(conf->core.hierarchy), ost_hier_name(old));
	conf->core.hierarchy = old;
}

/* Re-read ostrich.conf; a bad file keeps the old configuration. */
static void _reload_conf(void)
{
	char *err = NULL, *str;
	osl_conf_t *conf = osl_conf_read(NULL, &err);
	double now = (double) time(NULL);
	int i;

	if (!conf) {
		error("ostrich: reconfigure: %s; keeping the previous configuration",
		      err);
		xfree(err);
		return;
	}
	slurm_mutex_lock(&osl_eng.lock);
	_keep_hierarchy(conf);
	osl_conf_free(osl_eng.conf);
	osl_eng.conf = conf;
	osl_eng.billed_parts = -1;	/* partitions may have changed too */
	osl_acct_configure(conf);
	_evlog_open();
	for (i = 0; i < osl_eng.nparts; i++)
		osl_part_reconfigure(&osl_eng.parts[i],
				     osl_eng.parts[i].procs, now);
	str = osl_conf_str(osl_eng.conf);
	slurm_mutex_unlock(&osl_eng.lock);
	info("ostrich: reconfigured: %s", str);
	xfree(str);
}

/*
 * The engine thread: a pass every Interval, sooner after a submission
 * (wake) but no sooner than osl_wake_deadline() allows (one per second,
 * less often when a pass holds the locks long), at once on reconfigure;
 * between passes, the catch-up of incomplete submissions at once.
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
		double held, t0;

		slurm_mutex_lock(&osl_eng.lock);
		if (osl_eng.stop) {
			slurm_mutex_unlock(&osl_eng.lock);
			break;
		}
		reconf = osl_eng.reconf;
		osl_eng.reconf = false;
		osl_eng.wake = false;
		memcpy(osl_eng.woke, osl_eng.woken, sizeof(osl_eng.woke));
		memset(osl_eng.woken, 0, sizeof(osl_eng.woken));
		slurm_mutex_unlock(&osl_eng.lock);

		osl_wait_now(osl_eng.mono, &begun);
		if (reconf)
			_reload_conf();
		t0 = osl_now_hr();
		held = osl_pass();
		t0 = osl_now_hr() - t0;
		osl_save_all(false);
		osl_usnap_write(t0, held, false);
		osl_report_write(false);
		osl_catch_up(true);

		slurm_mutex_lock(&osl_eng.lock);
		full = begun;
		full.tv_sec += osl_eng.conf->interval;
		osl_wake_deadline(&begun, held, osl_eng.conf->interval, &soon);
		while (!osl_eng.stop && !osl_eng.reconf) {
			struct timespec *deadline = osl_eng.wake ? &soon : &full;

			if (osl_eng.catch_up) {	/* incomplete submissions */
				slurm_mutex_unlock(&osl_eng.lock);
				osl_catch_up(false);
				slurm_mutex_lock(&osl_eng.lock);
				continue;
			}

			if (pthread_cond_timedwait(&osl_eng.cond, &osl_eng.lock,
						   deadline) == ETIMEDOUT &&
			    (deadline == &full || osl_eng.wake))
				break;
		}
		slurm_mutex_unlock(&osl_eng.lock);
	}
	return NULL;
}

extern int osl_init(osl_plugin_t who)
{
	char *err = NULL, *str;
	bool start;

	if (!running_in_slurmctld())
		return SLURM_SUCCESS;
	osl_log_set(osl_slurm_log);	/* before anything of lib/ logs */
	pthread_once(&osl_cond_once, _cond_init);
	slurm_mutex_lock(&osl_eng.lock);
	osl_eng.users[who]++;
	start = !osl_eng.running;
	if (start && !osl_eng.conf) {
		osl_pin_library((const void *) osl_init);
		if ((osl_eng.conf = osl_conf_read(NULL, &err))) {
			osl_conf_free(_last_conf);
		} else if (_last_conf) {
			error("ostrich: reconfigure: %s; keeping the previous configuration",
			      err);
			xfree(err);
			osl_eng.conf = _last_conf;
		} else {
			slurm_mutex_unlock(&osl_eng.lock);
			fatal("ostrich: bad configuration: %s", err);
		}
		_last_conf = NULL;
		osl_eng.billed_parts = -1;	/* the first pass learns it */
		osl_acct_restore();	/* the ids first */
		osl_acct_configure(osl_eng.conf);
		_evlog_open();
		str = osl_conf_str(osl_eng.conf);
		info("ostrich: %s: %s", osl_slurmctld_reconfiguring() ?
		     "reconfigured" : "engine configured", str);
		xfree(str);
	}
	if (who == OSL_PLUGIN_SITE)
		osl_eng.site = true;	/* before the thread's first pass */
	if (start) {
		osl_eng.stop = false;
		osl_thread_create("ostrich", &osl_eng.thread, _engine);
		osl_eng.running = true;
	}
	slurm_mutex_unlock(&osl_eng.lock);
	return SLURM_SUCCESS;
}

extern void osl_fini(osl_plugin_t who)
{
	bool last;

	if (!running_in_slurmctld())
		return;
	slurm_mutex_lock(&osl_eng.lock);
	if (osl_eng.users[who] > 0)
		osl_eng.users[who]--;
	last = osl_eng.running && !osl_eng.users[OSL_PLUGIN_SCHED] &&
	       !osl_eng.users[OSL_PLUGIN_PRIO] &&
	       !osl_eng.users[OSL_PLUGIN_SITE];
	if (last) {
		osl_eng.stop = true;
		slurm_cond_broadcast(&osl_eng.cond);
	}
	slurm_mutex_unlock(&osl_eng.lock);
	if (!last)
		return;
	osl_thread_join(osl_eng.thread);
	osl_save_all(true);
	osl_report_write(true);

	slurm_mutex_lock(&osl_eng.lock);
	osl_eng.running = false;
	osl_eng.site = false;
	osl_site_free();
	osl_parts_free();
	osl_names_free();
	free(osl_eng.unseen);
	osl_eng.unseen = NULL;
	osl_eng.nunseen = osl_eng.cap_unseen = 0;
	free(osl_eng.caught);
	osl_eng.caught = NULL;
	osl_eng.ncaught = osl_eng.cap_caught = 0;
	free(osl_eng.nameless);
	osl_eng.nameless = NULL;
	osl_eng.nnameless = osl_eng.cap_nameless = 0;
	if (osl_eng.evlog) {
		fclose(osl_eng.evlog);
		osl_eng.evlog = NULL;
	}
	osl_conf_free(_last_conf);
	_last_conf = osl_eng.conf;	/* freed at the next init */
	osl_eng.conf = NULL;
	slurm_mutex_unlock(&osl_eng.lock);
}

/*
 * One reconfigure calls both plugins' hooks (22.05: sched_g_reconfig() in
 * read_slurm_conf(), then priority_g_reconfig() after the reply).  The
 * engine thread can take the first flag before the second is set, and
 * then re-read and logged ostrich.conf twice.  With both plugins loaded
 * only priority/ostrich's hook counts: it is the one every reconfigure
 * path calls, last.
 */
extern void osl_reconfig(osl_plugin_t who)
{
	slurm_mutex_lock(&osl_eng.lock);
	if (who == OSL_PLUGIN_PRIO || !osl_eng.users[OSL_PLUGIN_PRIO]) {
		osl_eng.reconf = true;
		slurm_cond_broadcast(&osl_eng.cond);
	}
	slurm_mutex_unlock(&osl_eng.lock);
}

extern bool osl_backfill_wanted(void)
{
	bool bf;

	slurm_mutex_lock(&osl_eng.lock);
	bf = osl_eng.conf ? osl_eng.conf->backfill : true;
	slurm_mutex_unlock(&osl_eng.lock);
	return bf;
}
