/*****************************************************************************\
 *  ost_variant.c - the optional variants of the virtual schedule: learned,
 *  predicted and bounded virtual areas (§10), OStrich with memory (§11)
 *  and areas from evidence (§12).  With all off (the default) every
 *  function here is neutral: each job counts its request, credit 0,
 *  charge = estimate (so no job ever steps), and the per-user sums,
 *  runtimes and ratios are kept but never read.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "ost_internal.h"

/* §10: weight kept by the older terms at each finish; accuracy clamp. */
#define ACC_BETA (7.0 / 8.0)
#define ACC_MIN (1.0 / 100.0)
#define ACC_BETA_ALL (1023.0 / 1024.0)
/* §11: half-life of usage (s). */
#define MEM_HALF_LIFE 604800.0

/*
 * Estimate multiplier r_u of §10: N_u / D_u clamped to [1/100, 1]; without
 * history 1 (learned) or N_* / D_* (pooled, 1 without any history).
 */
static double _ratio(const ost_sched_t *s, const ost_user_t *u)
{
	double num = u->acc_num, den = u->acc_den, r;

	if (!(den > 0.0) && s->cfg.varea == OST_VAREA_POOLED) {
		num = s->acc_num;
		den = s->acc_den;
	}
	if (!(den > 0.0))
		return 1.0;
	r = num / den;
	return r < ACC_MIN ? ACC_MIN : r > 1.0 ? 1.0 : r;
}

/* §10 bounded: R_u, the largest of u's last OST_BOUND_K ratios p / e. */
static double _ratio_bound(const ost_user_t *u)
{
	double r = 0.0;

	for (uint32_t i = 0; i < OST_BOUND_K; i++)
		if (u->ratio[i] > r)
			r = u->ratio[i];
	return r;
}

/*
 * The estimate e' (s) a job of u requesting `estimate` s counts in V
 * (§10): e itself (requested), r_u e (learned, pooled); predicted, the
 * mean of u's last two runtimes clamped to [e/100, e] (the clamp of r_u)
 * once u has two finished jobs, e before; bounded, R_u e clamped the
 * same way once u has OST_BOUND_K finished jobs, e before.
 */
double ost_variant_estimate(const ost_sched_t *s, const ost_user_t *u,
			    double estimate)
{
	double pred;

	switch (s->cfg.varea) {
	case OST_VAREA_REQUESTED:
		return estimate;
	case OST_VAREA_BOUNDED:
		if (u->n_ratio < OST_BOUND_K)
			return estimate;
		pred = _ratio_bound(u);
		return estimate * (pred < ACC_MIN ? ACC_MIN : pred);
	case OST_VAREA_PREDICTED:
		if (u->n_last < 2)
			return estimate;
		pred = (u->last_p[0] + u->last_p[1]) / 2.0;
		if (pred < ACC_MIN * estimate)
			pred = ACC_MIN * estimate;
		return pred < estimate ? pred : estimate;
	default:
		return estimate * _ratio(s, u);
	}
}

/* Factor 2^(-dt/H) of a CPU-second dt seconds old (dt >= 0). */
static double _decay(double dt)
{
	return dt > 0.0 ? exp2(-dt / MEM_HALF_LIFE) : 1.0;
}

/*
 * A job of u ran `runtime` s on procs CPUs with requested estimate
 * `estimate`, finishing at t.  §10: N_u, D_u decay by beta then grow by
 * q min(p, e), q e; p becomes u's newest runtime and min(p / e, 1) its
 * newest ratio (none for e = 0).  §11: U_u and the total decay to t
 * (never back: a finish learnt late is charged at the latest time seen)
 * and grow by q p.
 * Non-finite inputs are ignored (the caller has checked runtime).
 */
