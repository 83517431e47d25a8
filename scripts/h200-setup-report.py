#!/usr/bin/env python3
"""Summarizes the records of scripts/h200-setup.sh as a Markdown table.

    scripts/h200-setup-report.py RECORDS_JSONL [ITEMS_JSONL]

One row per record: item, mode, backend, circuit (domain), total seconds,
then synthesis and the setup phases (seconds) and, for GPU setups, the summed device time
of the multiplication and normalization kernels and the window size.
"""
import json
import sys

PHASES = ["synthesis", "record_shape", "qap_eval", "fixed_base_g1", "fixed_base_g2", "normalize", "write"]


def sec(ms):
    return "" if ms is None else f"{ms / 1000:.2f}"


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = []
    with open(sys.argv[1]) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    head = ["item", "mode", "backend", "circuit", "total s"] + [p + " s" for p in PHASES]
    head += ["fb_mul s", "fb_norm s", "fb_d2h s", "window", "verified", "peak RSS GiB"]
    for r in recs:
        ph = r.get("phases", [])

        def top(name):
            v = [p["ms"] for p in ph if p["name"] == name and not p.get("parent")]
            return sum(v) if v else None

        def dev(name):
            v = [p["ms"] for p in ph if p["name"] == name]
            return sum(v) if v else None

        win = next((p["extra"].get("window_bits") for p in ph if p["name"] == "fixed_base_g1"), "")
        c = r["circuit"]
        rows.append([r.get("item", ""), r["mode"], r["backend"], f'{c["name"]} (2^{c["domain_log2"]})',
                     sec(r["total_ms"])] + [sec(top(p)) for p in PHASES]
                    + [sec(dev("fb_mul")), sec(dev("fb_norm")), sec(dev("fb_d2h")), str(win),
                       str(r.get("verified", "")), f'{r.get("peak_rss_bytes", 0) / 2**30:.1f}'])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if len(sys.argv) > 2:
        print()
        with open(sys.argv[2]) as f:
            for line in f:
                print("    " + line.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
