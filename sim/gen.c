/*****************************************************************************\
 *  gen.c - ostrich-gen: closed-loop campaign workloads for the papers'
 *  experiments (doc/workload-format.md, doc/results.md).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Both experiments draw a sequence of n jobs; a job opens a new campaign
 *  with probability P (the first job always does), else it joins the
 *  previous campaign; a new campaign gets an owner drawn from the users.
 *  Each user's campaigns are released one after the other, `think`
 *  seconds after the previous one completes in the simulation.
 *
 *  ostrich (OStrich paper section 6, thesis 5.5): m = 64, n = 10^4, P = 0.02,
 *    owner uniform over U users, the first round(U * short_frac) of them
 *    "short" (p ~ U{1..3600} s), the others "long" (p ~ U{3600..36000}).
 *    The papers give neither U nor the mix: defaults U = 10, half short.
 *  faircamp (FairCamp paper section VII, thesis 4.6): m = 10, n = 10^4,
 *    P = 0.1, p ~ U{1..100} s, owner ~ Zipf(1.4267) over k users:
 *    P(rank r) = r^-s / sum_{i<=k} i^-s.  Think time 0.
 *  All jobs are sequential (q = 1) and estimates are exact (e = p).
 *
 *  GPUs (doc/semantics.md §20), ostrich experiment only: with
 *  --gpu-frac F > 0, user u is a GPU user iff floor(u F) > floor((u-1) F)
 *  (round(U F) of them, spread evenly over the short and the long users).
 *  A GPU user's job asks for g ~ U{1..K} GPUs (--max-gpus K, default 8)
 *  and C g CPUs (--cpus-per-gpu C, default 2), runtime drawn as for the
 *  user's class, g after p; its class is "gpu-short" or "gpu-long".  The
 *  file gets a `gpus G` line (--gpus G, default 16).  With F = 0 and no
 *  --gpus the output is byte for byte that of earlier versions.
\*****************************************************************************/

#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

struct gen {
	int faircamp;        /* 0: ostrich experiment, 1: faircamp */
	uint64_t seed;
	long jobs;
	long users;
	double short_frac;   /* ostrich: share of short users */
	double p_new;        /* probability a job opens a campaign */
	double zipf;         /* faircamp: Zipf exponent */
	double think;        /* s */
	long procs;          /* m */
	double gpu_frac;     /* share of GPU users (0: none) */
	long gpus;           /* G (-1: not given) */
	long max_gpus;       /* K: a GPU job's g ~ U{1..K} */
	long cpus_per_gpu;   /* C: a GPU job's q = C g */
	const char *accounts; /* --accounts: sizes "1,10", or NULL */
	const char *out;
};

static const char _usage[] =
"usage: ostrich-gen --experiment ostrich|faircamp [options]\n"
"  --seed N          random seed (default 1)\n"
"  --jobs N          jobs per instance (default 10000)\n"
"  --users U         users (ostrich default 10; faircamp: k, default 10)\n"
"  --short-frac F    ostrich: share of short-job users (default 0.5)\n"
"  --new-campaign P  probability a job opens a campaign\n"
"                    (default 0.02 ostrich, 0.1 faircamp)\n"
"  --zipf S          faircamp: owner Zipf exponent (default 1.4267)\n"
"  --think-time SEC  think time between a user's campaigns (default 0)\n"
"  --procs M         m (default 64 ostrich, 10 faircamp)\n"
"  --gpu-frac F      ostrich: share of GPU users (default 0)\n"
"  --gpus G          GPUs of the machine (default 16 with GPU users)\n"
"  --max-gpus K      GPUs per GPU job ~ U{1..K} (default 8)\n"
"  --cpus-per-gpu C  CPUs per GPU of a GPU job (default 2)\n"
"  --accounts N,N..  put the users in accounts 1, 2, ... of these sizes\n"
"                    in user order (their sum must be --users; §21)\n"
"  -o FILE           output (default stdout)\n";

/* Parse a number in [lo, hi].  RET: 0 or -1. */
static int _num(const char *s, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (end == s || *end || errno || !(*out >= lo && *out <= hi)) ?
	       -1 : 0;
}

/* Parse a whole number in [lo, hi].  RET: 0 or -1. */
static int _whole(const char *s, double lo, double hi, long *out)
{
	double v;

	if (_num(s, lo, hi, &v) || v != floor(v))
		return -1;
	*out = (long) v;
	return 0;
}

