"""generate_prime / generate_safe_prime / next_prime / prev_prime, checked with sympy."""

import pytest
import sympy

import primekit


@pytest.mark.parametrize("bits", [2, 3, 8, 16, 63, 64, 65, 128, 256, 512, 1024])
def test_generate_prime_size_and_primality(bits):
    for _ in range(3 if bits >= 512 else 10):
        p = primekit.generate_prime(bits)
        assert type(p) is int
        assert p.bit_length() == bits and p >> (bits - 2) == 0b11, (bits, p)
        assert sympy.isprime(p), p


def test_generate_prime_outputs_differ():
    assert len({primekit.generate_prime(128) for _ in range(20)}) == 20


@pytest.mark.parametrize("bits", [3, 6, 8, 16, 64, 65, 128, 256])
def test_generate_safe_prime(bits):
    p = primekit.generate_safe_prime(bits)
    assert p.bit_length() == bits and p >> (bits - 2) == 0b11, (bits, p)
    assert sympy.isprime(p) and sympy.isprime((p - 1) // 2), p


@pytest.mark.parametrize("fn", [primekit.generate_prime, primekit.generate_safe_prime])
@pytest.mark.parametrize("bad", [1.0, 1024.0, "1024", None, True])
def test_generator_size_type_errors(fn, bad):
    with pytest.raises(TypeError, match=r"bits must be an int, not \w+"):
        fn(bad)


@pytest.mark.parametrize("fn", [primekit.generate_prime, primekit.generate_safe_prime])
def test_generator_size_value_errors(fn):
    with pytest.raises(ValueError, match="bits must be non-negative, got -1"):
        fn(-1)
    with pytest.raises(ValueError, match=r"bits = <\d+-bit int> is too large"):
        fn(2**100)
    with pytest.raises(ValueError, match="is too large"):
        fn(2**32)
    with pytest.raises(ValueError, match="8193 bits; the maximum is 8192"):
        fn(8193)
    for tiny in (0, 1):
        with pytest.raises(ValueError, match="bits must be at least"):
            fn(tiny)


def test_safe_prime_impossible_sizes():
    for bits in (2, 4, 5):
        with pytest.raises(ValueError):
            primekit.generate_safe_prime(bits)


def test_next_and_prev_prime_small_range_match_sympy():
    for n in range(3, 5000):
        assert primekit.next_prime(n) == sympy.nextprime(n), n
        assert primekit.prev_prime(n) == sympy.prevprime(n), n


def test_next_prime_below_two_is_two():
    for n in (-(2**200), -5, -1, 0, 1):
        assert primekit.next_prime(n) == 2


def test_prev_prime_needs_n_above_two():
    for n in (2, 1, 0, -1, -(2**200)):
        with pytest.raises(ValueError, match="no prime smaller than"):
            primekit.prev_prime(n)


def test_next_and_prev_prime_large_match_sympy(rng):
    # Around 2^64 (the exact / probabilistic boundary) and at crypto sizes.
    starts = [2**64 - 100, 2**64 - 59, 2**64 - 58, 2**64, 2**64 + 1]
    starts += [rng.getrandbits(bits) | (1 << (bits - 1)) for bits in (65, 128, 256, 512) for _ in range(3)]
    for n in starts:
        assert primekit.next_prime(n) == sympy.nextprime(n), n
        assert primekit.prev_prime(n) == sympy.prevprime(n), n


def test_next_prev_prime_errors():
    with pytest.raises(TypeError, match="n must be an int, not float"):
        primekit.next_prime(10.0)
    with pytest.raises(TypeError, match="n must be an int, not bool"):
        primekit.prev_prime(True)
    with pytest.raises(ValueError, match="the maximum is 32767"):
        primekit.next_prime(2**32768)
    with pytest.raises(ValueError, match="the maximum is 32767"):
        primekit.prev_prime(2**32768)


def test_docstrings_and_signatures():
    for fn, arg in [
        (primekit.generate_prime, "bits"),
        (primekit.generate_safe_prime, "bits"),
        (primekit.next_prime, "n"),
        (primekit.prev_prime, "n"),
    ]:
        assert fn.__text_signature__ == f"({arg}, /)"
        assert "Raises" in fn.__doc__
