/*****************************************************************************\
 *  osl_text.h - a growing text (osl_text.c): what the ledger file and the
 *  usage snapshot are built in before one atomic write.  Standalone (no
 *  other osl_ header): scampaign compiles it too.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_TEXT_H
#define _OSL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Zero-initialize with ok = true; s is malloc'ed (free() it). */
typedef struct {
	char *s;			/* the text, NUL-terminated once used */
	size_t len, cap;		/* bytes used (NUL excluded), allocated */
	bool ok;			/* false once out of memory */
} osl_text_t;

/* Append printf(fmt, ...) to t; on failure t->ok becomes false and every
 * later call does nothing. */
extern void osl_text_put(osl_text_t *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _OSL_TEXT_H */
