/*****************************************************************************\
 *  fuzz_evlog.c - libFuzzer target: the event log's reader and its replay
 *  (plugins/lib/osl_evlog.c), which ost-replay runs on an EventLog= file.
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  Each line of the input that parses must print back to a line that
 *  parses to a record printing the same bytes (a fixed point), and may be
 *  judged torn or not without a crash.  The records are then replayed, in
 *  order, through the core, as ost-replay does: whatever they say, the
 *  core answers with an error or a schedule, never a crash, a leak or a
 *  hang.  "load" records are parsed but not replayed: their path is the
 *  input's, and a fuzzer must not read files it names.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ostrich.h"
#include "osl_evlog.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", \
	__FILE__, __LINE__, #c); abort(); } } while (0)

/* r printed into a new string (free() it). */
static char *_print(const osl_evlog_rec_t *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	CHECK(f);
	osl_evlog_write(f, r);
	CHECK(!fclose(f));
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *next;
	ost_sched_t *s = NULL;
	char err[512];

	CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = text; line; line = next) {
		osl_evlog_rec_t r, r2;
		char *p1, *cut, *p2;

		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		(void) osl_evlog_torn(line);
		if (osl_evlog_parse(line, &r))
			continue;
		p1 = _print(&r);
		CHECK(p1[0] && p1[strlen(p1) - 1] == '\n');
		CHECK((cut = strdup(p1)));	/* the parser cuts it */
		CHECK(!osl_evlog_parse(cut, &r2));
		p2 = _print(&r2);
		CHECK(!strcmp(p1, p2));
		free(p2);
		free(cut);
		free(p1);
		if (r.op != OSL_LOG_LOAD)	/* r points into text */
			(void) osl_evlog_apply(&s, &r, err, sizeof(err));
	}
	ost_sched_destroy(s);
	free(text);
	return 0;
}
