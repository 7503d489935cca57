#!/usr/bin/env python3
# predict-error.py - how far the requests, §10's `predicted` estimates
# (the mean of the user's last two runtimes), more cautious predictions
# (the max of the user's last 2, 4 or 8 runtimes) and §10's `bounded`
# estimates (the request times the largest runtime / request ratio of the
# user's last 19 jobs) lie from the runtimes of an SWF trace.  Every
# prediction is clamped to [e/100, e] and is the request e until the user
# has two finished jobs (19 for bounded).  Areas are shares of the trace's
# actual area (CPU-seconds).  A job reads its owner's prediction at its
# submission; a runtime is known at the job's end in the trace (submit +
# wait + run), so a replay's own order may differ a little.  The missed
# jobs are those an estimate counts short and their request does not:
# their mean runtime and mean runtime / estimate say how long the jobs a
# prediction gets wrong run, against the trace's mean runtime below.
# (bench/rank-eval.md, "Predicted areas" and "Bounded areas".)
#
# usage: predict-error.py TRACE.swf[.gz]...
# SPDX-License-Identifier: GPL-2.0-or-later
import gzip
import sys


def runs(agg):
    """A prediction from the runtimes of the (runtime, request) history."""
    return lambda h, req: agg([r for r, _ in h])


def bounded(h, req):
    """§10 bounded: the request times the largest ratio min(p / e, 1)."""
    return req * max(min(r / e, 1.0) for r, e in h)


# (name, how many jobs kept, how many needed, how they make a prediction)
PREDICTORS = [("mean of last 2 (predicted)", 2, 2, runs(lambda h: sum(h) / 2)),
              ("max of last 2", 2, 2, runs(max)),
              ("max of last 4", 4, 2, runs(max)),
              ("max of last 8", 8, 2, runs(max)),
              ("max ratio of last 19 (bounded)", 19, 19, bounded)]


def jobs_of(path):
    """(submit, end, runtime, procs, request, user) of the usable jobs."""
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            fl = line.split()
            if not fl or fl[0].startswith(";"):
                continue
            sub, wait, run = float(fl[1]), max(float(fl[2]), 0.0), float(fl[3])
            procs = int(fl[4]) if int(fl[4]) > 0 else int(fl[7])
            req = float(fl[8])
            if run < 0 or procs <= 0 or req <= 0:
                continue
            out.append((sub, sub + wait + run, run, procs, req, fl[11]))
    return out


def predictions(jobs, keep, need, agg):
    """Each job's clamped prediction, read at its submission."""
    # ends before submits at one instant: a runtime known then counts
    ev = sorted([(j[0], 1, i) for i, j in enumerate(jobs)] +
                [(j[1], 0, i) for i, j in enumerate(jobs)])
    last, pred = {}, [0.0] * len(jobs)
    for _, kind, i in ev:
        _, _, run, _, req, user = jobs[i]
        hist = last.setdefault(user, [])
        if kind == 1:
            p = req if len(hist) < need else agg(hist, req)
            pred[i] = min(req, max(p, req / 100))
        else:
            hist.insert(0, (run, req))
            del hist[keep:]
    return pred


def row(name, jobs, est, area):
    under = sum(1 for j, e in zip(jobs, est) if j[2] > e)
    missed = [(j[2], e) for j, e in zip(jobs, est) if e < j[2] <= j[4]]
    if missed:
        runs_s = "%.0f" % (sum(r for r, _ in missed) / len(missed))
        ratio_s = "%.1f" % (sum(r / e for r, e in missed) / len(missed))
    else:
        runs_s = ratio_s = "–"
    print("| %s | %s | %.2f | %.1f%% | %.3f | %.2f | %s | %s |" % (
        name[0], name[1], sum(j[3] * e for j, e in zip(jobs, est)) / area,
        100 * under / len(jobs),
        sum(j[3] * max(j[2] - e, 0) for j, e in zip(jobs, est)) / area,
        sum(j[3] * max(e - j[2], 0) for j, e in zip(jobs, est)) / area,
        runs_s, ratio_s))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: predict-error.py TRACE.swf[.gz]...")
    print("| trace | estimate | estimates / area | jobs under | "
          "area under | area over | missed: mean run (s) | "
          "missed: run / estimate |")
    print("|---|---|---|---|---|---|---|---|")
    means = []
    for path in sys.argv[1:]:
        jobs = jobs_of(path)
        name = path.rsplit("/", 1)[-1].split("-cln")[0]
        area = sum(j[3] * j[2] for j in jobs)
        row((name, "request"), jobs, [j[4] for j in jobs], area)
        for pname, keep, need, agg in PREDICTORS:
            row((name, pname), jobs, predictions(jobs, keep, need, agg),
                area)
        means.append((name, len(jobs), sum(j[2] for j in jobs) / len(jobs)))
    print()
    for name, n, mean in means:
        print("%s: %d jobs, mean runtime %.0f s" % (name, n, mean))


main()
