/*****************************************************************************\
 *  osl_aside.h - unusable state files kept aside (osl_aside.c): their
 *  version, their new name, how many are kept.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_ASIDE_H
#define _OSL_ASIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "ostrich.h"

/* The newest state format version ost_sched_save() writes (the core's,
 * doc/state-format.md): a file of a later version is kept aside as newer,
 * not as corrupt, and a damaged file of any version up to it as corrupt
 * (tests/plugin/check_state_files.c checks that the core agrees). */
#define OSL_STATE_FORMAT OST_STATE_VERSION_NEWEST

/* Corrupt state files kept aside per partition (the oldest go first). */
#define OSL_ASIDE_KEEP 5

/* The version N of a state file that begins "ostrich-state N\n" (N decimal,
 * at most 9 digits), else -1 (not a state file: corrupt). */
extern long osl_state_version(const char *buf, size_t len);

/* The same for a file whose first line is magic (ending in a space) and
 * N: the usage ledger's "ostrich-ledger N" too. */
extern long osl_magic_version(const char *buf, size_t len, const char *magic);

/*
 * Where the unusable state file path (contents buf[0..len)) is moved
 * before the partition is rebuilt: path.vN when it is of a newer format N
 * (kept for a return to the version that wrote it; a newer copy of the
 * same version replaces it), else path.bad.WHEN (WHEN: seconds since the
 * epoch), or path.bad.WHEN.K with the smallest K >= 1 that exists() says
 * is free, so that earlier evidence is never overwritten.
 * RET malloc'ed name
 */
extern char *osl_aside_path(const char *path, const char *buf, size_t len,
			    long when, bool (*exists)(const char *path));

/*
 * Sort names[0..n) (corrupt copies path.bad.WHEN[.K] of one file) oldest
 * first.  RET how many of the first ones to delete so that `keep` remain.
 */
extern int osl_aside_prune(char **names, int n, int keep);

#endif /* _OSL_ASIDE_H */
