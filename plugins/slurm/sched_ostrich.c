/*****************************************************************************\
 *  sched_ostrich.c - sched/ostrich: fair campaign scheduling for Slurm.
 *
 *  Starts the OStrich engine (libostrich_slurm.so), which rewrites the
 *  priorities of pending jobs every Interval, and embeds the stock
 *  sched/backfill plugin so that backfilling keeps working (Backfill=no in
 *  ostrich.conf turns it off).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  This program is free software; you can redistribute it and/or modify it
 *  under the terms of the GNU General Public License as published by the Free
 *  Software Foundation; either version 2 of the License, or (at your option)
 *  any later version.
 *
 *  This program is distributed in the hope that it will be useful, but WITHOUT
 *  ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 *  FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
 *  more details.
\*****************************************************************************/

#include "config.h"

#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/log.h"
#include "src/common/plugin.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_combo.h"
#include "osl_compat.h"
#include "ostrich_slurm.h"

const char plugin_name[] = "OStrich fair campaign scheduler plugin";
const char plugin_type[] = "sched/ostrich";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

static plugin_handle_t _bf_handle = PLUGIN_INVALID_HANDLE;
static int (*_bf_reconfig)(void) = NULL;

/* The submission watcher (see _watch): its thread and its stop flag. */
static pthread_t _watch_thread;
static bool _watching = false;
static pthread_mutex_t _watch_lock = PTHREAD_MUTEX_INITIALIZER;
static bool _watch_stop = false;

/* Jobs submitted since slurmctld started (sdiag's counter).
 * NOTE: takes the job read lock, under which slurmctld counts them. */
static uint32_t _submitted(void)
{
	slurmctld_lock_t job_read_lock = {
		NO_LOCK, READ_LOCK, NO_LOCK, NO_LOCK, NO_LOCK };
	uint32_t n;

	lock_slurmctld(job_read_lock);
	n = slurmctld_diag_stats.jobs_submitted;
	unlock_slurmctld(job_read_lock);
	return n;
}

/*
 * Without priority/ostrich nothing tells the engine of a submission, and
 * priority/basic gives a new job about 0xfffeffff, above every OStrich
 * priority: it would lead until the next pass, up to Interval later.  So
 * once a second this thread looks at slurmctld's count of submissions
 * and wakes a pass when it moved (a reset by sdiag moves it too).
 */
static void *_watch(void *arg)
{
	uint32_t seen = _submitted(), n;
	struct timespec second = { .tv_sec = 1 };

	(void) arg;
	for (;;) {
		bool stop;

		(void) nanosleep(&second, NULL);
		slurm_mutex_lock(&_watch_lock);
		stop = _watch_stop;
		slurm_mutex_unlock(&_watch_lock);
		if (stop)
			break;
		if ((n = _submitted()) != seen) {
			seen = n;
			osl_wake();
		}
	}
	return NULL;
}

/*
 * Find sched_backfill.so in PluginDir (a colon-separated list).
 * NOTE: slurm_conf read (init() runs with the config lock held).
 * RET xmalloc'ed path or NULL
 */
static char *_backfill_path(void)
{
	char *dirs = xstrdup(slurm_conf.plugindir), *save = NULL, *dir;
	char *path = NULL;
	struct stat st;

	for (dir = strtok_r(dirs, ":", &save); dir && !path;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xstrdup_printf("%s/sched_backfill.so", dir);

		if (!stat(p, &st))
			path = p;
		else
			xfree(p);
	}
	xfree(dirs);
	return path;
}

/*
 * Load the stock backfill plugin (its init() starts its own thread).
 * RET SLURM_SUCCESS or SLURM_ERROR
 */
static int _backfill_load(void)
{
	char *path = _backfill_path();
	const char *err;

	if (!path) {
		error("cannot find sched_backfill.so in PluginDir=%s: running without backfill",
		      slurm_conf.plugindir);
		return SLURM_ERROR;
	}
	if (osl_plugin_load(&_bf_handle, path, &err) != SLURM_SUCCESS) {
		error("cannot load %s: %s: running without backfill", path,
		      err);
		_bf_handle = PLUGIN_INVALID_HANDLE;
		xfree(path);
		return SLURM_ERROR;
	}
	_bf_reconfig = plugin_get_sym(_bf_handle, "sched_p_reconfig");
	info("embedded backfill loaded from %s", path);
	xfree(path);
	return SLURM_SUCCESS;
}

/*
 * sched/ostrich writes every pending job's priority at each pass: a
 * priority plugin that rewrites them on its own clock would undo each
 * pass (osl_combo_sched has the rules, shared with scampaign
 * --check-config).  A reconfigure cannot change PriorityType in place.
 * NOTE: slurm_conf read.
 */
static void _refuse_combinations(void)
{
	osl_combo_t c = {
		.sched_type = slurm_conf.schedtype,
		.priority_type = slurm_conf.priority_type,
		.site_factor = slurm_conf.site_factor_plugin,
	};
	char err[512];

	if (osl_combo_sched(&c, err, sizeof(err)))
		fatal("ostrich: %s", err);
}

extern int init(void)
{
	if (running_in_slurmctld())
		_refuse_combinations();
	if (osl_init(OSL_PLUGIN_SCHED) != SLURM_SUCCESS)
		return SLURM_ERROR;
	if (running_in_slurmctld() && osl_backfill_wanted())
		(void) _backfill_load();
	if (running_in_slurmctld() &&
	    xstrcmp(slurm_conf.priority_type, "priority/ostrich")) {
		_watch_stop = false;
		osl_thread_create("ostrich-watch", &_watch_thread, _watch);
		_watching = true;
		info("ostrich: PriorityType=%s: a pass follows each submission within about a second (priority/ostrich ranks new jobs at once)",
		     slurm_conf.priority_type);
	}
	verbose("%s loaded", plugin_name);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	if (_watching) {
		slurm_mutex_lock(&_watch_lock);
		_watch_stop = true;
		slurm_mutex_unlock(&_watch_lock);
		osl_thread_join(_watch_thread);
		_watching = false;
	}
	if (_bf_handle != PLUGIN_INVALID_HANDLE) {
		plugin_unload(_bf_handle);
		_bf_handle = PLUGIN_INVALID_HANDLE;
		_bf_reconfig = NULL;
	}
	osl_fini(OSL_PLUGIN_SCHED);
}

/*
 * NOTE: called with the slurmctld config/job/node/part write locks held:
 * only flags are set here.
 */
extern int sched_p_reconfig(void)
{
	osl_reconfig(OSL_PLUGIN_SCHED);
	if (_bf_reconfig)
		return _bf_reconfig();
	return SLURM_SUCCESS;
}
