#!/usr/bin/env python3
"""Summarizes runner records (JSON Lines) from scripts/gpu-run-all.sh into a
markdown table: per circuit, partition count and build (backend + GPU
features), the median over measured repetitions of the end-to-end time and
of each phase (same-named spans of a repetition summed, e.g. one per
partition), plus the first (warm-up) repetition's total, which includes the
process's device start and parameter upload.

usage: gpu-report.py results.jsonl > table.md
"""
import json
import statistics
import sys
from collections import defaultdict

PHASES = ["synthesis", "msm_prep", "pin", "h2d", "ntt_h", "msm_h", "msm_l", "msm_a", "msm_b_g1",
          "batch_add", "tail_msm", "msm_b_g2", "assemble", "verify"]
GPU_FLAGS = ["pin", "par-bg2", "window-tune"]


def variant(r):
    """Backend plus the optimization flags that act on it."""
    on = [f for f in GPU_FLAGS if f in r["features"] and f not in r.get("inert_features", [])]
    return r["backend"] + " " + ("+".join(on) if on else "(flags off)")


def sums(r):
    s = defaultdict(float)
    for p in r["phases"]:
        if p["name"] == "h2d" and p.get("parent") == "srs_upload":
            continue
        s[p["name"]] += p["ms"]
    return s


def windows(r):
    w = sorted({p["extra"]["window"] for p in r["phases"] if "window" in p.get("extra", {})})
    return ",".join(str(x) for x in w)


def main(path):
    groups = defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if r.get("mode") != "prove":
            continue
        groups[(r["circuit"]["name"], r["circuit"]["partitions"], variant(r))].append(r)
    cols = ["circuit", "parts", "build", "n", "total", "prove"] + PHASES + ["windows", "first"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    order = {"small": 0, "medium": 1, "large": 2}
    for key in sorted(groups, key=lambda k: (order.get(k[0], 9), k[0], k[1], k[2])):
        rs = groups[key]
        meas = [r for r in rs if not r["warmup"]] or rs
        first = [r for r in rs if r["warmup"]]
        med = lambda xs: statistics.median(xs) if xs else float("nan")
        tot = med([r["total_ms"] for r in meas])
        ph = [sums(r) for r in meas]
        prove = med([r["total_ms"] - s.get("synthesis", 0) - s.get("verify", 0) for r, s in zip(meas, ph)])
        row = [key[0], str(key[1]), key[2], str(len(meas)), f"{tot:.0f}", f"{prove:.0f}"]
        for name in PHASES:
            vals = [s[name] for s in ph if name in s]
            row.append(f"{med(vals):.1f}" if vals else "")
        row.append(windows(meas[0]) if key[2].startswith("cuda") else "")
        row.append(f"{first[0]['total_ms']:.0f}" if first else "")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