/* The account of user u (1..users) by --accounts (sizes in user order),
 * 0 without it; -1 when the sizes are not whole numbers >= 1 adding up
 * to the number of users. */
static long _account_of(const struct gen *g, long u)
{
	const char *p = g->accounts;
	long a = 0, upto = 0;

	if (!p)
		return 0;
	while (*p) {
		char *end;
		long n = strtol(p, &end, 10);

		if (end == p || n < 1 || (*end && *end != ','))
			return -1;
		upto += n;
		a++;
		if (u <= upto)
			return upto == g->users || *end ? a : -1;
		p = *end ? end + 1 : end;
	}
	return -1;
}

/* Parse the command line into g.  RET: 0 or -1. */
static int _parse(struct gen *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "experiment", required_argument, NULL, 'e' },
		{ "seed", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'n' },
		{ "users", required_argument, NULL, 'u' },
		{ "short-frac", required_argument, NULL, 'f' },
		{ "new-campaign", required_argument, NULL, 'p' },
		{ "zipf", required_argument, NULL, 'z' },
		{ "think-time", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'm' },
		{ "gpu-frac", required_argument, NULL, 'F' },
		{ "gpus", required_argument, NULL, 'G' },
		{ "max-gpus", required_argument, NULL, 'K' },
		{ "cpus-per-gpu", required_argument, NULL, 'C' },
		{ "accounts", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double v, pnew = -1, procs = 0;
	int opt, bad = 0, exp = -1;

	*g = (struct gen) { .seed = 1, .jobs = 10000, .users = 10,
			    .short_frac = 0.5, .zipf = 1.4267, .gpus = -1,
			    .max_gpus = 8, .cpus_per_gpu = 2 };
	while ((opt = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'e':
			exp = !strcmp(optarg, "ostrich") ? 0 :
			      !strcmp(optarg, "faircamp") ? 1 : -1;
			bad |= exp < 0;
			break;
		case 's': bad |= _num(optarg, 0, 0x1p63, &v);
			  g->seed = (uint64_t) v; break;
		case 'n': bad |= _num(optarg, 1, 1e9, &v);
			  g->jobs = (long) v; break;
		case 'u': bad |= _num(optarg, 1, 1e6, &v);
			  g->users = (long) v; break;
		case 'f': bad |= _num(optarg, 0, 1, &g->short_frac); break;
		case 'p': bad |= _num(optarg, 0, 1, &pnew); break;
		case 'z': bad |= _num(optarg, 0, 100, &g->zipf); break;
		case 't': bad |= _num(optarg, 0, 1e12, &g->think); break;
		case 'm': bad |= _num(optarg, 1, 1e9, &procs); break;
		case 'F': bad |= _num(optarg, 0, 1, &g->gpu_frac); break;
		case 'G': bad |= _whole(optarg, 0, 1e9, &g->gpus); break;
		case 'K': bad |= _whole(optarg, 1, 1e6, &g->max_gpus); break;
		case 'C': bad |= _whole(optarg, 1, 1e6, &g->cpus_per_gpu);
			  break;
		case 'a': g->accounts = optarg; break;
		case 'o': g->out = optarg; break;
		case 'h': fputs(_usage, stdout); exit(0);
		default: bad = 1;
		}
	}
	if (g->accounts && _account_of(g, g->users) < 0)
		bad = 1;
	if (bad || exp < 0 || optind != argc || (exp && g->gpu_frac > 0)) {
		fputs(_usage, stderr);
		return -1;
	}
	g->faircamp = exp;
	if (g->gpu_frac > 0 && g->gpus < 0)
		g->gpus = 16;
	g->p_new = pnew >= 0 ? pnew : exp ? 0.1 : 0.02;
	g->procs = procs > 0 ? (long) procs : exp ? 10 : 64;
	return 0;
}

/* Owner of a new campaign: uniform, or Zipf by inverse CDF. */
static long _owner(const struct gen *g, sim_rng_t *r, const double *cdf)
{
	double u = sim_rng_unit(r);
	long lo = 0, hi = g->users - 1;

	if (!g->faircamp)
		return sim_rng_range(r, 1, g->users);
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + 1;
}

