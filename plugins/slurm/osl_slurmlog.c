/*****************************************************************************\
 *  osl_slurmlog.c - slurmctld's log as the sink of the Slurm-free files'
 *  messages (lib/osl_log.h); osl_init() sets it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "src/common/log.h"

#include "osl_slurm.h"

extern void osl_slurm_log(bool debug, const char *fmt, va_list ap)
{
	char buf[1024];

	/* formatting costs more than the check: skip it when debug is off */
	if (debug && get_log_level() < LOG_LEVEL_DEBUG)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (debug)
		debug("%s", buf);
	else
		error("%s", buf);
}
