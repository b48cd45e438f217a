"""Type stubs for the compiled module (see primekit/__init__.py for the contract)."""

MAX_INPUT_BITS: int
"""Largest input, in bits, that is_prime accepts (32768)."""

__version__: str

def is_prime(n: int, /) -> bool:
    """Return True if n is prime.

    Exact below 2**64; above, a composite passes with probability at most
    2**-128 whatever n is. Negative numbers, 0 and 1 give False.
    Raises TypeError for non-ints (float and bool included) and ValueError
    if n has more than MAX_INPUT_BITS bits.
    """

def generate_prime(bits: int, /) -> int:
    """Return a random prime of exactly `bits` bits from the OS random generator.

    Raises TypeError for non-ints (float and bool included), ValueError for a
    negative or unsupported size, OSError if the OS random generator fails.
    """

def generate_safe_prime(bits: int, /) -> int:
    """Return a random safe prime p of exactly `bits` bits ((p - 1) / 2 prime too).

    Raises TypeError for non-ints (float and bool included), ValueError for a
    negative or unsupported size, OSError if the OS random generator fails.
    """

def next_prime(n: int, /) -> int:
    """Return the smallest prime > n (2 for every n < 2).

    Raises TypeError for non-ints and ValueError beyond the supported size.
    """

def prev_prime(n: int, /) -> int:
    """Return the largest prime < n.

    Raises ValueError if n <= 2 or beyond the supported size, TypeError for
    non-ints (float and bool included).
    """

class RsaPrivateKey:
    """An RSA private key (PKCS#1 integers) with its PEM encodings."""

    n: int
    e: int
    d: int
    p: int
    q: int
    dp: int
    dq: int
    qinv: int
    bits: int
    def private_pem(self, format: str = "pkcs8") -> str: ...
    def public_pem(self) -> str: ...

def generate_rsa_key(bits: int, e: int | None = None, *, insecure: bool = False) -> RsaPrivateKey:
    """Return an RSA key by FIPS 186-5 A.1.3 (e = 65537 by default).

    Raises ValueError for an odd size, a size below 2048 (512 with insecure=True)
    or above 16384, or e even or outside (2**16, 2**256).
    """

def generate_provable_prime(
    bits: int, /, *, safe: bool = False, maurer: bool = False, seed: bytes | None = None
) -> tuple[int, str]:
    """Return (p, certificate JSON): a provable prime and its Pocklington certificate.

    safe=True: p = 2q + 1, both proven. maurer=True: Maurer's random relative sizes
    (closer to uniform over primes). seed=bytes: FIPS 186-5 Shawe-Taylor (SHA-256),
    the same seed always giving the same prime. At most one of the three.
    """

def prove(n: int, /, *, jobs: int = 1, max_seconds: float | None = None) -> str:
    """Return the JSON certificate proving n prime (ECPP where n - 1 does not factor).

    Raises ValueError if n is composite (saying how), negative or over 16,384 bits;
    TimeoutError when max_seconds passed first; RuntimeError when no proof was found.

    >>> import json, primekit
    >>> cert = primekit.prove(2**127 - 1)
    >>> json.loads(cert)["prime"] == str(2**127 - 1), primekit.verify_certificate(cert)
    (True, True)
    """

def verify_certificate(cert: str | bytes, /, n: int | None = None, *, max_work: int | None = None) -> bool:
    """Return True if cert is a valid primality certificate (of n, when given) whose
    estimated checking work is at most max_work (default 2^41)."""
