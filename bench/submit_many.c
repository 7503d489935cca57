/*
 * submit_many.c - bench/site-factor-cost.sh's submitter: N batch jobs of
 * one CPU from the calling user, through libslurm in one process (an
 * sbatch process per job fills 10000 jobs at about 11 a second on the
 * 2-core test machine; this, hundreds).
 *
 *     submit_many N WORKDIR SEED
 *
 * Job k: 1 CPU, a 5-minute limit, `sleep (20 + (SEED * 7 + k * 13) % 61)`
 * as plugin-overhead.sh's.  Exits 1 at the first refusal, saying why.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

int main(int argc, char **argv)
{
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	long n, seed, k;

	if (argc != 4) {
		fprintf(stderr, "usage: submit_many N WORKDIR SEED\n");
		return 2;
	}
	n = atol(argv[1]);
	seed = atol(argv[3]);
	slurm_init(NULL);
	for (k = 1; k <= n; k++) {
		job_desc_msg_t d;
		submit_response_msg_t *resp = NULL;
		char script[96], name[32];

		slurm_init_job_desc_msg(&d);
		snprintf(script, sizeof(script), "#!/bin/sh\nsleep %ld\n",
			 20 + (seed * 7 + k * 13) % 61);
		snprintf(name, sizeof(name), "b%ld", seed);
		d.script = script;
		d.name = name;
		d.min_cpus = 1;
		d.num_tasks = 1;
		d.time_limit = 5;
		d.user_id = getuid();
		d.group_id = getgid();
		d.work_dir = argv[2];
		d.std_out = "/dev/null";
		d.std_err = "/dev/null";
		d.environment = env;
		d.env_size = 1;
		if (slurm_submit_batch_job(&d, &resp)) {
			fprintf(stderr, "submit_many: job %ld of %ld: %s\n", k,
				n, slurm_strerror(errno));
			return 1;
		}
		slurm_free_submit_response_response_msg(resp);
	}
	slurm_fini();
	return 0;
}
