/*****************************************************************************\
 *  check_comment.c - the SystemComment: the core's summary line of each
 *  job, written next to someone else's text in the field, and what it
 *  shows under PrivateData=jobs
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"
#include "ostrich.h"
#include "osl_comment.h"
#include "osl_names.h"
#include "osl_obs.h"
#include "osl_partition.h"
#include "osl_prio.h"
#include "osl_sync.h"
#include "osl_vec.h"

static fake_rec_t recs[8];

static const char *_name(uint32_t uid)
{
	return uid == 10 ? "alice" : uid == 11 ? "bob" :
	       uid == 12 ? "carol" : NULL;
}

static const char *_get(const struct job_record *rec)
{
	return ((const fake_rec_t *) (const void *) rec)->comment;
}

static void _set(struct job_record *rec, const char *text)
{
	fake_rec_t *fr = (fake_rec_t *) (void *) rec;

	free(fr->comment);
	fr->comment = dup_str(text);
	ck_assert_ptr_nonnull(fr->comment);
	fr->sets++;
}

static bool _private(void)
{
	return true;
}

/* Records 0..n-1 were each written once (a second pass with nothing
 * changed wrote nothing); then every record's comment is freed. */
static void _written_once(int n)
{
	int i;

	for (i = 0; i < n; i++)
		ck_assert_msg(recs[i].sets == 1, "record %d written %d times",
			      i, recs[i].sets);
	for (i = 0; i < 8; i++)
		free(recs[i].comment);
}

static const osl_comment_ops_t ops = {
	.user_name = _name, .set = _set, .get = _get,
};

static const osl_comment_ops_t private_ops = {
	.user_name = _name, .set = _set, .get = _get, .private_jobs = _private,
};

/*
 * The merge is a pure function: an equal line stays; an empty field
 * becomes the line; our own line is replaced in place, the text of others
 * before and after it kept to the byte; without our line, ours goes on a
 * line after theirs; text that mentions ostrich is not ours; no room means
 * the field stays as it is (never cut).
 */
