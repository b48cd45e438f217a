"""primekit.is_prime against independent oracles: the corpus's expected column and sympy."""

import sympy

import primekit

from conftest import corpus_rows


def test_corpus_matches_expected_and_sympy():
    rows = corpus_rows()
    assert len(rows) > 1000
    for value, expected in rows:
        assert primekit.is_prime(value) == expected, value
        assert sympy.isprime(value) == expected, value  # the corpus and sympy agree too


def test_every_int_below_30000_matches_sympy():
    assert [n for n in range(30000) if primekit.is_prime(n)] == list(sympy.primerange(30000))


def test_negatives_are_not_prime():
    assert not any(primekit.is_prime(n) for n in range(-2000, 0))
    assert not primekit.is_prime(-(2**127 - 1))


def test_around_two_to_the_64():
    # Both sides of the exact-u64 / Miller-Rabin boundary.
    for n in range(2**64 - 3000, 2**64 + 3000):
        assert primekit.is_prime(n) == sympy.isprime(n), n


def test_random_odd_ints_match_sympy(rng):
    for bits in (65, 96, 128, 256, 512, 1024, 2048):
        for _ in range(150 if bits <= 512 else 40):
            n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
            assert primekit.is_prime(n) == sympy.isprime(n), n


def test_random_primes_their_products_and_neighbours():
    for bits in (64, 65, 128, 256, 512, 1024):
        p = sympy.randprime(2 ** (bits - 1), 2**bits)
        q = sympy.randprime(2 ** (bits - 1), 2**bits)
        assert primekit.is_prime(p) and primekit.is_prime(q)
        assert not primekit.is_prime(p * q)
        assert not primekit.is_prime(p * p)
        for k in range(2, 400, 2):
            assert primekit.is_prime(p + k) == sympy.isprime(p + k), p + k


def test_mersenne_numbers():
    exponents = set(range(2, 1300))
    mersenne = {2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279}
    for e in sorted(exponents):
        assert primekit.is_prime(2**e - 1) == (e in mersenne), e


def test_accepts_int_subclasses_and_index_objects():
    class Index:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    class MyInt(int):
        pass

    assert primekit.is_prime(Index(2**89 - 1))
    assert not primekit.is_prime(Index(2**89 + 1))
    assert primekit.is_prime(MyInt(97))
