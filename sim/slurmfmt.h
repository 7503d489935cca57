/*****************************************************************************\
 *  slurmfmt.h - the text forms Slurm's commands print, as sacct and
 *  scontrol show them by default (§17): durations, dates, TRES lists.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_SLURMFMT_H
#define OST_SIM_SLURMFMT_H

#include <stdbool.h>
#include <stddef.h>

/* A duration as Slurm prints or reads it: [D-]HH:MM:SS, [D-]HH:MM,
 * D-HH, MM:SS or MM (minutes), each part a whole number.
 * RET: 0 and *out in s, or -1 (also for UNLIMITED, Partition_Limit and
 * anything else: the caller decides). */
int sim_slurm_duration(const char *s, double *out);

/* A date as sacct prints it by default, YYYY-MM-DDTHH:MM:SS in the local
 * time zone (mktime, tm_isdst = -1: in the hour repeated when daylight
 * saving time ends, the C library picks one of the two instants).
 * RET: 0 and *out in s since the epoch, or -1 (also for Unknown, None). */
int sim_slurm_date(const char *s, double *out);

/* The value of key in a TRES list "k1=v1,k2=v2,..." (billing=4,cpu=4,
 * mem=1G,node=1): a whole number, or a number with a K/M/G/T/P suffix
 * (powers of 1024).  len: length of tres (it need not end there).
 * RET: 0 and *out, or -1 when key is absent or its value malformed. */
int sim_tres_get(const char *tres, size_t len, const char *key, double *out);

#endif /* OST_SIM_SLURMFMT_H */
