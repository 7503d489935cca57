/*****************************************************************************\
 *  ostrich_conf.h - ostrich.conf, the configuration of sched/ostrich and
 *  priority/ostrich (see ostrich.conf(5)).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSTRICH_CONF_H
#define _OSTRICH_CONF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ostrich.h"

typedef struct {
	uid_t uid;			/* user the weight applies to */
	double weight;			/* w_u > 0 */
} osl_user_weight_t;

typedef struct {
	char *account;			/* account name (xmalloc'ed) */
	double weight;			/* w_u of its users' jobs */
} osl_acct_weight_t;

typedef struct {
	char *path;			/* file read (NULL: defaults only) */
	ost_mode_t mode;		/* Mode=ostrich|faircamp */
	double think_time;		/* ThinkTime, seconds (600) */
	uint32_t interval;		/* Interval, seconds between passes (30) */
	ost_capacity_t capacity;	/* Capacity=used|full */
	ost_intra_t intra;		/* IntraOrder=lpt|spt|fifo|ljf */
	ost_varea_t varea;		/* VirtualArea=requested|learned|pooled */
	bool memory;			/* Memory=on|off|key */
	bool memory_key;		/* Memory=key (§15) */
	double memory_credit;		/* MemoryCredit, seconds (3600) */
	bool evidence;			/* Evidence=on|off */
	double evidence_floor;		/* EvidenceFloor, seconds (600) */
	ost_rank_t rank;		/* Rank=finish|served|capped */
	double rank_cap;		/* RankCap, seconds (3600) */
	uint32_t default_estimate;	/* DefaultEstimate, seconds (86400) */
	uint32_t faircamp_users;	/* FairCampUsers (0: counted) */
	double default_weight;		/* DefaultWeight (1) */
	bool weights_assoc;		/* Weights=assoc: association Shares */
	osl_user_weight_t *user_w;	/* UserWeights=name:w,... */
	int n_user_w;
	osl_acct_weight_t *acct_w;	/* AccountWeights=name:w,... */
	int n_acct_w;
	bool backfill;			/* Backfill=yes: embed sched/backfill */
	bool system_comment;		/* SystemComment=yes: summary per job */
	char *event_log;		/* EventLog=path (debugging, tests) */
} osl_conf_t;

/*
 * Read ostrich.conf (path, or the file next to slurm.conf when NULL).
 * A missing file gives the defaults.
 * RET: new configuration (free with osl_conf_free), or NULL with a
 *	message in *err (xmalloc'ed, caller xfree()s it).
 */
extern osl_conf_t *osl_conf_read(const char *path, char **err);

/* Free a configuration; NULL is a no-op. */
extern void osl_conf_free(osl_conf_t *conf);

/* Weight w_u for a job of uid charged to account (NULL ok); shares_raw is
 * the association's raw Shares (NO_VAL or 0 if none). */
extern double osl_conf_weight(const osl_conf_t *conf, uid_t uid,
			      const char *account, uint32_t shares_raw);

/* One line describing conf, for the log (xmalloc'ed). */
extern char *osl_conf_str(const osl_conf_t *conf);

#endif /* _OSTRICH_CONF_H */
