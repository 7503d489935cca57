#!/usr/bin/env python3
# shake-table.py - the table of bench/rank-shake.sh from its rows
# ("trace mode setting seed mean share max", one a replay): per trace,
# mode and setting, the mean over seeds of the mean stretch and of the
# share above 20, each with its 95% CI (Student's t), the median of the
# max; and the paired ratios to the first setting of each trace and mode
# (mean over seeds of x / x_ref, with its CI), the measure a new default
# must keep within 2% of the shipped rule's.
#
# usage: shake-table.py ROWS SEEDS JITTER "Z A B C"
#   (the last argument: sim/ci.sh's $ci_t, the coefficients of Student's
#   t, so that every experiment script has one CI)
# SPDX-License-Identifier: GPL-2.0-or-later

import statistics
import sys


def t95(tc, df):
    """Student's t_{0.975, df} by its Cornish-Fisher expansion to third
    order in 1/df, with sim/ci.sh's coefficients tc (within 0.7% from df =
    3)."""
    df = max(df, 1)
    return tc[0] + tc[1] / df + tc[2] / df ** 2 + tc[3] / df ** 3


def ci(tc, xs):
    """The mean of xs and its 95% half-width, with the coefficients tc."""
    if len(xs) < 2:
        return statistics.mean(xs), 0.0
    m = statistics.mean(xs)
    return m, t95(tc, len(xs) - 1) * statistics.stdev(xs) / len(xs) ** 0.5


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: shake-table.py ROWS SEEDS JITTER \"Z A B C\"")
    rows, seeds, jitter = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        tc = tuple(float(x) for x in sys.argv[4].split())
    except ValueError:
        tc = ()
    if len(tc) != 4:
        sys.exit("shake-table.py: the t coefficients must be four numbers "
                 "(sim/ci.sh's $ci_t), not \"%s\"" % sys.argv[4])
    data = {}
    order = []
    for line in open(rows):
        tr, md, lab, seed, mean, share, mx = line.split()
        key = (tr, md)
        if key not in data:
            data[key] = {}
            order.append(key)
        d = data[key]
        if lab not in d:
            d[lab] = {}
        d[lab][int(seed)] = (float(mean), float(share), float(mx))
    print('Input shaking: %s seeds, submit times moved by U[-%s, %s] s.'
          % (seeds, jitter, jitter))
    print()
    print('| trace | mode | setting | mean stretch | > 20 (%) | median max '
          '| mean / ref | > 20 / ref | mean worse in |')
    print('|---|---|---|---|---|---|---|---|---|')
    for key in order:
        d = data[key]
        labs = list(d)
        ref = d[labs[0]]
        for lab in labs:
            s = d[lab]
            ks = sorted(s)
            m, mc = ci(tc, [s[k][0] for k in ks])
            sh, shc = ci(tc, [s[k][1] for k in ks])
            mx = statistics.median([s[k][2] for k in ks])
            if lab == labs[0]:
                r = rs = worse = '–'
            else:
                com = [k for k in ks if k in ref]
                rm, rmc = ci(tc, [s[k][0] / ref[k][0] for k in com])
                # a ratio to a share of 0 has no value: such a copy is
                # left out of the ratio, and a ratio of none is shown as n/a
                sc = [k for k in com if ref[k][1] > 0]
                rr, rrc = (ci(tc, [s[k][1] / ref[k][1] for k in sc])
                           if sc else (None, None))
                nw = sum(1 for k in com if s[k][0] > ref[k][0])
                r = '%.3f ± %.3f' % (rm, rmc)
                rs = ('%.3f ± %.3f' % (rr, rrc) if rr is not None
                      else 'n/a')
                worse = '%d/%d' % (nw, len(com))
            print('| %s | %s | %s | %.3f ± %.3f | %.2f ± %.2f | %.0f | %s '
                  '| %s | %s |' % (key[0], key[1], lab, m, mc, sh, shc, mx,
                                   r, rs, worse))


if __name__ == '__main__':
    main()
