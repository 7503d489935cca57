/*****************************************************************************\
 *  slurmconf.h - the few slurm.conf keys --check-config needs, read from a
 *  file without Slurm (the plugins' refusals, plugins/lib/osl_combo.h).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_SLURMCONF_H
#define SC_SLURMCONF_H

#include <stddef.h>

/* The values as written (NULL: the key is absent); malloc'ed. */
typedef struct {
	char *sched_type;	/* SchedulerType */
	char *priority_type;	/* PriorityType */
	char *site_factor;	/* PrioritySiteFactorPlugin */
	char *site_params;	/* PrioritySiteFactorParameters */
	char *acct_type;	/* AccountingStorageType */
} sc_slurmconf_t;

/*
 * Read those keys from the text of a slurm.conf, text[0..len): Key=Value
 * pairs separated by blanks (keys in any case, a value may be in double
 * quotes), '#' to the end of a line a comment, a '\' at the end of a line
 * joining the next; the last value of a key wins; other keys and Include
 * lines are skipped (Include files are not read).
 * RET 0 and *out (sc_slurmconf_free it), or -1 with why in err[0..errlen)
 *     (a NUL byte, an unterminated quote, memory short)
 */
int sc_slurmconf_parse(const char *text, size_t len, sc_slurmconf_t *out,
		       char *err, size_t errlen);

/* Free what sc_slurmconf_parse put in c, and zero it. */
void sc_slurmconf_free(sc_slurmconf_t *c);

#endif /* SC_SLURMCONF_H */