START_TEST(test_merge)
{
	const char *line = "ostrich campaign=alice/1 rank=1/2 vct=none share=0.50 mode=ostrich";
	const char *old = "ostrich campaign=alice/1 rank=2/2 vct=none share=0.50 mode=ostrich";
	const char *bb = "11/23/26 10:00:00 burst_buffer/lua: setup: no space";
	char out[OSL_COMMENT_MAX], field[OSL_COMMENT_MAX + 64], want[512];

	ck_assert(!osl_comment_merge(line, line, out, sizeof(out)));
	ck_assert(osl_comment_merge(NULL, line, out, sizeof(out)));
	ck_assert_str_eq(out, line);
	ck_assert(osl_comment_merge("", line, out, sizeof(out)));
	ck_assert_str_eq(out, line);
	ck_assert(osl_comment_merge(old, line, out, sizeof(out)));
	ck_assert_str_eq(out, line);

	/* foreign text before: kept, ours after it */
	ck_assert(osl_comment_merge("checked by ops, see ticket 42", line,
				    out, sizeof(out)));
	snprintf(want, sizeof(want), "checked by ops, see ticket 42\n%s",
		 line);
	ck_assert_str_eq(out, want);
	/* ... and then replaced in place, theirs untouched */
	snprintf(field, sizeof(field), "%s\n%s", bb, old);
	ck_assert(osl_comment_merge(field, line, out, sizeof(out)));
	snprintf(want, sizeof(want), "%s\n%s", bb, line);
	ck_assert_str_eq(out, want);
	ck_assert(!osl_comment_merge(want, line, out, sizeof(out)));
	/* foreign text after ours (appended by a burst buffer since) */
	snprintf(field, sizeof(field), "%s\n%s\n%s", old, bb, bb);
	ck_assert(osl_comment_merge(field, line, out, sizeof(out)));
	snprintf(want, sizeof(want), "%s\n%s\n%s", line, bb, bb);
	ck_assert_str_eq(out, want);
	/* foreign text in the middle of two of theirs */
	snprintf(field, sizeof(field), "%s\n%s\n%s", bb, old, "admin note");
	ck_assert(osl_comment_merge(field, line, out, sizeof(out)));
	snprintf(want, sizeof(want), "%s\n%s\nadmin note", bb, line);
	ck_assert_str_eq(out, want);
	/* a field ending in a newline gets no empty line */
	ck_assert(osl_comment_merge("note\n", line, out, sizeof(out)));
	snprintf(want, sizeof(want), "note\n%s", line);
	ck_assert_str_eq(out, want);

	/* mentions of ostrich that are not our line are someone else's */
	ck_assert(osl_comment_merge("checked by ops; ostrich campaign=alice/1 rank=1/2",
				    line, out, sizeof(out)));
	snprintf(want, sizeof(want),
		 "checked by ops; ostrich campaign=alice/1 rank=1/2\n%s", line);
	ck_assert_str_eq(out, want);
	ck_assert(osl_comment_merge("ostrich said hello\nostrich", line, out,
				    sizeof(out)));
	snprintf(want, sizeof(want), "ostrich said hello\nostrich\n%s", line);
	ck_assert_str_eq(out, want);

	/* the bound: exactly full fits, one byte more leaves the field */
	memset(field, 'x', sizeof(field));
	field[OSL_COMMENT_MAX - strlen(line) - 2] = '\0';
	ck_assert(osl_comment_merge(field, line, out, sizeof(out)));
	ck_assert_uint_eq(strlen(out), OSL_COMMENT_MAX - 1);
	ck_assert_str_eq(out + strlen(field) + 1, line);
	memset(field, 'x', sizeof(field));
	field[OSL_COMMENT_MAX - strlen(line) - 1] = '\0';
	strcpy(out, "untouched");
	ck_assert(!osl_comment_merge(field, line, out, sizeof(out)));
	/* ... also when ours would grow in place */
	snprintf(field, sizeof(field), "%s\n", old);
	memset(field + strlen(field), 'x', OSL_COMMENT_MAX - strlen(field));
	field[OSL_COMMENT_MAX - 1] = '\0';
	ck_assert(osl_comment_merge(field, line, out, sizeof(out)));
	ck_assert_str_eq(out + strlen(line) + 1, field + strlen(old) + 1);
	snprintf(want, sizeof(want), "%s ", line);
	ck_assert(!osl_comment_merge(field, want, out, sizeof(out)));
}
END_TEST

/* Pending ranked jobs get their rank and campaign, running jobs rank 0;
 * finished, unranked and second-partition observations get nothing; an
 * array record gets the summary of its best task; foreign text is kept
 * before ours; an unchanged comment is not written again. */
