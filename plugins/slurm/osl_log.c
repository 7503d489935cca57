/*****************************************************************************\
 *  osl_log.c - slurmctld's log for the Slurm-free files of the adapter.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "src/common/log.h"

#include "osl_slurm.h"

extern void osl_error(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error("%s", buf);
}

extern void osl_debug(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (get_log_level() < LOG_LEVEL_DEBUG)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	debug("%s", buf);
}
