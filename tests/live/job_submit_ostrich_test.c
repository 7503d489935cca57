/*****************************************************************************\
 *  job_submit_ostrich_test.c - JobSubmitPlugins=ostrich_test, for the live
 *  tests only: another writer of SystemComment.  In Slurm 22.05 nobody can
 *  set SystemComment with scontrol; burst-buffer plugins append their
 *  errors to it, one per line.  This plugin does the same when an operator
 *  sets AdminComment="ostrich-test:syscomment:TEXT": TEXT is appended on a
 *  line of its own (and AdminComment is left as it was), so that a
 *  scenario can check that the engine keeps others' text.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "config.h"

#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"

#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "src/slurmctld/slurmctld.h"

const char plugin_name[] = "job_submit: a SystemComment writer for ostrich's live tests";
const char plugin_type[] = "job_submit/ostrich_test";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define OSL_TEST_TAG "ostrich-test:syscomment:"

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid,
		      char **err_msg)
{
	return SLURM_SUCCESS;
}

/* NOTE: job write lock held (update_job). */
extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,
		      uint32_t submit_uid)
{
	const size_t n = sizeof(OSL_TEST_TAG) - 1;

	if (submit_uid || !job_desc->admin_comment ||
	    strncmp(job_desc->admin_comment, OSL_TEST_TAG, n))
		return SLURM_SUCCESS;
	xstrfmtcat(job_ptr->system_comment, "%s%s",
		   job_ptr->system_comment ? "\n" : "",
		   job_desc->admin_comment + n);
	xfree(job_desc->admin_comment);
	return SLURM_SUCCESS;
}
