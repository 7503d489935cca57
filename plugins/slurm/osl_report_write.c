/*****************************************************************************\
 *  osl_report_write.c - the campaign report file, StateSaveLocation/
 *  ostrich_report (format in plugins/lib/osl_report_io.c, §26): read back
 *  when a partition's schedule is made, written after the passes for
 *  scampaign --report and --metrics.  Copied under the locks, formatted
 *  and written (temporary file, rename) with no lock held.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Who may read it: it names users, accounts and when their work ran.
 *  Under the PrivateData flags that hide the usage snapshot it is
 *  SlurmUser's alone (0600), else readable by all (0644), as
 *  ostrich_usage (osl_usnap_write.c).
\*****************************************************************************/

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "slurm/slurm.h"

#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "osl_names.h"
#include "osl_partition.h"
#include "osl_ratelim.h"
#include "osl_report_track.h"
#include "osl_report_write.h"
#include "osl_slurm.h"
#include "osl_usage.h"
#include "osl_usnap.h"

/* As osl_usnap_write.c: the flags that make the file SlurmUser's. */
#define OSL_REPORT_PRIVATE (PRIVATE_DATA_ACCOUNTS | PRIVATE_DATA_JOBS | \
			    PRIVATE_DATA_USAGE | PRIVATE_DATA_USERS)

/* The engine thread's own: the last write (monotonic s; < 0: never). */
static double _written = -1;
static osl_ratelim_t _write_limit;

/* The file of a newer format N goes to path.vN, kept for the version
 * that wrote it. */
static void _newer(const char *path, int v)
{
	char *aside = xstrdup_printf("%s.v%d", path, v);

	if (rename(path, aside) < 0)
		error("ostrich: cannot move %s to %s: %s", path, aside,
		      strerror(errno));
	xfree(aside);
}

extern void osl_report_restore(osl_part_t *p, bool restored)
{
	char *path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				    OSL_REPORT_FILE);
	osl_report_file_t f;
	char why[256] = "", *buf, *aside;
	size_t len = 0;
	int newer = 0, n;

	osl_report_free(&p->ledger->report);
	if (!(buf = osl_read_file(path, &len))) {
		if (errno != ENOENT)
			error("ostrich: cannot read the campaign report %s: %s; the report of partition %s starts empty",
			      path, strerror(errno), p->name);
		xfree(path);
		return;
	}
	if (osl_report_parse(&f, buf, len, &newer, why, sizeof(why))) {
		if (newer) {
			_newer(path, newer);
			error("ostrich: campaign report %s refused (%s): kept as .v%d; the report of partition %s starts empty",
			      path, why, newer, p->name);
		} else {
			aside = osl_state_aside(path, buf, len);
			error("ostrich: campaign report %s refused (%s): %s; the report of partition %s starts empty",
			      path, why, aside ? aside : "not moved",
			      p->name);
			xfree(aside);
		}
	} else {
		n = osl_report_take(&p->ledger->report, &f, p->name);
		if (!restored)	/* their (uid, seq) mean nothing now */
			p->ledger->report.nopen = 0;
		debug("ostrich: partition %s: %d campaigns of the report restored from %s",
		      p->name, n, path);
		osl_report_file_free(&f);
	}
	xfree(buf);
	xfree(path);
}

/* A copy of r, its ring and open campaigns; user names from the engine's
 * cache where it has them.  NOTE: osl_eng.lock. */
static void _copy(osl_report_t *dst, const osl_report_t *r)
{
	int i;

	memset(dst, 0, sizeof(*dst));
	dst->ring = xcalloc(r->nring + 1, sizeof(*r->ring));
	dst->open = xcalloc(r->nopen + 1, sizeof(*r->open));
	for (i = 0; i < r->nring; i++)
		dst->ring[i] = *osl_report_nth(r, i);
	memcpy(dst->open, r->open, r->nopen * sizeof(*r->open));
	dst->nring = r->nring;
	dst->nopen = r->nopen;
	for (i = 0; i < dst->nring + dst->nopen; i++) {
		osl_report_camp_t *c = i < dst->nring ? &dst->ring[i] :
				       &dst->open[i - dst->nring];
		const char *name = c->user[0] ? NULL : osl_name_get(c->uid);

		if (name && strlen(name) < sizeof(c->user))
			strcpy(c->user, name);
	}
}

/* The name of uid into c->user if empty: the system's, else the uid; one
 * lookup per run of equal uids (no lock held: NSS may be slow). */
static void _name(osl_report_camp_t *c, uint32_t *last, char *last_name)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (c->user[0])
		return;
	if (*last != c->uid || !last_name[0]) {
		*last = c->uid;
		if (!getpwuid_r(c->uid, &pw, buf, sizeof(buf), &res) && res &&
		    osl_usnap_name_ok(res->pw_name))	/* the same rule */
			snprintf(last_name, OSL_REPORT_NAME_MAX, "%s",
				 res->pw_name);
		else
			snprintf(last_name, OSL_REPORT_NAME_MAX, "%"PRIu32,
				 c->uid);
	}
	strcpy(c->user, last_name);
}

extern void osl_report_write(bool force)
{
	/* conf R: StateSaveLocation, PrivateData */
	slurmctld_lock_t conf_read_lock = { .conf = READ_LOCK };
	osl_report_t *copy = NULL;
	const osl_report_t **parts = NULL;
	const char **names = NULL;
	double mono = osl_mono();
	char *path = NULL, *text, last_name[OSL_REPORT_NAME_MAX] = "";
	bool dirty = false, open = false, private = true;
	uint32_t last = 0;
	size_t len = 0;
	int i, k, n;

	lock_slurmctld(conf_read_lock);
	slurm_mutex_lock(&osl_eng.lock);
	n = osl_eng.nparts;
	for (i = 0; i < n; i++) {
		dirty |= osl_eng.parts[i].ledger->report.dirty;
		open |= osl_eng.parts[i].ledger->report.nopen > 0;
	}
	/* the first call of a process writes: the file then says it runs */
	if (!force && !dirty && _written >= 0 &&
	    (!open || (mono >= _written &&
		       mono - _written < osl_eng.conf->interval))) {
		slurm_mutex_unlock(&osl_eng.lock);
		unlock_slurmctld(conf_read_lock);
		return;
	}
	_written = mono;
	path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      OSL_REPORT_FILE);
	private = slurm_conf.private_data & OSL_REPORT_PRIVATE;
	copy = xcalloc(n + 1, sizeof(*copy));
	parts = xcalloc(n + 1, sizeof(*parts));
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++) {
		_copy(&copy[i], &osl_eng.parts[i].ledger->report);
		osl_eng.parts[i].ledger->report.dirty = false;
		parts[i] = &copy[i];
		names[i] = xstrdup(osl_eng.parts[i].name);
	}
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(conf_read_lock);

	for (i = 0; i < n; i++) {
		for (k = 0; k < copy[i].nring; k++)
			_name(&copy[i].ring[k], &last, last_name);
		for (k = 0; k < copy[i].nopen; k++)
			_name(&copy[i].open[k], &last, last_name);
		/* the copies' rings are linear: oldest first from 0 */
		copy[i].head = 0;
	}
	if ((text = osl_report_format(parts, names, n, (double) time(NULL),
				      &len)))
		osl_write_shown("campaign report", path, text, len, private,
				&_write_limit);
	else
		error("ostrich: campaign report: out of memory");
	free(text);
	for (i = 0; i < n; i++) {
		xfree(copy[i].ring);
		xfree(copy[i].open);
		xfree(names[i]);
	}
	xfree(copy);
	xfree(parts);
	xfree(names);
	xfree(path);
}
