/*****************************************************************************\
 *  sc_list.h - scampaign's comma-separated lists (-u users, -p
 *  partitions): a leaf that every other file of scampaign/ may call, and
 *  that calls none of them.  Slurm-free.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_LIST_H
#define SC_LIST_H

#include <stdbool.h>
#include <stdint.h>

/* Is name (or uid as text, uid ~0u: none) in the comma-separated list? */
bool sc_in_list(const char *list, const char *name, uint32_t uid);

#endif /* SC_LIST_H */
