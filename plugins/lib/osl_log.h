/*****************************************************************************\
 *  osl_log.h - the log of the Slurm-free files (osl_log.c): messages go to
 *  a sink the host sets, slurmctld's log in the plugins
 *  (slurm/osl_slurmlog.c), a counter in the tests (tests/plugin/stub_log.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_LOG_H
#define _OSL_LOG_H

#include <stdarg.h>
#include <stdbool.h>

/* Where a message goes: debug false for an error.  fmt and ap are
 * printf's; the sink formats them only if it keeps the message. */
typedef void (*osl_log_sink_f)(bool debug, const char *fmt, va_list ap);

/* Send the messages to sink from now on (NULL: the default, errors on
 * stderr and no debug).  Safe against concurrent osl_error() calls. */
extern void osl_log_set(osl_log_sink_f sink);

/* An error, and a debug message, through the sink. */
extern void osl_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
extern void osl_debug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* _OSL_LOG_H */