void ost_variant_finish(ost_sched_t *s, ost_user_t *u, uint32_t procs,
			double runtime, double estimate, double t)
{
	double q = (double)procs, p = runtime, now;

	u->acc_num = ACC_BETA * u->acc_num + q * (p < estimate ? p : estimate);
	u->acc_den = ACC_BETA * u->acc_den + q * estimate;
	s->acc_num = ACC_BETA_ALL * s->acc_num +
		     q * (p < estimate ? p : estimate);
	s->acc_den = ACC_BETA_ALL * s->acc_den + q * estimate;
	u->last_p[1] = u->last_p[0];
	u->last_p[0] = p;
	if (u->n_last < 2)
		u->n_last++;
	if (estimate > 0.0) {
		u->ratio[u->ratio_at] = p < estimate ? p / estimate : 1.0;
		u->ratio_at = (u->ratio_at + 1) % OST_BOUND_K;
		if (u->n_ratio < OST_BOUND_K)
			u->n_ratio++;
	}
	if (!isfinite(t))
		return;
	now = t > s->usage_t ? t : s->usage_t;
	s->usage_total = s->usage_total * _decay(now - s->usage_t) + q * p;
	s->usage_t = now;
	now = t > u->usage_t ? t : u->usage_t;
	u->usage = u->usage * _decay(now - u->usage_t) + q * p;
	u->usage_t = now;
}

/*
 * Credit f_u B of §11 for a campaign of u opening at t (virtual-time
 * units, CPU-seconds per unit weight): f_u = 2^(-U_u / Ubar), Ubar the
 * mean decayed usage over the users known, B = memory_credit * m.  0 when the
 * variant is off.
 */
double ost_variant_credit(const ost_sched_t *s, const ost_user_t *u, double t)
{
	double tot, mine, f = 1.0;

	if (!s->cfg.memory)
		return 0.0;
	tot = s->usage_total * _decay(t - s->usage_t);
	mine = u->usage * _decay(t - u->usage_t);
	if (tot > 0.0 && s->users.count > 0)
		f = exp2(-mine * (double)s->users.count / tot);
	return f * s->cfg.memory_credit * (double)s->cfg.procs;
}

static void _steps_rekey(ost_sched_t *s);

/*
 * The host's clock moved by delta seconds (ost_sched_rebase): the times of
 * the last usage decay are real times and move with it, so the decay
 * resumes from the same ages (U_u and the total keep their values).
 */
void ost_variant_rebase(ost_sched_t *s, double delta)
{
	size_t i;

	s->usage_t += delta;
	for (i = 0; s->users.slots && i <= s->users.mask; i++)
		if (s->users.slots[i].key)
			((ost_user_t *)s->users.slots[i].val)->usage_t += delta;
	_steps_rekey(s);
}

#define JOB_OF_STEP(h) ost_container_of(h, ost_job_t, step)

/* The instant of running j's next step (§12): start + charge. */
static double _step_at(const ost_job_t *j)
{
	return j->start + j->estimate;
}

/*
 * Re-key every step from its job's (moved) start.  ost_hkey_update keeps
 * the heap valid one node at a time; nodes move while the array is walked,
 * so walk again until a whole pass changes nothing.
 */
static void _steps_rekey(ost_sched_t *s)
{
	bool again = true;
	size_t i;

	while (again) {
		again = false;
		for (i = 0; i < s->steps.n; i++) {
			ost_hkey_t *h = OST_HKEY(s->steps.v[i]);
			double at = _step_at(JOB_OF_STEP(h));

			if (h->key != at) {
				ost_hkey_update(&s->steps, h, at);
				again = true;
			}
		}
	}
}

/*
 * The charge of §12 for a job whose estimate without the variant is
 * `estimate`: min(e, f) with the variant, e without.
 */
double ost_variant_charge(const ost_sched_t *s, double estimate)
{
	if (s->cfg.evidence && estimate > s->cfg.evidence_floor)
		return s->cfg.evidence_floor;
	return estimate;
}

/*
 * Running j (start set) takes steps while its charge is below e_full.
 * Cannot fail: the submit or update that gave it that charge reserved a
 * slot per job.
 */
void ost_variant_track(ost_sched_t *s, ost_job_t *j)
{
	if (j->estimate < j->e_full && !ost_hnode_linked(&j->step.node))
		(void)ost_hkey_push(&s->steps, &j->step, _step_at(j), j->id);
}

/* j stopped running (finish, requeue): no more steps. */
void ost_variant_untrack(ost_sched_t *s, ost_job_t *j)
{
	if (ost_hnode_linked(&j->step.node))
		ost_hkey_remove(&s->steps, &j->step);
}
