/*****************************************************************************\
 *  ck_tres.h - the TRES of a GPU cluster as Slurm orders them, and a GPU
 *  job on it: the arrays of tests/unit/check_charge.c (the charge rule)
 *  and tests/plugin/check_billing.c (its bill= text), written once.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef OST_CK_TRES_H
#define OST_CK_TRES_H

#include <stdint.h>

#include "ost_charge.h"

/* cpu, mem, energy, node, billing, fs/disk, vmem, pages, gres/gpu,
 * license/matlab. */
#define NRES 10
static const ost_res_t kind[NRES] = {
	OST_RES_CPU, OST_RES_MEM, OST_RES_OTHER, OST_RES_NODE, OST_RES_SKIP,
	OST_RES_OTHER, OST_RES_OTHER, OST_RES_OTHER, OST_RES_GRES,
	OST_RES_OTHER,
};

/* A GPU job: 1 CPU + 4 GPUs, 1000 MB, one node, a license. */
static const uint64_t job[NRES] = { 1, 1000, 0, 1, 0, 0, 0, 0, 4, 1 };

#endif /* OST_CK_TRES_H */
