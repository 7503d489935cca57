/*****************************************************************************\
 *  scampaign.c - show OStrich campaigns and explain why a job waits
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  It talks to Slurm through libslurm's public API only (<slurm/slurm.h>,
 *  never slurmctld's headers; release differences in sc_compat.h): it
 *  reads the jobs with slurm_load_jobs(), as squeue does, so it sees
 *  exactly what Slurm's permissions (PrivateData=jobs) let the caller see,
 *  and rebuilds the campaigns from the summaries the OStrich engine keeps
 *  in SystemComment.  What it links besides libslurm: the core's
 *  convenience library (src/, libostrich-core: the summaries' parser and
 *  the engine's names, ost_summary_parse and ost_mode_name, and the
 *  growth policy, ost_grow) and, compiled in, plugins/lib/osl_usnap.c
 *  and osl_text.c (the format of the engine's usage snapshot, which
 *  --usage, --metrics and --tree read from StateSaveLocation as a file,
 *  not through Slurm), and for --check-config (checkconf*.c) the plugins'
 *  own judges of ostrich.conf and slurm.conf (osl_conf.c, osl_conf_file.c,
 *  osl_combo.c, osl_site.c).  All are Slurm-free.
\*****************************************************************************/

#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaigns.h"
#include "checkconf_ctl.h"
#include "osl_report.h"
#include "print.h"
#include "report_cmd.h"
#include "sc_compat.h"
#include "sc_list.h"
#include "usage.h"
#include "usage_cmd.h"

typedef struct {
	char *users;		/* --user list, comma separated */
	char *partitions;	/* --partition list */
	char *format;		/* -o */
	bool json, noheader;
	uint32_t explain;	/* --explain JOBID, 0 = none */
	bool usage, metrics;	/* --usage, --metrics */
	bool tree;		/* --tree */
	bool per_user;		/* --per-user (with --metrics) */
	char *state_file;	/* --state-file, NULL: StateSaveLocation's */
	char *check_config;	/* --check-config FILE (checkconf_ctl.h) */
	char *slurm_conf;	/* --slurm-conf FILE, with it */
	bool report;		/* --report (report_cmd.c) */
	bool campaigns;		/* --campaigns (with --report) */
	char *window;		/* --window (with --report) */
	char *report_file;	/* --report-file, NULL: StateSaveLocation's */
} _opts_t;

static void _usage(FILE *fp)
{
	fprintf(fp,
"Usage: scampaign [OPTIONS]\n"
"       scampaign --explain JOBID\n"
"Show the OStrich campaigns of a Slurm cluster running sched/ostrich,\n"
"priority/ostrich or site_factor/ostrich.\n\n"
"  -u, --user=LIST        only campaigns of these users (names or uids)\n"
"  -p, --partition=LIST   only these partitions\n"
"  -o, --format=FORMAT    columns, like squeue: %%P partition, %%u user,\n"
"                         %%c campaign, %%p pending, %%r running, %%d done,\n"
"                         %%R rank of its first pending job, %%v virtual\n"
"                         completion time, %%s share, %%m mode, %%N pending\n"
"                         jobs of the partition; %%-10u pads to 10\n"
"                         (default \"%s\")\n"
"  -h, --noheader         no header line\n"
"      --json             JSON output\n"
"  -e, --explain=JOBID    say in plain words why job JOBID waits\n"
"      --usage            work charged per partition and user (with --json:\n"
"                         JSON), from the engine's usage snapshot\n"
"      --metrics          the same and the engine's health, in Prometheus\n"
"                         text format (node_exporter's textfile collector)\n"
"      --per-user         with --metrics under PrivateData: keep the per-user\n"
"                         series (only where their readers may see them)\n"
"      --tree             the shares of accounts and users in each\n"
"                         partition now (Hierarchy=accounts), like sshare\n"
"      --state-file=FILE  the usage snapshot to read (default\n"
"                         StateSaveLocation/" OSL_USNAP_FILE ")\n"
"      --check-config=FILE  judge ostrich.conf FILE (- : the one beside\n"
"                         slurm.conf) as the plugins would, against the\n"
"                         running slurmctld's configuration, before a\n"
"                         reconfigure; exit 0 if accepted, 1 if refused\n"
"      --slurm-conf=FILE  with --check-config: that slurm.conf instead\n"
"      --report           per partition, user and account: the stretch the\n"
"                         site's scheduler gave the finished campaigns, and\n"
"                         the one ostrich's virtual schedule implies (with\n"
"                         --json: JSON, every campaign)\n"
"      --window=DURATION  with --report: campaigns that ended in the last\n"
"                         DURATION (N, Ns, Nm, Nh, Nd, Nw)\n"
"      --campaigns        with --report: one row per campaign too\n"
"      --report-file=FILE the campaign report to read (default\n"
"                         StateSaveLocation/" OSL_REPORT_FILE ")\n"
"      --help             this help\n"
"  -V, --version          version\n", SC_DEFAULT_FORMAT);
}

