/*****************************************************************************\
 *  sc_slurp.h - a whole file into memory (Slurm-free: the tests' drivers
 *  link it too)
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_SLURP_H
#define SC_SLURP_H

#include <stddef.h>

/* Read file path whole, fewer than max bytes.  RET the text (free(); not
 * NUL-terminated) and its length in *len, or NULL with errno (ENOENT and
 * the like from fopen, EFBIG at max or more, ENOMEM, EIO on a read error). */
char *sc_slurp(const char *path, size_t max, size_t *len);

#endif
