/*****************************************************************************\
 *  osl_conf.h - ostrich.conf (see ostrich.conf(5)): the configuration in
 *  force, its one table of keys, and the judges of their values.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Slurm's parser splits the file into Key=Value pairs (slurm/ostrich_conf.c,
 *  from osl_conf_keys); everything else is here and uses the C library only,
 *  so that tests/plugin/check_conf.c and the fuzzer (fuzz/fuzz_conf.c)
 *  run it without Slurm.  Every number is parsed strictly: the whole value,
 *  no sign where none is allowed, finite, in its documented range.
\*****************************************************************************/

#ifndef _OSL_CONF_H
#define _OSL_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ostrich.h"
#include "ost_charge.h"		/* Charge= (doc/semantics.md §19) */

/* OST_WEIGHT_MIN and OST_WEIGHT_MAX as people write them. */
#define OSL_CONF_WEIGHT_RANGE "[1e-6, 1e6]"

/* Range of Interval (seconds). */
#define OSL_CONF_INTERVAL_MIN 1u
#define OSL_CONF_INTERVAL_MAX 3600u

typedef struct {
	uid_t uid;			/* user the weight applies to */
	double weight;			/* w_u > 0 */
} osl_user_weight_t;

typedef struct {
	char *account;			/* account name (xmalloc'ed) */
	double weight;			/* Hierarchy=users: w_u of its users'
					 * jobs; accounts: its share (§23) */
} osl_acct_weight_t;

/* One item of AccountParents= (§23): account under parent ("root": the
 * root). */
typedef struct {
	char *account;			/* xmalloc'ed */
	char *parent;			/* xmalloc'ed */
} osl_acct_parent_t;

/* One item of UserAccounts= (§23): an account uid's jobs may count in;
 * its first is the one they count in when they name none (or one not
 * given to it). */
typedef struct {
	uid_t uid;
	char *account;			/* xmalloc'ed */
} osl_user_acct_t;

/* Deepest account tree AccountParents= may make (levels under the root). */
#define OSL_ACCT_DEPTH_MAX 32

/* Most items of ChargeWeights=, and the longest value. */
#define OSL_CHARGE_WEIGHTS_MAX 16
#define OSL_CHARGE_WEIGHTS_LEN 256

/* One item of ChargeWeights= (TRESBillingWeights syntax): the weight of
 * one unit of a TRES, e.g. GRES/gpu=8 or Mem=0.25G (per MB: 0.25/1024). */
typedef struct {
	char type[16];			/* cpu, mem, node, gres, license, ...
					 * (lower case) */
	char name[48];			/* gres/license/... name, "" for cpu,
					 * mem, node, ... (as written) */
	double weight;			/* per base unit (MB for mem and bb) */
} osl_charge_weight_t;

/* The configuration in force.  Every scheduling key is a field of core,
 * the core's own configuration, so that a partition's is core with its
 * CPU count (osl_conf_core); the other fields are the adapter's. */
typedef struct {
	char *path;			/* file read (NULL: defaults only) */
	ost_config_t core;		/* Mode, ThinkTime, Capacity, IntraOrder,
					 * VirtualArea, Memory, MemoryCredit,
					 * Evidence, EvidenceFloor, Rank, RankCap,
					 * Gate (soft or none), FairCampUsers,
					 * DefaultWeight; Lead keep (§24: not
					 * a key); procs 1 */
	uint32_t interval;		/* Interval, seconds between passes (30) */
	uint32_t default_estimate;	/* DefaultEstimate, seconds (86400) */
	bool weights_assoc;		/* Weights=assoc: association Shares */
					/* (Hierarchy= is core.hierarchy) */
	osl_user_weight_t *user_w;	/* UserWeights=name:w,... */
	int n_user_w;
	osl_acct_weight_t *acct_w;	/* AccountWeights=name:w,... */
	int n_acct_w;
	osl_acct_parent_t *acct_par;	/* AccountParents=account:parent,... */
	int n_acct_par;
	osl_user_acct_t *user_acct;	/* UserAccounts=user:account,... */
	int n_user_acct;
	bool backfill;			/* Backfill=yes: embed sched/backfill */
	bool system_comment;		/* SystemComment=yes: summary per job */
	ost_charge_t charge;		/* Charge= (billing: CPUs without
					 * weights) */
	osl_charge_weight_t charge_w[OSL_CHARGE_WEIGHTS_MAX];
					/* ChargeWeights=, parsed */
	int n_charge_w;			/* items in charge_w (0: none) */
	char charge_w_str[OSL_CHARGE_WEIGHTS_LEN];
					/* ChargeWeights= as written */
	char *event_log;		/* EventLog=path (debugging, tests) */
} osl_conf_t;

/* How the reader takes a key's value from Slurm's parser. */
typedef enum {
	OSL_KEY_VALUE = 0,		/* text judged by osl_conf_set_value */
	OSL_KEY_BOOL,			/* Slurm's boolean (yes/no, ...) into
					 * the bool at off */
	OSL_KEY_PATH,			/* text kept as given at off */
	OSL_KEY_LIST,			/* name:w,... (osl_conf_parse_weight_list);
					 * the reader resolves the names */
	OSL_KEY_NAMES,			/* name:name,... (osl_conf_parse_name_list);
					 * the reader resolves the names */
} osl_key_read_t;

