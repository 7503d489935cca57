/*****************************************************************************\
 *  osl_conf_values.h - the value parsers of ostrich.conf (see
 *  ostrich.conf(5)): numbers, durations, enumerations and weight lists.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm's parser splits the file into Key=Value pairs (ostrich_conf.c);
 *  these functions judge the values.  They use the C library only (part of
 *  libosl.la), so tests/plugin/check_conf_values.c and the fuzzer
 *  (fuzz/fuzz_conf.c) run them without Slurm.
 *  Every number is parsed strictly: the whole value, no sign where none is
 *  allowed, finite, in its documented range.
\*****************************************************************************/

#ifndef _OSL_CONF_VALUES_H
#define _OSL_CONF_VALUES_H

#include <stddef.h>

#include "ostrich_conf.h"

/* Ranges of the keys with a numeric value (ostrich.conf(5)). */
#define OSL_CONF_INTERVAL_MIN 1u
#define OSL_CONF_INTERVAL_MAX 3600u

/* conf = the defaults an empty ostrich.conf gives (the core's,
 * ost_config_init, for every scheduling key; Interval=30,
 * DefaultEstimate=86400, Backfill and SystemComment on; no weight lists,
 * no EventLog).  The one place they are set. */
extern void osl_conf_defaults(osl_conf_t *conf);

/*
 * Set the scalar key of conf from its text value val (Mode, ThinkTime,
 * Interval, Capacity, IntraOrder, DefaultEstimate, FairCampUsers,
 * DefaultWeight, Weights; key compared case-insensitively).
 * RET 0, or -1 with conf untouched and a message "Key=value: why" in
 *	err[0..errlen) (truncated to fit).  An unknown key is an error.
 */
extern int osl_conf_set_value(osl_conf_t *conf, const char *key, const char *val,
			   char *err, size_t errlen);

/*
 * A weight: a decimal or hexadecimal floating-point number, the whole of
 * s, in [OST_WEIGHT_MIN, OST_WEIGHT_MAX].
 * RET 0 and *w, or -1 (*w untouched).
 */
extern int osl_conf_parse_weight(const char *s, double *w);

/* Called for each name:weight of a list; RET 0, or -1 after writing why
 * into err[0..errlen). */
typedef int (*osl_conf_pair_f)(const char *name, double weight, void *arg,
			    char *err, size_t errlen);

/*
 * Parse the list "name:w[,name:w...]" of key (UserWeights, AccountWeights):
 * non-empty names without ':' or ',', weights as osl_conf_parse_weight, no
 * empty item.  fn is called for each pair in order, and the parse stops at
 * its first error.
 * RET 0, or -1 with a message in err[0..errlen).
 */
extern int osl_conf_parse_weight_list(const char *key, const char *list,
				   osl_conf_pair_f fn, void *arg, char *err,
				   size_t errlen);

/* The core configuration conf asks for, for a partition of procs CPUs
 * (0 counts as 1): every scheduling key of ostrich.conf, the soft gate, the
 * rest ost_config_init's defaults.  The one place the keys are mapped. */
extern void osl_conf_core(const osl_conf_t *conf, uint32_t procs,
			  ost_config_t *cfg);

#endif /* _OSL_CONF_VALUES_H */
