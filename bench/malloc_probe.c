/*****************************************************************************\
 *  malloc_probe.c - malloc_trim(0) and malloc_info(3) inside a running
 *  slurmctld, on request, for bench/plugin-overhead.sh
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The bench wants slurmctld's resident memory without what glibc keeps
 *  freed in its arenas, and the live heap itself, in every configuration
 *  alike.  Calling malloc_trim through gdb needs ptrace with the inferior's
 *  extended register state, which some kernels and sandboxes refuse (gdb:
 *  "Couldn't write extended state status"), leaving the traced process with
 *  a broken system call.  So the bench preloads this library instead
 *  (LD_PRELOAD, OST_MALLOC_PROBE=DIR): a thread polls DIR/request every
 *  50 ms; the request holds a process id and a path; in that process only,
 *  the thread calls malloc_trim(0), which hands back the free pages of
 *  every arena (and the top of the main one only: glibc 2.36 keeps a
 *  thread arena's free top), writes malloc_info(0) to that path and
 *  renames the request to DIR/done.  The thread is started again in the
 *  child of a fork, since slurmctld daemonizes after the library is
 *  loaded.  Nothing happens without OST_MALLOC_PROBE.  Not part of the
 *  product: it is built by the bench, for the bench.
\*****************************************************************************/

#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char probe_dir[512];

/* Serve requests until the process ends.  Errors only skip a request:
 * the bench then times out and reports the reading as missing. */
static void *probe_loop(void *arg)
{
	char req[600], done[600], out[512];
	const struct timespec nap = { 0, 50 * 1000 * 1000 };
	long pid;
	int n;

	(void) arg;
	snprintf(req, sizeof(req), "%s/request", probe_dir);
	snprintf(done, sizeof(done), "%s/done", probe_dir);
	for (;;) {
		FILE *f = fopen(req, "r");

		if (!f) {
			nanosleep(&nap, NULL);
			continue;
		}
		n = fscanf(f, "%ld %511s", &pid, out);
		fclose(f);
		if (n != 2 || pid != (long) getpid()) {
			/* another process's (a fork not yet exec'ed) */
			nanosleep(&nap, NULL);
			continue;
		}
		malloc_trim(0);
		if ((f = fopen(out, "w"))) {
			malloc_info(0, f);
			fclose(f);
		}
		rename(req, done);
	}
	return NULL;
}

static void probe_start(void)
{
	pthread_t t;
	pthread_attr_t a;

	if (!probe_dir[0] || pthread_attr_init(&a))
		return;
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &a, probe_loop, NULL);
	pthread_attr_destroy(&a);
}

__attribute__((constructor)) static void probe_init(void)
{
	const char *d = getenv("OST_MALLOC_PROBE");

	if (!d || !*d || strlen(d) >= sizeof(probe_dir))
		return;
	strcpy(probe_dir, d);
	/* only the process that loaded us and its children by fork read it:
	 * what they exec does not inherit the probe */
	unsetenv("LD_PRELOAD");
	pthread_atfork(NULL, NULL, probe_start);
	probe_start();
}
