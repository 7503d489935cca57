#!/usr/bin/env python3
# accounts-tables.py - the tables of sim/accounts-experiments.sh (§21)
# SPDX-License-Identifier: GPL-2.0-or-later
import csv
import sys
from collections import defaultdict


def groups(path):
    g = {}
    with open(path) as f:
        for line in f:
            uid, gid = line.split()
            g[uid] = "none" if int(float(gid)) < 0 else gid
    return g


def per_account(g, path):
    acc = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            acc[g.get(r["user"], "none")].append(float(r["stretch"]))
    return acc


def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q else 1.0


def traces(name, m, gpath, flat, nested, fs, ft):
    g = groups(gpath)
    for h, path in (("ostrich flat", flat), ("ostrich nested", nested),
                    ("fairshare", fs), ("fairtree", ft)):
        acc = per_account(g, path)
        means = [sum(v) / len(v) for v in acc.values()]
        maxes = [max(v) for v in acc.values()]
        allv = [x for v in acc.values() for x in v]
        print("| %s | %s | %d | %s | %.2f | %.1f | %.1f | %.3f | %.2f | %.1f |"
              % (name, m, len(acc), h, sum(means) / len(means), max(means),
                 max(maxes), jain(means), sum(allv) / len(allv), max(allv)))


def detail(name, gpath, flat, nested):
    g = groups(gpath)
    a, b = per_account(g, flat), per_account(g, nested)
    users = defaultdict(set)
    for u, x in g.items():
        users[x].add(u)
    print("\n%s per account (flat → nested):\n" % name)
    print("| account | users | campaigns | mean stretch flat | mean stretch nested "
          "| max stretch flat | max stretch nested |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(a, key=lambda x: (x == "none", x)):
        print("| %s | %d | %d | %.2f | %.2f | %.1f | %.1f |"
              % (k, len(users[k]), len(a[k]), sum(a[k]) / len(a[k]),
                 sum(b[k]) / len(b[k]), max(a[k]), max(b[k])))


def solo(policy, hier, jpath, cpath):
    """CPU share of each account over the time both have a job waiting."""
    ev = []
    with open(jpath) as f:
        for r in csv.DictReader(f):
            a = 0 if r["user"] == "1" else 1
            q = int(r["procs"])
            sub, s, e = float(r["submit"]), float(r["start"]), float(r["end"])
            ev += [(sub, a, 1, 0), (s, a, -1, q), (e, a, 0, -q)]
    ev.sort()
    wait, run, got, both = [0, 0], [0, 0], [0.0, 0.0], 0.0
    for i, (t, a, dw, dq) in enumerate(ev):
        wait[a] += dw
        run[a] += dq
        nxt = ev[i + 1][0] if i + 1 < len(ev) else t
        if wait[0] > 0 and wait[1] > 0 and nxt > t:
            got[0] += run[0] * (nxt - t)
            got[1] += run[1] * (nxt - t)
            both += nxt - t
    st = defaultdict(list)
    with open(cpath) as f:
        for r in csv.DictReader(f):
            st["solo" if r["user"] == "1" else "big"].append(
                float(r["stretch"]))
    tot = got[0] + got[1]
    print("| %s | %s | %.0f | %.3f | %.3f | %.2f | %.2f |"
          % (policy, hier, both, got[0] / tot, got[1] / tot,
             sum(st["solo"]) / len(st["solo"]),
             sum(st["big"]) / len(st["big"])))


if __name__ == "__main__":
    k = sys.argv[1]
    if k == "traces":
        traces(*sys.argv[2:9])
    elif k == "detail":
        detail(sys.argv[2], *sys.argv[4:7])
    elif k == "solo":
        solo(*sys.argv[2:6])
