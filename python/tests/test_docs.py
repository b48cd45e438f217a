"""The package docstring's examples run and hold."""

import doctest

import primekit


def test_package_doctests():
    result = doctest.testmod(primekit)
    assert result.attempted >= 5 and result.failed == 0


def test_public_api():
    assert sorted(primekit.__all__) == sorted(
        ["MAX_INPUT_BITS", "RsaPrivateKey", "__version__", "generate_prime", "generate_provable_prime", "generate_rsa_key", "generate_safe_prime", "is_prime", "next_prime", "prev_prime", "prove", "verify_certificate"]
    )
    for name in primekit.__all__:
        assert getattr(primekit, name) is not None
