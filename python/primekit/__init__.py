"""primekit: misuse-resistant primality testing and fast prime generation.

A thin Python front on the Rust ``primekit`` crate. Every function takes and
returns plain Python ``int`` values of any size and releases the GIL while the
Rust core works, so threads can test or generate primes in parallel.

Arguments are ints or objects with ``__index__`` (numpy integers, gmpy2 mpz);
``bool`` and ``float`` raise ``TypeError``, out-of-domain values ``ValueError``.

>>> import primekit
>>> primekit.is_prime(2**127 - 1)
True
>>> primekit.is_prime(-7)
False
>>> p = primekit.generate_prime(1024)
>>> p.bit_length(), primekit.is_prime(p)
(1024, True)
>>> primekit.next_prime(100), primekit.prev_prime(100)
(101, 97)

The CLI's key-material jobs: ``check_dh`` / ``check_rsa`` audit a PEM file's text
and return the report of ``primekit check-dh --json`` as a dict;
``generate_dh_params`` makes the parameters ``primekit dhparam`` writes.

>>> params = primekit.generate_dh_params(1024)
>>> report = primekit.check_dh(params.pem)
>>> report["ok"], report["checks"][0]
(True, {'name': 'p_size', 'status': 'warn', 'passed': True, 'detail': 'p has 1024 bits: below the recommended 2048 bits'})
"""

from ._primekit import (
    MAX_INPUT_BITS,
    DhParameters,
    InputError,
    RsaPrivateKey,
    __version__,
    check_dh,
    check_rsa,
    generate_dh_params,
    generate_prime,
    generate_provable_prime,
    generate_rsa_key,
    generate_safe_prime,
    is_prime,
    next_prime,
    prev_prime,
    prove,
    verify_certificate,
)
from ._types import Check, CheckReport, Status

__all__ = [
    "Check",
    "CheckReport",
    "Status",
    "MAX_INPUT_BITS",
    "DhParameters",
    "InputError",
    "RsaPrivateKey",
    "__version__",
    "check_dh",
    "check_rsa",
    "generate_dh_params",
    "generate_prime",
    "generate_provable_prime",
    "generate_rsa_key",
    "generate_safe_prime",
    "is_prime",
    "next_prime",
    "prev_prime",
    "prove",
    "verify_certificate",
]
