/*****************************************************************************\
 *  fuzz_state.c - libFuzzer target: the engine state loader
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  The input is loaded as is (the checksum path), then resealed: its end
 *  line is rewritten with the right record count and CRC-32, so that
 *  mutations reach the value parsing behind the checksum.  A state that
 *  loads must survive every query, save, load again to the same bytes,
 *  and still save and load after a few more events.
\*****************************************************************************/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

static uint32_t _crc32(const char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= (unsigned char) *p++;
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

/* data with its last "end " line (or an added one) carrying the right
 * count and checksum; NULL when memory is short.  *len is set. */
static char *_reseal(const uint8_t *data, size_t size, size_t *len)
{
	size_t body = size, lines = 0, i;
	char *out;

	/* keep everything before the last line starting with "end " */
	for (i = size; i > 0; i--)
		if ((i == 1 || data[i - 2] == '\n') && size - (i - 1) >= 4 &&
		    !memcmp(data + i - 1, "end ", 4)) {
			body = i - 1;
			break;
		}
	if (body && data[body - 1] != '\n')
		return NULL;
	for (i = 0; i < body; i++)
		lines += data[i] == '\n';
	out = malloc(body + 64);
	if (!out)
		return NULL;
	memcpy(out, data, body);
	*len = body + (size_t) sprintf(out + body, "end records=%zu "
				       "crc32=%08x\n", lines ? lines - 1 : 0,
				       (unsigned) _crc32(out, body));
	return out;
}

static int _visit_pending(const ost_rank_info_t *r, void *arg)
{
	uint64_t *n = arg;

	CHECK(r->rank == ++*n);
	return 0;
}

static int _visit_campaign(const ost_campaign_info_t *c, void *arg)
{
	(void) arg;
	CHECK(c->seq >= 1);
	return 0;
}

static int _visit_job(const ost_job_info_t *j, void *arg)
{
	const ost_sched_t *s = arg;
	ost_explain_t ex;
	uint64_t rank;
	int rc = ost_sched_rank(s, j->id, &rank);

	CHECK(rc == 0 || (rc == -OST_ESTATE && j->state == OST_JOB_RUNNING));
	if (ost_sched_explain(s, j->id, 3, &ex) == 0)
		ost_explain_free(&ex);
	return 0;
}

/* Save s, load it back, save again: the same bytes. */
static void _round_trip(const ost_sched_t *s)
{
	ost_sched_t *t = NULL;
	char *b1 = NULL, *b2 = NULL, err[256];
	size_t l1, l2;

	if (ost_sched_save(s, &b1, &l1))
		return;		/* memory */
	if (ost_sched_load(b1, l1, &t, err, sizeof(err))) {
		fprintf(stderr, "saved state refused: %s\n%s", err, b1);
		abort();
	}
	CHECK(!ost_sched_save(t, &b2, &l2));
	CHECK(l1 == l2 && !memcmp(b1, b2, l1));
	ost_sched_destroy(t);
	free(b1);
	free(b2);
}

static void _exercise(ost_sched_t *s)
{
	uint64_t n = 0;
	ost_stats_t st;
	double t;
	ost_job_desc_t d = { .id = UINT64_MAX - 7, .uid = 1, .procs = 1,
			     .estimate = 60 };

	ost_sched_foreach_pending(s, _visit_pending, &n);
	ost_sched_stats(s, &st);
	CHECK(n == st.pending);
	ost_sched_foreach_campaign(s, _visit_campaign, NULL);
	ost_sched_foreach_job(s, _visit_job, s);
	(void) ost_sched_next_vevent(s);
	_round_trip(s);
	/* a few more events from the loaded state */
	t = ost_sched_now(s);
	t = ost_time_ok(t + 100) ? t + 100 : 0;
	ost_sched_advance(s, t);
	if (!ost_job_submit(s, &d, t, NULL)) {
		(void) ost_job_update(s, d.id, 3, 1e5, t);
		(void) ost_job_start_alloc(s, d.id, t + 1, 2);
		(void) ost_job_finish_capped(s, d.id, t + 2, 1e9, 60, NULL);
	}
	ost_sched_advance(s, t + 1e6);
	_round_trip(s);
	/* a clock step back and forth: shifted times must still load */
	if (!ost_sched_rebase(s, -1e12))
		_round_trip(s);
	(void) ost_sched_rebase(s, 5e11);
	_round_trip(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ost_sched_t *s = NULL;
	char err[256], *sealed;
	size_t len;

	if (!ost_sched_load((const char *) data, size, &s, err, sizeof(err))) {
		_exercise(s);
		ost_sched_destroy(s);
		s = NULL;
	}
	CHECK(!s);
	if (!(sealed = _reseal(data, size, &len)))
		return 0;
	if (!ost_sched_load(sealed, len, &s, err, sizeof(err))) {
		_exercise(s);
		ost_sched_destroy(s);
	}
	free(sealed);
	return 0;
}
