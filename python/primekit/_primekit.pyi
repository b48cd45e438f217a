"""Type stubs for the compiled module (see primekit/__init__.py for the contract)."""

MAX_INPUT_BITS: int
"""Largest input, in bits, that is_prime accepts (65536)."""

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
