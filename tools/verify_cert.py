#!/usr/bin/env python3
"""Independent checker of primekit primality certificates (docs/certificate-format.md).

Standard library only, written from the format document: it shares no code with the
Rust verifier, so the two can be tested against each other.

    python3 tools/verify_cert.py CERT.json [N] [--max-work WORK]

Exit status: 0 valid (prints the proven prime), 1 invalid ("invalid: step k: reason"),
2 malformed or unreadable (including a certificate whose estimated checking work
exceeds the limit, 2^41 unless --max-work says otherwise).

As a library: verify(text, expected=None, max_work=DEFAULT_MAX_WORK) returns the proven
prime or raises Malformed / Invalid.
"""

import json
import math
import sys

MAX_BYTES = 1 << 20
MAX_BITS = 16384
MAX_STEPS = 4096
MAX_EXPONENT = 65536
MAX_NESTING = 64
DEFAULT_MAX_WORK = 1 << 41
FORMAT = "primekit-certificate"


def decimal_digits(bits):
    """Decimal digits of 2^bits - 1, i.e. ceil(bits * log10(2)), in integers."""
    return bits * 30102999566398119521 // 10**20 + 1


MAX_DIGITS = decimal_digits(MAX_BITS)  # 4933

# CPython (3.11+, some 3.10 / 3.9 / 3.8 updates) refuses int <-> str conversions beyond
# 4,300 digits; certificate integers may have MAX_DIGITS, checked before conversion.
if hasattr(sys, "get_int_max_str_digits"):
    _limit = sys.get_int_max_str_digits()
    if _limit and _limit < MAX_DIGITS:
        sys.set_int_max_str_digits(MAX_DIGITS)


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


def is_json_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def decimal(v, where):
    # Length first: int() of a long string costs time quadratic in its length.
    if not isinstance(v, str) or not 1 <= len(v) <= MAX_DIGITS or not v.isascii() or not v.isdigit():
        raise Malformed(f"{where}: expected a decimal string of at most {MAX_DIGITS} digits")
    return int(v)


def _json_number(text, kind):
    # JSON numbers as a reader with IEEE doubles sees them: beyond the double range
    # they are an error, not infinity; Infinity and NaN are not JSON at all.
    if not math.isfinite(float(text)):
        raise Malformed(f"not JSON: number {text[:20]} out of range")
    return int(text) if kind == "int" else float(text)


def _no_constant(name):
    raise Malformed(f"not JSON: {name}")


