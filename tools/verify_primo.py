#!/usr/bin/env python3
"""Checks a primality certificate in Primo's format 4, standard library only.

Written from Primo's published guide (Martin 2018, "Verifying Primo certificates
(format 4)"; docs/references.md), not from primekit's code: the sections and keys, the
N - 1, N + 1 and elliptic-curve tests and the final small-prime test as the guide states
them. It reads what `primekit prove --format primo` writes and what PARI/GP's
`primecertexport(c, 2)` writes.

Usage: verify_primo.py FILE [--expect N]
Exit 0: valid ("valid: N is prime"); 1: invalid ("invalid: [i]: reason"); 2: malformed
input or a number above the size cap.
"""

import math
import sys

MAX_BYTES = 4 << 20
MAX_BITS = 16384
MAX_TESTS = 4096


class Malformed(Exception):
    pass


class Invalid(Exception):
    pass


def sections(text):
    """{name: {key: value}} of an INI-like text; repeated sections are malformed."""
    out, cur = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            if name in out:
                raise Malformed(f"section [{name}] twice")
            cur = out[name] = {}
        elif cur is not None and "=" in line:
            k, v = line.split("=", 1)
            cur[k.strip()] = v.strip()
    return out


def number(sec, key, where):
    """A base-16 integer written 0x... or $... (optionally signed), as the guide says."""
    if key not in sec:
        raise Malformed(f"{where}: no key {key}")
    v = sec[key]
    neg = v.startswith("-")
    if neg:
        v = v[1:]
    if v[:2].lower() == "0x":
        v = v[2:]
    elif v.startswith("$"):
        v = v[1:]
    else:
        raise Malformed(f"{where}: {key} is not hexadecimal")
    if not v or any(c not in "0123456789abcdefABCDEF" for c in v) or len(v) > MAX_BITS // 4 + 1:
        raise Malformed(f"{where}: {key} is not a hexadecimal number within the cap")
    x = int(v, 16)
    return -x if neg else x


def strong_probable_prime(n, a):
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(a, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def small_prime(n):
    """The guide's final test, for 0 < N < 2^64: here strong tests to the first twelve
    prime bases, exact below 3.3 * 10^24 (Sorenson & Webster 2017)."""
    if n <= 0 or n >= 1 << 64:
        raise Invalid(f"the last N = {n} is not below 2^64")
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    return all(strong_probable_prime(n, a) for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37))


def jacobi(a, n):
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def lucas_v(p, q, k, n):
    """V_k(P, Q) mod n by the doubling formulas V_2j = V_j^2 - 2Q^j, V_2j+1 = V_j V_j+1 - P Q^j."""
    v0, v1, qk = 2 % n, p % n, 1
    for bit in bin(k)[2:]:
        if bit == "1":
            v0, v1 = (v0 * v1 - p * qk) % n, (v1 * v1 - 2 * qk * q) % n
            qk = qk * qk * q % n
        else:
            v0, v1 = (v0 * v0 - 2 * qk) % n, (v0 * v1 - p * qk) % n
            qk = qk * qk % n
    return v0


def n_minus_1(n, s, b):
    if s % 2 or s < 2 or (n - 1) % s:
        raise Invalid("N - 1 test: S must be even, >= 2 and divide N - 1")
    if not 2 <= b < n:
        raise Invalid("N - 1 test: B out of range")
    r = (n - 1) // s
    if r % 2 == 0 or r <= s:
        raise Invalid("N - 1 test: R = (N - 1)/S must be odd and above S")
    if pow(b, n - 1, n) != 1 or math.gcd(pow(b, s, n) - 1, n) != 1:
        raise Invalid("N - 1 test: B^(N-1) != 1 or gcd(B^S - 1, N) != 1")
    return r