START_TEST(test_comments)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[7], **idx;
	osl_obs_vec_t vec = { .v = obs, .n = 7, .cap = 7 };
	ost_summary_t sum;

	memset(recs, 0, sizeof(recs));
	obs[0] = running(1, 11, T0, T0 + 1, &recs[0]);
	obs[1] = pend(2, 10, T0, &recs[1]);
	obs[2] = pend(OSL_ARRAY_KEY(3, 0), 11, T0, &recs[2]);
	obs[3] = pend(OSL_ARRAY_KEY(3, 1), 11, T0, &recs[2]);
	obs[2].group = obs[3].group = 3;
	obs[2].rec_id = obs[3].rec_id = 3;	/* the array's own record */
	obs[4] = pend(4, 10, T0, &recs[3]);
	obs[5] = finished(5, 10, T0, T0 + 1, T0 + 2, &recs[4]);
	obs[6] = pend(6, 10, T0, &recs[5]);
	obs[6].slot = 1;			/* its second partition */
	idx = osl_obs_index(&vec);		/* by key */
	ck_assert_int_eq(osl_sync(&p, idx, 7, T0 + 2, OSL_SYNC_ALL, NULL), 7);
	osl_prio_rank(&p, idx, 7);
	obs[4].rank = 0;			/* as if not ranked */
	recs[1].comment = dup_str("checked by ops");
	osl_comments(&p, idx, 7, &ops);

	ck_assert_ptr_nonnull(recs[0].comment);
	ck_assert_int_eq(ost_summary_parse(recs[0].comment, &sum), 0);
	ck_assert_str_eq(sum.user, "bob");
	ck_assert_uint_eq(sum.rank, 0);

	ck_assert_msg(!strncmp(recs[1].comment, "checked by ops\nostrich ", 23),
		      "foreign text lost: %s", recs[1].comment);
	ck_assert_int_eq(ost_summary_parse(recs[1].comment + 15, &sum), 0);
	ck_assert_str_eq(sum.user, "alice");
	ck_assert_uint_eq(sum.rank, obs[1].rank);
	ck_assert_uint_eq(sum.pending, 5);
	ck_assert_uint_eq(sum.campaign, obs[1].campaign);

	ck_assert_int_eq(ost_summary_parse(recs[2].comment, &sum), 0);
	ck_assert_str_eq(sum.user, "bob");
	ck_assert_uint_eq(sum.rank, obs[2].rank < obs[3].rank ?
			  obs[2].rank : obs[3].rank);
	ck_assert_int_eq(recs[2].sets, 1);

	ck_assert_ptr_null(recs[3].comment);	/* unranked */
	ck_assert_ptr_null(recs[4].comment);	/* finished */
	ck_assert_ptr_null(recs[5].comment);	/* second partition */

	osl_comments(&p, idx, 7, &ops);
	_written_once(3);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	free_part(&p);
}
END_TEST

/*
 * An array whose tasks 2 and 4 were split off into records of their own
 * (one running, one pending): sorted by key they stand between the
 * pending tasks 1, 3 and 5 of the array's own record.  That record still
 * gets one line, of its best-ranked task, written once; a second pass
 * with nothing changed writes nothing.
 */
START_TEST(test_comments_split_array)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[6], **idx;
	osl_obs_vec_t vec = { .v = obs, .n = 6, .cap = 6 };
	ost_summary_t sum;
	uint64_t best = UINT64_MAX;
	int i;

	memset(recs, 0, sizeof(recs));
	for (i = 1; i <= 5; i++) {
		void *rec = i == 2 ? &recs[1] : i == 4 ? &recs[2] : &recs[0];

		obs[i - 1] = i == 2 ? running(OSL_ARRAY_KEY(7, i), 11, T0,
					      T0 + 1, rec) :
				      pend(OSL_ARRAY_KEY(7, i), 11, T0, rec);
		obs[i - 1].group = 7;
		obs[i - 1].rec_id = i == 2 ? 8 : i == 4 ? 9 : 7;
		obs[i - 1].estimate = 600 * i;	/* LPT: task 5 first */
	}
	obs[5] = pend(20, 10, T0, &recs[3]);
	idx = osl_obs_index(&vec);
	ck_assert_int_eq(osl_sync(&p, idx, 6, T0 + 2, OSL_SYNC_ALL, NULL), 7);
	osl_prio_rank(&p, idx, 6);
	for (i = 0; i < 5; i++)
		if (obs[i].rec_id == 7 && obs[i].rank &&
		    obs[i].rank < best)
			best = obs[i].rank;
	ck_assert_uint_eq(best, obs[4].rank);	/* task 5 */
	osl_comments(&p, idx, 6, &ops);
	ck_assert_int_eq(recs[0].sets, 1);
	ck_assert_int_eq(ost_summary_parse(recs[0].comment, &sum), 0);
	ck_assert_uint_eq(sum.rank, best);
	ck_assert_int_eq(recs[1].sets, 1);	/* running task 2 */
	ck_assert_int_eq(ost_summary_parse(recs[1].comment, &sum), 0);
	ck_assert_uint_eq(sum.rank, 0);
	ck_assert_int_eq(recs[2].sets, 1);	/* pending task 4 */
	ck_assert_int_eq(ost_summary_parse(recs[2].comment, &sum), 0);
	ck_assert_uint_eq(sum.rank, obs[3].rank);
	osl_comments(&p, idx, 6, &ops);
	_written_once(4);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	free_part(&p);
}
END_TEST

