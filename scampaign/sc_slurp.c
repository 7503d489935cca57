/*****************************************************************************\
 *  sc_slurp.c - a whole file into memory, for every file scampaign reads
 *  (the usage snapshot, the campaign report, ostrich.conf, slurm.conf)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sc_slurp.h"

char *sc_slurp(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *nb;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			size_t want = cap ? 2 * cap : 4096;

			if (cap >= max) {
				free(buf);
				fclose(f);
				errno = EFBIG;
				return NULL;
			}
			if (want > max)
				want = max;
			if (!(nb = realloc(buf, want))) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = want;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}
