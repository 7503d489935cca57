/*****************************************************************************\
 *  osl_state.c - the state files: one per partition in StateSaveLocation
 *  (ostrich_state.PARTITION, doc/state-format.md), written atomically (and
 *  the directory fsync'ed) at most once per Interval and at fini, read when
 *  a partition is first seen; an unusable one is moved aside.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_aside.h"
#include "osl_partition.h"
#include "osl_ratelim.h"
#include "osl_slurm.h"
#include "osl_usage.h"
#include "osl_vec.h"

#define OSL_STATE_PREFIX "ostrich_state."
#define OSL_LEDGER_PREFIX "ostrich_ledger."
#define OSL_ACCTS_FILE "ostrich_accounts"	/* account ids (§23) */

extern char *osl_state_path(const char *part)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      OSL_STATE_PREFIX, part);
}

extern void osl_acct_restore(void)
{
	char *path, *buf, why[128] = "";
	size_t len = 0;

	if (osl_acct_count())		/* known in this process already */
		return;
	path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      OSL_ACCTS_FILE);
	if ((buf = osl_read_file(path, &len))) {
		if (osl_acct_load(buf, len, why, sizeof(why))) {
			char *aside = osl_state_aside(path, buf, len);

			error("ostrich: account table %s unusable (%s): moved to %s; account ids are given anew, and a restored schedule's accounts may not match their names",
			      path, why, aside ? aside : "nowhere");
			xfree(aside);
		} else {
			info("ostrich: account table %s: %d accounts",
			     path, osl_acct_count());
		}
		xfree(buf);
	} else if (errno != ENOENT) {
		error("ostrich: cannot read account table %s: %s: account ids are given anew",
		      path, strerror(errno));
	}
	xfree(path);
}

extern char *osl_ledger_path(const char *part)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      OSL_LEDGER_PREFIX, part);
}

extern char *osl_read_file(const char *path, size_t *len)
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
	if (r < 0) {		/* its errno, not close's, for the caller */
		int e = errno;

		close(fd);
		xfree(buf);
		errno = e;
		return NULL;
	}
	close(fd);
	*len = n;
	return buf;
}

/* fsync the directory of path, so that a rename survives a crash. */
static int _fsync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : slash - path) :
			    xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0 || fsync(fd) < 0)
		rc = -1;
	if (fd >= 0)
		(void) close(fd);
	xfree(dir);
	return rc;
}

extern int osl_write_atomic(const char *path, const char *buf, size_t len,
			    const char **step)
{
	char *tmp = xstrdup_printf("%s.new", path);
	size_t off = 0;
	int fd, rc = 0, err = 0;

	*step = "create";
	fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
		xfree(tmp);
		errno = err;
		return -1;
	}
	*step = "write";
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? errno : ENOSPC;
			rc = -1;
			break;
		}
		off += w;
	}
	if (!rc && (*step = "fsync", fsync(fd) < 0)) {
		err = errno;
		rc = -1;
	}
	if (close(fd) < 0 && !rc) {
		*step = "close";
		err = errno;
		rc = -1;
	}
	if (!rc && (*step = "rename", rename(tmp, path) < 0)) {
		err = errno;
		rc = -1;
	}
	/* the rename is durable only once the directory is */
	if (!rc && (*step = "fsync the directory", _fsync_dir(path) < 0)) {
		err = errno;
		rc = -1;
	}
	if (rc && strcmp(*step, "fsync the directory"))
		(void) unlink(tmp);
	xfree(tmp);
	errno = err;
	return rc;
}

static bool _exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Delete the oldest corrupt copies of path beyond OSL_ASIDE_KEEP. */
static void _prune_bad(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *base;
	char **names = NULL;
	int n = 0, i, drop;
	size_t blen;
	struct dirent *de;
	DIR *d;

	if (!slash) {
		xfree(dir);
		return;
	}
	*slash = '\0';
	base = xstrdup_printf("%s.bad.", slash + 1);
	blen = strlen(base);
	if (!(d = opendir(dir))) {
		xfree(base);
		xfree(dir);
		return;
	}
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, base, blen)) {
			xrecalloc(names, n + 1, sizeof(*names));
			names[n++] = xstrdup_printf("%s/%s", dir, de->d_name);
		}
	closedir(d);
	drop = osl_aside_prune(names, n, OSL_ASIDE_KEEP);
	for (i = 0; i < n; i++) {
		if (i < drop && unlink(names[i]) == 0)
			info("ostrich: removed %s: more than %d corrupt state files kept",
			     names[i], OSL_ASIDE_KEEP);
		xfree(names[i]);
	}
	xfree(names);
	xfree(base);
	xfree(dir);
}

