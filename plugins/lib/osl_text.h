/*****************************************************************************\
 *  osl_text.h - a growing text (osl_text.c): what the ledger file and the
 *  usage snapshot are built in before one atomic write; and the field
 *  reader of their record lines.  Standalone (no
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

/*
 * The next "key=value" field of the space-separated record line l[0..n)
 * from *i (the reader of the usage snapshot and of the campaign report):
 * copied into tok[0..toksz) with its '=' made a NUL, *val after it; *i
 * moves past the field and its space.
 * RET NULL, or why the line is unusable: an empty or overlong field, a
 * trailing space, a field without key=value
 */
extern const char *osl_text_field(const char *l, size_t n, size_t *i,
				  char *tok, size_t toksz, const char **val);

#endif /* _OSL_TEXT_H */