/*
 * PrivateData=jobs: rank=R/P among the owner's pending jobs only, and no
 * share (view=own).  Alice has 3 pending jobs, bob 2 (one an array of 2
 * tasks counted as tasks) and a running one: whatever the global order,
 * alice sees ranks 1..3 of 3, bob 1..3 of 3 and 0/3 on the running job.
 */
START_TEST(test_comments_private)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[7], **idx;
	osl_obs_vec_t vec = { .v = obs, .n = 7, .cap = 7 };
	ost_summary_t sum;
	uint64_t seen[2][4] = { { 0 } };
	int i;

	memset(recs, 0, sizeof(recs));
	obs[0] = running(1, 11, T0, T0 + 1, &recs[0]);
	obs[1] = pend(2, 10, T0, &recs[1]);
	obs[2] = pend(3, 11, T0, &recs[2]);
	obs[3] = pend(OSL_ARRAY_KEY(4, 0), 11, T0, &recs[3]);
	obs[4] = pend(OSL_ARRAY_KEY(4, 1), 11, T0, &recs[3]);
	obs[3].group = obs[4].group = 4;
	obs[5] = pend(5, 10, T0 + 1, &recs[4]);
	obs[6] = pend(6, 10, T0 + 1, &recs[5]);
	idx = osl_obs_index(&vec);
	ck_assert_int_eq(osl_sync(&p, idx, 7, T0 + 2, OSL_SYNC_ALL, NULL), 8);
	osl_prio_rank(&p, idx, 7);
	osl_comments(&p, idx, 7, &private_ops);

	for (i = 0; i < 6; i++) {
		ck_assert_ptr_nonnull(recs[i].comment);
		ck_assert_msg(!strstr(recs[i].comment, "share=") &&
			      strstr(recs[i].comment, " view=own mode=ostrich"),
			      "record %d: %s", i, recs[i].comment);
		ck_assert_int_eq(ost_summary_parse(recs[i].comment, &sum), 0);
		ck_assert_uint_eq(sum.pending, 3);
		ck_assert_uint_le(sum.rank, 3);
		seen[!strcmp(sum.user, "bob")][sum.rank]++;
	}
	/* alice: ranks 1, 2, 3; bob: running 0, his own ranks 1..3 with the
	 * array record showing its best task */
	ck_assert_msg(seen[0][0] == 0 && seen[0][1] == 1 && seen[0][2] == 1 &&
		      seen[0][3] == 1, "alice's ranks");
	ck_assert_msg(seen[1][0] == 1 && seen[1][1] + seen[1][2] +
		      seen[1][3] == 2, "bob's ranks");
	for (i = 0; i < 8; i++)
		free(recs[i].comment);
	osl_tfree(idx, vec.n + 1, sizeof(*idx));
	free_part(&p);
}
END_TEST

/*
 * A submission writes its record's line at once (osl_comments_new), the
 * line the next pass writes for it to the byte but for a last " new=1":
 * its rank among all, C~ from the core for its campaign alone, foreign
 * text kept; new=1 tells readers that the others' lines are of the last
 * pass (scampaign does not mix the two), so the pass rewrites it once,
 * without.  Under
 * PrivateData=jobs it writes nothing and says so (0): the owner's rank
 * needs the pass.
 */
