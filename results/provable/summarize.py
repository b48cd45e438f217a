#!/usr/bin/env python3
"""Summarise `primekit bench provable` runs: per kernel and size, the ratio of each kind's
mean time to the matching probable kind, pooled over all runs (sum of times over sum of
counts, the better estimator for exponentially spread search times) and the range of the
per-run ratios. Usage: summarize.py RUN.jsonl... (each file one run of one kernel)."""
import json
import sys
from collections import defaultdict

runs = defaultdict(list)  # (kernel, bits) -> [{(op, engine): (mean, count)}]
for path in sys.argv[1:]:
    per = defaultdict(dict)
    kernel = None
    for line in open(path):
        rec = json.loads(line)
        if "op" not in rec:
            kernel = rec.get("kernel", kernel)
            continue
        if rec["engine"] == "primekit":
            kernel = rec["kernel"]
        per[rec["bits"]][(rec["op"], rec["engine"])] = (rec["mean_ms"], rec["count"])
    for bits, kinds in per.items():
        runs[(kernel, bits)].append(kinds)

pairs = [
    ("provable / probable", ("provable", "primekit"), ("probable", "primekit")),
    ("provable safe / probable safe", ("provable_safe", "primekit"), ("probable_safe", "primekit")),
    ("Nettle provable / primekit provable", ("provable", "nettle"), ("provable", "primekit")),
]
print("| kernel | bits | ratio | pooled | per-run range | runs |")
print("|---|---:|---|---:|---|---:|")
for (kernel, bits), rs in sorted(runs.items()):
    for name, num, den in pairs:
        both = [r for r in rs if num in r and den in r]
        if not both:
            continue
        pooled = sum(r[num][0] * r[num][1] for r in both) / sum(r[num][1] for r in both)
        pooled /= sum(r[den][0] * r[den][1] for r in both) / sum(r[den][1] for r in both)
        each = sorted(r[num][0] / r[den][0] for r in both)
        print(f"| {kernel} | {bits} | {name} | {pooled:.2f} | {each[0]:.2f}–{each[-1]:.2f} | {len(both)} |")
    verify = [r[("verify_certificate", "primekit")][0] for r in rs if ("verify_certificate", "primekit") in r]
    if verify:
        verify.sort()
        print(f"| {kernel} | {bits} | verify a certificate (ms) | {verify[len(verify) // 2]:.2f} | {verify[0]:.2f}–{verify[-1]:.2f} | {len(verify)} |")
