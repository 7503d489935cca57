/*****************************************************************************\
 *  osl_usnap_write.c - the usage snapshot (StateSaveLocation/ostrich_usage,
 *  format in plugins/lib/osl_usnap.c): written by the engine thread after
 *  a pass, at most once per Interval, for scampaign --usage and --metrics.
 *  Copied under the locks in O(partitions + users); formatted and written
 *  (temporary file, rename) with no lock held, so the controller never
 *  waits on the disk.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Who may read it: the file holds every user's charged usage, share and
 *  activity.  When Slurm's PrivateData hides any of them (accounts, jobs,
 *  usage or users: §23 "Inspection") it is SlurmUser's alone (0600), else
 *  readable by all (0644) as sshare's numbers are (doc/admin-guide.md,
 *  "Usage and metrics").  scampaign runs as its caller, so only the mode
 *  keeps the rows from a user who reads the file directly.
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

#include "ostrich.h"
#include "osl_acct.h"
#include "osl_comment.h"
#include "osl_names.h"
#include "osl_partition.h"
#include "osl_ratelim.h"
#include "osl_slurm.h"
#include "osl_stretch.h"
#include "osl_usage.h"
#include "osl_usnap.h"

/* The PrivateData flags under which a user may not see the others' rows:
 * jobs (who is active), accounts (the tree), usage (the charge), users. */
#define OSL_USNAP_PRIVATE (PRIVATE_DATA_ACCOUNTS | PRIVATE_DATA_JOBS | \
			   PRIVATE_DATA_USAGE | PRIVATE_DATA_USERS)

/* The engine thread's own: when the last snapshot was written
 * (monotonic, s; < 0: never), the longest lock hold since the start. */
static double _written = -1, _hold_max;
static osl_ratelim_t _write_limit;