START_TEST(test_comments_new)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[4], nw, *idx[5], *np = &nw;
	char *was;
	int i;

	memset(recs, 0, sizeof(recs));
	obs[0] = running(1, 11, T0, T0 + 1, &recs[0]);
	obs[1] = pend(2, 11, T0, &recs[1]);
	obs[2] = pend(3, 11, T0, &recs[2]);
	obs[3] = pend(4, 10, T0, &recs[3]);
	for (i = 0; i < 4; i++)
		idx[i] = &obs[i];
	ck_assert_int_eq(osl_sync(&p, idx, 4, T0 + 1, OSL_SYNC_ALL, NULL), 5);
	osl_prio_rank(&p, idx, 4);
	osl_prio_renumber(&p, idx, 4);
	osl_comments(&p, idx, 4, &ops);

	/* a short job of a third user, who has no campaign yet */
	nw = pend(5, 12, T0 + 2, &recs[4]);
	nw.estimate = 60;
	recs[4].comment = dup_str("checked by ops");
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 2, OSL_SYNC_NEW, NULL), 1);
	osl_prio_new(&p, &np, 1);
	ck_assert_uint_eq(nw.rank, 1);
	ck_assert_int_eq(osl_comments_new(&p, &np, 1, &private_ops), 0);
	ck_assert_str_eq(recs[4].comment, "checked by ops");
	ck_assert_int_eq(osl_comments_new(&p, &np, 1, &ops), 1);
	ck_assert_msg(!strncmp(recs[4].comment, "checked by ops\nostrich "
			       "campaign=carol/1 rank=1/4 vct=", 51),
		      "submission line: %s", recs[4].comment);
	ck_assert_int_eq(recs[4].sets, 1);
	ck_assert_msg(strlen(recs[4].comment) > 6 &&
		      !strcmp(recs[4].comment + strlen(recs[4].comment) - 6,
			      " new=1"), "no new=1: %s", recs[4].comment);

	/* the pass that follows changes only that: new=1 goes */
	was = dup_str(recs[4].comment);
	was[strlen(was) - 6] = '\0';
	idx[4] = np;
	ck_assert_int_eq(osl_sync(&p, idx, 5, T0 + 2, OSL_SYNC_ALL, NULL), 0);
	osl_prio_rank(&p, idx, 5);
	osl_comments(&p, idx, 5, &ops);
	ck_assert_str_eq(recs[4].comment, was);
	ck_assert_int_eq(recs[4].sets, 2);
	/* and a second pass writes nothing */
	osl_comments(&p, idx, 5, &ops);
	ck_assert_int_eq(recs[4].sets, 2);
	free(was);
	for (i = 0; i < 8; i++)
		free(recs[i].comment);
	free_part(&p);
}
END_TEST

/*
 * vstart= (§24): alice's 4-CPU job ran alone in R while bob's waited, so
 * her next job opens a campaign that starts in V only later (not
 * eligible): its line says when, the core's ost_sched_job_vstart to the
 * second, both from a pass and at a submission; the lines of started
 * campaigns (bob's, carol's) have none.
 */
