/*****************************************************************************\
 *  grouping.h - campaigns from the recorded trace (--grouping trace).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_SIM_GROUPING_H
#define OST_SIM_GROUPING_H

#include "sim.h"

/* Set every job's campaign by §2 applied to the times recorded
 * in the trace (end = rec_start + runtime), think time tau (s).  Jobs
 * must be in replay order.  RET: 0, or -1 when memory is short.
 * O(n). */
int sim_group_trace(sim_workload_t *w, double tau);

#endif /* OST_SIM_GROUPING_H */
