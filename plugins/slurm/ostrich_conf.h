/*****************************************************************************\
 *  ostrich_conf.h - reading ostrich.conf with Slurm's parser
 *  (ostrich_conf.c), and what needs Slurm's allocator or associations;
 *  the keys, defaults and judges of values are Slurm-free (lib/osl_conf.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSTRICH_CONF_H
#define _OSTRICH_CONF_H

#include <stdint.h>
#include <sys/types.h>

#include "osl_conf.h"

/*
 * Read ostrich.conf (path, or the file next to slurm.conf when NULL).
 * A missing file gives the defaults.
 * RET: new configuration (free with osl_conf_free), or NULL with a
 *	message in *err (xmalloc'ed, caller xfree()s it).
 */
extern osl_conf_t *osl_conf_read(const char *path, char **err);

/* Free a configuration; NULL is a no-op. */
extern void osl_conf_free(osl_conf_t *conf);

/* Weight w_u for a job of uid charged to account (NULL ok; AccountWeights
 * scale users only with Hierarchy=users); shares_raw is the association's
 * raw Shares (NO_VAL or 0 if none). */
extern double osl_conf_weight(const osl_conf_t *conf, uid_t uid,
			      const char *account, uint32_t shares_raw);

/* osl_conf_line, xmalloc'ed. */
extern char *osl_conf_str(const osl_conf_t *conf);

#endif /* _OSTRICH_CONF_H */
