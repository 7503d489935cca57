/*****************************************************************************\
 *  osl_comment.h - the SystemComment line of each job (osl_comment.c):
 *  the core's summary with the job's width and account, merged into the
 *  field others write too.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_COMMENT_H
#define _OSL_COMMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ost_charge.h"
#include "osl_obs.h"
#include "osl_partition.h"

struct job_record;		/* Slurm's job_record_t (slurmctld.h): compared,
				 * never read, here */

/* How osl_comments() reaches Slurm's records. */
typedef struct {
	/* the name of uid (or NULL) */
	const char *(*user_name)(uint32_t uid);
	/* the SystemComment of rec must become text */
	void (*set)(struct job_record *rec, const char *text);
	/* the SystemComment of rec now (NULL: none) */
	const char *(*get)(const struct job_record *rec);
	/* PrivateData=jobs: owners see only their own jobs (NULL: no) */
	bool (*private_jobs)(void);
	/* what rec's width in p is made of, the bill= value (§19), into
	 * buf[0..size) ("" or NULL op: no bill=) */
	void (*bill)(const osl_part_t *p, const struct job_record *rec,
		     char *buf, size_t size);
} osl_comment_ops_t;

/* Bytes of a whole SystemComment field the engine writes (NUL included):
 * others' text and our line; with no room left the field is left alone. */
#define OSL_COMMENT_MAX 4096

/* Fraction of p's CPUs uid gets in the virtual schedule now (0 for a user
 * the core has never seen). */
extern double osl_share(const osl_part_t *p, uint32_t uid);

/*
 * The bill= value of the SystemComment: "label:count[xweight],..." for
 * each resource with a positive count and weight (the weight left out
 * when 1), e.g. "cpu:1,gpu:4x4".
 * RET snprintf's: the length it would have written; buf[0..size) holds as
 *     much as fits
 */
extern int osl_bill_text(char *buf, size_t size, int n,
			 const char *const *label, const ost_res_t *kind,
			 const double *w, const uint64_t *cnt);

/*
 * Append the width of a job to its summary line buf (holding len bytes, of
 * at most size): " width=W unit=U", then " bill=TEXT" when bill is not
 * empty (§19, doc/summary.md).  Only what keeps the line shorter than
 * OST_SUMMARY_MAX is added (bill= first left out, then all), so that every
 * reader of the summary still takes it.
 * RET the new length
 */
extern size_t osl_comment_width(char *buf, size_t len, size_t size,
				uint32_t width, ost_charge_t unit,
				const char *bill);

/*
 * Append the account a job counts in to its summary line buf (holding len
 * bytes, of at most size): " account=NAME" (§23, doc/summary.md), only
 * when the line stays shorter than OST_SUMMARY_MAX; nothing for NULL or
 * "" (the root).
 * RET the new length
 */
extern size_t osl_comment_account(char *buf, size_t len, size_t size,
				  const char *account);

/*
 * SystemComment of every job record of obs[0..n) (p's, ranked): the core's
 * summary line (ost_summary_format) of the record's best-ranked pending
 * task, or of its running job, with its width (osl_comment_width); set through ops only where it changes
 * (osl_comment_merge).  Skips finished and unranked pending jobs and the
 * second and later partitions of a record.  When ops->private_jobs says
 * so, rank=R/P counts the owner's jobs only and share becomes view=own.
 */
extern void osl_comments(osl_part_t *p, osl_obs_t **obs, int n,
			 const osl_comment_ops_t *ops);

/*
 * The same line for the records of obs[0..n) that a submission has just
 * ranked, without the pass's sweep over every campaign: C~ comes from the
 * core for each job (ost_sched_job_vct, O(active users)).  Under
 * PrivateData=jobs nothing is written (the owner's rank=R/P needs all the
 * owner's jobs; the pass writes it).
 * RET the records whose field now holds their line (0: none; the caller
 * then leaves them to a pass)
 */
extern int osl_comments_new(osl_part_t *p, osl_obs_t **obs, int n,
			    const osl_comment_ops_t *ops);

/*
 * What the SystemComment field must become when the engine writes line
 * into it.  Others write there too (burst-buffer errors, one per line):
 * only our own line (ost_summary_find: a line beginning "ostrich
 * campaign=") is replaced, in place; without one, line goes on a line of
 * its own after the others' text.
 * IN field - the field now (NULL: empty)
 * OUT out - the new field (size bytes) when RET is true
 * RET false if the field stays as it is: unchanged, or no room in size for
 *     the others' text and line (their text is never cut)
 */
extern bool osl_comment_merge(const char *field, const char *line, char *out,
			      size_t size);

/*
 * A fingerprint of a SystemComment field (FNV-1a, 64 bits, over its bytes
 * and length), to tell later whether somebody wrote the field: a pointer
 * would not do, since an append (xstrfmtcat) may grow the string in place.
 * RET 0 for NULL, else a value that differs from 0 and from the value of
 * any other text but with probability about 2^-64
 */
extern uint64_t osl_comment_print(const char *field);

#endif /* _OSL_COMMENT_H */
