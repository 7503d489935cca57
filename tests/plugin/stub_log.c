/*****************************************************************************\
 *  stub_log.c - osl_error() and osl_debug() for the tests: slurmctld's log
 *  is replaced by a count and the last message.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdio.h>

#include "osl.h"

int stub_nerrors = 0;
char stub_last_error[512] = "";

extern void osl_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(stub_last_error, sizeof(stub_last_error), fmt, ap);
	va_end(ap);
	stub_nerrors++;
}

extern void osl_debug(const char *fmt, ...)
{
	(void) fmt;
}
