/*****************************************************************************\
 *  check_comment.c - the SystemComment: the core's summary line of each
 *  job, written next to (today: over) someone else's text in the field
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include "plug_util.h"

static fake_rec_t recs[8];

static const char *_name(uint32_t uid)
{
	return uid == 10 ? "alice" : uid == 11 ? "bob" : NULL;
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

static const osl_comment_ops_t ops = {
	.user_name = _name, .set = _set, .get = _get,
};

/* The merge is a pure function: an equal field stays, anything else
 * (empty, an older line, someone else's text) becomes the line. */
START_TEST(test_merge)
{
	const char *line = "ostrich campaign=alice/1 rank=1/2 vct=- share=0.5 mode=ostrich";
	char out[OST_SUMMARY_MAX];

	ck_assert(!osl_comment_merge(line, line, out, sizeof(out)));
	ck_assert(osl_comment_merge(NULL, line, out, sizeof(out)));
	ck_assert_str_eq(out, line);
	ck_assert(osl_comment_merge("", line, out, sizeof(out)));
	ck_assert_str_eq(out, line);
	/* current behaviour: foreign text is not kept */
	ck_assert(osl_comment_merge("checked by ops, see ticket 42", line,
				    out, sizeof(out)));
	ck_assert_str_eq(out, line);
	ck_assert(osl_comment_merge("checked by ops; ostrich campaign=alice/1 rank=1/2",
				    line, out, sizeof(out)));
	ck_assert_str_eq(out, line);
}
END_TEST

/* Pending ranked jobs get their rank and campaign, running jobs rank 0;
 * finished, unranked and second-partition observations get nothing; an
 * array record gets the summary of its best task; foreign text is
 * replaced; an unchanged comment is not written again. */
START_TEST(test_comments)
{
	osl_part_t p = mk_part(8);
	osl_obs_t obs[7], **idx;
	osl_obs_vec_t vec = { .v = obs, .n = 7, .cap = 7 };
	ost_summary_t sum;
	int i;

	memset(recs, 0, sizeof(recs));
	obs[0] = running(1, 11, T0, T0 + 1, &recs[0]);
	obs[1] = pend(2, 10, T0, &recs[1]);
	obs[2] = pend(OSL_ARRAY_KEY(3, 0), 11, T0, &recs[2]);
	obs[3] = pend(OSL_ARRAY_KEY(3, 1), 11, T0, &recs[2]);
	obs[2].group = obs[3].group = 3;
	obs[4] = pend(4, 10, T0, &recs[3]);
	obs[5] = finished(5, 10, T0, T0 + 1, T0 + 2, &recs[4]);
	obs[6] = pend(6, 10, T0, &recs[5]);
	obs[6].slot = 1;			/* its second partition */
	idx = osl_obs_index(&vec);		/* by key */
	ck_assert_int_eq(osl_sync(&p, idx, 7, T0 + 2, OSL_SYNC_ALL, NULL), 7);
	osl_prio_rank(&p, idx, 7);
	obs[4].rank = 0;			/* as if not ranked */
	recs[1].comment = dup_str("checked by ops");
	osl_comments(&p, idx, 7, OST_MODE_OSTRICH, &ops);

	ck_assert_ptr_nonnull(recs[0].comment);
	ck_assert_int_eq(ost_summary_parse(recs[0].comment, &sum), 0);
	ck_assert_str_eq(sum.user, "bob");
	ck_assert_uint_eq(sum.rank, 0);

	ck_assert_int_eq(ost_summary_parse(recs[1].comment, &sum), 0);
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

	osl_comments(&p, idx, 7, OST_MODE_OSTRICH, &ops);
	for (i = 0; i < 3; i++)
		ck_assert_msg(recs[i].sets == 1, "record %d written %d times",
			      i, recs[i].sets);
	for (i = 0; i < 8; i++)
		free(recs[i].comment);
	free(idx);
	free_part(&p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("comment");
	TCase *tc = tcase_create("SystemComment");

	tcase_set_timeout(tc, PLUG_TIMEOUT);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_comments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ost_check_run(suite());
}
