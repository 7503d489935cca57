#!/usr/bin/env python3
# fairshare-analysis.py - per-campaign comparison of two replays of one trace
# (ostrich-sim --jobs-out files of the same workload, --grouping trace, so
# both hold the same campaigns): where the mean campaign stretch differs,
# broken down by campaign size, width, user volume, estimate accuracy and
# lower bound; gnuplot data files and plots.
#
# usage: fairshare-analysis.py TRACE M JOBS_A JOBS_B OUTDIR [FLOOR]
#   TRACE   name used in the output files;  M  CPUs of the machine
#   JOBS_A  jobs of the policy under study (ostrich), JOBS_B the reference
#   FLOOR   floor of the lower bound in seconds (default 1, as in §7)
# Writes OUTDIR/TRACE-breakdown.txt (a markdown fragment) and
# OUTDIR/TRACE-breakdown.dat (gnuplot data).  Pure standard library.
# SPDX-License-Identifier: GPL-2.0-or-later

import csv
import sys
from collections import defaultdict


def read_jobs(path):
    """{(user, campaign): [job rows]} with floats."""
    camps = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            camps[(int(r['user']), int(r['campaign']))].append(
                (float(r['submit']), float(r['start']), float(r['end']),
                 int(r['procs']), float(r['runtime']), float(r['estimate'])))
    return camps


def campaign_metrics(jobs, m, floor):
    """stretch and descriptors of one campaign (§7, floor as given)."""
    tc = min(j[0] for j in jobs)
    end = max(j[2] for j in jobs)
    work = sum(j[3] * j[4] for j in jobs)
    est = sum(j[3] * j[5] for j in jobs)
    lb = max(work / m, max(j[0] - tc + j[4] for j in jobs), floor)
    return {
        'stretch': (end - tc) / lb, 'lb': lb, 'work': work,
        'njobs': len(jobs), 'width': max(j[3] for j in jobs) / m,
        'acc': work / est if est > 0 else 1.0, 'span': max(j[0] for j in jobs) - tc,
    }


def bins_of(value, edges, labels):
    for e, l in zip(edges, labels):
        if value <= e:
            return l
    return labels[-1]


BREAKDOWNS = [
    ('jobs', 'campaign size (jobs)', lambda c, u: c['njobs'],
     [1, 5, 20, 100, float('inf')], ['1', '2-5', '6-20', '21-100', '>100']),
    ('width', 'widest job (share of m)', lambda c, u: c['width'],
     [0.01, 0.05, 0.25, 0.5, float('inf')],
     ['<=1%', '1-5%', '5-25%', '25-50%', '>50%']),
    ('volume', "owner's share of all work", lambda c, u: u,
     [0.001, 0.01, 0.05, float('inf')], ['<0.1%', '0.1-1%', '1-5%', '>5%']),
    ('acc', 'estimate accuracy (work / requested work)', lambda c, u: c['acc'],
     [0.1, 0.3, 0.6, 0.9, float('inf')],
     ['<0.1', '0.1-0.3', '0.3-0.6', '0.6-0.9', '>0.9']),
    ('lb', 'lower bound (s)', lambda c, u: c['lb'],
     [10, 60, 600, 3600, 86400, float('inf')],
     ['<=10', '10-60', '60-600', '600-3600', '1h-1d', '>1d']),
]


def main():
    trace, m, ja, jb, outdir = sys.argv[1:6]
    floor = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0
    m = int(m)
    A, B = read_jobs(ja), read_jobs(jb)
    assert set(A) == set(B), 'the two replays hold different campaigns'
    ca = {k: campaign_metrics(v, m, floor) for k, v in A.items()}
    cb = {k: campaign_metrics(v, m, floor) for k, v in B.items()}
    n = len(ca)
    uwork = defaultdict(float)
    for (u, _), c in ca.items():
        uwork[u] += c['work']
    total = sum(uwork.values())
    ushare = {u: w / total for u, w in uwork.items()}
    out = []
    ma = sum(c['stretch'] for c in ca.values()) / n
    mb = sum(c['stretch'] for c in cb.values()) / n
    ga = sum(c['stretch'] > 20 for c in ca.values())
    gb = sum(c['stretch'] > 20 for c in cb.values())
    worse = sum(ca[k]['stretch'] > cb[k]['stretch'] * 1.0001 for k in ca)
    better = sum(ca[k]['stretch'] * 1.0001 < cb[k]['stretch'] for k in ca)
    out.append(f'{trace}: {n} campaigns, mean stretch A {ma:.2f} B {mb:.2f} '
               f'(gap {ma - mb:+.2f}); > 20: A {ga} B {gb}; '
               f'A worse on {worse}, better on {better}, equal on {n - worse - better}\n')
    dat = []
    for key, title, fn, edges, labels in BREAKDOWNS:
        agg = defaultdict(lambda: [0, 0.0, 0.0, 0, 0])
        for k in ca:
            lab = bins_of(fn(ca[k], ushare[k[0]]), edges, labels)
            a = agg[lab]
            a[0] += 1
            a[1] += ca[k]['stretch']
            a[2] += cb[k]['stretch']
            a[3] += ca[k]['stretch'] > 20
            a[4] += cb[k]['stretch'] > 20
        out.append(f'\n| {title} | campaigns | mean A | mean B | '
                   f'contribution to gap | > 20 A | > 20 B |\n|---|---|---|---|---|---|---|\n')
        for lab in labels:
            if lab not in agg:
                continue
            a = agg[lab]
            contrib = (a[1] - a[2]) / n
            out.append(f'| {lab} | {a[0]} | {a[1] / a[0]:.2f} | {a[2] / a[0]:.2f} '
                       f'| {contrib:+.2f} | {a[3]} | {a[4]} |\n')
            dat.append(f'{key} "{lab}" {contrib:.6g} {a[3] - a[4]}\n')
        dat.append('\n\n')
    # users: the ones whose campaigns carry the gap
    ug = defaultdict(lambda: [0, 0.0, 0, 0])
    for k in ca:
        u = ug[k[0]]
        u[0] += 1
        u[1] += ca[k]['stretch'] - cb[k]['stretch']
        u[2] += ca[k]['stretch'] > 20
        u[3] += cb[k]['stretch'] > 20
    top = sorted(ug.items(), key=lambda kv: -kv[1][1])
    out.append('\n| user | share of work | campaigns | contribution to gap | > 20 A | > 20 B |\n'
               '|---|---|---|---|---|---|\n')
    for u, v in top[:5] + [('...', None)] + top[-3:]:
        if v is None:
            out.append('| ... | | | | | |\n')
            continue
        out.append(f'| {u} | {100 * ushare[u]:.2f}% | {v[0]} | {v[1] / n:+.2f} | {v[2]} | {v[3]} |\n')
    losers = sum(1 for v in ug.values() if v[1] > 1e-9)
    winners = sum(1 for v in ug.values() if v[1] < -1e-9)
    out.append(f'\nUsers with a higher stretch sum under A: {losers}; lower: {winners}; '
               f'of {len(ug)}.\n')
    with open(f'{outdir}/{trace}-breakdown.txt', 'w') as f:
        f.writelines(out)
    with open(f'{outdir}/{trace}-breakdown.dat', 'w') as f:
        f.writelines(dat)


if __name__ == '__main__':
    main()
