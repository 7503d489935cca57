/*****************************************************************************\
 *  partinfo.h - partition sizes and time limits from the output of
 *  `scontrol show partition -o` (§17), for replaying sacct dumps.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_PARTINFO_H
#define OST_SIM_PARTINFO_H

#include <stddef.h>
#include <stdint.h>

/* One partition. */
typedef struct sim_partition {
	char *name;
	uint32_t total;     /* billing= of its TRES, else TotalCPUs */
	double max_time;    /* MaxTime, s; < 0 when UNLIMITED or absent */
} sim_partition_t;

typedef struct sim_partitions {
	sim_partition_t *p;
	size_t n;
} sim_partitions_t;

/* Read path: one partition per line ("PartitionName=NAME ... key=value
 * ..."), lines without PartitionName ignored.  A partition without a
 * usable TotalCPUs or TRES billing is an error naming the line.
 * RET: 0 and a filled *out (release with sim_partitions_free), or -1 with
 * a message in err. */
int sim_partitions_read(const char *path, sim_partitions_t *out, char *err,
			size_t errlen);

/* The partition called name (first of that name), or NULL. */
const sim_partition_t *sim_partition_find(const sim_partitions_t *ps,
					  const char *name);

/* Release what sim_partitions_read allocated.  NULL is a no-op. */
void sim_partitions_free(sim_partitions_t *ps);

#endif /* OST_SIM_PARTINFO_H */
