/*****************************************************************************\
 *  shares.h - a site's association shares for the fairshare baselines
 *  (ostrich-sim --shares FILE): sshare -a -P or sacctmgr -P show assoc
 *  output, instead of equal shares.
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_SHARES_H
#define OST_SIM_SHARES_H

#include <stddef.h>
#include <stdio.h>

#include "sim.h"

/*
 * Read the association shares of file path into w (a sacct dump's
 * workload): w->ashare[u] and w->ushare[u] for each user index u, the
 * share of u's account among the accounts (its raw shares over theirs),
 * and u's share within that account (its raw shares over its siblings').
 * u's account is that of its first job.  The file: a header line naming
 * Account, User and RawShares (sshare -a -P) or Share (sacctmgr -P show
 * assoc), '|' between the fields; a row without User is an account's
 * (leading blanks of sshare's tree are dropped: sub-accounts count as
 * accounts under the root, a simplification), "root" is skipped, a
 * share that is not a whole number > 0 ("parent") counts as 1, as does a
 * user or account of the dump the file lacks (Slurm's default share);
 * how many did is written to *missing.
 * RET 0, or -1 with why in err[0..errlen) (unreadable file, no header,
 * not a sacct workload, memory short)
 */
int sim_shares_read(const char *path, sim_workload_t *w, size_t *missing,
		    char *err, size_t errlen);

/* sim_shares_read, and the count of users and accounts given share 1
 * said on log.  RET 0, or -1 with why in err[0..errlen). */
int sim_shares_load(const char *path, sim_workload_t *w, FILE *log,
		    char *err, size_t errlen);

#endif /* OST_SIM_SHARES_H */