static int _leaf_uid_cmp(const void *a, const void *b)
{
	const ost_leaf_info_t *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* A new user row uid of sp, its name if the engine has one (else empty:
 * _names() looks it up, with no lock held). */
static osl_usnap_user_t *_user_add(osl_usnap_part_t *sp, uint32_t uid)
{
	osl_usnap_user_t *x = osl_usnap_user_add(sp);
	const char *name = osl_name_get(uid);

	if (!x)
		return NULL;
	x->uid = uid;
	if (name && osl_usnap_name_ok(name))
		snprintf(x->name, sizeof(x->name), "%s", name);
	return x;
}

/*
 * The users of p into sp: those of its ledger (charged) and those active
 * now (pending or running jobs, maybe nothing run yet, or a campaign V
 * still runs), each with its charge and its share of the partition in V
 * now.  A user outside V has share 0, not what it would get by
 * submitting: the shares shown (--tree, ostrich_user_share_ratio) are the
 * partition's split now and sum to 1 over the active users (§23
 * "Inspection"); one with pending jobs whose campaign V completed is
 * active with share 0 (it ranks first, §4).
 * Activity comes from the leaves at the root (Hierarchy=users: every
 * user); under Hierarchy=accounts from the leaves _accounts() adds.
 */
static void _users(const osl_part_t *p, osl_usnap_part_t *sp)
{
	const osl_usage_t *u = &p->ledger->usage;
	size_t n = 0, i;
	ost_leaf_info_t *l = NULL;
	char *seen = NULL;
	int k;

	if (!ost_sched_nested(p->sched) &&
	    (n = ost_acct_leaves(p->sched, 0, NULL, 0))) {
		l = xcalloc(n, sizeof(*l));
		n = ost_acct_leaves(p->sched, 0, l, n);	/* by uid */
		seen = xcalloc(n, 1);
	}
	for (k = 0; k < u->nusers; k++) {
		osl_usnap_user_t *x = _user_add(sp, u->users[k].uid);
		ost_leaf_info_t key = { .uid = u->users[k].uid }, *f;

		if (!x)
			break;
		x->charged = u->users[k].charged;
		f = n ? bsearch(&key, l, n, sizeof(*l), _leaf_uid_cmp) : NULL;
		if (f) {
			seen[f - l] = 1;
			x->active = f->unfinished > 0 || f->active;
			x->share = f->active ? osl_share(p, x->uid) : 0;
		}
	}
	for (i = 0; i < n; i++) {	/* active, not charged yet */
		osl_usnap_user_t *x;

		if (seen[i] || !(l[i].unfinished || l[i].active) ||
		    !(x = _user_add(sp, l[i].uid)))
			continue;
		x->active = 1;
		x->share = l[i].active ? osl_share(p, x->uid) : 0;
	}
	for (k = 0; k < sp->nusers; k++)
		if (!(sp->users[k].share >= 0 && sp->users[k].share <= 1))
			sp->users[k].share = 0;
	xfree(l);
	xfree(seen);
}

static int _user_uid_cmp(const void *a, const void *b)
{
	const osl_usnap_user_t *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* Hierarchy=accounts: a user is active when one of its leaves is (in V);
 * one active but not charged yet gets a row.  After _accounts(); the rows
 * end by uid, O((users + leaves) log(users + leaves)). */
static void _users_from_leaves(const osl_part_t *p, osl_usnap_part_t *sp)
{
	int i, n, m;

	if (!sp->nleaves)
		return;
	qsort(sp->users, sp->nusers, sizeof(*sp->users), _user_uid_cmp);
	n = sp->nusers;			/* the charged ones, sorted */
	for (i = 0; i < sp->nleaves; i++) {
		osl_usnap_user_t key = { .uid = sp->leaves[i].uid }, *x;

		if (!sp->leaves[i].active)
			continue;
		x = n ? bsearch(&key, sp->users, n, sizeof(*sp->users),
				_user_uid_cmp) : NULL;
		if (!x && !(x = _user_add(sp, key.uid)))
			break;		/* (a -A pair's twin: merged below) */
		if (!x->active) {
			x->active = 1;
			x->share = osl_share(p, x->uid);
			if (!(x->share >= 0 && x->share <= 1))
				x->share = 0;
		}
	}
	if (sp->nusers == n)
		return;
	qsort(sp->users, sp->nusers, sizeof(*sp->users), _user_uid_cmp);
	for (i = 1, m = 1; i < sp->nusers; i++)	/* one row per uid */
		if (sp->users[i].uid != sp->users[m - 1].uid)
			sp->users[m++] = sp->users[i];
	sp->nusers = m;
}

/* An account's name for the file: "root" for 0, else its name, or its id
 * when the name cannot be written. */
static void _acct_label(uint32_t id, char *buf, size_t size)
{
	const char *name = id ? osl_acct_name(id) : "root";

	if (name && osl_usnap_name_ok(name))
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%"PRIu32, id);
}

/* The leaves of account id (0: the root) into sp (scampaign --tree). */
static void _leaves(const osl_part_t *p, osl_usnap_part_t *sp, uint32_t id)
{
	size_t n = ost_acct_leaves(p->sched, id, NULL, 0), i;
	ost_leaf_info_t *l;

	if (!n)
		return;
	l = xcalloc(n, sizeof(*l));
	n = ost_acct_leaves(p->sched, id, l, n);
	for (i = 0; i < n; i++) {
		osl_usnap_leaf_t *x = osl_usnap_leaf_add(sp);
		const char *name = osl_name_get(l[i].uid);

		if (!x)
			break;
		x->uid = l[i].uid;
		if (name && osl_usnap_name_ok(name))
			snprintf(x->user, sizeof(x->user), "%s", name);
		/* else empty: _names() looks it up, with no lock held */
		_acct_label(id, x->account, sizeof(x->account));
		x->weight = l[i].weight;
		x->frac = l[i].frac >= 0 && l[i].frac <= 1 ? l[i].frac : 0;
		x->active = l[i].active;
	}
	xfree(l);
}

/* With Hierarchy=accounts, every account of p's schedule and every leaf:
 * O(accounts + leaves) under the lock, as the users are. */
static void _accounts(const osl_part_t *p, osl_usnap_part_t *sp)
{
	size_t n, i;
	uint32_t *ids;

	if (!ost_sched_nested(p->sched))
		return;
	_leaves(p, sp, 0);
	if (!(n = ost_acct_ids(p->sched, NULL, 0)))
		return;
	ids = xcalloc(n, sizeof(*ids));
	n = ost_acct_ids(p->sched, ids, n);
	for (i = 0; i < n; i++) {
		osl_usnap_acct_t *x = osl_usnap_acct_add(sp);
		ost_acct_info_t ai;

		if (!x || ost_acct_get(p->sched, ids[i], &ai))
			break;
		_acct_label(ai.id, x->name, sizeof(x->name));
		_acct_label(ai.parent, x->parent, sizeof(x->parent));
		x->share = ai.share;
		x->norm = ai.norm >= 0 && ai.norm <= 1 ? ai.norm : 0;
		x->frac = ai.frac >= 0 && ai.frac <= 1 ? ai.frac : 0;
		x->active = ai.active;
		_leaves(p, sp, ids[i]);
	}
	xfree(ids);
}

/* The name of uid into name[0..OSL_USNAP_NAME_MAX) if it is empty: the
 * system's (getpwuid_r), else the uid.  RET whether the system had one */
static bool _name_of(uint32_t uid, char *name)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (name[0])
		return false;
	if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &res) && res &&
	    osl_usnap_name_ok(res->pw_name)) {
		snprintf(name, OSL_USNAP_NAME_MAX, "%s", res->pw_name);
		return true;
	}
	snprintf(name, OSL_USNAP_NAME_MAX, "%"PRIu32, uid);
	return false;
}

