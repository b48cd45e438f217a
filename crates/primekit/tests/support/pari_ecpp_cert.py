#!/usr/bin/env python3
"""Test helper: a version 2 certificate of N made of ecpp steps, from PARI/GP's
primecert (Atkin-Morain ECPP), printed as JSON on standard output.

    python3 pari_ecpp_cert.py N

PARI gives each step as [N, t, s, a4, [x, y]]: the curve y^2 = x^3 + a4 x + b over
Z/NZ with m = N + 1 - t points, q = m / s the next N, and the point P = (x, y), which
fixes b = y^2 - x^3 - a4 x mod N. Steps whose N is below 2^64 are left out (the exact
test decides those). Exit status 3 when gp is not installed.
"""

import json
import shutil
import subprocess
import sys


def main(argv):
    n = int(argv[1])
    if shutil.which("gp") is None:
        print("gp (PARI/GP) not found", file=sys.stderr)
        return 3
    script = "default(parisizemax, 2^28)\n" + f"c = primecert({n}); for(i = 1, #c, print(c[i][1], \" \", c[i][2], \" \", c[i][3], \" \", c[i][4], \" \", c[i][5][1], \" \", c[i][5][2]));\n"
    out = subprocess.run(["gp", "-q", "-f"], input=script, capture_output=True, text=True, check=True).stdout
    steps = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 6:
            continue
        big_n, t, s, a, x, y = map(int, fields)
        if big_n < 2**64:
            continue
        m = big_n + 1 - t
        assert m % s == 0
        a, x, y = a % big_n, x % big_n, y % big_n
        b = (y * y - x**3 - a * x) % big_n
        steps.append({"n": str(big_n), "method": "ecpp", "a": str(a), "b": str(b), "m": str(m), "q": str(m // s), "x": str(x), "y": str(y)})
    if not steps or steps[0]["n"] != str(n):
        print(f"primecert gave no ecpp steps for {n}", file=sys.stderr)
        return 1
    print(json.dumps({"format": "primekit-certificate", "version": 2, "prime": str(n), "steps": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