START_TEST(test_comments_vstart)
{
	osl_part_t p = mk_part(4);
	ost_config_t cfg = *ost_sched_config(p.sched);
	osl_obs_t before[2], obs[4], nw, *idx[5], *np = &nw;
	ost_summary_t sum;
	double vs = 0;
	int i;

	memset(recs, 0, sizeof(recs));
	cfg.think_time = 0;
	ck_assert_int_eq(ost_sched_reconfigure(p.sched, &cfg, T0), 0);
	before[0] = running(1, 10, T0, T0, &recs[0]);
	before[1] = pend(2, 11, T0, &recs[1]);
	obs[0] = finished(1, 10, T0, T0, T0 + 1000, &recs[0]);
	obs[1] = running(2, 11, T0, T0 + 1000, &recs[1]);
	obs[2] = pend(3, 10, T0 + 1010, &recs[2]);
	obs[3] = pend(4, 12, T0 + 1010, &recs[3]);
	for (i = 0; i < 2; i++) {
		before[i].procs = obs[i].procs = 4;
		before[i].estimate = obs[i].estimate = 1000;
		idx[i] = &before[i];
	}
	obs[3].procs = 4;
	obs[3].estimate = 100000;
	ck_assert_int_ge(osl_sync(&p, idx, 2, T0 + 10, OSL_SYNC_ALL, NULL), 2);
	for (i = 0; i < 4; i++)
		idx[i] = &obs[i];
	ck_assert_int_ge(osl_sync(&p, idx, 4, T0 + 1010, OSL_SYNC_ALL, NULL),
			 4);
	osl_prio_rank(&p, idx, 4);
	osl_prio_renumber(&p, idx, 4);
	osl_comments(&p, idx, 4, &ops);
	ck_assert_int_eq(ost_sched_job_vstart(p.sched, 3, &vs), 0);
	ck_assert_double_gt(vs, T0 + 1010);
	ck_assert_int_eq(ost_summary_parse(recs[2].comment, &sum), 0);
	ck_assert_msg(fabs(sum.vstart - vs) <= 0.5, "%s: want %.0f",
		      recs[2].comment, vs);
	ck_assert_ptr_null(strstr(recs[1].comment, "vstart="));
	ck_assert_ptr_null(strstr(recs[3].comment, "vstart="));

	/* a second small job of alice's at once: same campaign, same line
	 * from the submission path but for new=1 */
	nw = pend(5, 10, T0 + 1010, &recs[4]);
	ck_assert_int_eq(osl_sync(&p, &np, 1, T0 + 1010, OSL_SYNC_NEW, NULL),
			 1);
	osl_prio_new(&p, &np, 1);
	ck_assert_int_eq(osl_comments_new(&p, &np, 1, &ops), 1);
	ck_assert_int_eq(ost_summary_parse(recs[4].comment, &sum), 0);
	ck_assert_msg(fabs(sum.vstart - vs) <= 0.5, "%s", recs[4].comment);
	for (i = 0; i < 8; i++)
		free(recs[i].comment);
	free_part(&p);
}
END_TEST

/* The names a submission may use: those the pass resolved, as they were
 * last resolved; never one it did not. */
START_TEST(test_names)
{
	uint32_t uid;
	char name[16];

	ck_assert_ptr_null(osl_name_get(12));
	osl_name_put(12, NULL);
	ck_assert_ptr_null(osl_name_get(12));
	for (uid = 300; uid > 0; uid -= 3) {	/* out of order, grows */
		snprintf(name, sizeof(name), "u%u", uid);
		osl_name_put(uid, name);
	}
	for (uid = 300; uid > 0; uid -= 3) {
		snprintf(name, sizeof(name), "u%u", uid);
		ck_assert_str_eq(osl_name_get(uid), name);
		ck_assert_ptr_null(osl_name_get(uid - 1));
	}
	osl_name_put(150, "renamed");
	ck_assert_str_eq(osl_name_get(150), "renamed");
	ck_assert_str_eq(osl_name_get(147), "u147");
	ck_assert_str_eq(osl_name_get(153), "u153");
	osl_names_free();
	ck_assert_ptr_null(osl_name_get(150));
}
END_TEST

/* The fingerprint tells a field that was written from one that was not,
 * whatever the address of its text. */
START_TEST(test_print)
{
	char a[64] = "ostrich campaign=alice/1 rank=1/2";
	char b[64];
	uint64_t pa = osl_comment_print(a);

	ck_assert_uint_eq(osl_comment_print(NULL), 0);
	ck_assert_uint_ne(osl_comment_print(""), 0);
	ck_assert_uint_ne(osl_comment_print(""), pa);
	strcpy(b, a);
	ck_assert_uint_eq(osl_comment_print(b), pa);	/* same text */
	strcat(a, "\nbb: no space");		/* appended in place */
	ck_assert_uint_ne(osl_comment_print(a), pa);
	a[strlen(b)] = '\0';			/* and cut back */
	ck_assert_uint_eq(osl_comment_print(a), pa);
	b[8] = 'C';				/* one byte differs */
	ck_assert_uint_ne(osl_comment_print(b), pa);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_merge,
		test_comments,
		test_comments_split_array,
		test_comments_private,
		test_comments_new,
		test_comments_vstart,
		test_names,
		test_print,
		NULL
	};

	return ost_check_tests("comment", PLUG_TIMEOUT, tests);
}