/* One key of ostrich.conf: the only list of them (the reader, the value
 * judge and the log line all walk it). */
typedef struct osl_conf_key {
	const char *name;		/* as ostrich.conf(5) writes it */
	osl_key_read_t read;		/* how it is read */
	/* OSL_KEY_VALUE: set the field from val.  RET 0, or -1 (conf
	 * untouched) */
	int (*set)(const struct osl_conf_key *key, osl_conf_t *conf,
		   const char *val);
	/* the value in force, as the file would say it, into buf */
	void (*show)(const struct osl_conf_key *key, const osl_conf_t *conf,
		     char *buf, size_t size);
	size_t off;			/* the field in osl_conf_t */
	uint64_t lo, hi;		/* range of a whole number */
	const char *must;		/* why a value is refused: "must be ..." */
} osl_conf_key_t;

extern const osl_conf_key_t osl_conf_keys[];
extern const size_t osl_conf_nkeys;

/* The key called name (any case), or NULL. */
extern const osl_conf_key_t *osl_conf_key(const char *name);

/* conf = the defaults an empty ostrich.conf gives (the core's,
 * ost_config_init, for every scheduling key: Gate=soft, lead keep;
 * Interval=30, DefaultEstimate=86400, Backfill and SystemComment on; no
 * weight lists, no EventLog).  The one place they are set. */
extern void osl_conf_defaults(osl_conf_t *conf);

/*
 * Set the key of kind OSL_KEY_VALUE called key (any case) from its text
 * value val.
 * RET 0, or -1 with conf untouched and a message "Key=value: why" in
 *	err[0..errlen) (truncated to fit).  Any other key is an error.
 */
extern int osl_conf_set_value(osl_conf_t *conf, const char *key,
			      const char *val, char *err, size_t errlen);

/* printf's message into err[0..errlen) (nothing when errlen is 0), for
 * the judges of osl_conf.c and osl_conf_parse.c (which defines it).
 * RET -1, a refusal */
extern int osl_conf_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A decimal integer: digits only, the whole of s, in [min, max]; the
 * conf's seconds and counts, and a user named by number (uid).
 * RET 0 and *out, or -1 (*out untouched).
 */
extern int osl_conf_uint(const char *s, uint64_t min, uint64_t max,
			 uint64_t *out);

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
				      osl_conf_pair_f fn, void *arg,
				      char *err, size_t errlen);

/* Called for each name:value of a name list; RET 0, or -1 after writing
 * why into err[0..errlen). */
typedef int (*osl_conf_names_f)(const char *name, const char *value,
				void *arg, char *err, size_t errlen);

/*
 * Parse the list "name:value[,name:value...]" of key (AccountParents,
 * UserAccounts): both non-empty, printable, without blanks, ':' or ',';
 * no empty item.  fn is called for each pair in order, and the parse stops
 * at its first error.
 * RET 0, or -1 with a message naming key and the item in err[0..errlen).
 */
extern int osl_conf_parse_name_list(const char *key, const char *list,
				    osl_conf_names_f fn, void *arg,
				    char *err, size_t errlen);

/*
 * Judge AccountParents= as a whole, v[0..n): "root" is never a child, no
 * account has two parents or is its own ancestor, and no chain is deeper
 * than OSL_ACCT_DEPTH_MAX.  Names compare in any case: Slurm's account
 * names are lower case.
 * RET 0, or -1 with a message naming the key and the item in err.
 */
extern int osl_conf_check_parents(const osl_acct_parent_t *v, int n,
				  char *err, size_t errlen);

/*
 * Parse ChargeWeights= (Slurm's TRESBillingWeights syntax): comma-separated
 * Type[/name]=weight[unit], Type one of CPU, Mem, Node, Energy, VMem,
 * Pages, FS/name, GRES/name, License/name, BB/name, IC/name (any case);
 * weight a number >= 0 with an optional unit K, M, G, T or P that divides
 * it by 1024 per step above the TRES's base unit (MB for Mem and BB, one
 * for the others), as Slurm does; an empty list is no weights.
 * OUT w[0..max), *n
 * RET 0, or -1 with a message in err[0..errlen) (w, n untouched)
 */
extern int osl_conf_parse_charge_weights(const char *s,
					 osl_charge_weight_t *w, int max,
					 int *n, char *err, size_t errlen);

/* The core configuration of a partition of procs CPUs (0 counts as 1):
 * conf->core with that CPU count. */
extern void osl_conf_core(const osl_conf_t *conf, uint32_t procs,
			  ost_config_t *cfg);

/*
 * Every key in force, "Key=value ..." in the table's order (a list shows
 * its length; EventLog only when set), for the log.
 * RET the length osl_conf_line would have written with room (snprintf's
 *     convention): buf[0..size) holds as much as fits, NUL-terminated
 */
extern int osl_conf_line(const osl_conf_t *conf, char *buf, size_t size);

#endif /* _OSL_CONF_H */