static void _die(const char *fmt, const char *arg)
{
	fprintf(stderr, "scampaign: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void _parse(int argc, char **argv, _opts_t *o)
{
	static const struct option lo[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "partition", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'o' },
		{ "noheader", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "explain", required_argument, NULL, 'e' },
		{ "usage", no_argument, NULL, 'G' },
		{ "metrics", no_argument, NULL, 'M' },
		{ "tree", no_argument, NULL, 'T' },
		{ "per-user", no_argument, NULL, 'P' },
		{ "state-file", required_argument, NULL, 'S' },
		{ "check-config", required_argument, NULL, 'C' },
		{ "slurm-conf", required_argument, NULL, 'F' },
		{ "report", no_argument, NULL, 'R' },
		{ "window", required_argument, NULL, 'W' },
		{ "campaigns", no_argument, NULL, 'K' },
		{ "report-file", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *why;
	char *end;
	int c;

	o->format = SC_DEFAULT_FORMAT;
	while ((c = getopt_long(argc, argv, "u:p:o:he:V", lo, NULL)) != -1) {
		switch (c) {
		case 'u': o->users = optarg; break;
		case 'p': o->partitions = optarg; break;
		case 'o': o->format = optarg; break;
		case 'h': o->noheader = true; break;
		case 'j': o->json = true; break;
		case 'e':
			o->explain = (uint32_t)strtoul(optarg, &end, 10);
			if (end == optarg || *end || !o->explain)
				_die("invalid job id '%s'", optarg);
			break;
		case 'G': o->usage = true; break;
		case 'M': o->metrics = true; break;
		case 'T': o->tree = true; break;
		case 'P': o->per_user = true; break;
		case 'S': o->state_file = optarg; break;
		case 'C': o->check_config = optarg; break;
		case 'F': o->slurm_conf = optarg; break;
		case 'R': o->report = true; break;
		case 'W': o->window = optarg; break;
		case 'K': o->campaigns = true; break;
		case 'Q': o->report_file = optarg; break;
		case 'H': _usage(stdout); exit(0);
		case 'V': printf("scampaign (ostrich) %s\n", PACKAGE_VERSION);
			  exit(0);
		default: _usage(stderr); exit(1);
		}
	}
	if (optind < argc)
		_die("unexpected argument '%s'", argv[optind]);
	if (o->slurm_conf && !o->check_config)
		_die("%s", "--slurm-conf goes with --check-config");
	if (o->check_config && (o->usage || o->metrics || o->tree ||
				o->explain || o->report))
		_die("%s", "--check-config goes with none of --explain, --usage, --metrics, --tree, --report");
	if ((o->usage || o->metrics || o->tree) && o->explain)
		_die("%s", "--explain goes with none of --usage, --metrics, --tree");
	if (o->usage + o->metrics + o->tree + o->report > 1)
		_die("%s", "--usage, --metrics, --tree and --report: one at a time");
	if (o->report && o->explain)
		_die("%s", "--explain does not go with --report");
	if ((o->window || o->campaigns || o->report_file) && !o->report)
		_die("%s", "--window, --campaigns and --report-file go with --report");
	if (o->per_user && !o->metrics)
		_die("%s", "--per-user goes with --metrics");
	if (o->tree && o->json)
		_die("%s", "--tree has no --json (--usage --json has the numbers)");
	if (sc_format_check(o->format, &why))
		_die("bad --format: %s", why);
}

/* The caller's view of job j; false if the filters drop it. */
static bool _convert(const slurm_job_info_t *j, const _opts_t *o,
		     sc_job_t *out)
{
	uint32_t base = j->job_state & JOB_STATE_BASE;
	size_t pl;

	memset(out, 0, sizeof(*out));
	out->job_id = j->job_id;
	out->uid = j->user_id;
	if (j->account)
		snprintf(out->account, sizeof(out->account), "%s",
			 j->account);
	pl = j->partition ? strcspn(j->partition, ",") : 0;
	if (pl >= sizeof(out->partition))
		pl = sizeof(out->partition) - 1;
	if (pl)
		memcpy(out->partition, j->partition, pl);
	out->state = base == JOB_PENDING ? SC_PENDING :
		     (base == JOB_RUNNING || base == JOB_SUSPENDED) ? SC_RUNNING
								   : SC_DONE;
	out->priority = j->priority;
	out->site = (int64_t)j->site_factor - (int64_t)NICE_OFFSET;
	(void) sc_summary_read(j->system_comment, out);
	if (o->partitions && !sc_in_list(o->partitions, out->partition, ~0u))
		return false;
	if (o->users) {
		const char *name = out->has_summary ? out->sum.user : "";
		struct passwd *pw = out->has_summary ? NULL
						      : getpwuid(j->user_id);

		if (pw)
			name = pw->pw_name;
		if (!sc_in_list(o->users, name, j->user_id))
			return false;
	}
	return true;
}

/* Fail clearly on a cluster without the OStrich engine: it runs with
 * SchedulerType=sched/ostrich or PriorityType=priority/ostrich (the
 * latter also under sched/backfill), or as
 * PrioritySiteFactorPlugin=site_factor/ostrich under priority/multifactor,
 * the only priority plugin that loads a site factor plugin.  slurmctld
 * does not send PrioritySiteFactorPlugin to clients (22.05 to 26.05:
 * NULL here), so under multifactor the engine is taken to be there, and
 * the jobs' summaries say it.  *site: multifactor with site_factor/ostrich
 * or an unsaid site factor plugin. */
static void _check_cluster(bool *site)
{
	slurm_conf_t *conf = NULL;
	bool sched, prio, multi;

	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS)
		_die("cannot reach slurmctld: %s",
		     slurm_strerror(errno));
	sched = conf->schedtype && !strcmp(conf->schedtype, "sched/ostrich");
	prio = conf->priority_type &&
	       !strcmp(conf->priority_type, "priority/ostrich");
	multi = conf->priority_type &&
		!strcmp(conf->priority_type, "priority/multifactor");
	*site = multi && (!conf->site_factor_plugin ||
			  !strcmp(conf->site_factor_plugin,
				  "site_factor/ostrich"));
	if (!sched && !prio && !*site) {
		fprintf(stderr, "scampaign: error: this cluster does not run "
			"OStrich (SchedulerType=%s, PriorityType=%s, "
			"PrioritySiteFactorPlugin=%s; it needs sched/ostrich, "
			"priority/ostrich, or priority/multifactor with "
			"site_factor/ostrich)\n",
			conf->schedtype ? conf->schedtype : "?",
			conf->priority_type ? conf->priority_type : "?",
			conf->site_factor_plugin ? conf->site_factor_plugin :
			"?");
		sc_free_conf(conf);
		exit(1);
	}
	sc_free_conf(conf);
}

int main(int argc, char **argv)
{
	_opts_t o = { 0 };
	job_info_msg_t *msg = NULL;
	sc_job_t *jobs, *target = NULL;
	sc_campaign_t *cs;
	size_t n = 0, nc, i;
	double now = (double)time(NULL);
	int rc = 0;
	bool site = false;

	_parse(argc, argv, &o);
	if (o.check_config)	/* before slurm_init: maybe no cluster here */
		return sc_checkconf_cmd(o.check_config, o.slurm_conf);
	slurm_init(NULL);
	if (o.report) {
		sc_report_opts_t ro = { .report_file = o.report_file,
					.partitions = o.partitions,
					.users = o.users, .window = o.window,
					.json = o.json, .noheader = o.noheader,
					.campaigns = o.campaigns };

		rc = sc_report_cmd(&ro);
		slurm_fini();
		return rc;
	}
	if (o.usage || o.metrics || o.tree) {
		sc_usage_opts_t uo = { .state_file = o.state_file,
				       .partitions = o.partitions,
				       .users = o.users, .json = o.json,
				       .metrics = o.metrics, .tree = o.tree,
				       .per_user = o.per_user,
				       .noheader = o.noheader };

		rc = sc_usage_cmd(&uo);
		slurm_fini();
		return rc;
	}
	_check_cluster(&site);
	if (slurm_load_jobs((time_t)0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		_die("slurm_load_jobs: %s", slurm_strerror(errno));
	jobs = calloc(msg->record_count + 1, sizeof(*jobs));
	if (!jobs)
		_die("%s", "out of memory");
	for (i = 0; i < msg->record_count; i++) {
		_opts_t all = { .format = o.format };

		if (_convert(&msg->job_array[i], o.explain ? &all : &o,
			     &jobs[n])) {
			if (o.explain && jobs[n].job_id == o.explain)
				target = &jobs[n];
			n++;
		}
	}
	if (o.explain) {
		if (!target) {
			fprintf(stderr, "scampaign: error: job %u not found "
				"(unknown, purged, or not visible to you)\n",
				o.explain);
			rc = 1;
		} else if (sc_explain(jobs, n, target, now, stdout)) {
			rc = 1;
		} else {
			/* Hierarchy=accounts: its account's share, when the
			 * usage snapshot is there to say it */
			if (target->account[0])
				(void) sc_usage_explain_account(o.state_file,
					target->partition, target->account,
					target->uid, target->has_summary ?
					target->sum.user : "you", stdout);
			/* site_factor/ostrich: the site factor against
			 * multifactor's other factors */
			if (site)
				sc_explain_site(target, stdout);
		}
	} else if (sc_group(jobs, n, &cs, &nc)) {
		_die("%s", "out of memory");
	} else {
		if (o.json)
			sc_print_json(stdout, cs, nc);
		else
			sc_print_table(stdout, o.format, o.noheader, cs, nc,
				       now);
		/* the rows are the last pass's; a job submitted since has a
		 * line of its own moment, counted apart (§23 "Inspection") */
		if (!o.json && !o.noheader &&
		    (i = sc_unranked(jobs, n, NULL)))
			printf("%zu job%s submitted since the last pass, not "
			       "yet ranked in this view (the next pass, within "
			       "Interval, places %s).\n", i, i == 1 ? "" : "s",
			       i == 1 ? "it" : "them");
		free(cs);
	}
	free(jobs);
	slurm_free_job_info_msg(msg);
	slurm_fini();
	return rc;
}
