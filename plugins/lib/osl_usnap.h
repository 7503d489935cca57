/*****************************************************************************\
 *  osl_usnap.h - the usage snapshot (osl_usnap.c): the file ostrich_usage
 *  the engine writes in StateSaveLocation after its passes, and scampaign
 *  --usage / --metrics read (doc/state-format.md, "The usage snapshot").
 *  Standalone (no other osl_ header, no Slurm): scampaign and the fuzzer
 *  compile it.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_USNAP_H
#define _OSL_USNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OSL_USNAP_FORMAT 2		/* the newest version: 2 adds the
					 * accounts (acct, leaf); a snapshot
					 * without them is written as 1 */
#define OSL_USNAP_FILE "ostrich_usage"	/* its name in StateSaveLocation */
#define OSL_USNAP_NAME_MAX 64		/* names, NUL included */
#define OSL_USNAP_NB_MAX 32		/* histogram buckets */

#define OSL_USNAP_UNKNOWN 2		/* a user's active= in a file that
					 * has none (an older writer's) */

/* One user of a partition: charged, or active in its schedule. */
typedef struct {
	char name[OSL_USNAP_NAME_MAX];	/* user name (the uid if unknown) */
	uint32_t uid;
	double charged;			/* width x seconds since `since` */
	double share;			/* fraction of the capacity in V now:
					 * 0 outside V (an older writer: what
					 * it would get by submitting) */
	uint32_t active;		/* pending or running jobs, or in V:
					 * 0, 1, or OSL_USNAP_UNKNOWN */
} osl_usnap_user_t;

/* One account of a partition's nested schedule (§21). */
typedef struct {
	char name[OSL_USNAP_NAME_MAX];	/* account */
	char parent[OSL_USNAP_NAME_MAX];/* its parent, "root" at the top */
	double share;			/* w_n as configured */
	double norm;			/* its part of its parent's, now */
	double frac;			/* its part of the partition, now (or
					 * idle: as it would be) */
	uint32_t active;		/* 0 or 1 */
} osl_usnap_acct_t;

/* One leaf: a user in an account (its own, or one of -A). */
typedef struct {
	char user[OSL_USNAP_NAME_MAX];	/* user name (the uid if unknown) */
	char account[OSL_USNAP_NAME_MAX];/* "root": in no account */
	uint32_t uid;
	double weight;			/* w_u */
	double frac;			/* its part of the partition, now */
	uint32_t active;		/* 0 or 1 */
} osl_usnap_leaf_t;

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
	osl_usnap_acct_t *accts;	/* malloc; Hierarchy=accounts only */
	int naccts, cap_accts;
	osl_usnap_leaf_t *leaves;	/* malloc; Hierarchy=accounts only */
	int nleaves, cap_leaves;
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

/* A new account or leaf at the end of p (zeroed), NULL: out of memory. */
extern osl_usnap_acct_t *osl_usnap_acct_add(osl_usnap_part_t *p);
extern osl_usnap_leaf_t *osl_usnap_leaf_add(osl_usnap_part_t *p);

/* s as text (malloc, *len bytes), NULL: out of memory.  Format 1 unless
 * a partition has accounts or leaves. */
extern char *osl_usnap_format(const osl_usnap_t *s, size_t *len);

/*
 * Parse buf[0..len), format 1 or 2, into s (zeroed, or freed).  Keys a
 * reader does not know are skipped (later versions may add some); records
 * it does not know are refused (acct and leaf in format 1).
 * OUT err - "line N: why" (size bytes) when RET != 0
 * RET 0, or -1
 */
extern int osl_usnap_parse(osl_usnap_t *s, const char *buf, size_t len,
			   char *err, size_t size);

/* Release what p holds (not p). */
extern void osl_usnap_part_free(osl_usnap_part_t *p);

/* Release what s holds; s is then empty. */
extern void osl_usnap_free(osl_usnap_t *s);

#endif /* _OSL_USNAP_H */
