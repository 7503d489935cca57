/*****************************************************************************\
 *  ost_state.c - the engine state format (doc/state-format.md): what its
 *  writer (ost_state_save.c) and its reader (ost_state_load.c) share
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A line-oriented text format: what cannot be derived (configuration,
 *  clock, v, users, campaigns' floors and lengths, jobs), doubles in C99
 *  hexadecimal so they round-trip bit for bit, records in a canonical order
 *  (uid, seq, job id) so equal states give equal bytes, and a closing line
 *  with the record count and the CRC-32 of everything before it.  Derived
 *  state (tags, deadlines, W, the order) is rebuilt by the same code that
 *  maintains it live.
 *
 *  Version 2 (written only when version 1 cannot hold the state: the nested
 *  schedule of §21) adds the accounts and the values of the nested
 *  schedule that are history rather than a function of the records: each
 *  node's v_n, the heaps of active children in their array order (sums
 *  over them round in that order), W_n, an account's F_n, and a
 *  campaign's projected key and gate (§21's keys keep the instant they
 *  were reached).  Version 3 (written only when a job's nice was
 *  lowered) adds each job's lowered= and the clock's (§22: which
 *  lowering came last, and the last number given).
 *
 *  The reader is three files, bottom-up: ost_state_field.c (the fields of
 *  a line), ost_state_rec.c (one record a line), ost_state_load.c (the
 *  file: header, end line, then the derived state rebuilt).
\*****************************************************************************/

#include "ost_state.h"

/* CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320), bitwise: the state is
 * saved once per pass, so a table buys nothing worth its lines. */
uint32_t ost_state_crc32(const char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= (unsigned char)p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}
