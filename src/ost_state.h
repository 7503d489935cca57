/*****************************************************************************\
 *  ost_state.h - shared by the engine state's writer and reader
 *  (ost_state*.c; doc/state-format.md), not by the rest of the core
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_STATE_H
#define OST_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "ost_internal.h"

#define OST_STATE_MAGIC "ostrich-state"
#define OST_STATE_VERSION OST_STATE_VERSION_NEWEST	/* ostrich.h */
#define OST_TIE_LEAF(u) ((uint32_t)((u)->tie >> 32))	/* acct idx of a
							 * -A leaf, else 0 */

/* ost_state.c: CRC-32 (IEEE 802.3) of p[0..n), the end line's. */
uint32_t ost_state_crc32(const char *p, size_t n);

/* The reader (ost_state_field.c, ost_state_rec.c, ost_state_load.c). */

/* What version 2 says of a node of V (§21) beyond what re-deriving
 * gives: index 0 the root, i account index i. */
typedef struct {
	char *active;		/* its children's ties (in the text) */
	double f, wsum, psync;
	unsigned lineno;
} ost_in_nest_t;

/* A campaign's key as projected and its gate (version 2). */
typedef struct {
	ost_campaign_t *c;
	double key, kfrom, gate;
	unsigned lineno;
} ost_in_ckey_t;

/* A state being read: the line, the position in it, the error buffer,
 * and what version 2 says beyond the records, kept for the end. */
typedef struct {
	char *line;		/* current line, NUL-terminated, mutable */
	char *cur;		/* parse position in line */
	unsigned lineno;
	char *err;
	size_t errlen;
	int version;
	ost_in_nest_t *nest;	/* version 2: root, then accounts */
	size_t n_nest;
	ost_in_ckey_t *ck;	/* version 2: every campaign */
	size_t n_ck, cap_ck;
} ost_in_t;

/* What a number field may hold (doc/state-format.md, "Ranges"). */
enum ost_in_range {
	R_TIME,		/* an event time (ost_time_ok) */
	R_TIME_NONE,	/* an event time, or -inf for "none" */
	R_DURATION,	/* a duration (ost_duration_ok) */
	R_DUR_NONE,	/* a duration, or -inf for "none" */
	R_VIRT,		/* virtual time or length: finite, >= 0 */
	R_VIRT_NONE,	/* virtual time, or -inf for "none" */
	R_VIRT_OPEN,	/* virtual time, or +inf for "not yet" (§24 cut) */
	R_FINITE,	/* any finite number */
	R_FIN_NONE,	/* any finite number, or -inf for "none" */
	R_WEIGHT,	/* a weight (ost_weight_ok) */
	R_NAN,		/* "nan" (a pending job's start) */
	R_FIN_NAN,	/* any finite number, -inf, or nan for "none" */
};

/* ost_state_field.c: the fields of a line.  Each reads the next token
 * "key=value" of in->cur (the key must be key) and returns 0, or reports
 * the line and returns -OST_ECORRUPT (ost_in_fail). */
/* Put "line N: " and the message in the error buffer; -OST_ECORRUPT. */
int ost_in_fail(ost_in_t *in, const char *fmt, ...);
/* The next token's value (in place, in the line). */
int ost_in_field(ost_in_t *in, const char *key, char **val);
/* Does x lie in range r? */
bool ost_in_range(double x, enum ost_in_range r);
/* v, the value of key, as a number in range r (as %a writes it). */
int ost_in_number(ost_in_t *in, const char *key, const char *v, double *out,
		  enum ost_in_range r);
int ost_in_double(ost_in_t *in, const char *key, double *out,
		  enum ost_in_range r);
/* A decimal integer, digits only, at most max. */
int ost_in_u64(ost_in_t *in, const char *key, uint64_t *out, uint64_t max);
int ost_in_i32(ost_in_t *in, const char *key, int32_t *out);
int ost_in_u32(ost_in_t *in, const char *key, uint32_t *out);
/* A name that parse (0 when known) turns into *out. */
int ost_in_name(ost_in_t *in, const char *key,
		int (*parse)(const char *, void *), void *out);
/* Nothing but blanks is left on the line. */
int ost_in_end(ost_in_t *in);

/* ost_state_rec.c: one record line (its kind already read) into the
 * scheduler being loaded.  0, -OST_ECORRUPT or -OST_ENOMEM. */
int ost_rec_config(ost_in_t *in, ost_config_t *g);
int ost_rec_root(ost_in_t *in);
int ost_rec_account(ost_in_t *in, ost_sched_t *s);
int ost_rec_user(ost_in_t *in, ost_sched_t *s);
int ost_rec_leaf(ost_in_t *in, ost_sched_t *s);
int ost_rec_campaign(ost_in_t *in, ost_sched_t *s);
int ost_rec_job(ost_in_t *in, ost_sched_t *s);

#endif /* OST_STATE_H */
