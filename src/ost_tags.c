/*****************************************************************************\
 *  ost_tags.c - a campaign's tags from its stored inputs: S, F (§3, §24),
 *  the key (§13-§15) and the deadline D (§5), and marking them stale
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Pure functions of a campaign's inputs (phi, L, the areas, F_prev,
 *  D_prev), plus the one write that stores them and re-sorts the campaign
 *  (ost_order.c, below).  The walks that re-derive a user's campaigns in
 *  turn are ost_settle.c's and ost_chain.c's, above.
\*****************************************************************************/

#include "ost_internal.h"

/* Mark c changed: its tags and its later campaigns' are stale. O(1). */
void ost_campaign_defer(ost_sched_t *s, ost_campaign_t *c)
{
	ost_user_t *u = c->user;

	if (!u->dirty) {
		u->dirty = u->dirty_to = c;
	} else {
		if (c->seq < u->dirty->seq)
			u->dirty = c;
		if (c->seq > u->dirty_to->seq)
			u->dirty_to = c;
	}
	if (!u->in_dirty) {
		u->in_dirty = true;
		u->next_dirty = s->dirty;
		s->dirty = u;
	}
}

/*
 * The order key of c with tags S, F: F by default; P = max(S, F - A^pend
 * / w) with Rank=served (§13); min(F, P + Lambda / w) with Rank=capped
 * (§14); each minus kappa / w, the credit kept with Memory=key (§15; 0
 * otherwise, and x - 0 is x).
 */
static double _key(const ost_sched_t *s, const ost_campaign_t *c, double S,
		   double F)
{
	double w = c->user->weight, P;

	if (s->cfg.rank == OST_RANK_FINISH)
		return F - c->credit / w;
	P = F - c->area_pend / w;
	if (P < S)
		P = S;
	if (s->cfg.rank == OST_RANK_CAPPED) {
		P += s->cfg.rank_cap * (double)s->cfg.procs / w;
		if (F < P)
			P = F;
	}
	return P - c->credit / w;
}

/*
 * S_c and F_c from phi, L, and pf = F_prev, all in the unit of v
 * (CPU-seconds per unit weight), under Lead= (§24):
 *
 *   keep     S = max(phi, pf)                           F = S + L
 *   cap      S = max(phi, min(pf, v_rel + kappa L))     F = S + L
 *            (behind: S = max(phi, pf), as keep)
 *   forgive  S = max(phi, pf)                           F = max(S, min(S + L, cut))
 *
 * v_rel is v when c opened or restarted, cut v when its last unfinished
 * job left (+inf while it has one).  cap: a campaign inherits at most
 * kappa times its own length of the lead its user's earlier campaigns
 * took in the real schedule over V, unless it opened or restarted
 * behind another unfinished campaign of its user (a user whose work still
 * waits in R is not ahead of V).  forgive: a campaign that has no job
 * left in the real schedule is over in V too, its remaining virtual
 * length forgiven, so the next one starts at its own floor.  Both are
 * functions of stored inputs, never adjustments of a tag, so the tags
 * stay derived (§3.3).  keep is, bit for bit, the formula of §3.3.
 */
void ost_campaign_tags(const ost_sched_t *s, const ost_campaign_t *c,
		       double pf, double *S, double *F)
{
	if (s->cfg.lead == OST_LEAD_CAP && !c->behind) {
		double lim = c->vrel + s->cfg.lead_cap * c->len;

		if (lim < pf)
			pf = lim;
	}
	*S = c->phi > pf ? c->phi : pf;
	*F = *S + c->len;
	if (s->cfg.lead == OST_LEAD_FORGIVE && *F > c->cut)
		*F = c->cut > *S ? c->cut : *S;
}

/* D_c after D_prev = pd (§5): max(t_c, pd) + k_c max(A_est / m, max e). */
double ost_campaign_deadline(const ost_sched_t *s, const ost_campaign_t *c,
			     double pd)
{
	double len = c->area_est / (double)s->cfg.procs;

	if (c->max_e > len)
		len = c->max_e;
	return (c->t_c > pd ? c->t_c : pd) + (double)c->k * len;
}

bool ost_campaign_set_tags(ost_sched_t *s, ost_campaign_t *c, double S,
			   double F, double D)
{
	bool faircamp = s->cfg.mode == OST_MODE_FAIRCAMP;
	double K = _key(s, c, S, F);
	bool moved, same;

	same = S == c->vstart && F == c->vfinish && D == c->deadline &&
	       K == c->ukey;
	moved = faircamp ? D != c->deadline : S != c->vstart || K != c->ukey;
	c->vstart = S;
	c->vfinish = F;
	c->deadline = D;
	c->ukey = K;
	if (!c->user->acct)
		c->key = K;	/* else projected (§21, reindex) */
	if (moved || c->resort) {
		c->resort = false;
		ost_order_reindex(s, c);
	}
	return same;
}
