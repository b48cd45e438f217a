"""Bad arguments raise TypeError / ValueError with messages naming the argument."""

import pytest

import primekit

NOT_INTS = [7.0, 2.5, "7", b"7", None, [7], 7 + 0j]


@pytest.mark.parametrize("bad", NOT_INTS, ids=repr)
def test_is_prime_rejects_non_ints(bad):
    with pytest.raises(TypeError, match=r"n must be an int, not \w+"):
        primekit.is_prime(bad)


@pytest.mark.parametrize("flag", [True, False])
def test_is_prime_rejects_bool(flag):
    with pytest.raises(TypeError, match="n must be an int, not bool"):
        primekit.is_prime(flag)


def test_is_prime_size_cap():
    cap = primekit.MAX_INPUT_BITS
    assert cap == 32768
    assert not primekit.is_prime(2**cap - 2)  # exactly at the cap: answered
    with pytest.raises(ValueError, match=f"{cap + 1} bits; the maximum is {cap}"):
        primekit.is_prime(2**cap + 1)
    with pytest.raises(ValueError):
        primekit.is_prime(2**100000 + 1)
    # A negative number is never prime, whatever its size: no cap needed to say so.
    assert not primekit.is_prime(-(2**100000))


def test_is_prime_is_positional_only():
    with pytest.raises(TypeError):
        primekit.is_prime(n=7)
    with pytest.raises(TypeError):
        primekit.is_prime()
    with pytest.raises(TypeError):
        primekit.is_prime(7, 11)


def test_is_prime_docstring_and_signature():
    assert "prime" in primekit.is_prime.__doc__
    assert primekit.is_prime.__text_signature__ == "(n, /)"
