#!/usr/bin/env python3
# render-dashboard.py - draw the panels of doc/grafana-ostrich.json with
# matplotlib from scraped `scampaign --metrics` files (one per scrape, named
# EPOCH.prom, as tests/live/s16-usage.sh writes them into
# $OST_USAGE_SCRAPES).  A rendering of the same queries, for the docs: NOT a
# Grafana screenshot (Grafana is not installable here), and labelled so.
#   tools/render-dashboard.py SCRAPE_DIR OUT.png
# SPDX-License-Identifier: GPL-2.0-or-later
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SAMPLE = re.compile(r'^([a-z_]+)(?:\{(.*)\})? (\S+)$')


def parse(path):
    """{(name, frozenset(labels)): value} of one exposition file."""
    out = {}
    for line in open(path):
        m = SAMPLE.match(line.strip())
        if not m or line.startswith("#"):
            continue
        labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        out[(m.group(1), labels)] = float(m.group(3))
    return out


def series(scrapes, name, key):
    """{key(labels): ([t], [v])} of metric name over the scrapes."""
    res = {}
    for t, s in scrapes:
        for (n, labels), v in s.items():
            if n == name:
                k = key(dict(labels))
                res.setdefault(k, ([], []))
                res[k][0].append(t)
                res[k][1].append(v)
    return res


def quantile(q, buckets):
    """histogram_quantile over cumulative [(le, count)]."""
    buckets = sorted(buckets)
    total = buckets[-1][1]
    if total <= 0:
        return None
    rank, prev_le, prev_c = q * total, 0.0, 0.0
    for le, c in buckets:
        if c >= rank:
            if le == float("inf"):
                return prev_le
            return prev_le + (le - prev_le) * (rank - prev_c) / max(c - prev_c, 1e-9)
        prev_le, prev_c = le, c
    return prev_le


def main(src, dst):
    files = sorted(f for f in os.listdir(src) if f.endswith(".prom"))
    scrapes = [(int(f.split(".")[0]), parse(os.path.join(src, f))) for f in files]
    t0 = scrapes[0][0]
    rel = lambda ts: [t - t0 for t in ts]  # noqa: E731
    fig, ax = plt.subplots(3, 2, figsize=(13, 11))
    user = lambda l: l["user"]  # noqa: E731
    charged = series(scrapes, "ostrich_charged_unit_seconds_total", user)
    for u, (ts, vs) in sorted(charged.items()):
        rt = [(ts[i] + ts[i - 1]) / 2 for i in range(1, len(ts))]
        rv = [(vs[i] - vs[i - 1]) / max(ts[i] - ts[i - 1], 1) for i in range(1, len(ts))]
        ax[0][0].step(rel(rt), rv, where="mid", label=u)
    ax[0][0].set_title("Charged usage rate per user (units in use)")
    for u, (ts, vs) in sorted(series(scrapes, "ostrich_user_share_ratio", user).items()):
        ax[0][1].plot(rel(ts), [100 * v for v in vs], label=u)
    ax[0][1].set_title("Share of the partition per user (virtual schedule), %")
    last = {u: vs[-1] for u, (ts, vs) in charged.items()}
    ax[1][0].barh(sorted(last), [last[u] for u in sorted(last)])
    ax[1][0].set_title("Charged since the ledger began (unit-seconds)")
    for name, lab in (("ostrich_active_users", "active users"),
                      ("ostrich_campaigns", "campaigns"),
                      ("ostrich_pending_jobs", "pending jobs")):
        for _, (ts, vs) in series(scrapes, name, lambda l: l["partition"]).items():
            ax[1][1].step(rel(ts), vs, where="post", label=lab)
    ax[1][1].set_title("Active users, campaigns, pending jobs")
    qt = {0.5: ([], []), 0.9: ([], [])}
    for t, s in scrapes:
        b = [(float("inf") if dict(l)["le"] == "+Inf" else float(dict(l)["le"]), v)
             for (n, l), v in s.items() if n == "ostrich_campaign_stretch_bucket"]
        for q in qt:
            v = quantile(q, b) if b else None
            if v is not None:
                qt[q][0].append(t)
                qt[q][1].append(v)
    for q, (ts, vs) in qt.items():
        ax[2][0].step(rel(ts), vs, where="post", label="p%d" % round(100 * q))
    ax[2][0].set_title("Campaign stretch of the campaigns ended (since start)")
    for name, lab in (("ostrich_last_pass_seconds", "last pass"),
                      ("ostrich_lock_hold_seconds", "lock hold (last pass)"),
                      ("ostrich_lock_hold_max_seconds", "longest lock hold")):
        for _, (ts, vs) in series(scrapes, name, lambda l: l["partition"]).items():
            ax[2][1].plot(rel(ts), [1e3 * v for v in vs], label=lab)
    ax[2][1].set_title("Engine pass and slurmctld lock hold, ms")
    for a in (ax[0][0], ax[0][1], ax[1][1], ax[2][0], ax[2][1]):
        a.set_xlabel("seconds into the run")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
    fig.suptitle("RENDERING with matplotlib of the panels of doc/grafana-ostrich.json,\n"
                 "from `scampaign --metrics` scraped every 2 s during tests/live/s16-usage.sh "
                 "- not a Grafana screenshot", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(dst, dpi=80)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: render-dashboard.py SCRAPE_DIR OUT.png")
    main(sys.argv[1], sys.argv[2])
