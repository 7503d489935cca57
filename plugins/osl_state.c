/*****************************************************************************\
 *  osl_state.c - the state files: one per partition in StateSaveLocation
 *  (ostrich_state.PARTITION, doc/state-format.md), written atomically after
 *  every pass and at fini, read when a partition is first seen.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_private.h"

#define OSL_STATE_PREFIX "ostrich_state."

extern char *osl_state_path(const char *part)
{
	return xstrdup_printf("%s/%s%s", slurm_conf.state_save_location,
			      OSL_STATE_PREFIX, part);
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
	close(fd);
	if (r < 0) {
		xfree(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

extern int osl_write_atomic(const char *path, const char *buf, size_t len)
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

/* Serialize under the locks, write without them. */
extern void osl_save_all(void)
{
	char **bufs, **paths;
	size_t *lens, bytes = 0;
	double t0 = osl_now_hr();
	int i, n;
	/* conf R: StateSaveLocation */
	slurmctld_lock_t conf_read_lock = { .conf = READ_LOCK };

	lock_slurmctld(conf_read_lock);
	slurm_mutex_lock(&osl_eng.lock);
	n = osl_eng.nparts;
	bufs = xcalloc(n + 1, sizeof(*bufs));
	paths = xcalloc(n + 1, sizeof(*paths));
	lens = xcalloc(n + 1, sizeof(*lens));
	for (i = 0; i < n; i++) {
		osl_part_t *p = &osl_eng.parts[i];
		int rc = ost_sched_save(p->sched, &bufs[i], &lens[i]);

		if (rc) {
			error("ostrich: cannot serialize partition %s: %s",
			      p->name, ost_strerror(rc));
			bufs[i] = NULL;
			continue;
		}
		paths[i] = osl_state_path(p->name);
	}
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(conf_read_lock);

	for (i = 0; i < n; i++) {
		if (bufs[i] && !osl_write_atomic(paths[i], bufs[i], lens[i]))
			bytes += lens[i];
		free(bufs[i]);
		xfree(paths[i]);
	}
	if (slurm_conf.debug_flags & DEBUG_FLAG_PRIO)
		info("ostrich: state saved in %.3f ms: %zu bytes, %d partitions",
		     (osl_now_hr() - t0) * 1e3, bytes, n);
	xfree(bufs);
	xfree(paths);
	xfree(lens);
}
