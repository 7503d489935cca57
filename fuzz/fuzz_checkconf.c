/*****************************************************************************\
 *  fuzz_checkconf.c - libFuzzer target: scampaign --check-config's two
 *  readers, the whole-file ostrich.conf reader (plugins/lib/
 *  osl_conf_file.c) and the slurm.conf keys (scampaign/slurmconf.c), and
 *  the refusals (osl_combo.c) on what the latter read.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Whatever osl_conf_file_parse accepts must pass the core's check and
 *  have its lists' counts and items in place; a refusal must say why.
\*****************************************************************************/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osl_combo.h"
#include "osl_conf_file.h"
#include "slurmconf.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

/* every name but "nobody-here" is a user, uid its length */
static int _uid_of(const char *name, uid_t *uid)
{
	if (!strcmp(name, "nobody-here"))
		return -1;
	*uid = (uid_t) strlen(name);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	osl_conf_t conf;
	sc_slurmconf_t sc;

	if (!osl_conf_file_parse((const char *) data, size, "f", _uid_of,
				 &conf, err, sizeof(err))) {
		ost_config_t core;
		const char *why = NULL;

		osl_conf_core(&conf, 1, &core);
		CHECK(!ost_config_check(&core, &why));
		CHECK(conf.n_user_w >= 0 && conf.n_acct_w >= 0);
		for (int i = 0; i < conf.n_acct_w; i++)
			CHECK(conf.acct_w[i].account &&
			      *conf.acct_w[i].account);
		for (int i = 0; i < conf.n_acct_par; i++)
			CHECK(conf.acct_par[i].account &&
			      conf.acct_par[i].parent);
	} else {
		CHECK(err[0]);
	}
	osl_conf_file_free(&conf);

	if (!sc_slurmconf_parse((const char *) data, size, &sc, err,
				sizeof(err))) {
		osl_combo_t c = {
			.sched_type = sc.sched_type,
			.priority_type = sc.priority_type,
			.site_factor = sc.site_factor,
			.site_params = sc.site_params,
			.update_needs_dbd = size & 1,
		};
		uint32_t w = 0;

		if (osl_combo_sched(&c, err, sizeof(err)) ||
		    osl_combo_prio(&c, err, sizeof(err)) ||
		    osl_combo_site(&c, err, sizeof(err)))
			CHECK(err[0]);
		if (osl_combo_site_weight(&c, &w, err, sizeof(err)))
			CHECK(err[0]);
		sc_slurmconf_free(&sc);
	}
	return 0;
}
