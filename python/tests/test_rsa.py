"""RSA keys from primekit.generate_rsa_key, checked with plain Python integers and,
when installed, loaded by the `cryptography` package."""

import math

import pytest

import primekit


def check_fields(k, bits):
    assert k.n == k.p * k.q and k.n.bit_length() == bits == k.bits
    lam = math.lcm(k.p - 1, k.q - 1)
    assert k.d == pow(k.e, -1, lam)
    assert k.d > 2 ** (bits // 2)
    assert (k.dp, k.dq, k.qinv) == (k.d % (k.p - 1), k.d % (k.q - 1), pow(k.q, -1, k.p))
    assert abs(k.p - k.q) > 2 ** (bits // 2 - 100)
    for x in (k.p, k.q):
        assert x.bit_length() == bits // 2 and x * x > 2 ** (bits - 1)
        assert math.gcd(x - 1, k.e) == 1
        assert primekit.is_prime(x)


def test_default_key_fields():
    k = primekit.generate_rsa_key(2048)
    assert k.e == 65537
    check_fields(k, 2048)
    assert k.private_pem().startswith("-----BEGIN PRIVATE KEY-----")
    assert k.private_pem("pkcs1").startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert k.public_pem().startswith("-----BEGIN PUBLIC KEY-----")


def test_other_exponent_and_insecure_size():
    k = primekit.generate_rsa_key(1024, e=2**127 - 1, insecure=True)
    assert k.e == 2**127 - 1
    check_fields(k, 1024)


@pytest.mark.parametrize(
    "args, kwargs",
    [((1024,), {}), ((2049,), {}), ((32768,), {}), ((2048, 3), {}), ((2048, 65536), {}), ((2048, 2**256 + 1), {}), ((256,), {"insecure": True})],
)
def test_bad_requests(args, kwargs):
    with pytest.raises(ValueError):
        primekit.generate_rsa_key(*args, **kwargs)
    with pytest.raises(ValueError):
        primekit.generate_rsa_key(2048).private_pem("der")


def test_cryptography_loads_the_keys():
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    rsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.rsa")
    k = primekit.generate_rsa_key(2048)
    for fmt in ("pkcs8", "pkcs1"):
        loaded = serialization.load_pem_private_key(k.private_pem(fmt).encode(), password=None)
        nums = loaded.private_numbers()
        assert (nums.p * nums.q, nums.d, nums.public_numbers.e) == (k.n, k.d, k.e)
    pub = serialization.load_pem_public_key(k.public_pem().encode())
    assert pub.public_numbers().n == k.n
    built = rsa.RSAPrivateNumbers(k.p, k.q, k.d, k.dp, k.dq, k.qinv, rsa.RSAPublicNumbers(k.e, k.n)).private_key()
    assert built.key_size == 2048
