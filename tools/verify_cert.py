#!/usr/bin/env python3
"""Independent checker of primekit primality certificates (docs/certificate-format.md).

Standard library only, written from the format document: it shares no code with the
Rust verifier, so the two can be tested against each other.

    python3 tools/verify_cert.py CERT.json [N]

Exit status: 0 valid (prints the proven prime), 1 invalid ("invalid: step k: reason"),
2 malformed or unreadable.
"""

import json
import math
import sys

MAX_BYTES = 1 << 20
MAX_BITS = 16384
MAX_STEPS = 4096


class Malformed(Exception):
    pass


class Invalid(Exception):
    def __init__(self, step, reason):
        super().__init__(f"invalid: step {step}: {reason}")


def is_prime_below_2_64(n):
    """Deterministic Miller-Rabin: the first 12 primes as bases decide every n < 3.3e24."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for p in small:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def decimal(v, where):
    if not isinstance(v, str) or not v.isdigit() or not v.isascii() or len(v) > MAX_BITS * 30 // 100 + 2:
        raise Malformed(f"{where}: expected a decimal string")
    return int(v)


def parse(text):
    if len(text) > MAX_BYTES:
        raise Malformed(f"{len(text)} bytes, at most {MAX_BYTES}")
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise Malformed(f"not JSON: {e}") from None
    if not isinstance(doc, dict):
        raise Malformed("not a JSON object")
    if doc.get("format") != "primekit-certificate" or doc.get("version") != 1 or isinstance(doc.get("version"), bool):
        raise Malformed("format must be primekit-certificate, version 1")
    prime = decimal(doc.get("prime"), "prime")
    steps = doc.get("steps")
    if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_STEPS:
        raise Malformed("steps must be a non-empty array")
    out = []
    for i, s in enumerate(steps):
        if not isinstance(s, dict) or s.get("method") != "pocklington" or not isinstance(s.get("factors"), list):
            raise Malformed(f"step {i}: needs method pocklington and a factors array")
        n = decimal(s.get("n"), f"step {i}.n")
        factors = []
        for j, f in enumerate(s["factors"]):
            if not isinstance(f, dict):
                raise Malformed(f"step {i}.factors[{j}]: not an object")
            k = f.get("k")
            if not isinstance(k, int) or isinstance(k, bool):
                raise Malformed(f"step {i}.factors[{j}].k: expected an integer")
            factors.append((decimal(f.get("q"), "q"), k, decimal(f.get("witness"), "witness")))
        out.append((n, factors))
    if out[0][0] != prime:
        raise Malformed("prime differs from the first step's n")
    return prime, out


def check(steps):
    proven = set()
    for i in range(len(steps) - 1, -1, -1):
        n, factors = steps[i]
        if n.bit_length() > MAX_BITS:
            raise Invalid(i, "N too large")
        if n < 2**64:
            raise Invalid(i, "N below 2^64 needs no step")
        if n % 2 == 0:
            raise Invalid(i, "N is even")
        if not factors:
            raise Invalid(i, "no factors")
        F = 1
        for j, (q, k, _) in enumerate(factors):
            if not 1 <= k <= 65536:
                raise Invalid(i, f"factor {j}: bad exponent")
            if q < 2**64:
                if not is_prime_below_2_64(q):
                    raise Invalid(i, f"factor {j}: not prime")
            elif q not in proven:
                raise Invalid(i, f"factor {j}: not proven by a later step")
            F *= q**k
            if F.bit_length() > n.bit_length():
                raise Invalid(i, f"factor {j}: F exceeds N - 1")
        if (n - 1) % F:
            raise Invalid(i, "F does not divide N - 1")
        if F * F <= n:
            raise Invalid(i, "F^2 <= N")
        for j, (q, _, a) in enumerate(factors):
            if not 2 <= a <= n - 2:
                raise Invalid(i, f"factor {j}: witness out of range")
            if pow(a, n - 1, n) != 1:
                raise Invalid(i, f"factor {j}: Fermat condition fails")
            if math.gcd(pow(a, (n - 1) // q, n) - 1, n) != 1:
                raise Invalid(i, f"factor {j}: gcd condition fails")
        proven.add(n)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as fh:
            text = fh.read(MAX_BYTES + 1)
        prime, steps = parse(text)
        if len(argv) == 3 and int(argv[2], 0) != prime:
            raise Invalid(0, "the certificate is for a different number")
        check(steps)
    except Malformed as e:
        print(f"malformed certificate: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cannot read: {e}", file=sys.stderr)
        return 2
    except Invalid as e:
        print(e, file=sys.stderr)
        return 1
    print(prime)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
