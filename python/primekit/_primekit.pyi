"""Type stubs for the compiled module (see primekit/__init__.py for the contract)."""

from typing import Literal, final

from ._types import CheckReport

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

@final
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

def prove(n: int, /, *, jobs: int = 1, max_seconds: float | None = None, format: Literal["json", "pari", "primo"] = "json") -> str:
    """Return the JSON certificate proving n prime (ECPP where n - 1 does not factor).

    format="pari": a GP expression for PARI/GP's primecertisvalid (elliptic-curve
    steps only), as `primekit prove --format pari`; format="primo": Primo's
    certificate format 4 (elliptic-curve steps only), as `primekit prove --format primo`.

    Raises ValueError if n is composite (saying how), negative or over 16,384 bits, for
    an unknown format, and with format="pari" or "primo" below 2**64; TimeoutError when
    max_seconds passed first; RuntimeError when no proof was found.

    >>> import json, primekit
    >>> cert = primekit.prove(2**127 - 1)
    >>> json.loads(cert)["prime"] == str(2**127 - 1), primekit.verify_certificate(cert)
    (True, True)
    """

def verify_certificate(cert: str | bytes, /, n: int | None = None, *, max_work: int | None = None) -> bool:
    """Return True if cert is a valid primality certificate (of n, when given) whose
    estimated checking work is at most max_work (default 2^41)."""

class InputError(ValueError):
    """The PEM text could not be audited (check_dh, check_rsa).

    `kind` names the reason as the CLI's --json `error_kind` does: "too_large"
    (over 1 MiB), "not_pem", "wrong_label", "pem", "der", "unsupported" (encrypted or
    non-RSA key), "over_limit" (a number wider than max_bits), "limit".
    """

    kind: str

def check_dh(
    pem: str | bytes,
    /,
    *,
    max_bits: int | None = None,
    cert: str | bytes | None = None,
    prove: bool = False,
    max_seconds: float = 300.0,
    jobs: int = 1,
    max_work: int | None = None,
) -> CheckReport:
    """Audit DH parameters (PKCS #3 or X9.42 PEM): the report of `primekit check-dh --json`.

    The report is a dict: `format`, `ok` (every check passed, warnings allowed) and
    `checks`, each `{"name", "status", "passed", "detail"}`, status "pass", "warn",
    "fail" or "skip". max_bits caps p and q (default 10000); cert (certificate JSON)
    adds the check `certificate`; prove=True adds `p_proof` and `q_proof` (searched for
    at most max_seconds with `jobs` threads); max_work caps the certificate's checking
    work (default 2^41).

    Raises TypeError if pem or cert is neither str nor bytes (or max_bits, jobs not
    ints), InputError (a ValueError) if the text cannot be audited, ValueError for a
    negative max_bits or jobs, or a max_seconds that is not positive.

    >>> import primekit
    >>> params = primekit.generate_dh_params(512)
    >>> report = primekit.check_dh(params.pem)
    >>> report["format"], report["ok"]
    ('pkcs3', False)
    >>> [(c["name"], c["status"]) for c in report["checks"]]
    [('p_size', 'fail'), ('p_prime', 'pass'), ('p_safe_prime', 'pass'), ('g_range', 'pass'), ('g_order', 'pass')]
    >>> primekit.check_dh("not a PEM file")
    Traceback (most recent call last):
    ...
    primekit.InputError: not a PEM file: ...
    """

def check_rsa(pem: str | bytes, /, *, max_bits: int | None = None) -> CheckReport:
    """Audit an RSA private key (PKCS #1 or unencrypted PKCS #8 PEM): the report of
    `primekit check-rsa --json` (keys as check_dh). max_bits caps every integer of the
    key (default 16384). Variable-time: audit keys you hold.

    Raises TypeError if pem is neither str nor bytes, InputError (a ValueError) if the
    text cannot be audited (encrypted and non-RSA keys included), ValueError for a
    negative max_bits.

    >>> import primekit
    >>> key = primekit.generate_rsa_key(2048)
    >>> report = primekit.check_rsa(key.private_pem("pkcs1"))
    >>> report["format"], report["ok"], report["checks"][0]["name"]
    ('pkcs1', True, 'n_size')
    """

@final
class DhParameters:
    """Diffie-Hellman parameters: a safe prime p = 2q + 1 (p = 23 mod 24) and g = 2."""

    p: int
    g: int
    q: int
    """(p - 1) / 2, prime: the order of the subgroup g generates."""
    bits: int
    pem: str
    """PKCS #3 `DH PARAMETERS` PEM, as `openssl dhparam` writes."""
    certificate: str | None
    """With provable=True the JSON certificate proving p and q prime, else None."""

def generate_dh_params(bits: int, /, *, provable: bool = False, jobs: int = 1) -> DhParameters:
    """Return DH parameters as `primekit dhparam` makes them: a random safe prime p of
    exactly `bits` bits with p = 23 (mod 24), and g = 2.

    provable=True proves p and q prime and sets `certificate`; otherwise both are prime
    with error probability at most 2**-128. `jobs` threads race on a probable search.

    Raises TypeError for a non-int bits or jobs (float and bool included), ValueError
    if bits is outside 64..=8192 (67.. with provable=True) or jobs outside 1..=1024,
    OSError if the OS random generator fails.

    >>> import primekit
    >>> params = primekit.generate_dh_params(256, provable=True)
    >>> params.bits, params.g, params.p % 24, params.q == (params.p - 1) // 2
    (256, 2, 23, True)
    >>> params.pem.splitlines()[0]
    '-----BEGIN DH PARAMETERS-----'
    >>> primekit.verify_certificate(params.certificate, params.p)
    True
    """
