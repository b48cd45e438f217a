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
"""

from ._primekit import MAX_INPUT_BITS, __version__, is_prime

__all__ = ["MAX_INPUT_BITS", "__version__", "is_prime"]

# NOTE (interim): the generator bindings are compiled only once the core crate has
# primekit::{generate_prime, generate_safe_prime, next_prime, prev_prime} (branch `gen`).
try:
    from ._primekit import generate_prime, generate_safe_prime, next_prime, prev_prime
except ImportError:  # built without the `generators` feature
    pass
else:
    __all__ += ["generate_prime", "generate_safe_prime", "next_prime", "prev_prime"]
