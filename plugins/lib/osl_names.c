/*****************************************************************************\
 *  osl_names.c - the user names the engine has already resolved, so that a
 *  submission can write its job's SystemComment without asking the name
 *  service: it holds slurmctld's job write lock, and a lookup (LDAP, NIS)
 *  may take seconds.  The pass resolves names (osl_writeback.c, under the
 *  job read lock, as before) and keeps a copy here; a submission only
 *  looks here, and the line of a user it does not find is written by the
 *  catch-up, which looks the name up holding no lock (slurm/osl_catch_up.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_comment.c).  A sorted array:
 *  lookups are O(log U); an insertion moves O(U) entries, once per user.
\*****************************************************************************/

#include <stdlib.h>
#include <string.h>

#include "osl_names.h"
#include "osl_vec.h"

typedef struct {
	uint32_t uid;
	char *name;			/* malloc */
} osl_name_t;

static osl_name_t *names;		/* sorted by uid */
static int nnames, cap_names;

/* Index of uid in names, or of where it would go (its insertion point). */
static int _find(uint32_t uid)
{
	int lo = 0, hi = nnames;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (names[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

extern const char *osl_name_get(uint32_t uid)
{
	int i = _find(uid);

	return i < nnames && names[i].uid == uid ? names[i].name : NULL;
}

extern void osl_name_put(uint32_t uid, const char *name)
{
	int i = _find(uid);
	char *copy;

	if (!name)
		return;
	if (i < nnames && names[i].uid == uid) {
		if (!strcmp(names[i].name, name))
			return;			/* the usual case */
		copy = osl_calloc(strlen(name) + 1, 1);
		free(names[i].name);		/* renamed */
		names[i].name = strcpy(copy, name);
		return;
	}
	names = osl_grow(names, &cap_names, nnames + 1, sizeof(*names), 64);
	memmove(names + i + 1, names + i, (size_t) (nnames - i) *
		sizeof(*names));
	copy = osl_calloc(strlen(name) + 1, 1);
	names[i].uid = uid;
	names[i].name = strcpy(copy, name);
	nnames++;
}

extern void osl_names_free(void)
{
	int i;

	for (i = 0; i < nnames; i++)
		free(names[i].name);
	free(names);
	names = NULL;
	nnames = cap_names = 0;
}
