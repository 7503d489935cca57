/*****************************************************************************\
 *  osl_evlog.h - the event log's records, its one writer, its one reader
 *  (osl_evlog.c, which documents the format) and its replay
 *  (osl_evlog_replay.c).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_EVLOG_H
#define _OSL_EVLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ostrich.h"

/* -------------------------------------------- osl_evlog.c (Slurm-free) --- */

/* The records of the event log (format: osl_evlog.c). */
typedef enum {
	OSL_LOG_CREATE = 0,		/* a new empty schedule */
	OSL_LOG_CONFIG,			/* the schedule reconfigured */
	OSL_LOG_LOAD,			/* the schedule restored from a file */
	OSL_LOG_WEIGHT,			/* a user's weight */
	OSL_LOG_SUBMIT,			/* ost_job_submit */
	OSL_LOG_START,			/* ost_job_start */
	OSL_LOG_FINISH,			/* ost_job_finish */
	OSL_LOG_CANCEL,			/* ost_job_cancel */
	OSL_LOG_REQUEUE,		/* ost_job_requeue */
	OSL_LOG_ADVANCE,		/* ost_sched_advance */
	OSL_LOG_PASS,			/* end of a pass (replays stop here) */
	OSL_LOG_UPDATE,			/* ost_job_update */
	OSL_LOG_REBASE,			/* ost_sched_rebase */
	OSL_LOG_NICE,			/* ost_job_set_nice */
	OSL_LOG_ACCOUNT,		/* ost_acct_declare */
	OSL_LOG_OWN,			/* ost_user_set_account */
} osl_log_op_t;

/* One line of the event log. */
typedef struct {
	osl_log_op_t op;		/* what happened */
	const char *part;		/* partition name (no white space) */
	double t;			/* when, seconds since the epoch (not
					 * for load) */
	ost_config_t cfg;		/* create, config: procs, mode,
					 * think_time, capacity, intra,
					 * faircamp_users, default_weight,
					 * hierarchy */
	ost_job_desc_t job;		/* submit: id, uid, procs, estimate,
					 * group, nice, account; update: id,
					 * procs, estimate; nice: id, nice;
					 * start: id, procs (0: as requested,
					 * logs written before the width was);
					 * finish, cancel, requeue: id;
					 * weight: uid; account: account (the
					 * account's id); own: uid, account */
	uint32_t parent;		/* account: its parent (0: the root) */
	double x;			/* finish: run time charged; weight:
					 * weight; rebase: the shift, seconds;
					 * account: its share */
	const char *path;		/* load: the copy of the state file */
} osl_evlog_rec_t;

/* The word of op in the log ("submit"), "?" out of range. */
extern const char *osl_evlog_op_name(osl_log_op_t op);

/* Append r to f as one line; f NULL: nothing. */
extern void osl_evlog_write(FILE *f, const osl_evlog_rec_t *r);

/*
 * Before appending to the log open on fd (for reading and writing: the
 * last byte is read): if it does not end with a
 * newline (a process killed while its last record was half written),
 * write one, so that the torn record stays on a line of its own and the
 * next record starts clean.  Returns 0, or -1 with errno (read or write
 * failed).
 */
extern int osl_evlog_seal(int fd);

/*
 * Is the line that osl_evlog_parse() refused a record torn by a crash, given
 * the line after it (NULL at the end of the file)?  Yes when it is the last
 * line, or when the next one starts a schedule anew ("create" or "load", as
 * the next process does): the schedule it belonged to is replaced, so a
 * replay skips it.  next is not modified.
 */
extern bool osl_evlog_torn(const char *next);

/*
 * Parse one line written by osl_evlog_write.  Cuts line in place: r->part
 * and r->path point into it.
 * RET 0, or -1 (malformed or unknown record)
 */
extern int osl_evlog_parse(char *line, osl_evlog_rec_t *r);

/* ------------------------------------- osl_evlog_replay.c (Slurm-free) --- */

/*
 * The whole file at path in a new buffer (free() it), NUL-terminated, its
 * length in *len: a state copy that a "load" names, or a state file.
 * RET NULL with errno (cannot open or read; ENOMEM).
 */
extern char *osl_evlog_read_file(const char *path, size_t *len);

/*
 * Apply r, one record of a log being replayed, to *s: its partition's
 * core as the log has built it so far (NULL before its first "create" or
 * "load").  "create" replaces *s by a new core, "load" by the state the
 * record's copy holds; "pass" changes nothing; every other record is the
 * core call it logged (osl_evlog.c: FORMAT).  Its outcome must be the
 * engine's: the engine logs only what the core took.
 * RET 0, or -1 with a message in err[0..errlen) (*s is then unchanged
 * for create and load, and as the core left it otherwise).
 */
extern int osl_evlog_apply(ost_sched_t **s, const osl_evlog_rec_t *r,
			   char *err, size_t errlen);

#endif /* _OSL_EVLOG_H */
