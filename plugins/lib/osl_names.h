/*****************************************************************************\
 *  osl_names.h - user names the pass resolved (osl_names.c), so that a
 *  submission never looks one up.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_NAMES_H
#define _OSL_NAMES_H

#include <stdint.h>

/* The name the pass resolved for uid (osl_name_put), or NULL: never a
 * lookup.  NOTE: osl_eng.lock held (also for the two below). */
extern const char *osl_name_get(uint32_t uid);

/* Keep a copy of name (NULL: nothing) as uid's, replacing an older one. */
extern void osl_name_put(uint32_t uid, const char *name);

/* Forget every name (plugin fini). */
extern void osl_names_free(void);

#endif /* _OSL_NAMES_H */
