#!/usr/bin/env python3
"""Tables of primekit / OpenSSL (and / GMP) ratios per kernel from the files
`tools/bench-kernels.sh` writes: for each figure the median over runs of the ratio within
one run (same process, same inputs), with the runs in parentheses.

    python3 tools/kernel_tables.py results/kernels/2026-11-24 [more directories...]

With several directories (runs on different machines), each kernel's table has one
column pair per directory.
"""
import glob
import json
import os
import statistics
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def ratio_rows(d, kernel):
    rows = []

    def runs(kind):
        return sorted(glob.glob(os.path.join(d, f"{kind}-{kernel}-*.jsonl")))

    def add(label, kind, metric, bits, engine="primekit", peer="openssl", extra=None):
        rs, ours = [], []
        for f in runs(kind):
            recs = [r for r in load(f) if r.get("bits") == bits and (extra is None or extra(r))]
            p = [r[metric] for r in recs if r["engine"] == engine]
            o = [r[metric] for r in recs if r["engine"] == peer]
            if p and o:
                rs.append(p[0] / o[0])
                ours.append(p[0])
        if rs:
            rows.append((label, statistics.median(ours), statistics.median(rs), rs))

    for bits in [512, 1024, 2048, 3072, 4096]:
        add(f"modexp {bits}", "modexp", "min_ms", bits)
    add("is_prime, random odd 1024", "test-random", "median_ms", 1024)
    for bits in [1024, 2048]:
        add(f"is_prime, primes {bits}", "test-primes", "median_ms", bits)
    for bits in [1024, 2048, 3072]:
        add(f"random prime {bits}", "gen", "cpu_mean_ms", bits)
    add("safe prime 1024", "gen-safe", "cpu_mean_ms", 1024)
    return rows


def machine(d):
    """The `cpu:` line of a results directory's machine.txt, and its date (the name)."""
    for line in open(os.path.join(d, "machine.txt")):
        if line.startswith("cpu:"):
            return f"{line.split(':', 1)[1].strip()}, {os.path.basename(os.path.normpath(d))}"
    return os.path.basename(os.path.normpath(d))


def main(dirs):
    """One table per kernel; with several directories (runs on different machines), one
    column pair per directory, side by side, for the kernels they share."""
    kernels = None
    for d in dirs:
        ks = {os.path.basename(f).rsplit("-", 2)[-2] for f in glob.glob(os.path.join(d, "modexp-*.jsonl"))}
        kernels = ks if kernels is None else kernels & ks
    for d in dirs:
        print(open(os.path.join(d, "machine.txt")).read())
    for k in sorted(kernels):
        print(f"\n### kernel {k}\n")
        head = " | ".join(f"{machine(d)}: primekit ms | primekit / OpenSSL, median (runs)" for d in dirs)
        print(f"| workload | {head} |")
        print("|---" * (1 + 2 * len(dirs)) + "|")
        tables = [{label: (ms, med, rs) for label, ms, med, rs in ratio_rows(d, k)} for d in dirs]
        for label in [row[0] for row in ratio_rows(dirs[0], k)]:
            cells = []
            for t in tables:
                if label in t:
                    ms, med, rs = t[label]
                    cells += [f"{ms:.4g}", f"**{med:.3f}** ({', '.join(f'{r:.3f}' for r in rs)})"]
                else:
                    cells += ["–", "–"]
            print(f"| {label} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
