"""Provable primes from Python, checked by primekit and by the independent
standard-library checker tools/verify_cert.py."""

import importlib.util
import json
import pathlib

import primekit
from conftest import cli_json

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


def test_maurer_and_shawe_taylor_from_python():
    checker = independent()
    p, cert = primekit.generate_provable_prime(512, maurer=True)
    assert p.bit_length() == 512 and primekit.verify_certificate(cert, p)
    prime, steps = checker.parse(cert.encode())
    assert prime == p
    checker.check(steps)
    # NIST ACVP DSA PQGVer, test group 31 (L = 2048, N = 256, SHA2-256, provable),
    # tcId 151: q = ST_Random_Prime(256, firstseed).
    firstseed = bytes.fromhex("86373070EE9B819ACF17C371122BD97E6041D278491EC373217D035206E49A9B")
    q, q_cert = primekit.generate_provable_prime(256, seed=firstseed)
    assert q == int("AC5EFCF86E76C8E9D88A25BBF75DAA0F7B99E568F8C3DAE1FFE96BB979912727", 16)
    assert primekit.verify_certificate(q_cert, q)
    again, _ = primekit.generate_provable_prime(256, seed=firstseed)
    assert again == q
    other, _ = primekit.generate_provable_prime(256, seed=firstseed[:-1] + b"\x9c")
    assert other != q


def test_provable_option_errors():
    import pytest

    with pytest.raises(ValueError):
        primekit.generate_provable_prime(512, safe=True, maurer=True)
    with pytest.raises(ValueError):
        primekit.generate_provable_prime(512, seed=b"\x01", maurer=True)
    with pytest.raises(ValueError):
        primekit.generate_provable_prime(512, seed=b"")
    with pytest.raises(TypeError):
        primekit.generate_provable_prime(512, seed="not bytes")


def test_prove_any_prime_checked_by_both():
    checker = independent()
    # n - 1 = 2 q1 q2 with q1, q2 primes of 127 and 128 bits: elliptic-curve steps.
    n = 80953521711263782230960743696076698374083502729187467626492463668473356425299
    cert = primekit.prove(n, jobs=2)
    doc = json.loads(cert)
    assert doc["prime"] == str(n) and doc["version"] == 2
    assert any(s["method"] == "ecpp" for s in doc["steps"])
    assert primekit.verify_certificate(cert, n)
    prime, steps = checker.parse(cert.encode())
    assert prime == n
    checker.check(steps, n)
    # Below 2^64 the exact test is the proof.
    assert json.loads(primekit.prove(97))["steps"] == []


def test_prove_refuses_composites_and_bad_arguments():
    import pytest

    for c in [561, 3825123056546413051, (2**89 - 1) * (2**107 - 1)]:
        with pytest.raises(ValueError, match="composite"):
            primekit.prove(c)
    with pytest.raises(ValueError):
        primekit.prove(-7)
    with pytest.raises(TimeoutError):
        primekit.prove(primekit.next_prime(2**1500), max_seconds=0.001)


# n - 1 = 2 q1 q2 with q1, q2 primes of 127 and 128 bits (as above).
ECPP_PRIME = 80953521711263782230960743696076698374083502729187467626492463668473356425299


def test_prove_matches_cli(cli):
    """primekit.prove and `primekit prove --json` on the same numbers: both prove the
    prime (each certificate accepted by both checkers) and refuse the composite."""
    checker = independent()
    want, code = cli_json(cli, "prove", ECPP_PRIME)
    assert code == 0 and want["result"] == "proven"
    got = primekit.prove(ECPP_PRIME)
    for cert in (got, want["certificate"]):
        assert primekit.verify_certificate(cert, ECPP_PRIME)
        prime, steps = checker.parse(cert.encode())
        assert prime == ECPP_PRIME
        checker.check(steps, ECPP_PRIME)
    assert len(json.loads(got)["steps"]) == want["steps"]
    composite = (2**89 - 1) * (2**107 - 1)
    want, code = cli_json(cli, "prove", composite)
    assert code == 1 and want["result"] == "composite"
    import pytest

    with pytest.raises(ValueError, match="composite"):
        primekit.prove(composite)


def test_prove_primo_format_checked_by_the_primo_checker(tmp_path):
    import pathlib
    import subprocess
    import sys

    import pytest

    text = primekit.prove(ECPP_PRIME, format="primo")
    assert text.startswith("[PRIMO - Primality Certificate]\nFormat=4\n"), text
    with pytest.raises(ValueError, match="Primo"):
        primekit.prove(97, format="primo")  # below 2^64: no steps, nothing to write
    cert = tmp_path / "cert.out"
    cert.write_text(text)
    checker = pathlib.Path(__file__).resolve().parents[2] / "tools" / "verify_primo.py"
    out = subprocess.run([sys.executable, str(checker), str(cert), "--expect", str(ECPP_PRIME)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    # Another W (so another order m) is caught.
    bad = tmp_path / "bad.out"
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("W="))
    w = lines[k][2:]
    lines[k] = "W=" + ("-" if w.startswith("-") else "") + hex(int(w.lstrip("-"), 16) + 2).upper().replace("0X", "0x")
    bad.write_text("\n".join(lines))
    out = subprocess.run([sys.executable, str(checker), str(bad)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr


def test_prove_pari_format_checked_by_gp():
    import shutil
    import subprocess

    import pytest

    text = primekit.prove(ECPP_PRIME, format="pari")
    assert text.startswith("[") and str(ECPP_PRIME) in text
    with pytest.raises(ValueError, match="format must be"):
        primekit.prove(ECPP_PRIME, format="der")
    with pytest.raises(ValueError, match="PARI"):
        primekit.prove(97, format="pari")  # below 2^64: no steps, nothing to write
    gp = shutil.which("gp")
    if not gp:
        pytest.skip("no PARI/GP (gp) to check the certificate")
    script = f"print(primecertisvalid({text}))\n"
    out = subprocess.run([gp, "-q", "-f", "--default", "parisizemax=256M"], input=script, capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "1", out.stdout + out.stderr
