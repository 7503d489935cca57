/*****************************************************************************\
 *  osl_conf_file.h - ostrich.conf read without Slurm, for the tools
 *  (scampaign --check-config): the file split as Slurm's parser splits it
 *  (slurm/ostrich_conf.c), then the plugins' own judges (osl_conf.h) in
 *  the same order, so that a file is refused with the plugin's message.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_CONF_FILE_H
#define _OSL_CONF_FILE_H

#include <stddef.h>
#include <sys/types.h>

#include "osl_conf.h"

/* A user name (or number) to its uid, as Slurm's uid_from_string.
 * RET 0 and *uid, or -1 when there is no such user. */
typedef int (*osl_conf_uid_f)(const char *name, uid_t *uid);

/*
 * Read the text of an ostrich.conf, text[0..len) (NULs are refused),
 * into conf (defaults first).  Lines: "Key=Value" pairs separated by
 * blanks, a value in double quotes may hold blanks, '#' starts a comment,
 * a '\' at the end joins the next line; keys in any case; a key given
 * twice keeps its last value; booleans as Slurm's (yes/no, true/false,
 * up/down, 1/0).  The values are judged in osl_conf_keys order, then
 * AccountParents as a tree, then the core's combination.  uid_of resolves
 * UserWeights and UserAccounts names; name is the file's name for the
 * messages.
 * RET 0, or -1 with the plugin's message in err[0..errlen) (conf then
 *     holds what was read so far: osl_conf_file_free it either way)
 */
extern int osl_conf_file_parse(const char *text, size_t len,
			       const char *name, osl_conf_uid_f uid_of,
			       osl_conf_t *conf, char *err, size_t errlen);

/* Free the lists and strings osl_conf_file_parse put in conf (malloc'ed,
 * unlike osl_conf_read's); conf itself is the caller's. */
extern void osl_conf_file_free(osl_conf_t *conf);

#endif /* _OSL_CONF_FILE_H */
