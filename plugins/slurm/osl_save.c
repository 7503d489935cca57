/*****************************************************************************\
 *  osl_save.c - saving every schedule without stalling slurmctld
 *  (doc/design.md, "Saving without stalling the controller"): at most once
 *  per Interval (monotonic clock) and at fini, the list made under the
 *  locks, the cores serialized and the files written with none held
 *  (osl_state.c's atomic write), failures logged rate-limited.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_ratelim.h"
#include "osl_slurm.h"
#include "osl_usage.h"
#include "osl_vec.h"

/* Failures of the save, logged first, then once per OSL_RATELIM_PERIOD.
 * Only the engine thread and fini (after joining it) save. */
static osl_ratelim_t osl_save_limit;

/* A failed write of path, rate-limited. */
static void _save_failed(const char *path, const char *step, int err)
{
	uint64_t quiet = 0;

	if (osl_ratelim_fail(&osl_save_limit, osl_mono(), OSL_RATELIM_PERIOD,
			     &quiet))
		error("ostrich: cannot save %s (%s: %s); %"PRIu64" failed saves not logged since the last message; state is kept in memory, next message in %.0f min at the latest",
		      path, step, strerror(err), quiet,
		      OSL_RATELIM_PERIOD / 60);
}

/* One save: the schedules to serialize and where, their texts. */
typedef struct {
	int n;				/* schedules */
	ost_sched_t **scheds;		/* each partition's */
	char **paths;			/* its state file (xmalloc'ed) */
	char **bufs;			/* its text (osl_talloc), NULL: none */
	size_t *lens, *caps;		/* the text's length and capacity */
	osl_usage_t **ledgers;		/* each partition's usage ledger
					 * (only the engine thread changes
					 * it: serialized with no lock) */
	char **lpaths;			/* its file (xmalloc'ed) */
	char *accts;			/* the account table's text (malloc),
					 * NULL: unchanged (osl_acct_save) */
	size_t accts_len;		/* its length */
	char *accts_path;		/* its file (xmalloc'ed) */
} osl_save_t;

/*
 * List the schedules to save into sv and set osl_eng.saving, when force or
 * when the last save is at least Interval old (monotonic clock mono).
 * NOTE: takes the conf read lock (StateSaveLocation) and osl_eng.lock.
 * RET false if no save is due (sv untouched)
 */
static bool _save_list(bool force, double mono, osl_save_t *sv)
{
	/* conf R: StateSaveLocation */
	slurmctld_lock_t conf_read_lock = { .conf = READ_LOCK };
	int i, n;

	lock_slurmctld(conf_read_lock);
	slurm_mutex_lock(&osl_eng.lock);
	if (!osl_eng.conf || osl_eng.saving ||
	    (!force && osl_eng.saved && mono >= osl_eng.saved_at &&
	     mono - osl_eng.saved_at < osl_eng.conf->interval)) {
		slurm_mutex_unlock(&osl_eng.lock);
		unlock_slurmctld(conf_read_lock);
		return false;
	}
	sv->n = n = osl_eng.nparts;
	sv->bufs = xcalloc(n + 1, sizeof(*sv->bufs));
	sv->paths = xcalloc(n + 1, sizeof(*sv->paths));
	sv->lens = xcalloc(n + 1, sizeof(*sv->lens));
	sv->caps = xcalloc(n + 1, sizeof(*sv->caps));
	sv->scheds = xcalloc(n + 1, sizeof(*sv->scheds));
	sv->ledgers = xcalloc(n + 1, sizeof(*sv->ledgers));
	sv->lpaths = xcalloc(n + 1, sizeof(*sv->lpaths));
	for (i = 0; i < n; i++) {
		sv->scheds[i] = osl_eng.parts[i].sched;
		sv->paths[i] = osl_state_path(osl_eng.parts[i].name);
		sv->ledgers[i] = &osl_eng.parts[i].ledger->usage;
		sv->lpaths[i] = osl_ledger_path(osl_eng.parts[i].name);
	}
	if (osl_acct_dirty()) {		/* a few bytes per account */
		sv->accts = osl_acct_save(&sv->accts_len);
		sv->accts_path = osl_accts_path();
	}
	osl_eng.saving = true;
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(conf_read_lock);
	return true;
}

