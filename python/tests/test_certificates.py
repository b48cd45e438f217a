"""Provable primes from Python, checked by primekit and by the independent
standard-library checker tools/verify_cert.py."""

import importlib.util
import json
import pathlib

import primekit

CHECKER = pathlib.Path(__file__).resolve().parents[2] / "tools" / "verify_cert.py"


def independent():
    spec = importlib.util.spec_from_file_location("verify_cert", CHECKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_provable_primes_verify_in_both_checkers():
    checker = independent()
    for bits, safe in [(128, False), (1024, False), (256, True)]:
        p, cert = primekit.generate_provable_prime(bits, safe=safe)
        assert p.bit_length() == bits and primekit.is_prime(p)
        if safe:
            assert primekit.is_prime((p - 1) // 2)
        assert primekit.verify_certificate(cert, p)
        assert primekit.verify_certificate(cert.encode())
        prime, steps = checker.parse(cert.encode())
        assert prime == p
        checker.check(steps)


def test_mutated_certificates_are_rejected():
    p, cert = primekit.generate_provable_prime(256)
    assert primekit.verify_certificate(cert, p)
    doc = json.loads(cert)
    doc["steps"][0]["factors"][0]["witness"] = "1"  # outside 2..N-2
    assert not primekit.verify_certificate(json.dumps(doc))
    checker = independent()
    prime, steps = checker.parse(json.dumps(doc).encode())
    try:
        checker.check(steps)
        raise AssertionError("the independent checker accepted witness 1")
    except checker.Invalid:
        pass
    assert not primekit.verify_certificate(cert, p + 2)
    assert not primekit.verify_certificate("not json")
    assert not primekit.verify_certificate(cert, -p)
    doc = json.loads(cert)
    doc["steps"][0]["n"] = str(p + 2)
    doc["prime"] = str(p + 2)
    assert not primekit.verify_certificate(json.dumps(doc))