/*
 * The users and leaves of s the engine had no name for (only the pass resolves
 * names, for the jobs it comments): looked up here, with no lock held
 * (NSS may be slow), and handed to the engine for later snapshots; the
 * uid when there is none.
 */
static void _names(osl_usnap_t *s)
{
	int i, j, found = 0;
	char buf[32];

	for (i = 0; i < s->nparts; i++) {
		for (j = 0; j < s->parts[i].nusers; j++)
			found += _name_of(s->parts[i].users[j].uid,
					  s->parts[i].users[j].name);
		for (j = 0; j < s->parts[i].nleaves; j++)
			found += _name_of(s->parts[i].leaves[j].uid,
					  s->parts[i].leaves[j].user);
	}
	if (!found)
		return;
	slurm_mutex_lock(&osl_eng.lock);
	for (i = 0; i < s->nparts; i++)
		for (j = 0; j < s->parts[i].nusers; j++) {
			const osl_usnap_user_t *u = &s->parts[i].users[j];

			snprintf(buf, sizeof(buf), "%"PRIu32, u->uid);
			if (strcmp(u->name, buf) && !osl_name_get(u->uid))
				osl_name_put(u->uid, u->name);
		}
	slurm_mutex_unlock(&osl_eng.lock);
}

/* Partition p into s; pass_s and held from the last pass. */
static void _part(const osl_part_t *p, osl_usnap_t *s, double pass_s,
		  double held)
{
	osl_usnap_part_t *sp = osl_usnap_part_add(s);
	const osl_stretch_t *h = &p->ledger->stretch;
	ost_stats_t st;
	int b;

	if (!sp || !osl_usnap_name_ok(p->name)) {
		if (sp)
			s->nparts--;
		return;
	}
	ost_sched_stats(p->sched, &st);
	snprintf(sp->name, sizeof(sp->name), "%s", p->name);
	/* the width's unit (§19): what the ledger charged this pass */
	snprintf(sp->unit, sizeof(sp->unit), "%s", ost_charge_name(p->unit));
	sp->capacity = p->procs;
	sp->active_users = st.active_users;
	sp->campaigns = st.campaigns;
	sp->pending = st.pending;
	sp->since = p->ledger->usage.since;
	sp->pass_s = pass_s;
	sp->hold_s = held;
	sp->hold_max_s = _hold_max;
	sp->nb = OSL_STRETCH_NB;
	for (b = 0; b < OSL_STRETCH_NB; b++) {
		sp->le[b] = osl_stretch_le[b];
		sp->count[b] = h->bucket[b];
	}
	sp->sum = h->sum;
	sp->total = h->count;
	_users(p, sp);
	_accounts(p, sp);
	_users_from_leaves(p, sp);
}

/*
 * Copy what the snapshot shows into s, its path into *path, whether
 * PrivateData hides the others' rows into *private.  NOTE: takes the conf read lock
 * and osl_eng.lock.
 */
static void _collect(osl_usnap_t *s, char **path, bool *private,
		     double pass_s, double held)
{
	/* conf R: StateSaveLocation, PrivateData */
	slurmctld_lock_t conf_read_lock = { .conf = READ_LOCK };
	int i;

	lock_slurmctld(conf_read_lock);
	slurm_mutex_lock(&osl_eng.lock);
	*path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			       OSL_USNAP_FILE);
	*private = slurm_conf.private_data & OSL_USNAP_PRIVATE;
	s->time = (double) time(NULL);
	for (i = 0; i < osl_eng.nparts; i++)
		_part(&osl_eng.parts[i], s, pass_s, held);
	slurm_mutex_unlock(&osl_eng.lock);
	unlock_slurmctld(conf_read_lock);
}

extern void osl_usnap_write(double pass_s, double held, bool force)
{
	osl_usnap_t s = { 0 };
	double mono = osl_mono();
	char *path = NULL, *text;
	bool private = true;
	size_t len = 0;

	if (held > _hold_max)
		_hold_max = held;
	if (!force && _written >= 0 && mono >= _written &&
	    mono - _written < osl_eng.conf->interval)
		return;
	_written = mono;
	_collect(&s, &path, &private, pass_s, held);
	_names(&s);
	if ((text = osl_usnap_format(&s, &len)))
		osl_write_shown("usage snapshot", path, text, len, private,
				&_write_limit);
	else
		error("ostrich: usage snapshot: out of memory");
	free(text);
	osl_usnap_free(&s);
	xfree(path);
}
