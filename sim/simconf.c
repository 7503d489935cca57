/*****************************************************************************\
 *  simconf.c - ostrich-sim --conf (simconf.h): an ostrich.conf read with
 *  the plugins' parser, its engine configuration handed to the replay.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_conf_file.h"
#include "sc_slurp.h"
#include "simconf.h"

/* Largest file read (an ostrich.conf is a few KB; scampaign's limit). */
#define FILE_MAX (16u << 20)

/* Any user name: the replay uses no per-user key, and the names of the
 * site's file need not exist where it is replayed.  A number is that uid
 * (as Slurm's uid_from_string); another name gets a uid of its own from
 * its FNV-1a hash, in [2^31, 2^32 - 2], so that two names stay two users
 * (the parser refuses a user named twice in UserWeights or UserAccounts)
 * and one name given twice is still refused.  Two names of one file
 * colliding (about n^2 / 2^32 for n names) would be refused as one. */
static int _any_uid(const char *name, uid_t *uid)
{
	uint64_t h = 1469598103934665603ull, v;

	if (!osl_conf_uint(name, 0, 2147483647ull, &v)) {
		*uid = (uid_t) v;
		return 0;
	}
	for (const unsigned char *p = (const unsigned char *) name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	*uid = (uid_t) (2147483648ull + h % 2147483647ull);
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
	rc = (conf.core.mode == OST_MODE_FAIRCAMP ? SIM_CONF_FAIRCAMP : 0) |
	     (conf.core.hierarchy == OST_HIER_ACCOUNTS ? SIM_CONF_ACCOUNTS : 0);
	procs = core->procs;
	mode = core->mode;
	*core = conf.core;
	core->procs = procs;
	core->mode = mode;
	osl_conf_file_free(&conf);
	return rc;
}