def _nesting(doc):
    deepest, todo = 0, [(doc, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            if isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise Malformed("not JSON: a string holds a lone surrogate") from None
            continue
        deepest = max(deepest, depth + 1)
        todo.extend((c, depth + 1) for c in children)
    for key in _keys(doc):
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            raise Malformed("not JSON: a key holds a lone surrogate") from None
    return deepest


def _keys(doc):
    todo = [doc]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            yield from v.keys()
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)


def load(text):
    """The JSON document in `text` (bytes): strict UTF-8 without a byte order mark,
    strict JSON, nesting at most MAX_NESTING."""
    if len(text) > MAX_BYTES:
        raise Malformed(f"{len(text)} bytes, at most {MAX_BYTES}")
    try:
        s = text.decode("utf-8") if isinstance(text, (bytes, bytearray)) else text
        if s.startswith("\ufeff"):
            raise Malformed("not JSON: byte order mark")
        doc = json.loads(
            s,
            parse_int=lambda t: _json_number(t, "int"),
            parse_float=lambda t: _json_number(t, "float"),
            parse_constant=_no_constant,
        )
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise Malformed(f"not JSON: {type(e).__name__}") from None
    if _nesting(doc) > MAX_NESTING:
        raise Malformed(f"nested deeper than {MAX_NESTING} levels")
    return doc


def field(obj, key, where):
    if key not in obj:
        raise Malformed(f'{where}: missing "{key}"')
    return obj[key]


def parse(text):
    """(prime, steps): a step is ("pocklington", n, [(q, k, witness)]) or
    ("ecpp", n, dict of a, b, m, q, x, y)."""
    doc = load(text)
    if not isinstance(doc, dict):
        raise Malformed("not a JSON object")
    if field(doc, "format", "certificate") != FORMAT:
        raise Malformed(f'"format" must be "{FORMAT}"')
    version = field(doc, "version", "certificate")
    if not is_json_int(version) or version not in (1, 2):
        raise Malformed("version must be the integer 1 or 2")
    prime = decimal(field(doc, "prime", "certificate"), "prime")
    steps = field(doc, "steps", "certificate")
    least = 0 if version >= 2 else 1
    if not isinstance(steps, list) or not least <= len(steps) <= MAX_STEPS:
        raise Malformed(f'"steps" must be an array of {least}..={MAX_STEPS} steps')
    out = []
    for i, s in enumerate(steps):
        at = f"step {i}"
        if not isinstance(s, dict):
            raise Malformed(f"{at}: not an object")
        n = decimal(field(s, "n", at), f"{at}.n")
        method = field(s, "method", at)
        if method == "ecpp" and version >= 2:
            e = {key: decimal(field(s, key, at), f"{at}.{key}") for key in ("a", "b", "m", "q", "x", "y")}
            if "d" in s:
                d = s["d"]
                if not is_json_int(d) or not -(2**63) <= d < 0:
                    raise Malformed(f"{at}.d: expected a negative integer")
            out.append(("ecpp", n, e))
            continue
        if method != "pocklington":
            raise Malformed(f"{at}: unknown method")
        fs = field(s, "factors", at)
        if not isinstance(fs, list):
            raise Malformed(f'{at}: "factors" must be an array')
        factors = []
        for j, f in enumerate(fs):
            fat = f"{at}.factors[{j}]"
            if not isinstance(f, dict):
                raise Malformed(f"{fat}: not an object")
            k = field(f, "k", fat)
            if not is_json_int(k) or not 1 <= k <= MAX_EXPONENT:
                raise Malformed(f"{fat}.k: expected an integer in 1..={MAX_EXPONENT}")
            q = decimal(field(f, "q", fat), f"{fat}.q")
            w = decimal(field(f, "witness", fat), f"{fat}.witness")
            factors.append((q, k, w))
        out.append(("pocklington", n, factors))
    if out and out[0][1] != prime:
        raise Malformed('"prime" differs from the first step\'s n')
    return prime, out


def estimate_work(steps):
    """Products of 64-bit words the checks need, from sizes and counts alone
    (docs/certificate-format.md): (factors + 1) * bits(N) modular products for a
    Pocklington step, 20 * bits(N) for an ecpp step, each costing ceil(bits(N)/64)^2."""
    total = 0
    for method, n, body in steps:
        bits = n.bit_length()
        products = (len(body) + 1) * bits if method == "pocklington" else 20 * bits
        total += products * (-(-bits // 64)) ** 2
    return total


# --- elliptic curves, affine coordinates over Z/NZ --------------------------------------
#
# A point is (x, y) or None for the point at infinity. Every slope needs an inverse mod
# N; when the denominator is not invertible (the computation would split N, or a true
# sum is the point at infinity), the step is rejected by raising NotInvertible.


class NotInvertible(Exception):
    pass


def inverse(v, n):
    v %= n
    if math.gcd(v, n) != 1:
        raise NotInvertible
    return pow(v, -1, n)


def ec_add(p1, p2, a, n):
    """p1 + p2 for finite points; raises NotInvertible rather than return infinity."""
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and y1 == y2:
        lam = (3 * x1 * x1 + a) * inverse(2 * y1, n) % n
    else:
        lam = (y2 - y1) * inverse(x2 - x1, n) % n
    x3 = (lam * lam - x1 - x2) % n
    return x3, (lam * (x1 - x3) - y1) % n


def ec_mul(k, p, a, n):
    """k p for k >= 1 by doubling and adding, left to right: every intermediate multiple
    must be a finite point with invertible denominators."""
    r = p
    for bit in bin(k)[3:]:
        r = ec_add(r, r, a, n)
        if bit == "1":
            r = ec_add(r, p, a, n)
    return r


def check_ecpp(i, n, e, proven):
    """Goldwasser-Kilian / Atkin-Morain: E: y^2 = x^3 + a x + b with 4a^3 + 27b^2 a unit
    mod N, P = (x, y) on E, q prime with q > (N^(1/4) + 1)^2, q | m, Q = (m/q) P a finite
    point and q Q the point at infinity mod every prime factor of N: then N is prime."""
    a, b, m, q, x, y = (e[k] for k in ("a", "b", "m", "q", "x", "y"))
    if not (is_prime_below_2_64(q) if q < 2**64 else q in proven):
        raise Invalid(i, "q is not proven prime")
    if math.gcd(n, 6) != 1:
        raise Invalid(i, "gcd(N, 6) != 1")
    if max(a, b, x, y) >= n:
        raise Invalid(i, "a, b, x and y must be reduced mod N")
    # q > (N^(1/4) + 1)^2 shown through r = isqrt(q): (r - 1)^4 > N.
    r = math.isqrt(q)
    if r <= 1 or (r - 1) ** 4 <= n:
        raise Invalid(i, "q is not above (N^(1/4) + 1)^2")
    if m == 0 or m % q:
        raise Invalid(i, "q does not divide m")
    if m > n + 2 + 2 * math.isqrt(n):
        raise Invalid(i, "m exceeds the Hasse bound for N")
    if math.gcd((4 * a**3 + 27 * b**2) % n, n) != 1:
        raise Invalid(i, "the curve is singular mod N")
    if (y * y - (x**3 + a * x + b)) % n:
        raise Invalid(i, "P is not on the curve")
    try:
        big_q = ec_mul(m // q, (x, y), a, n)
        # q Q = O: (q - 1) Q, computed as a finite point, is -Q (q is odd).
        rest = ec_mul(q - 1, big_q, a, n)
    except NotInvertible:
        raise Invalid(i, "a point multiplication met a non-invertible element mod N") from None
    if math.gcd(big_q[1], n) != 1 or rest[0] != big_q[0] or (rest[1] + big_q[1]) % n:
        raise Invalid(i, "m P is not the point at infinity")


def check_pocklington(i, n, factors, proven):
    if not factors:
        raise Invalid(i, "no factors")
    # F | N - 1 needs F <= N - 1 < 2^bits(N-1); each q^k is at least 2^(k (bits(q) - 1)).
    low, seen = 0, set()
    for j, (q, k, _) in enumerate(factors):
        if q in seen:
            raise Invalid(i, f"factor {j}: q listed twice")
        seen.add(q)
        if not (is_prime_below_2_64(q) if q < 2**64 else q in proven):
            raise Invalid(i, f"factor {j}: q is not proven prime")
        low += k * (q.bit_length() - 1)
        if low >= (n - 1).bit_length():
            raise Invalid(i, f"factor {j}: F exceeds N - 1")
    F = 1
    for q, k, _ in factors:
        F *= q**k
    if (n - 1) % F:
        raise Invalid(i, "F does not divide N - 1")
    if F * F <= n:
        raise Invalid(i, "F^2 <= N")
    for j, (_, _, a) in enumerate(factors):
        if not 2 <= a <= n - 2:
            raise Invalid(i, f"factor {j}: witness out of range")
    for j, (q, _, a) in enumerate(factors):
        # a^(N-1) as (a^((N-1)/q))^q: one exponentiation of bits(N) bits per factor.
        z = pow(a, (n - 1) // q, n)
        if pow(z, q, n) != 1:
            raise Invalid(i, f"factor {j}: Fermat condition fails")
        if math.gcd(z - 1, n) != 1:
            raise Invalid(i, f"factor {j}: gcd condition fails")


def check(steps, prime=None):
    """Checks the parsed steps (and, for a certificate without steps, `prime`)."""
    if not steps:
        if prime is not None and prime < 2**64 and is_prime_below_2_64(prime):
            return
        raise Invalid(0, "no steps: only a prime below 2^64 may have none")
    proven = set()
    for i in range(len(steps) - 1, -1, -1):
        method, n, body = steps[i]
        if n.bit_length() > MAX_BITS:
            raise Invalid(i, "N too large")
        if n < 2**64:
            raise Invalid(i, "N below 2^64 needs no step")
        if n % 2 == 0:
            raise Invalid(i, "N is even")
        if method == "pocklington":
            check_pocklington(i, n, body, proven)
        else:
            check_ecpp(i, n, body, proven)
        proven.add(n)


def verify(text, expected=None, max_work=DEFAULT_MAX_WORK):
    """The prime `text` (certificate bytes) proves; raises Malformed or Invalid."""
    prime, steps = parse(text)
    work = estimate_work(steps)
    if work > max_work:
        raise Malformed(f"estimated work {work} exceeds the limit {max_work}; raise it with --max-work")
    if expected is not None and expected != prime:
        raise Invalid(0, "the certificate is for a different number")
    check(steps, prime)
    return prime


def main(argv):
    args, max_work = list(argv[1:]), DEFAULT_MAX_WORK
    if "--max-work" in args:
        at = args.index("--max-work")
        try:
            max_work = int(args[at + 1])
        except (IndexError, ValueError):
            print("--max-work needs an integer", file=sys.stderr)
            return 2
        del args[at : at + 2]
    if len(args) not in (1, 2):
        print(__doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        return 2
    try:
        expected = int(args[1], 0) if len(args) == 2 else None
    except ValueError:
        print(f"not a number: {args[1]}", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as fh:
            text = fh.read(MAX_BYTES + 1)
        prime = verify(text, expected, max_work)
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
