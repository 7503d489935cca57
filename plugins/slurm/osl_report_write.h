/*****************************************************************************\
 *  osl_report_write.h - the campaign report's file on the Slurm side
 *  (osl_report_write.c): restored with a partition, written after the
 *  passes (doc/semantics.md §26).
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef _OSL_REPORT_WRITE_H
#define _OSL_REPORT_WRITE_H

#include <stdbool.h>

#include "osl_slurm.h"

/*
 * p->ledger->report (empty) from StateSaveLocation/ostrich_report: the
 * records of partition p->name.  A missing file leaves it empty; a file
 * of a newer format is moved to .vN, one that does not parse aside
 * (osl_state_aside), both logged, and the report starts empty.
 * restored: p's core came from its state file; otherwise the open
 * campaigns are dropped (a new core numbers campaigns afresh).
 * NOTE: conf read lock held (StateSaveLocation), as osl_ledger_restore.
 */
extern void osl_report_restore(osl_part_t *p, bool restored);

/*
 * Write StateSaveLocation/ostrich_report: at the first call of the
 * process, at once when a campaign closed or a run was folded since the
 * last write (dirty), or when force; else at most once per Interval while
 * campaigns are open (their vct moves).
 * Mode 0600 when PrivateData hides other users' data, else 0644, as the
 * usage snapshot.  Engine thread, or fini after it is joined.
 * NOTE: takes the conf read lock and osl_eng.lock to copy; formats and
 * writes with no lock held.
 */
extern void osl_report_write(bool force);

#endif /* _OSL_REPORT_WRITE_H */
