#!/usr/bin/env python3
"""Tables from one run of scripts/h200-matrix.sh: per circuit and partition
count, one row per prover (our GPU backend with each GPU flag set, our CPU
backend, bellperson's CPU prover, supraseal-c2), the median over measured
repetitions of the end-to-end time and of each phase (same-named spans of a
repetition summed, e.g. one per partition), the first (cold) batch of the
process, and the setup and xl results.

usage: h200-report.py RESULTS_DIR > README-tables.md
RESULTS_DIR holds records.jsonl, items.jsonl and env.txt.
"""
import json
import statistics
import sys
from collections import defaultdict

GPU_FLAGS = ["pin", "par-bg2", "window-tune"]
ORDER = ["cuda off", "cuda pin", "cuda par-bg2", "cuda window-tune", "cuda all",
         "cpu", "bellperson", "supraseal"]
LABEL = {"cuda off": "ours GPU, flags off", "cuda pin": "ours GPU + pin",
         "cuda par-bg2": "ours GPU + par-bg2", "cuda window-tune": "ours GPU + window-tune",
         "cuda all": "ours GPU, all three", "cpu": "ours CPU (no flags)",
         "bellperson": "bellperson CPU", "supraseal": "supraseal-c2"}
PHASES = ["msm_prep", "pin", "h2d", "ntt_h", "msm_h", "batch_add", "tail_msm", "msm_b_g2",
          "assemble", "verify"]
SETUP_PHASES = ["record_shape", "qap_eval", "fixed_base_g1", "fixed_base_g2", "normalize",
                "write", "bellperson_generate"]


def load(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def build(r):
    if r["backend"] != "cuda":
        return r["backend"]
    on = [f for f in GPU_FLAGS if f in r["features"]]
    return "cuda " + ("all" if len(on) == 3 else on[0] if on else "off")


def sums(r):
    s = defaultdict(float)
    for p in r["phases"]:
        if p.get("parent") == "srs_upload":
            continue  # the SRS upload happens once per process
        s[p["name"]] += p["ms"]
    return s


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, nd=0):
    if x is None:
        return ""
    return f"{x:.{nd}f}" if x >= 10 or nd == 0 and x >= 1 else f"{x:.1f}"


def prove_table(recs, circuit, parts):
    rows = defaultdict(list)
    for r in recs:
        c = r["circuit"]
        if r["mode"] == "prove" and c["name"] == circuit and c["partitions"] == parts:
            rows[build(r)].append(r)
    if not rows:
        return []
    out = [f"### `{circuit}` x {parts}", "",
           "| prover | n | end-to-end | range | synthesis | prove part | " + " | ".join(PHASES)
           + " | windows | cold first batch | cold prove part | peak RSS GiB |",
           "|---|---:|---:|---:|---:|---:|" + "---:|" * len(PHASES) + "---|---:|---:|---:|"]
    for b in ORDER:
        rs = rows.get(b)
        if not rs:
            continue
        meas = [r for r in rs if not r["warmup"]]
        cold = [r for r in rs if r["warmup"]]
        ss = [sums(r) for r in meas]
        tot = [r["total_ms"] for r in meas]

        def part(r, s):
            return r["total_ms"] - s.get("synthesis", 0.0) - s.get("verify", 0.0)
        ph = [fmt(med([s[p] for s in ss if p in s])) for p in PHASES]
        win = sorted({p["extra"]["window"] for r in meas for p in r["phases"]
                      if "window" in p.get("extra", {})})
        c0 = cold[0] if cold else None
        syn = med([s["synthesis"] for s in ss if "synthesis" in s])
        note = " (incl. synthesis)" if b == "bellperson" else ""
        out.append("| " + " | ".join([
            LABEL[b], str(len(meas)), fmt(med(tot)),
            f"{fmt(min(tot))}-{fmt(max(tot))}" if tot else "",
            fmt(syn), fmt(med([part(r, s) for r, s in zip(meas, ss)])) + note, *ph,
            ",".join(map(str, win)),
            fmt(c0["total_ms"]) if c0 else "",
            fmt(part(c0, sums(c0))) if c0 else "",
            f"{max(r['peak_rss_bytes'] for r in rs) / 2**30:.2f}"]) + " |")
    return out + [""]


def setup_table(recs):
    rs = [r for r in recs if r["mode"] == "setup"]
    if not rs:
        return []
    out = ["### Setup (parameters of one circuit, written to disk)", "",
           "| circuit | domain | generator | total ms | " + " | ".join(SETUP_PHASES)
           + " | params MB | peak RSS GiB |",
           "|---|---:|---|---:|" + "---:|" * len(SETUP_PHASES) + "---:|---:|"]
    for r in rs:
        s = sums(r)
        pb = [p["extra"].get("params_bytes") for p in r["phases"] if p["name"] == "write"]
        out.append("| " + " | ".join([
            r["circuit"]["name"], f"2^{r['circuit']['domain_log2']}",
            "bellperson" if r["backend"] == "bellperson" else "ours (" + r["backend"] + ")",
            fmt(r["total_ms"]), *[fmt(s.get(p)) for p in SETUP_PHASES],
            f"{pb[0] / 1e6:.0f}" if pb and pb[0] else "",
            f"{r['peak_rss_bytes'] / 2**30:.2f}"]) + " |")
    return out + [""]


def items_table(items):
    out = ["### Items of the run (process wall time, including parameter loading)", "",
           "| item | rc | wall s | records |", "|---|---:|---:|---:|"]
    for i in items:
        if i.get("skipped"):
            out.append(f"| {i['item']} | skipped ({i['left_s']} s left, estimate {i['estimate_s']} s) | | |")
        else:
            out.append(f"| {i['item']} | {i['rc']} | {i['wall_ms'] / 1000:.1f} | {i['records']} |")
    return out + [""]


def main():
    d = sys.argv[1]
    recs = load(f"{d}/records.jsonl")
    lines = []
    for c in ["medium", "large", "xl"]:
        for p in [1, 10]:
            lines += prove_table(recs, c, p)
    lines += setup_table(recs)
    lines += items_table(load(f"{d}/items.jsonl"))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
