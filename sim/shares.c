/*****************************************************************************\
 *  shares.c - association shares for the fairshare baselines (shares.h).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm's fair-share factor compares a user's usage to its normalised
 *  shares: classic 2^(-U/S) with S the product of the shares along the
 *  tree, Fair Tree the accounts' then the users' Level FS = S/U among
 *  siblings.  Both order by U/S, so the baselines divide their usage
 *  keys by these shares (fairshare.c); with no file every share is 1 and
 *  the orders are those of equal shares, bit for bit.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shares.h"

struct row {
	char *acct, *user;	/* user "" for an account's row */
	double raw;
};

/* field i of the '|'-separated line s (modified), trimmed, or "" */
static char *_field(char **f, int nf, int i)
{
	char *s, *e;

	if (i < 0 || i >= nf)
		return "";
	for (s = f[i]; isspace((unsigned char) *s); s++)
		;
	for (e = s + strlen(s); e > s && isspace((unsigned char) e[-1]); e--)
		;
	*e = '\0';
	return s;
}

static int _split(char *s, char **f, int max)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = s;
		if (!(s = strchr(s, '|')))
			break;
		*s++ = '\0';
	}
	return n;
}

static double _raw(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	return *s && !*end && !errno && v > 0 && v < 1e15 ? v : 1.0;
}

/* raw shares of (acct, user) in r[0..n), or -1 */
static double _find(const struct row *r, size_t n, const char *acct,
		    const char *user)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].acct, acct) && !strcmp(r[i].user, user))
			return r[i].raw;
	return -1;
}

/* Shares of every user index from rows r[0..n). */
static int _apply(sim_workload_t *w, const struct row *r, size_t n,
		  size_t *missing)
{
	double atot = 0;
	char buf[16];
	bool *seen = calloc(w->nusers + 1, sizeof(*seen));

	w->ashare = calloc(w->nusers + 1, sizeof(*w->ashare));
	w->ushare = calloc(w->nusers + 1, sizeof(*w->ushare));
	if (!seen || !w->ashare || !w->ushare) {
		free(seen);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!*r[i].user && strcmp(r[i].acct, "root"))
			atot += r[i].raw;
	*missing = 0;
	for (size_t k = 0; k < w->njobs; k++) {
		const sim_job_t *j = &w->jobs[k];
		const char *acct = j->account < w->naccounts ?
				   w->accounts[j->account] : "";
		const char *user = sim_user_name(w, j->uid, buf);
		double a, u, utot = 0;

		if (seen[j->uidx])
			continue;
		seen[j->uidx] = true;
		if ((a = _find(r, n, acct, "")) < 0) {
			a = 1;
			atot += 1;	/* a sibling of Slurm's default share */
			++*missing;
		}
		if ((u = _find(r, n, acct, user)) < 0) {
			u = 1;
			utot = 1;
			++*missing;
		}
		for (size_t i = 0; i < n; i++)
			if (*r[i].user && !strcmp(r[i].acct, acct))
				utot += r[i].raw;
		w->ashare[j->uidx] = a;
		w->ushare[j->uidx] = u / utot;
	}
	for (uint32_t x = 0; x <= w->nusers; x++)
		w->ashare[x] = atot > 0 && w->ashare[x] > 0 ?
			       w->ashare[x] / atot : 1.0;
	for (uint32_t x = 0; x <= w->nusers; x++)
		if (!(w->ushare[x] > 0))
			w->ushare[x] = 1.0;
	free(seen);
	return 0;
}

int sim_shares_read(const char *path, sim_workload_t *w, size_t *missing,
		    char *err, size_t errlen)
{
	FILE *f;
	char *line = NULL, *fl[64];
	size_t cap = 0, n = 0, rcap = 0;
	struct row *r = NULL, *nr;
	int ia = -1, iu = -1, is = -1, nf, rc = -1;

	if (!w->sacct) {
		snprintf(err, errlen, "--shares needs a sacct dump (its users' and accounts' names)");
		return -1;
	}
	if (!(f = fopen(path, "r"))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (getline(&line, &cap, f) < 0) {
		snprintf(err, errlen, "%s: empty", path);
		goto out;
	}
	nf = _split(line, fl, 64);
	for (int i = 0; i < nf; i++) {
		const char *h = _field(fl, nf, i);

		if (!strcmp(h, "Account"))
			ia = i;
		else if (!strcmp(h, "User"))
			iu = i;
		else if (!strcmp(h, "RawShares") || !strcmp(h, "Share"))
			is = i;
	}
	if (ia < 0 || iu < 0 || is < 0) {
		snprintf(err, errlen, "%s: the first line must name Account, User and RawShares (sshare -a -P) or Share (sacctmgr -P show assoc)",
			 path);
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		nf = _split(line, fl, 64);
		if (n == rcap) {
			rcap = rcap ? 2 * rcap : 64;
			if (!(nr = realloc(r, rcap * sizeof(*r))))
				goto nomem;
			r = nr;
		}
		r[n].acct = strdup(_field(fl, nf, ia));
		r[n].user = strdup(_field(fl, nf, iu));
		r[n].raw = _raw(_field(fl, nf, is));
		if (!r[n].acct || !r[n].user) {
			free(r[n].acct);
			free(r[n].user);
			goto nomem;
		}
		n++;
	}
	if (_apply(w, r, n, missing))
		goto nomem;
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
out:
	for (size_t i = 0; i < n; i++) {
		free(r[i].acct);
		free(r[i].user);
	}
	free(r);
	free(line);
	fclose(f);
	return rc;
}

int sim_shares_load(const char *path, sim_workload_t *w, FILE *log,
		    char *err, size_t errlen)
{
	size_t missing = 0;

	if (sim_shares_read(path, w, &missing, err, errlen))
		return -1;
	if (missing && log)
		fprintf(log, "ostrich-sim: --shares: %zu users or accounts of the dump are not in %s: share 1 (Slurm's default)\n",
			missing, path);
	return 0;
}
