/*****************************************************************************\
 *  stub_log.c - the log of the Slurm-free files for the tests: slurmctld's
 *  log is replaced by a count and the last message (a sink, osl_log.h, set
 *  before main).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "osl_log.h"

int stub_nerrors = 0;
char stub_last_error[512] = "";

static void _stub_sink(bool debug, const char *fmt, va_list ap)
{
	if (debug)
		return;
	vsnprintf(stub_last_error, sizeof(stub_last_error), fmt, ap);
	stub_nerrors++;
}

/* Before main: a test may log from its first fixture (and in the child
 * Check forks, which inherits it). */
__attribute__((constructor)) static void _stub_log_init(void)
{
	osl_log_set(_stub_sink);
}
