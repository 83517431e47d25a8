#!/usr/bin/env python3
"""Median and spread (half the interquartile range, as a share of the median)
of the MSM and NTT spans of runner records, one line per condition.

usage: scripts/gpu-msm-host-table.py DIR
DIR holds <condition>.jsonl files (one process) and proc-<tag>-<i>.jsonl files
(one a process; pooled as proc-<tag>), as scripts/gpu-msm-host-diag.sh writes.
Warm-up records are left out. Top-level spans only, but `intt`, `coset_ntt`.
"""
import glob
import json
import os
import re
import statistics
import sys

PHASES = ["msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "intt", "ntt_h", "coset_ntt", "msm_prep"]
NESTED = {"intt", "coset_ntt"}


def samples(files):
    out = []
    for f in files:
        with open(f) as fh:
            for line in fh:
                r = json.loads(line)
                if r.get("warmup"):
                    continue
                d = {}
                for p in r["phases"]:
                    if p.get("parent") and p["name"] not in NESTED:
                        continue
                    d[p["name"]] = d.get(p["name"], 0.0) + p["ms"]
                out.append(d)
    return out


def cell(values):
    if len(values) < 4:
        return "-"
    q = statistics.quantiles(values, n=4)
    med = statistics.median(values)
    return f"{med:.2f} ({100 * (q[2] - q[0]) / 2 / med:.1f}%)"


def main(d):
    groups = {}
    for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
        name = os.path.basename(f)[: -len(".jsonl")]
        if name == "warm-up":
            continue
        m = re.fullmatch(r"(proc-.+)-(\d+)", name)
        groups.setdefault(m.group(1) if m else name, []).append(f)
    print("| condition | n | " + " | ".join(PHASES) + " |")
    print("|---|---:|" + "---:|" * len(PHASES))
    for name, files in groups.items():
        s = samples(files)
        cells = [cell([x[p] for x in s if p in x]) for p in PHASES]
        print(f"| {name} | {len(s)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: gpu-msm-host-table.py DIR")
    main(sys.argv[1])
