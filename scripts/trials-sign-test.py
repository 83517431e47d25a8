#!/usr/bin/env python3
"""Re-reads trial nights' final samples and applies the exact sign test to each
variant's per-pair ratios of one phase (candidate over its interleaved
reference, pair = repetition). An offline check of how a sign test would have
judged the samples a night ended with; it does not replay the night's looks,
settling or Benjamini-Hochberg families.

usage: scripts/trials-sign-test.py TRIALS_OUT_DIR [PHASE]   (PHASE: synthesis)
Prints one line per night: night, then per variant (pairs, median ratio, p).
"""
import collections
import csv
import glob
import math
import os
import statistics
import sys


def sign_p(k, n):
    """Two-sided exact sign test: k of n pairs above 1."""
    if n == 0:
        return 1.0
    m = min(k, n - k)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(m + 1)) / 2**n)


def night(path, phase):
    pairs = collections.defaultdict(dict)
    with open(os.path.join(path, "run", "samples.csv")) as f:
        for r in csv.DictReader(f):
            if r["phase"] != phase or r["warmup"] != "false" or r["ok"] != "true":
                continue
            v = r["variant"]
            side = "ref" if v.endswith("@ref") else "cand"
            pairs[(v.removesuffix("@ref"), int(r["rep"]))][side] = float(r["ms"])
    out = {}
    for v in sorted({v for v, _ in pairs}):
        ratios = [d["cand"] / d["ref"] for (w, _), d in pairs.items() if w == v and len(d) == 2 and d["ref"] > 0]
        ratios = [x for x in ratios if x != 1.0]
        k = sum(1 for x in ratios if x > 1.0)
        out[v] = (len(ratios), round(statistics.median(ratios), 4) if ratios else None, sign_p(k, len(ratios)))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root, phase = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "synthesis")
    for d in sorted(glob.glob(os.path.join(root, "*", "run", "samples.csv"))):
        name = d.split(os.sep)[-3]
        print(name, night(os.path.dirname(os.path.dirname(d)), phase))


if __name__ == "__main__":
    main()
