#!/usr/bin/env python3
# feedback-tables.py - the markdown tables of doc/results.md section 5 from
# the fb rows of fairshare-analysis.sh (open loop against the users'
# feedback, doc/semantics.md §16).
#
# usage: feedback-tables.py FB_ROWS > fragment.md
# FB_ROWS lines: trace label mode mean max gt20 camps_per_day
#   user_throughput mean_last_delay max_last_delay dependent
# The verdict table compares every OStrich configuration with both
# fair-share periods under feedback (threshold 3600 s): a configuration
# qualifies when its mean stretch and its share above 20 are at most
# fair-share's (P=0 and P=300) on every trace.  Pure standard library.
# SPDX-License-Identifier: GPL-2.0-or-later

import sys

TRACES = ['KTH-SP2', 'HPC2N', 'SDSC-BLUE']
BASE = ['fcfs', 'fairshare-p0', 'fairshare-p300']
NAMES = {'fairshare-p0': 'fairshare P=0', 'fairshare-p300': 'fairshare P=300'}


def load(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) != 11:
            continue
        rows[(f[0], f[1], f[2])] = {
            'mean': float(f[3]), 'max': float(f[4]), 'gt20': float(f[5]),
            'cpd': float(f[6]), 'thr': float(f[7]), 'delay': float(f[8]),
            'maxdelay': float(f[9]), 'dep': int(f[10])}
    return rows


def main():
    rows = load(sys.argv[1])
    labels = []
    for (t, l, m) in rows:
        if l not in labels:
            labels.append(l)
    ost = [l for l in labels if l not in BASE]
    out = []
    p = out.append
    for t in TRACES:
        dep = [r['dep'] for (tt, l, m), r in rows.items()
               if tt == t and m == 'fb']
        ncamp = None
        p('')
        p('**%s** (%s dependent campaigns at H = 3600 s)' % (t, dep[0] if dep else '?'))
        p('')
        p('| policy | mean stretch open → fb | max stretch open → fb | '
          'stretch > 20 open → fb | user throughput /day open → fb | '
          'mean last delay h, fb | max last delay h, fb | campaigns/day, fb |')
        p('|---|---|---|---|---|---|---|---|')
        for l in BASE + ost:
            o, f = rows.get((t, l, 'open')), rows.get((t, l, 'fb'))
            if not o or not f:
                continue
            p('| %s | %.3f → %.3f | %.0f → %.0f | %.2f%% → %.2f%% | '
              '%.4f → %.4f | %.2f | %.1f | %.2f |' % (
                  NAMES.get(l, l), o['mean'], f['mean'], o['max'], f['max'],
                  o['gt20'], f['gt20'], o['thr'], f['thr'],
                  f['delay'] / 3600, f['maxdelay'] / 3600, f['cpd']))
    # threshold sensitivity
    modes = [m for m in ('fb1200', 'fb', 'fb14400')
             if any(k[2] == m for k in rows)]
    hs = {'fb1200': '1200 s', 'fb': '3600 s', 'fb14400': '14400 s'}
    p('')
    p('Threshold H (mean stretch / stretch > 20; the rows present at '
      'every H):')
    p('')
    p('| trace | policy | ' + ' | '.join('H = ' + hs[m] for m in modes) + ' |')
    p('|---|---|' + '---|' * len(modes))
    for t in TRACES:
        for l in labels:
            cells = [rows.get((t, l, m)) for m in modes]
            if not all(cells):
                continue
            p('| %s | %s | ' % (t, NAMES.get(l, l)) + ' | '.join(
                '%.3f / %.2f%%' % (c['mean'], c['gt20']) for c in cells) + ' |')
    # the verdict
    p('')
    p('Each OStrich configuration against the better fair-share period on '
      'each trace under feedback (H = 3600 s): mean stretch ratio and '
      'difference in the share above 20 (points); ≤ 1 and ≤ 0 everywhere '
      'qualify.')
    p('')
    p('| configuration | ' + ' | '.join(
        '%s mean ratio | %s > 20 diff' % (t, t) for t in TRACES) +
      ' | qualifies |')
    p('|---|' + '---|---|' * len(TRACES) + '---|')
    for l in ost:
        cells, good = [], True
        for t in TRACES:
            r = rows.get((t, l, 'fb'))
            fs = [rows.get((t, b, 'fb')) for b in ('fairshare-p0',
                                                   'fairshare-p300')]
            if not r or not all(fs):
                cells += ['–', '–']
                good = False
                continue
            bm = min(x['mean'] for x in fs)
            bg = min(x['gt20'] for x in fs)
            cells += ['%.3f' % (r['mean'] / bm), '%+.2f' % (r['gt20'] - bg)]
            good = good and r['mean'] <= bm and r['gt20'] <= bg
        p('| %s | %s | %s |' % (l, ' | '.join(cells),
                                '**yes**' if good else 'no'))
    print('\n'.join(out))


main()
