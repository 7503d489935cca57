/*****************************************************************************\
 *  simconf.c - ostrich-sim --conf (simconf.h): an ostrich.conf read with
 *  the plugins' parser, its engine configuration handed to the replay.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_conf_file.h"
#include "sc_slurp.h"
#include "simconf.h"

/* Largest file read (an ostrich.conf is a few KB; scampaign's limit). */
#define FILE_MAX (16u << 20)

/* Any user name: the replay uses no per-user key, and the names of the
 * site's file need not exist where it is replayed. */
static int _any_uid(const char *name, uid_t *uid)
{
	(void) name;
	*uid = 0;
	return 0;
}

int sim_conf_read(const char *path, ost_config_t *core, char *err,
		  size_t errlen)
{
	char why[512], *text;
	osl_conf_t conf;
	size_t len = 0;
	uint32_t procs;
	ost_mode_t mode;
	bool faircamp;
	int rc;

	if (!(text = sc_slurp(path, FILE_MAX, &len))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	rc = osl_conf_file_parse(text, len, path, _any_uid, &conf, why,
				 sizeof(why));
	free(text);
	if (rc) {
		snprintf(err, errlen, "%s", why);
		osl_conf_file_free(&conf);
		return -1;
	}
	faircamp = conf.core.mode == OST_MODE_FAIRCAMP;
	procs = core->procs;
	mode = core->mode;
	*core = conf.core;
	core->procs = procs;
	core->mode = mode;
	osl_conf_file_free(&conf);
	return faircamp ? 1 : 0;
}