extern char *osl_state_aside(const char *path, const char *buf, size_t len)
{
	char *tmp = osl_aside_path(path, buf, len, (long) time(NULL), _exists);
	char *aside = xstrdup(tmp);

	free(tmp);
	if (rename(path, aside) < 0) {
		error("ostrich: cannot move the unusable state file %s to %s: %s; it will be overwritten at the next save",
		      path, aside, strerror(errno));
		xfree(aside);
		return NULL;
	}
	(void) _fsync_dir(path);
	if (osl_state_version(buf, len) <= OSL_STATE_FORMAT)
		_prune_bad(path);
	return aside;
}

/* A ledger file of a newer format N goes to path.vN, kept for the
 * version that wrote it (as a state file, osl_aside_path). */
static void _ledger_newer(const char *path, long v)
{
	char *aside = xstrdup_printf("%s.v%ld", path, v);

	if (rename(path, aside) < 0)
		error("ostrich: cannot move %s to %s: %s", path, aside,
		      strerror(errno));
	else
		(void) _fsync_dir(path);
	xfree(aside);
}

/* The outcome of a ledger file that did not load (rc from
 * osl_ledger_load), logged; the ledger stays empty. */
static void _ledger_refused(const osl_part_t *p, const char *path, long rc,
			    const char *why, const char *buf, size_t len)
{
	char *aside = NULL;

	if (rc > OSL_LEDGER_FORMAT)
		_ledger_newer(path, rc);
	else
		aside = osl_state_aside(path, buf, len);
	error("ostrich: usage ledger %s refused (%s): %s; the usage of partition %s starts again from 0 now",
	      path, why, rc > OSL_LEDGER_FORMAT ? "kept as .vN" :
	      aside ? aside : "not moved", p->name);
	xfree(aside);
}

extern void osl_ledger_restore(osl_part_t *p, bool restored)
{
	char *path = osl_ledger_path(p->name), *buf, why[512] = "", *aside;
	osl_usage_t *u = &p->ledger->usage;
	bool retry = u->unread;
	size_t len = 0;
	long rc;

	buf = osl_read_file(path, &len);
	rc = osl_ledger_take(u, buf, len, buf ? 0 : errno, why, sizeof(why));
	if (rc == OSL_LEDGER_UNREAD) {
		/* never saved over a file that may be intact: the ledger
		 * waits, uncharged, and the read is retried every pass */
		if (!retry)
			error("ostrich: cannot read usage ledger %s: %s; the usage of partition %s is neither charged nor saved until it can be read (retried every pass)",
			      path, why, p->name);
	} else if (rc == OSL_LEDGER_SALVAGED) {
		aside = osl_state_aside(path, buf, len);
		error("ostrich: usage ledger %s damaged, salvaged: %s; the damaged file is %s (see the admin guide to recover what was lost from sacct)",
		      path, why, aside ? aside : "not moved: overwritten at the next save");
		xfree(aside);
	} else if (rc == OSL_LEDGER_MISSING) {
		if (retry)
			error("ostrich: usage ledger %s is gone (%s): the usage of partition %s starts again from 0 now",
			      path, why, p->name);
		else if (restored)
			info("ostrich: partition %s: state of an older format, without a usage ledger: the usage starts from 0 now",
			     p->name);
	} else if (rc) {
		_ledger_refused(p, path, rc, why, buf, len);
	}
	if (!rc || rc == OSL_LEDGER_SALVAGED)
		info("ostrich: partition %s: usage ledger %srestored from %s: %d users, %d runs running, since %.0f",
		     p->name, retry ? "at last " : "", path, u->nusers, u->nruns,
		     u->since);
	xfree(buf);
	xfree(path);
}

/* Seconds on the monotonic clock (the save period ignores clock steps). */
static double _mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Failures of the save, logged first, then once per OSL_RATELIM_PERIOD.
 * Only the engine thread and fini (after joining it) save. */
static osl_ratelim_t osl_save_limit;

/* A failed write of path, rate-limited. */
static void _save_failed(const char *path, const char *step, int err)
{
	uint64_t quiet = 0;

	if (osl_ratelim_fail(&osl_save_limit, _mono(), OSL_RATELIM_PERIOD,
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
		sv->accts_path = xstrdup_printf("%s/%s",
			slurm_conf.state_save_location, OSL_ACCTS_FILE);
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
	double t0 = osl_now_hr(), t1, mono = _mono();
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
