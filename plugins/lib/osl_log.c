/*****************************************************************************\
 *  osl_log.c - the log of the Slurm-free files: one sink, set by the host,
 *  so that this half names nothing the Slurm half defines.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "osl_log.h"

/* Before a host sets one (ost-replay, bench, a fuzzer): errors on stderr. */
static void _default_sink(bool debug, const char *fmt, va_list ap)
{
	if (debug)
		return;
	fputs("ostrich: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Atomic: slurmctld threads may log while the plugin's init sets it. */
static _Atomic osl_log_sink_f _sink = _default_sink;

extern void osl_log_set(osl_log_sink_f sink)
{
	atomic_store(&_sink, sink ? sink : _default_sink);
}

extern void osl_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	atomic_load(&_sink)(false, fmt, ap);
	va_end(ap);
}

extern void osl_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	atomic_load(&_sink)(true, fmt, ap);
	va_end(ap);
}
