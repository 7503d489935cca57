/*****************************************************************************\
 *  osl_state.c - the state files: one per partition in StateSaveLocation
 *  (ostrich_state.PARTITION, doc/state-format.md), its usage ledger
 *  (ostrich_ledger.PARTITION) and the account table (ostrich_accounts):
 *  their names, an atomic write (the directory fsync'ed), the reads when a
 *  partition is first seen, an unusable file moved aside.  When they are
 *  written is osl_save.c's.
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

#include "osl_acct.h"
#include "osl_aside.h"
#include "osl_partition.h"
#include "osl_slurm.h"
#include "osl_usage.h"

#define OSL_STATE_PREFIX "ostrich_state."
#define OSL_LEDGER_PREFIX "ostrich_ledger."
#define OSL_ACCTS_FILE "ostrich_accounts"	/* account ids (§23) */

extern char *osl_state_path(const char *part)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      OSL_STATE_PREFIX, part);
}

extern char *osl_accts_path(void)
{
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      OSL_ACCTS_FILE);
}

extern void osl_acct_restore(void)
{
	char *path, *buf, why[128] = "";
	size_t len = 0;

	if (osl_acct_count())		/* known in this process already */
		return;
	path = osl_accts_path();
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

extern void osl_write_shown(const char *what, const char *path,
			    const char *text, size_t len, bool private,
			    osl_ratelim_t *lim)
{
	const char *step = "";
	uint64_t quiet = 0, failures;

	if (!osl_write_atomic(path, text, len, &step) &&
	    (step = "chmod", !chmod(path, private ? 0600 : 0644))) {
		if (osl_ratelim_ok(lim, &failures))
			info("ostrich: %s %s written again after %"PRIu64" failures",
			     what, path, failures);
		return;
	}
	if (osl_ratelim_fail(lim, osl_mono(), OSL_RATELIM_PERIOD, &quiet))
		error("ostrich: cannot write the %s %s (%s: %s); %"PRIu64" failures not logged since the last message",
		      what, path, step, strerror(errno), quiet);
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
