#!/usr/bin/env python3
# swf2sacct.py - write an SWF trace as the sacct dump of the same jobs
# (doc/semantics.md §17), for the SWF/sacct identity test (sacct.sh).
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage: swf2sacct.py [--names] [--base EPOCH] SWF OUT
# Times are written in UTC (the test runs with TZ=UTC) at EPOCH + the SWF
# second.  Field mapping, the inverse of §8 and §17: JobIDRaw = 1,
# Submit = 2, Start = 2 + max(3, 0), End = Start + 4, AllocTRES billing and
# cpu = 5 if > 0 else 8, Timelimit = 9 if > 0 else UNLIMITED, User = 12
# (--names: "u" and 12 zero-padded, so that names sort as ids do),
# Account = "g" and 13.  A line with fewer than 18 fields is dropped.
# The columns are written in a shuffled order on purpose (§17: any order).

import gzip
import sys
import time

COLS = ["State", "End", "JobIDRaw", "Account", "User", "Timelimit",
        "Submit", "AllocTRES", "Partition", "ReqTRES", "Start"]


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))


def duration(s):
    d, s = divmod(int(s), 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return ("%d-" % d if d else "") + "%02d:%02d:%02d" % (h, m, s)


def main(argv):
    names = "--names" in argv
    argv = [a for a in argv if a != "--names"]
    base = 1700000000
    if argv[1] == "--base":
        base = int(argv[2])
        argv = argv[:1] + argv[3:]
    src, out = argv[1], argv[2]
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rt") as f, open(out, "w") as o:
        o.write("|".join(COLS) + "\n")
        for line in f:
            f_ = line.split()
            if not f_ or f_[0].startswith(";") or len(f_) != 18:
                continue
            v = [int(float(x)) for x in f_]
            submit = base + v[1]
            start = submit + max(v[2], 0)
            end = start + v[3]
            q = v[4] if v[4] > 0 else v[7]
            tres = "billing=%d,cpu=%d,node=1" % (q, q) if q > 0 else ""
            user = ("u%06d" % max(v[11], 0)) if names else str(max(v[11], 0))
            row = {
                "State": "COMPLETED" if v[10] == 1 else "FAILED",
                "End": stamp(end), "JobIDRaw": str(max(v[0], 0)),
                "Account": "g%d" % v[12], "User": user,
                "Timelimit": duration(v[8]) if v[8] > 0 else "UNLIMITED",
                "Submit": stamp(submit), "AllocTRES": tres,
                "Partition": "batch", "ReqTRES": tres,
                "Start": stamp(start),
            }
            o.write("|".join(row[c] for c in COLS) + "\n")


if __name__ == "__main__":
    main(sys.argv)
