#!/usr/bin/env python3
"""Print a primekit certificate whose steps are all ecpp steps (a linear chain, as
`ProveOptions::ecpp_only` makes) as a PARI/GP `primecert` certificate, for an independent
check with `primecertisvalid`:

    python3 tools/ecpp_to_pari.py cert.json > c.gp
    echo 'read("c.gp"); print(primecertisvalid(c))' | gp -q

PARI's entries are [N, t, s, a4, [x, y]] with m = N + 1 - t = s q and q the next N.
"""
import json
import sys


def main() -> None:
    cert = json.load(open(sys.argv[1]))
    entries = []
    for i, s in enumerate(cert["steps"]):
        if s.get("method") != "ecpp":
            sys.exit(f"step {i} is not an ecpp step: PARI's format has only those")
        n, m, q = int(s["n"]), int(s["m"]), int(s["q"])
        entries.append(f"[{n}, {n + 1 - m}, {m // q}, {s['a']}, [{s['x']}, {s['y']}]]")
    print("c = [" + ", ".join(entries) + "];")


if __name__ == "__main__":
    main()