/* Write the texts of sv, failures logged rate-limited.  RET bytes written */
static size_t _save_write(const osl_save_t *sv)
{
	size_t bytes = 0;
	uint64_t failures;
	int i, failed = 0;

	/* the ids first: a state that names an account id is never on disk
	 * before the name of that id */
	if (sv->accts) {
		const char *step = "";

		if (!osl_write_atomic(sv->accts_path, sv->accts,
				      sv->accts_len, &step)) {
			bytes += sv->accts_len;
		} else {
			_save_failed(sv->accts_path, step, errno);
			failed++;
			slurm_mutex_lock(&osl_eng.lock);
			osl_acct_unsaved();	/* again next time */
			slurm_mutex_unlock(&osl_eng.lock);
		}
	}
	for (i = 0; i < sv->n; i++) {
		const char *step = "";

		if (!sv->bufs[i])
			continue;
		if (!osl_write_atomic(sv->paths[i], sv->bufs[i], sv->lens[i],
				      &step)) {
			bytes += sv->lens[i];
		} else {
			_save_failed(sv->paths[i], step, errno);
			failed++;
		}
	}
	for (i = 0; i < sv->n; i++) {
		const char *step = "";
		size_t len = 0;
		char *txt;

		if (sv->ledgers[i]->unread)	/* its file may be intact */
			continue;
		if (!(txt = osl_ledger_save(sv->ledgers[i], &len))) {
			error("ostrich: cannot serialize %s: out of memory",
			      sv->lpaths[i]);
			failed++;
		} else if (!osl_write_atomic(sv->lpaths[i], txt, len, &step)) {
			bytes += len;
		} else {
			_save_failed(sv->lpaths[i], step, errno);
			failed++;
		}
		free(txt);
	}
	if (!failed && osl_ratelim_ok(&osl_save_limit, &failures))
		info("ostrich: state saved again after %"PRIu64" failed saves",
		     failures);
	return bytes;
}

static void _save_free(osl_save_t *sv)
{
	int i;

	for (i = 0; i < sv->n; i++) {
		if (sv->bufs[i])
			osl_talloc.release(sv->bufs[i], sv->caps[i], NULL);
		xfree(sv->paths[i]);
		xfree(sv->lpaths[i]);
	}
	free(sv->accts);
	xfree(sv->accts_path);
	xfree(sv->ledgers);
	xfree(sv->lpaths);
	xfree(sv->bufs);
	xfree(sv->paths);
	xfree(sv->lens);
	xfree(sv->caps);
	xfree(sv->scheds);
}

/*
 * The cores are serialized with no lock held: osl_eng.saving tells the
 * only other writer, a submission (osl_job_priority), to leave them alone
 * meanwhile, and the readers (sprio) only read.  Under the locks: the list
 * of schedules and the paths, O(partitions) (_save_list).  The checksum is
 * part of ost_sched_save(), hence also off-lock.
 */
extern void osl_save_all(bool force)
{
	osl_save_t sv = { 0 };
	double t0 = osl_now_hr(), t1, mono = osl_mono();
	size_t bytes;
	int i;

	if (!_save_list(force, mono, &sv))
		return;
	for (i = 0; i < sv.n; i++) {
		int rc = ost_sched_save_with(sv.scheds[i], &osl_talloc,
					     &sv.bufs[i], &sv.lens[i],
					     &sv.caps[i]);

		if (rc) {
			error("ostrich: cannot serialize %s: %s", sv.paths[i],
			      ost_strerror(rc));
			sv.bufs[i] = NULL;
		}
	}
	t1 = osl_now_hr();

	slurm_mutex_lock(&osl_eng.lock);
	osl_eng.saving = false;
	osl_eng.saved = true;
	osl_eng.saved_at = mono;
	slurm_mutex_unlock(&osl_eng.lock);

	bytes = _save_write(&sv);
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: state saved in %.3f ms (serialized off-lock in %.3f ms): %zu bytes, %d partitions",
		     (osl_now_hr() - t0) * 1e3, (t1 - t0) * 1e3, bytes, sv.n);
	_save_free(&sv);
}