def n_plus_1(n, s, q):
    if s % 2 or s < 2 or (n + 1) % s:
        raise Invalid("N + 1 test: S must be even, >= 2 and divide N + 1")
    if not 1 <= q < n:
        raise Invalid("N + 1 test: Q out of range")
    r = (n + 1) // s
    p = q % 2 + 1
    if r % 2 == 0 or r <= s:
        raise Invalid("N + 1 test: R = (N + 1)/S must be odd and above S")
    if jacobi(q, n) != -1 or jacobi(p * p - 4 * q, n) != -1:
        raise Invalid("N + 1 test: Jacobi symbols")
    if lucas_v(p, q, (n + 1) // 2, n) != 0 or lucas_v(p, q, s // 2, n) == 0:
        raise Invalid("N + 1 test: V_((N+1)/2) != 0 or V_(S/2) = 0")
    return r


def ec_mul(k, pt, a, n):
    """k (X : Y : Z) on Y^2 Z = X^3 + a X Z^2 + b Z^3 mod n, projective (no inversions);
    also returns the product of every Z formed, whose gcd with n the guide asks for."""

    def add(p1, p2):
        x1, y1, z1 = p1
        x2, y2, z2 = p2
        if z1 == 0:
            return p2
        if z2 == 0:
            return p1
        u1, u2 = y2 * z1 % n, y1 * z2 % n
        v1, v2 = x2 * z1 % n, x1 * z2 % n
        if v1 == v2:
            if u1 != u2 or y1 == 0:
                return (0, 1, 0)
            w = (a * z1 * z1 + 3 * x1 * x1) % n
            s = y1 * z1 % n
            bb = x1 * y1 * s % n
            h = (w * w - 8 * bb) % n
            return (2 * h * s % n, (w * (4 * bb - h) - 8 * y1 * y1 * s * s) % n, 8 * s * s * s % n)
        u, v = (u1 - u2) % n, (v1 - v2) % n
        w = z1 * z2 % n
        aa = (u * u * w - v * v * v - 2 * v * v * v2) % n
        return (v * aa % n, (u * (v * v * v2 - aa) - v * v * v * u2) % n, v * v * v * w % n)

    acc, r, zs = pt, (0, 1, 0), 1
    while k:
        if k & 1:
            r = add(r, acc)
            zs = zs * r[2] % n if r[2] else zs
        k >>= 1
        if k:
            acc = add(acc, acc)
            zs = zs * acc[2] % n if acc[2] else zs
    return r, zs


def ec_test(n, s, w, t, a=None, b=None, j=None):
    if n < 2 or math.gcd(n, 6) != 1 or s <= 0 or w * w >= 4 * n or (n + 1 - w) % s:
        raise Invalid("EC test: N, S or W out of range")
    if not 0 <= t < n:
        raise Invalid("EC test: T out of range")
    if j is not None:
        if abs(j) > n // 2 or j in (0, 1728):
            raise Invalid("EC test: J out of range")
        a, b = 3 * j * (1728 - j) % n, 2 * j * (1728 - j) ** 2 % n
    else:
        if abs(a) > n // 2 or abs(b) > n // 2 or (4 * a**3 + 27 * b**2) % n == 0:
            raise Invalid("EC test: A or B out of range, or a singular curve")
    r = (n + 1 - w) // s
    if r % 2 == 0:
        raise Invalid("EC test: R is even")
    if not above_bound(r, n):
        raise Invalid("EC test: R <= floor((N^(1/4) + 1)^2)")
    l = (t**3 + a * t + b) % n
    if l == 0:
        raise Invalid("EC test: L = 0")
    a2, x, y = a * l * l % n, t * l % n, l * l % n
    p1, zs1 = ec_mul(s, (x, y, 1), a2, n)
    if math.gcd(p1[2] * zs1, n) != 1:
        raise Invalid("EC test: S P has Z not coprime to N")
    p2, _ = ec_mul(r, p1, a2, n)
    if p2[2] % n != 0:
        raise Invalid("EC test: R (S P) is not the identity")
    return r


def above_bound(r, n):
    """R > floor((N^(1/4) + 1)^2), exactly in integers. For an integer R that is
    R > (1 + y)^2 = 1 + 2y + z with y = N^(1/4), z = y^2 = sqrt(N): with d = R - 1,
    d - z > 2 sqrt(z), false when d <= z (d^2 <= N), else (d - z)^2 > 4z, i.e.
    d^2 + N > z (2d + 4), i.e. (d^2 + N)^2 > N (2d + 4)^2 (both sides positive)."""
    d = r - 1
    if d < 0 or d * d <= n:
        return False
    return (d * d + n) ** 2 > n * (2 * d + 4) ** 2


def check(text, expect=None):
    if len(text) > MAX_BYTES:
        raise Malformed(f"over {MAX_BYTES} bytes")
    secs = sections(text)
    head = secs.get("PRIMO - Primality Certificate")
    if head is None or "TestCount" not in head:
        raise Malformed("no [PRIMO - Primality Certificate] section with TestCount")
    try:
        count = int(head["TestCount"], 10)
    except ValueError:
        raise Malformed("TestCount is not a decimal integer") from None
    if not 0 <= count <= MAX_TESTS:
        raise Malformed(f"TestCount {count} outside 0..{MAX_TESTS}")
    if "Candidate" not in secs:
        raise Malformed("no [Candidate] section")
    n0 = n = number(secs["Candidate"], "N", "[Candidate]")
    if expect is not None and n0 != expect:
        raise Invalid(f"the certificate is for {n0}, not {expect}")
    if n0.bit_length() > MAX_BITS:
        raise Malformed(f"N has more than {MAX_BITS} bits")
    for i in range(1, count + 1):
        where = f"[{i}]"
        sec = secs.get(str(i))
        if sec is None:
            raise Malformed(f"no section {where}")
        s = number(sec, "S", where)
        try:
            if "W" in sec:
                w, t = number(sec, "W", where), number(sec, "T", where)
                if "J" in sec:
                    r = ec_test(n, s, w, t, j=number(sec, "J", where))
                elif "A" in sec and "B" in sec:
                    r = ec_test(n, s, w, t, a=number(sec, "A", where), b=number(sec, "B", where))
                else:
                    raise Malformed(f"{where}: W without J or A and B")
            elif "Q" in sec:
                r = n_plus_1(n, s, number(sec, "Q", where))
            elif "B" in sec:
                r = n_minus_1(n, s, number(sec, "B", where))
            else:
                raise Malformed(f"{where}: no test")
        except Invalid as e:
            raise Invalid(f"{where}: {e}") from None
        n = r
    if not small_prime(n):
        raise Invalid(f"the last N = {n} is not prime")
    return n0


def main(argv):
    args = argv[1:]
    expect = None
    if "--expect" in args:
        k = args.index("--expect")
        expect = int(args[k + 1], 0)
        del args[k : k + 2]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="ascii", errors="strict") as f:
            text = f.read(MAX_BYTES + 1)
        n = check(text, expect)
    except (OSError, UnicodeDecodeError, Malformed) as e:
        print(f"malformed: {e}")
        return 2
    except Invalid as e:
        print(f"invalid: {e}")
        return 1
    print(f"valid: {n} is prime")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
