/*****************************************************************************\
 *  ost_summary_field.c - where the summary sits in a SystemComment field
 *  that others write to as well (burst-buffer errors, one per line):
 *  written and replaced by the plugin, read back by scampaign
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "ostrich.h"

#define OST_SUMMARY_LEAD "ostrich campaign="

const char *ost_summary_find(const char *field, size_t *len)
{
	const char *p = field;
	size_t lead = sizeof(OST_SUMMARY_LEAD) - 1;

	while (p) {
		if (!strncmp(p, OST_SUMMARY_LEAD, lead)) {
			*len = strcspn(p, "\n");
			return p;
		}
		if ((p = strchr(p, '\n')))
			p++;
	}
	return NULL;
}
