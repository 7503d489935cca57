/*****************************************************************************\
 *  print.h - scampaign output: squeue-like columns, or JSON
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef SC_PRINT_H
#define SC_PRINT_H

#include "campaigns.h"

/* Default -o format. */
#define SC_DEFAULT_FORMAT "%-10P %-10u %4c %7p %7r %5d %6R %-19v %6s"

/* Check a -o format.  Returns 0, or -1 with a static reason in *why. */
int sc_format_check(const char *fmt, const char **why);

/* Print cs[0..n) in columns of fmt (header unless noheader). */
void sc_print_table(FILE *fp, const char *fmt, bool noheader,
		    const sc_campaign_t *cs, size_t n, double now);

/* Print cs[0..n) as one JSON object {"campaigns": [...]}. */
void sc_print_json(FILE *fp, const sc_campaign_t *cs, size_t n);

#endif /* SC_PRINT_H */