/* Runtime of a job of user (integer seconds). */
static long _runtime(const struct gen *g, sim_rng_t *r, long user,
		     long nshort)
{
	if (g->faircamp)
		return sim_rng_range(r, 1, 100);
	return user <= nshort ? sim_rng_range(r, 1, 3600)
			      : sim_rng_range(r, 3600, 36000);
}

/* User u is a GPU user: round(U F) of them, evenly spread. */
static bool _gpu_user(const struct gen *g, long u)
{
	return g->gpu_frac > 0 &&
	       floor((double) u * g->gpu_frac) >
	       floor((double) (u - 1) * g->gpu_frac);
}

/* The class label of user u. */
static const char *_class(const struct gen *g, long u, long nshort)
{
	if (g->faircamp)
		return "zipf";
	if (_gpu_user(g, u))
		return u <= nshort ? "gpu-short" : "gpu-long";
	return u <= nshort ? "short" : "long";
}

/* One job line of owner's campaign. */
static void _job(const struct gen *g, FILE *f, sim_rng_t *r, long owner,
		 long nshort)
{
	long p = _runtime(g, r, owner, nshort), gp;

	if (!_gpu_user(g, owner)) {
		fprintf(f, "job 1 %ld\n", p);
		return;
	}
	gp = sim_rng_range(r, 1, g->max_gpus);
	fprintf(f, "job %ld %ld gpus %ld\n", g->cpus_per_gpu * gp, p, gp);
}

/* Draw the instance and write it in the campaign workload format. */
static void _write(const struct gen *g, FILE *f, const double *cdf)
{
	long nshort = lround((double) g->users * g->short_frac), owner = 0;
	sim_rng_t r;

	sim_rng_seed(&r, g->seed);
	fprintf(f, "%%ostrich-campaigns 1\n# ostrich-gen --experiment %s "
		"--seed %llu --jobs %ld --users %ld", g->faircamp ?
		"faircamp" : "ostrich", (unsigned long long) g->seed,
		g->jobs, g->users);
	if (!g->faircamp)
		fprintf(f, " --short-frac %g", g->short_frac);
	else
		fprintf(f, " --zipf %g", g->zipf);
	fprintf(f, " --new-campaign %g --think-time %g --procs %ld",
		g->p_new, g->think, g->procs);
	if (g->gpu_frac > 0)
		fprintf(f, " --gpu-frac %g --max-gpus %ld --cpus-per-gpu %ld",
			g->gpu_frac, g->max_gpus, g->cpus_per_gpu);
	if (g->gpus >= 0)
		fprintf(f, " --gpus %ld", g->gpus);
	if (g->accounts)
		fprintf(f, " --accounts %s", g->accounts);
	fprintf(f, "\nprocs %ld\nthink %g\n", g->procs, g->think);
	if (g->gpus >= 0)
		fprintf(f, "gpus %ld\n", g->gpus);
	for (long u = 1; u <= g->users; u++) {
		fprintf(f, "user %ld class %s", u, _class(g, u, nshort));
		if (g->accounts)
			fprintf(f, " account %ld", _account_of(g, u));
		fputc('\n', f);
	}
	for (long j = 0; j < g->jobs; j++) {
		if (!j || sim_rng_unit(&r) < g->p_new) {
			owner = _owner(g, &r, cdf);
			fprintf(f, "campaign %ld\n", owner);
		}
		_job(g, f, &r, owner, nshort);
	}
}

int main(int argc, char **argv)
{
	struct gen g;
	double *cdf, sum = 0;
	FILE *f = stdout;
	int rc = 0;

	if (_parse(&g, argc, argv))
		return 2;
	if (!(cdf = malloc((size_t) g.users * sizeof(*cdf))))
		return 1;
	for (long i = 0; i < g.users; i++)
		sum += cdf[i] = pow((double) (i + 1), -g.zipf);
	for (long i = 0; i < g.users; i++)
		cdf[i] = (i ? cdf[i - 1] : 0) + cdf[i] / sum;
	if (g.out && !(f = fopen(g.out, "w"))) {
		fprintf(stderr, "ostrich-gen: %s: %s\n", g.out, strerror(errno));
		free(cdf);
		return 1;
	}
	_write(&g, f, cdf);
	if (ferror(f) || (f != stdout && fclose(f))) {
		fprintf(stderr, "ostrich-gen: write error\n");
		rc = 1;
	}
	free(cdf);
	return rc;
}
