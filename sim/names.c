/*****************************************************************************\
 *  names.c - option names of policies and dispatch modes.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <strings.h>

#include "sim.h"

static const char *_policies[SIM_POLICY_COUNT] = {
	"ostrich", "faircamp", "fcfs", "fairshare", "fairtree", "actual",
};

static const char *_dispatches[] = { "easy", "list", "strict" };

const char *sim_policy_name(sim_policy_t p)
{
	return (unsigned) p < SIM_POLICY_COUNT ? _policies[p] : "?";
}

int sim_policy_parse(const char *s, sim_policy_t *out)
{
	for (int i = 0; i < SIM_POLICY_COUNT; i++)
		if (!strcasecmp(s, _policies[i])) {
			*out = (sim_policy_t) i;
			return 0;
		}
	return -1;
}

const char *sim_dispatch_name(sim_dispatch_t d)
{
	return (unsigned) d < 3 ? _dispatches[d] : "?";
}

int sim_dispatch_parse(const char *s, sim_dispatch_t *out)
{
	for (int i = 0; i < 3; i++)
		if (!strcasecmp(s, _dispatches[i])) {
			*out = (sim_dispatch_t) i;
			return 0;
		}
	return -1;
}
