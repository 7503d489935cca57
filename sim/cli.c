/*****************************************************************************\
 *  cli.c - ostrich-sim's command line (cli.h): the usage text, the
 *  options and their checks.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charge.h"
#include "cli.h"
#include "simconf.h"

static const char _usage[] =
"usage: ostrich-sim [options] WORKLOAD\n"
"  --policy ostrich|faircamp|fcfs|fairshare|fairtree|actual (default ostrich)\n"
"  --compare POLICY,POLICY,...                run several, one table\n"
"  --dispatch easy|list|strict                (default easy)\n"
"  --procs M                                  (default: SWF header)\n"
"  --gpus G                                   GPUs (default: file header, 0)\n"
"  --charge cpu|billing|dominant              core's job width (default billing)\n"
"  --charge-weights CPU=W,GRES/gpu=W          billing weights (default CPU=1)\n"
"  --charge-max-tres                          billing: max, not sum (MAX_TRES)\n"
"  --think-time SEC                           (default 600)\n"
"  --grouping trace|online                    (default trace)\n"
"  --estimates requested|exact|order-exact    (default requested)\n"
"  --capacity used|full  --gate soft|strict|none  --intra lpt|spt|fifo|ljf\n"
"  --faircamp-users K                         (FairCamp k; default: counted)\n"
"  --half-life SEC                            (fairshare; default 604800)\n"
"  --fairshare-period SEC                     (fairshare; default 0: every event)\n"
"  --age-weight R  --max-age SEC              fairshare + R x age factor\n"
"                                             (multifactor; R 0, SEC 604800)\n"
"  --virtual-area requested|learned|pooled|predicted|bounded\n"
"  --memory on|off|key  (variants)\n"
"  --memory-credit SEC                        (memory: B / m; default 3600)\n"
"  --evidence on|off  --evidence-floor SEC    (variant; floor default 600)\n"
"  --rank finish|served|capped  --rank-cap SEC  (campaign key; cap 3600)\n"
"  --lead keep|forgive|cap  --lead-kappa K    user's lead in V (§24; kappa 1)\n"
"  --overdue rank|restart                     pending work of a campaign\n"
"                                             done in V (§27; rank)\n"
"  --feedback  --feedback-threshold SEC       users' feedback (SWF; H 3600)\n"
"  --hierarchy users|accounts                 (accounts: SWF group, §21)\n"
"  --conf FILE      the engine keys of an ostrich.conf (options given win)\n"
"  --jobs-out F  --campaigns-out F  --summary-out F\n"
"  --by user|account  --groups-out F          per-group tables (account: sacct)\n"
"  --partition-info F                         sacct: m from scontrol show partition -o\n"
"  --partition NAME                           sacct: only that partition's jobs\n"
"  --shares F        sacct: fairshare with the shares of sshare -a -P\n"
"  --unlimited-estimate SEC                   sacct: e of UNLIMITED (default: p)\n"
"  --quiet                                    no summary on stdout\n"
"WORKLOAD: SWF trace, sacct dump (parsable2, header) (plain or .gz)\n"
"or closed-loop campaign file.\n";

enum {
	OPT_POLICY = 256, OPT_COMPARE, OPT_DISPATCH, OPT_PROCS, OPT_THINK,
	OPT_GROUPING, OPT_ESTIMATES, OPT_CAPACITY, OPT_GATE, OPT_INTRA,
	OPT_HALF_LIFE, OPT_JOBS, OPT_CAMPS, OPT_SUMMARY, OPT_K, OPT_QUIET,
	OPT_FS_PERIOD, OPT_VAREA, OPT_MEMORY, OPT_MEM_CREDIT, OPT_EVIDENCE,
	OPT_EV_FLOOR, OPT_RANK, OPT_RANK_CAP, OPT_FEEDBACK, OPT_FB_THRESHOLD,
	OPT_BY, OPT_GROUPS, OPT_PARTINFO, OPT_PARTITION, OPT_UNLIMITED,
	OPT_GPUS, OPT_CHARGE, OPT_CHARGE_WEIGHTS, OPT_CHARGE_MAX_TRES,
	OPT_HIERARCHY, OPT_LEAD, OPT_LEAD_KAPPA, OPT_SHARES, OPT_OVERDUE,
	OPT_AGE_WEIGHT, OPT_MAX_AGE, OPT_CONF,
};

static const struct option _longopts[] = {
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "dispatch", required_argument, NULL, OPT_DISPATCH },
	{ "procs", required_argument, NULL, OPT_PROCS },
	{ "think-time", required_argument, NULL, OPT_THINK },
	{ "grouping", required_argument, NULL, OPT_GROUPING },
	{ "estimates", required_argument, NULL, OPT_ESTIMATES },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "gate", required_argument, NULL, OPT_GATE },
	{ "intra", required_argument, NULL, OPT_INTRA },
	{ "half-life", required_argument, NULL, OPT_HALF_LIFE },
	{ "faircamp-users", required_argument, NULL, OPT_K },
	{ "jobs-out", required_argument, NULL, OPT_JOBS },
	{ "campaigns-out", required_argument, NULL, OPT_CAMPS },
	{ "summary-out", required_argument, NULL, OPT_SUMMARY },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "fairshare-period", required_argument, NULL, OPT_FS_PERIOD },
	{ "age-weight", required_argument, NULL, OPT_AGE_WEIGHT },
	{ "max-age", required_argument, NULL, OPT_MAX_AGE },
	{ "virtual-area", required_argument, NULL, OPT_VAREA },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "memory-credit", required_argument, NULL, OPT_MEM_CREDIT },
	{ "evidence", required_argument, NULL, OPT_EVIDENCE },
	{ "evidence-floor", required_argument, NULL, OPT_EV_FLOOR },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "rank-cap", required_argument, NULL, OPT_RANK_CAP },
	{ "hierarchy", required_argument, NULL, OPT_HIERARCHY },
	{ "lead", required_argument, NULL, OPT_LEAD },
	{ "lead-kappa", required_argument, NULL, OPT_LEAD_KAPPA },
	{ "overdue", required_argument, NULL, OPT_OVERDUE },
	{ "feedback", no_argument, NULL, OPT_FEEDBACK },
	{ "feedback-threshold", required_argument, NULL, OPT_FB_THRESHOLD },
	{ "by", required_argument, NULL, OPT_BY },
	{ "groups-out", required_argument, NULL, OPT_GROUPS },
	{ "partition-info", required_argument, NULL, OPT_PARTINFO },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "shares", required_argument, NULL, OPT_SHARES },
	{ "unlimited-estimate", required_argument, NULL, OPT_UNLIMITED },
	{ "gpus", required_argument, NULL, OPT_GPUS },
	{ "charge", required_argument, NULL, OPT_CHARGE },
	{ "charge-weights", required_argument, NULL, OPT_CHARGE_WEIGHTS },
	{ "charge-max-tres", no_argument, NULL, OPT_CHARGE_MAX_TRES },
	{ "conf", required_argument, NULL, OPT_CONF },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The long name of option value opt, looked up by value so that the
 * enum and the table may list the options in any order.  RET: the name,
 * or "?" for a value no entry has. */
