/*****************************************************************************\
 *  osl_clock.c - the wall clock against the core's: a step of the clock
 *  (backwards, or far forwards between two passes) is found at the start
 *  of a pass and the schedule rebased (ost_sched_rebase), and a state file
 *  whose clock is too old is not trusted.
 *****************************************************************************
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Free of Slurm types (tests/plugin/check_clock.c).
\*****************************************************************************/

#include <math.h>

#include "osl_clock.h"
#include "osl_evlog.h"
#include "osl_log.h"
#include "osl_partition.h"

/*
 * Shift (seconds) to give ost_sched_rebase() so that the core's clock
 * core_now follows the wall clock now, or 0:
 *   - now < core_now - OSL_SKEW_BACK: the clock stepped back (or a state
 *     saved while it ran ahead was loaded): shift by now - core_now, so
 *     that virtual time moves again at once instead of standing still
 *     until real time catches up with the old clock;
 *   - between two passes of this process (continuous), now - core_now >
 *     max(OSL_SKEW_FORWARD, 10 Interval): the clock jumped forward; the
 *     gap counts as one Interval (shift by now - core_now - interval), as
 *     the engine cannot have slept that long.  After a restart (not
 *     continuous) a gap is the controller's downtime, which is real time.
 */
extern double osl_clock_skew(double core_now, double now, double interval,
			     bool continuous)
{
	double fwd = 10 * interval > OSL_SKEW_FORWARD ? 10 * interval :
		     OSL_SKEW_FORWARD;

	if (!isfinite(core_now) || !isfinite(now))
		return 0;
	if (now < core_now - OSL_SKEW_BACK)
		return now - core_now;
	if (continuous && now - core_now > fwd)
		return now - core_now - interval;
	return 0;
}

extern bool osl_clock_check(osl_part_t *p, double now, double interval,
			    FILE *evlog)
{
	double core_now = ost_sched_now(p->sched);
	double d = osl_clock_skew(core_now, now, interval, p->passed);
	int rc;

	p->passed = true;
	if (d == 0)
		return false;
	osl_error("ostrich: partition %s: the wall clock stepped %s by %.0f s (schedule clock %.0f, now %.0f): rebasing the schedule by %.0f s",
		  p->name, d < 0 ? "back" : "forward", fabs(now - core_now),
		  core_now, now, d);
	if ((rc = ost_sched_rebase(p->sched, d))) {
		osl_error("ostrich: partition %s: rebase refused: %s", p->name,
			  ost_strerror(rc));
		return false;
	}
	/* the partition's own times on the core's clock move with it: a job
	 * that ended while slurmctld was down is compared with the restored
	 * clock as it would have read on the corrected one (osl_sync.c) */
	if (p->restored_at > 0)
		p->restored_at += d;
	if (p->last_pass > 0)
		p->last_pass += d;
	if (evlog) {
		osl_evlog_rec_t r = { .op = OSL_LOG_REBASE, .part = p->name,
				      .t = now, .x = d };

		osl_evlog_write(evlog, &r);
	}
	return true;
}

/* A state file saved more than OSL_STATE_MAX_AGE ago describes campaigns
 * whose think times have long passed and running jobs Slurm has long
 * forgotten: rebuilding from the job records is closer to the truth. */
extern bool osl_state_stale(double saved, double now)
{
	return isfinite(saved) && now - saved > OSL_STATE_MAX_AGE;
}
