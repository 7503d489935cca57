/*****************************************************************************\
 *  osl_report.h - the campaign report (doc/semantics.md §26): the
 *  campaigns the site's scheduler finished, each with the stretch it
 *  delivered and the virtual completion ostrich's fair schedule gave it.
 *  osl_report.c: the record's arithmetic and the bounded ring;
 *  osl_report_io.c: the file ostrich_report, both ways.  Standalone (no
 *  osl.h, no Slurm): scampaign and the fuzzer compile it.  The engine's
 *  side (folding runs, tracking V) is osl_report_track.c.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_REPORT_H
#define _OSL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OSL_REPORT_FORMAT 1		/* the newest file version */
#define OSL_REPORT_FILE "ostrich_report"/* its name in StateSaveLocation */
#define OSL_REPORT_KEEP 4096		/* finished campaigns kept per
					 * partition: the oldest goes */
#define OSL_REPORT_NAME_MAX 64		/* names, NUL included */
#define OSL_REPORT_OPEN_MAX 1000000	/* open campaigns a file may hold
					 * per partition (a sanity bound) */

/* One campaign (§26).  Times in seconds since the epoch. */
typedef struct {
	char part[OSL_REPORT_NAME_MAX];	/* partition */
	char user[OSL_REPORT_NAME_MAX];	/* user name, "" until resolved
					 * (the writer's, else the uid) */
	char account[OSL_REPORT_NAME_MAX];/* Slurm account of its earliest
					 * job that ran, "" if none known */
	uint32_t uid, seq;		/* the campaign: user, number (§2) */
	uint32_t jobs;			/* runs that finished in it */
	double release;			/* t_c: earliest arrival (§9.12) of
					 * its jobs that ran */
	double start;			/* first start of its runs (NAN: none
					 * finished yet) */
	double end;			/* C_c: last end of its runs (-inf:
					 * none finished yet) */
	double work;			/* sum of q x p (width x s) */
	double span;			/* max over its runs of t_j + p_j */
	double capacity;		/* m: the partition's, in the width's
					 * unit, when it closed */
	double vct;			/* ostrich's virtual completion (§26),
					 * NAN: none known */
	bool vseen;			/* vct is when V reached F_c (seen by
					 * a pass), not a projection */
	bool open;			/* not over yet (the engine's own
					 * bookkeeping, saved for a restart) */
	bool mark;			/* a walk's scratch (not saved) */
} osl_report_camp_t;

/* A partition's report: the finished campaigns (a ring of the last
 * OSL_REPORT_KEEP) and the open ones.  Zero-initialize;
 * osl_report_free(). */
typedef struct {
	osl_report_camp_t *ring;	/* malloc, up to OSL_REPORT_KEEP */
	int nring, cap_ring;		/* campaigns in it, allocated */
	int head;			/* index of the oldest */
	uint64_t closed;		/* campaigns ever pushed */
	osl_report_camp_t *open;	/* sorted by (uid, seq) (malloc) */
	int nopen, cap_open;
	bool dirty;			/* changed since last written out */
} osl_report_t;

/* ------------------------------------------------ osl_report.c ------- */

/* §7's lower bound: max(work / m, span - release, 1 s).  m <= 0 is
 * taken as 1. */
extern double osl_report_lower_bound(const osl_report_camp_t *c);

/* §7's stretch: max(end - release, 1 s) / lower bound. */
extern double osl_report_stretch(const osl_report_camp_t *c);

/* The stretch ostrich's virtual completion implies: max(vct - release,
 * 1 s) / the same lower bound; NAN when vct is. */
extern double osl_report_vstretch(const osl_report_camp_t *c);

/* Append a copy of c to r's ring (the oldest goes when full).
 * RET 0, -1 out of memory (r unchanged) */
extern int osl_report_push(osl_report_t *r, const osl_report_camp_t *c);

/* The i-th oldest finished campaign of r, 0 <= i < r->nring. */
extern osl_report_camp_t *osl_report_nth(const osl_report_t *r, int i);

/*
 * The open campaign (uid, seq) of r; a new one (release +inf, start NAN,
 * end -inf, vct NAN, open) when create and it has none.  The pointer
 * lasts until the next insertion or removal.  O(log n), O(n) to insert.
 * RET NULL: none (or out of memory)
 */
extern osl_report_camp_t *osl_report_open_get(osl_report_t *r, uint32_t uid,
					      uint32_t seq, bool create);

/* Release what r holds; r is then empty. */
extern void osl_report_free(osl_report_t *r);

/* ------------------------------------------------ osl_report_io.c ---- */

/*
 * The reports of parts[0..n) as the text of ostrich_report (format
 * OSL_REPORT_FORMAT), written at time now; each record's part is taken
 * from names[i].  Names the file may not hold (1-63 printable ASCII
 * bytes, no space, '=', '"' or '\\') are left out: a user's or an
 * account's field, a partition's every record.
 * RET malloc'ed text (*len bytes), NULL: out of memory
 */
extern char *osl_report_format(const osl_report_t *const *parts,
			       const char *const *names, int n, double now,
			       size_t *len);

/* A parsed file: every record, in file order. */
typedef struct {
	double time;			/* when written */
	int version;			/* of the file */
	osl_report_camp_t *v;		/* malloc */
	int n, cap;
} osl_report_file_t;

/*
 * Parse buf[0..len) into f (zeroed, or freed).  Unknown keys are skipped
 * (later versions of the same format may add some); a file of a newer
 * format is refused, and *newer is set to its version.
 * OUT err - "line N: why" (size bytes) when RET != 0
 * RET 0, or -1
 */
extern int osl_report_parse(osl_report_file_t *f, const char *buf, size_t len,
			    int *newer, char *err, size_t size);

/* Release what f holds; f is then empty. */
extern void osl_report_file_free(osl_report_file_t *f);

#endif /* _OSL_REPORT_H */
