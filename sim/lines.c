/*****************************************************************************\
 *  lines.c - line input of the workload readers through zlib (plain files
 *  pass through gzread unchanged).  A leaf: the readers (swf.c, cwl.c,
 *  sacct.c) call it and nothing here calls them.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <string.h>

#include "lines.h"
#include "ost_grow.h"

long sim_getline(gzFile f, char **buf, size_t *cap)
{
	size_t len = 0;
	char *nb = ost_grow(*buf, cap, 256, 1, 256);

	if (!nb)
		return -1;
	*buf = nb;
	for (;;) {
		size_t end = *cap - 1;

		/* gzgets gives no length and copies a NUL byte of the line
		 * like any other: fill the room with non-NUL bytes, so the
		 * last NUL is its terminator.  strlen would stop at the
		 * line's own NUL, and the next read would overwrite the
		 * rest of the line with the next one. */
		memset(*buf + len, 0xff, *cap - len);
		if (!gzgets(f, *buf + len, (int) (*cap - len)))
			break;
		while (end > len && (*buf)[end])
			end--;
		len = end;
		if (len && (*buf)[len - 1] == '\n')
			break;
		if (len + 1 < *cap)
			continue;       /* short read without newline: EOF */
		if (!(nb = ost_grow(*buf, cap, *cap + 1, 1, 256)))
			return -1;
		*buf = nb;
	}
	/* a gzgets at end of file leaves the room as filled above */
	(*buf)[len] = '\0';
	if (!len)
		return -1;
	while (len && ((*buf)[len - 1] == '\n' || (*buf)[len - 1] == '\r'))
		(*buf)[--len] = '\0';
	return (long) len;
}

const char *sim_line_why(const char *buf, long len)
{
	return strlen(buf) < (size_t) len ? "NUL byte in the line" : NULL;
}