static const char *_optname(int opt)
{
	for (const struct option *o = _longopts; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

/* Parse a number >= lo.  RET: 0 or -1. */
static int _number(const char *s, double lo, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (end == s || *end || errno || !(*out >= lo)) ? -1 : 0;
}

/* --compare POLICY,...  RET: 0 or -1. */
static int _compare_list(struct cli *c, const char *arg)
{
	char *dup = strdup(arg), *save = NULL;

	if (!dup)
		return -1;
	c->ncompare = 0;
	for (char *t = strtok_r(dup, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (c->ncompare == SIM_POLICY_COUNT ||
		    sim_policy_parse(t, &c->compare[c->ncompare])) {
			free(dup);
			return -1;
		}
		c->ncompare++;
	}
	free(dup);
	return c->ncompare ? 0 : -1;
}

/* Apply one long option.  RET: 0, or -1 for a bad value. */
static int _option(struct cli *c, int opt, const char *arg)
{
	sim_opts_t *o = &c->opts;
	double v;

	switch (opt) {
	case OPT_POLICY: return sim_policy_parse(arg, &o->policy);
	case OPT_COMPARE: return _compare_list(c, arg);
	case OPT_DISPATCH: return sim_dispatch_parse(arg, &o->dispatch);
	case OPT_PROCS:
		if (_number(arg, 1, &v) || v > UINT32_MAX || v != floor(v))
			return -1;
		o->procs = (uint32_t) v;
		return 0;
	case OPT_GPUS:
		if (_number(arg, 0, &v) || v > 1e9 || v != floor(v))
			return -1;
		c->gpus = (uint32_t) v;
		return 0;
	case OPT_CHARGE: return ost_charge_parse(arg, &o->charge.mode);
	case OPT_CHARGE_WEIGHTS: return sim_charge_weights_parse(arg, &o->charge);
	case OPT_CHARGE_MAX_TRES: o->charge.max_tres = true; return 0;
	case OPT_THINK: return _number(arg, 0, &o->core.think_time);
	case OPT_HALF_LIFE: return _number(arg, 0, &o->half_life);
	case OPT_K:
		if (_number(arg, 0, &v) || v > 1e6)
			return -1;
		o->core.faircamp_users = (uint32_t) v;
		return 0;
	case OPT_GROUPING:
		if (!strcmp(arg, "trace") || !strcmp(arg, "online")) {
			o->grouping = arg[0] == 't' ? SIM_GROUP_TRACE
						    : SIM_GROUP_ONLINE;
			return 0;
		}
		return -1;
	case OPT_ESTIMATES:
		if (!strcmp(arg, "requested") || !strcmp(arg, "exact") ||
		    !strcmp(arg, "order-exact")) {
			o->exact = arg[0] == 'e';
			o->order_exact = arg[0] == 'o';
			return 0;
		}
		return -1;
	case OPT_CAPACITY: return ost_capacity_parse(arg, &o->core.capacity);
	case OPT_GATE: return ost_gate_parse(arg, &o->core.gate);
	case OPT_INTRA: return ost_intra_parse(arg, &o->core.intra);
	case OPT_JOBS: c->jobs_out = arg; return 0;
	case OPT_CAMPS: c->camps_out = arg; return 0;
	case OPT_SUMMARY: c->summary_out = arg; return 0;
	case OPT_QUIET: c->quiet = true; return 0;
	case OPT_FS_PERIOD:
		return _number(arg, 0, &o->fs_period) ||
		       !isfinite(o->fs_period) ? -1 : 0;
	case OPT_AGE_WEIGHT:
		return _number(arg, 0, &o->age_weight) ||
		       !(o->age_weight <= 1e9) ? -1 : 0;
	case OPT_MAX_AGE:
		return _number(arg, 1, &o->max_age) ||
		       !ost_duration_ok(o->max_age) ? -1 : 0;
	case OPT_VAREA: return ost_varea_parse(arg, &o->core.varea);
	case OPT_RANK: return ost_rank_parse(arg, &o->core.rank);
	case OPT_HIERARCHY: return ost_hier_parse(arg, &o->core.hierarchy);
	case OPT_LEAD: return ost_lead_parse(arg, &o->core.lead);
	case OPT_OVERDUE: return ost_overdue_parse(arg, &o->core.overdue);
	case OPT_LEAD_KAPPA:
		return _number(arg, 0, &o->core.lead_cap) ||
		       !(o->core.lead_cap <= 1e6) ? -1 : 0;
	case OPT_RANK_CAP:
		return _number(arg, 0, &o->core.rank_cap) ||
		       !ost_duration_ok(o->core.rank_cap) ? -1 : 0;
	case OPT_MEM_CREDIT:
		return _number(arg, 0, &o->core.memory_credit) ||
		       !ost_duration_ok(o->core.memory_credit) ? -1 : 0;
	case OPT_MEMORY:
		o->core.memory_key = !strcasecmp(arg, "key");
		return o->core.memory_key ? (o->core.memory = true, 0)
					  : ost_onoff_parse(arg, &o->core.memory);
	case OPT_EVIDENCE: return ost_onoff_parse(arg, &o->core.evidence);
	case OPT_FEEDBACK: o->feedback = true; return 0;
	case OPT_FB_THRESHOLD:
		return _number(arg, 0, &o->fb_threshold) ||
		       !ost_duration_ok(o->fb_threshold) ? -1 : 0;
	case OPT_BY: return sim_by_parse(arg, &c->by);
	case OPT_GROUPS: c->groups_out = arg; return 0;
	case OPT_PARTINFO: c->partinfo = arg; return 0;
	case OPT_PARTITION: c->in.partition = arg; return 0;
	case OPT_SHARES: c->in.shares = arg; return 0;
	case OPT_UNLIMITED:
		return _number(arg, 0, &c->in.unlimited) ||
		       !ost_duration_ok(c->in.unlimited) ? -1 : 0;
	case OPT_EV_FLOOR:
		return _number(arg, 1, &o->core.evidence_floor) ||
		       !ost_duration_ok(o->core.evidence_floor) ? -1 : 0;
	case OPT_CONF: return 0;	/* read by _conf() before the others */
	}
	return -1;
}

/* --conf FILE, before every other option so that those given win wherever
 * they stand: a first getopt pass, silent (the second reports), reads the
 * last --conf.  RET 0, or -1 with the reason on stderr. */
static int _conf(struct cli *c, int argc, char **argv)
{
	const char *path = NULL;
	char err[640];
	int opt, rc, saved = opterr;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", _longopts, NULL)) != -1)
		if (opt == OPT_CONF)
			path = optarg;
	opterr = saved;
	optind = 0;		/* glibc: restart, with its initialisation */
	if (!path)
		return 0;
	if ((rc = sim_conf_read(path, &c->opts.core, err, sizeof(err))) < 0) {
		fprintf(stderr, "ostrich-sim: --conf: %s\n", err);
		return -1;
	}
	if (rc & SIM_CONF_FAIRCAMP)
		fprintf(stderr, "ostrich-sim: --conf: %s says Mode=faircamp, "
			"which --policy decides here: --policy faircamp (or "
			"faircamp in --compare) runs it\n", path);
	if (rc & SIM_CONF_ACCOUNTS)
		fprintf(stderr, "ostrich-sim: --conf: %s says "
			"Hierarchy=accounts: every account has share 1 here "
			"(AccountWeights and AccountParents are not "
			"replayed)\n", path);
	return 0;
}

int sim_cli_parse(struct cli *c, int argc, char **argv)
{
	int opt;

	memset(c, 0, sizeof(*c));
	ost_config_init(&c->opts.core);
	sim_charge_init(&c->opts.charge);
	c->gpus = SIM_GPUS_FILE;
	c->opts.half_life = 7 * 86400.0;
	c->opts.max_age = 7 * 86400.0;	/* Slurm's PriorityMaxAge */
	c->opts.fb_threshold = 3600;
	c->in.unlimited = -1;
	if (_conf(c, argc, argv))
		return -1;
	while ((opt = getopt_long(argc, argv, "h", _longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(_usage, stdout);
			exit(0);
		}
		if (opt == '?' || _option(c, opt, optarg)) {
			if (opt != '?')
				fprintf(stderr, "ostrich-sim: bad value '%s' "
					"for --%s\n", optarg,
					_optname(opt));
			fputs(_usage, stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fputs(_usage, stderr);
		return -1;
	}
	if (c->groups_out && c->by == SIM_BY_NONE)
		c->by = SIM_BY_USER;
	if (!c->ncompare) {
		c->compare[0] = c->opts.policy;
		c->ncompare = 1;
	}
	for (size_t i = 0; c->opts.age_weight > 0 && i < c->ncompare; i++)
		if (c->compare[i] == SIM_POLICY_FAIRTREE) {
			fputs("ostrich-sim: --age-weight: fairtree's factor is not modelled (use fairshare)\n",
			      stderr);
			return -1;
		}
	return 0;
}
