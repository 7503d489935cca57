/*****************************************************************************\
 *  partinfo.c - partition sizes from `scontrol show partition -o` (§17).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
 *
 *  A line is "Key=value Key=value ..."; values have no blanks in the -o
 *  form.  Used: PartitionName, TotalCPUs, TRES (its billing=), MaxTime.
\*****************************************************************************/

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ost_grow.h"
#include "partinfo.h"
#include "slurmfmt.h"

/* The value of key in the line, its length in *len.  RET: NULL if absent. */
static const char *_value(const char *line, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *p = line; *p;) {
		size_t n;

		while (isspace((unsigned char) *p))
			p++;
		n = strcspn(p, " \t");
		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			*len = n - klen - 1;
			return p + klen + 1;
		}
		p += n;
	}
	return NULL;
}

/* Fill *pt from one line.  RET: 0, 1 (no PartitionName: not a partition
 * line), or -1 with *why. */
static int _line(const char *line, sim_partition_t *pt, const char **why)
{
	const char *v;
	size_t len;
	double x = 0;
	char buf[32];

	if (!(v = _value(line, "PartitionName", &len)) || !len)
		return 1;
	if ((v = _value(line, "TRES", &len)) &&
	    !sim_tres_get(v, len, "billing", &x) && x >= 1)
		;
	else if ((v = _value(line, "TotalCPUs", &len)) && len &&
		 len < 11 && strspn(v, "0123456789") == len &&
		 (x = strtod(v, NULL)) >= 1)
		;
	else {
		*why = "no TRES billing= or TotalCPUs >= 1";
		return -1;
	}
	if (x > UINT32_MAX) {
		*why = "size above 4294967295";
		return -1;
	}
	pt->total = (uint32_t) x;
	pt->max_time = -1;
	if ((v = _value(line, "MaxTime", &len)) && len < sizeof(buf)) {
		memcpy(buf, v, len);
		buf[len] = '\0';
		if (sim_slurm_duration(buf, &pt->max_time))
			pt->max_time = -1;
	}
	v = _value(line, "PartitionName", &len);
	if (!(pt->name = strndup(v, len))) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

int sim_partitions_read(const char *path, sim_partitions_t *out, char *err,
			size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, pcap = 0;
	long lineno = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	while (!rc && getline(&line, &cap, f) >= 0) {
		sim_partition_t pt, *np;
		const char *why = NULL;
		int r;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if ((r = _line(line, &pt, &why)) > 0)
			continue;
		if (!r && !(np = ost_grow(out->p, &pcap, out->n + 1,
					  sizeof(*np), 8))) {
			free(pt.name);
			why = "out of memory";
			r = -1;
		}
		if (r) {
			snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
			rc = -1;
			break;
		}
		out->p = np;
		out->p[out->n++] = pt;
	}
	free(line);
	fclose(f);
	if (!rc && !out->n) {
		snprintf(err, errlen, "%s: no PartitionName= line", path);
		rc = -1;
	}
	if (rc)
		sim_partitions_free(out);
	return rc;
}

const sim_partition_t *sim_partition_find(const sim_partitions_t *ps,
					  const char *name)
{
	for (size_t i = 0; ps && i < ps->n; i++)
		if (!strcmp(ps->p[i].name, name))
			return &ps->p[i];
	return NULL;
}

void sim_partitions_free(sim_partitions_t *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i].name);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
