/*****************************************************************************\
 *  osl_usnap.h - the usage snapshot (osl_usnap.c): the file ostrich_usage
 *  the engine writes in StateSaveLocation after its passes, and scampaign
 *  --usage / --metrics read (doc/state-format.md, "The usage snapshot").
 *  Standalone (no osl.h, no Slurm): scampaign and the fuzzer compile it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_USNAP_H
#define _OSL_USNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OSL_USNAP_FORMAT 1		/* the version written */
#define OSL_USNAP_FILE "ostrich_usage"	/* its name in StateSaveLocation */
#define OSL_USNAP_NAME_MAX 64		/* names, NUL included */
#define OSL_USNAP_NB_MAX 32		/* histogram buckets */

/* One user of a partition. */
typedef struct {
	char name[OSL_USNAP_NAME_MAX];	/* user name (the uid if unknown) */
	uint32_t uid;
	double charged;			/* width x seconds since `since` */
	double share;			/* fraction of the capacity now */
} osl_usnap_user_t;

/* One partition. */
typedef struct {
	char name[OSL_USNAP_NAME_MAX];	/* partition */
	char unit[OSL_USNAP_NAME_MAX];	/* the width's unit (cpu, billing) */
	double capacity;		/* in unit */
	uint64_t active_users;		/* users active in the virtual
					 * schedule (§3.1) */
	uint64_t campaigns;		/* campaigns tracked */
	uint64_t pending;		/* pending jobs */
	double since;			/* when its ledger began (s, epoch) */
	double pass_s;			/* the engine's last pass, seconds */
	double hold_s, hold_max_s;	/* slurmctld locks held by the last
					 * pass, and the longest since start */
	int nb;				/* buckets of the stretch histogram */
	double le[OSL_USNAP_NB_MAX];	/* upper bounds, increasing (the last
					 * may be INFINITY) */
	uint64_t count[OSL_USNAP_NB_MAX];/* campaigns in each (not
					 * cumulative) */
	double sum;			/* of the stretches */
	uint64_t total;			/* campaigns counted */
	osl_usnap_user_t *users;	/* malloc */
	int nusers, cap_users;
} osl_usnap_part_t;

/* The whole file.  Zero-initialize; osl_usnap_free() after use. */
typedef struct {
	double time;			/* when written (s, epoch) */
	osl_usnap_part_t *parts;	/* malloc */
	int nparts, cap_parts;
} osl_usnap_t;

/* Is s usable as a name in the file (and a Prometheus label value as
 * is): 1..63 printable ASCII bytes, no space, '=', '"' or '\\'. */
extern bool osl_usnap_name_ok(const char *s);

/* A new partition at the end of s (zeroed), NULL: out of memory. */
extern osl_usnap_part_t *osl_usnap_part_add(osl_usnap_t *s);

/* A new user at the end of p (zeroed), NULL: out of memory. */
extern osl_usnap_user_t *osl_usnap_user_add(osl_usnap_part_t *p);

/* s as text (malloc, *len bytes), NULL: out of memory. */
extern char *osl_usnap_format(const osl_usnap_t *s, size_t *len);

/*
 * Parse buf[0..len) into s (zeroed, or freed).  Keys a reader does not
 * know are skipped (later versions may add some); records it does not
 * know are refused.
 * OUT err - "line N: why" (size bytes) when RET != 0
 * RET 0, or -1
 */
extern int osl_usnap_parse(osl_usnap_t *s, const char *buf, size_t len,
			   char *err, size_t size);

/* Release what s holds; s is then empty. */
extern void osl_usnap_free(osl_usnap_t *s);

#endif /* _OSL_USNAP_H */
