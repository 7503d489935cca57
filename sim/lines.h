/*****************************************************************************\
 *  lines.h - line input of the workload readers (lines.c)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_LINES_H
#define OST_SIM_LINES_H

#include <stddef.h>
#include <zlib.h>

/* Read one line of f (plain or gzip) into *buf (grown as needed, NUL
 * terminated, newline removed).  RET: length, or -1 at end of file.  A
 * line with a NUL byte of its own has strlen(*buf) < RET: callers refuse
 * it (sim_line_why). */
long sim_getline(gzFile f, char **buf, size_t *cap);

/* Why the line buf of length len read by sim_getline is refused before it
 * is parsed (a NUL byte in it), or NULL. */
const char *sim_line_why(const char *buf, long len);

#endif /* OST_SIM_LINES_H */
