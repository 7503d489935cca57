/*****************************************************************************\
 *  osl_text.c - a growing text, printf-appended (osl_text.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "osl_text.h"

extern void osl_text_put(osl_text_t *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!t->ok)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->s ? t->s + t->len : NULL,
		      t->s ? t->cap - t->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->ok = false;
		return;
	}
	if (!t->s || (size_t) n >= t->cap - t->len) {
		char *s = ost_grow(t->s, &t->cap, t->len + (size_t) n + 1, 1,
				   256);

		if (!s) {
			t->ok = false;
			return;
		}
		t->s = s;
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
	}
	t->len += (size_t) n;
}

extern const char *osl_text_field(const char *l, size_t n, size_t *i,
				  char *tok, size_t toksz, const char **val)
{
	const char *sp = memchr(l + *i, ' ', n - *i);
	size_t tl = (sp ? (size_t) (sp - l) : n) - *i;
	char *eq;

	if (!tl || tl >= toksz)
		return "an empty or overlong field";
	memcpy(tok, l + *i, tl);
	tok[tl] = '\0';
	*i += tl + (sp ? 1 : 0);
	if (sp && *i == n)
		return "a trailing space";
	if (!(eq = strchr(tok, '=')) || eq == tok)
		return "a field without key=value";
	*eq = '\0';
	*val = eq + 1;
	return NULL;
}
