/*****************************************************************************\
 *  sc_list.c - scampaign's comma-separated lists (sc_list.h): a leaf,
 *  shared by the campaign view (scampaign.c), the usage rows (usage.c) and
 *  the tree (tree.c), so that none of them calls another for it.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "sc_list.h"

bool sc_in_list(const char *list, const char *name, uint32_t uid)
{
	char *dup = strdup(list), *save = NULL, *tok;
	bool found = false;

	if (!dup)
		return false;
	for (tok = strtok_r(dup, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);

		found = !strcmp(tok, name) || (end != tok && !*end && v == uid);
	}
	free(dup);
	return found;
}
