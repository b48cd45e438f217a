"""check_dh, check_rsa and generate_dh_params against the CLI's --json on the same files,
against OpenSSL and `cryptography` as oracles, and on bad input.

The CLI is the binary $PRIMEKIT (the test command exports it); without it the
comparisons are skipped, with the reason shown in pytest's summary (-rs).
"""

import json
import pathlib
import shutil
import subprocess

import pytest

import primekit
from conftest import cli_json

OPENSSL = shutil.which("openssl")
# RFC 3526 §3 (2048-bit MODP group 14) and RFC 5114 §2.2 (2048-bit group, 224-bit q).
MODP2048_P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
RFC5114_P = int(
    "AD107E1E9123A9D0D660FAA79559C51FA20D64E5683B9FD1B54B1597B61D0A75E6FA141DF95A56DBAF9A3C407BA1DF15EB3D688A309C180E1DE6B85A1274A0A66D3F8152AD6AC2129037C9EDEFDA4DF8D91E8FEF55B7394B7AD5B7D0B6C12207C9F98D11ED34DBF6C6BA0B2C8BBC27BE6A00E0A0B9C49708B3BF8A317091883681286130BC8985DB1602E714415D9330278273C7DE31EFDC7310F7121FD5A07415987D9ADC0A486DCDF93ACC44328387315D75E198C641A480CD86A1B9E587E8BE60E69CC928B2B9C52172E413042E9B23F10B0E16E79763C9B53DCF4BA80A29E3FB73C16B8E75B97EF363E2FFA31F71CF9DE5384E71B81C0AC4DFFE0C10E64F",
    16,
)
RFC5114_G = int(
    "AC4032EF4F2D9AE39DF30B5C8FFDAC506CDEBE7B89998CAF74866A08CFE4FFE3A6824A4E10B9A6F0DD921F01A70C4AFAAB739D7700C29F52C57DB17C620A8652BE5E9001A8D66AD7C17669101999024AF4D027275AC1348BB8A762D0521BC98AE247150422EA1ED409939D54DA7460CDB5F6C6B250717CBEF180EB34118E98D119529A45D6F834566E3025E316A330EFBB77A86F0C1AB15B051AE3D428C8F8ACB70A8137150B8EEB10E183EDD19963DDD9E263E4770589EF6AA21E7F5F2FF381B539CCE3409D13CD566AFBB48D6C019181E1BCFE94B30269EDFE72FE9B6AA4BD7B5A0F1C71CFFF4C19C418E1F6EC017981BC087F2A7065B384B890D3191F2BFA",
    16,
)
RFC5114_Q = int("801C0D34C58D93FE997177101F80535A4738CEBCBF389A99B36371EB", 16)


# --- DER/PEM for crafted files: a SEQUENCE of INTEGERs is all PKCS #3, X9.42 and
# PKCS #1 need. OpenSSL parsing each crafted file (and naming what is wrong with its
# numbers) is the check that this encoder is right.


def der_len(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der_int(v):
    body = v.to_bytes(v.bit_length() // 8 + 1, "big")  # one spare bit: never negative
    return b"\x02" + der_len(len(body)) + body


def der_seq(*ints):
    body = b"".join(der_int(v) for v in ints)
    return b"\x30" + der_len(len(body)) + body


def pem(label, der):
    import base64

    b64 = base64.b64encode(der).decode()
    lines = [b64[i : i + 64] for i in range(0, len(b64), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----", ""])


def pkcs3(p, g):
    return pem("DH PARAMETERS", der_seq(p, g))


def x942(p, g, q):
    return pem("X9.42 DH PARAMETERS", der_seq(p, g, q))


def pkcs1(n, e, d, p, q):
    return pem("RSA PRIVATE KEY", der_seq(0, n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)))


# --- the CLI


def same_as_cli(cli, command, path, *, cli_args=(), prove_details=True, **kwargs):
    """Run `primekit COMMAND PATH --json` and the Python function on the file's text;
    assert they agree; return the Python report (or the InputError raised)."""
    want, code = cli_json(cli, command, path, *cli_args)
    fn = primekit.check_dh if command == "check-dh" else primekit.check_rsa
    text = pathlib.Path(path).read_bytes()
    try:
        got = fn(text, **kwargs)
    except primekit.InputError as e:
        assert code == 2 and want["ok"] is False, (path, want)
        assert e.kind == want["error_kind"], (path, e.kind, want)
        assert want["error"].startswith(str(e)), (want["error"], str(e))
        return e
    assert want.pop("command") == command and want.pop("file") == str(path)
    assert code == (0 if got["ok"] else 1)
    if not prove_details:
        # A proof's detail counts its certificate's steps, which a new search may change.
        for report in (want, got):
            for c in report["checks"]:
                if c["name"] in ("p_proof", "q_proof"):
                    c["detail"] = c["detail"].split(":")[0]
    assert got == want, path
    # Nothing beyond what json.dumps carries: the CLI's object, key for key.
    assert json.loads(json.dumps(got)) == got
    return got


def openssl(tmp_path, name, *args):
    if not OPENSSL:
        pytest.skip("no openssl on PATH")
    out = tmp_path / name
    subprocess.run([OPENSSL, *args, "-out", str(out)], check=True, capture_output=True)
    return out


def openssl_check(args, path):
    """OpenSSL's verdict on a file: (accepted, stdout + stderr)."""
    out = subprocess.run([OPENSSL, *args, "-in", str(path)], capture_output=True, text=True)
    return out.returncode == 0, out.stdout + out.stderr


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text) if isinstance(text, str) else path.write_bytes(text)
    return path


# --- check_dh / check_rsa against the CLI


def test_check_dh_matches_cli_on_openssl_and_crafted_files(cli, tmp_path):
    files = []
    if OPENSSL:
        for name, args in [
            ("ffdhe2048.pem", "genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048"),
            ("modp2048.pem", "genpkey -genparam -algorithm DH -pkeyopt group:modp_2048"),
            ("rfc5114.pem", "genpkey -genparam -algorithm DHX -pkeyopt dh_rfc5114:2"),
        ]:
            files.append((openssl(tmp_path, name, *args.split()), True))
    crafted = {
        "composite_p.pem": pkcs3(MODP2048_P * 3, 2),
        "g_one.pem": pkcs3(MODP2048_P, 1),
        "composite_q.pem": x942(RFC5114_P, RFC5114_G, RFC5114_Q * 2),
        "g_wrong_order.pem": x942(RFC5114_P, 2, RFC5114_Q),
        "small.pem": pkcs3(primekit.generate_dh_params(512).p, 2),
    }
    for name, text in crafted.items():
        files.append((write(tmp_path, name, text), False))
    reports = {path.name: same_as_cli(cli, "check-dh", path) for path, _ in files}
    for path, ok in files:
        assert reports[path.name]["ok"] is ok, (path.name, reports[path.name])
    assert reports["composite_q.pem"]["format"] == "x9.42"
    failed = {c["name"] for c in reports["composite_q.pem"]["checks"] if c["status"] == "fail"}
    assert "q_prime" in failed, reports["composite_q.pem"]
    if OPENSSL:
        # OpenSSL, independently, rejects each crafted file that fails a check.
        for name in ("composite_p.pem", "g_one.pem", "composite_q.pem", "g_wrong_order.pem"):
            accepted, why = openssl_check(["pkeyparam", "-check", "-noout"], tmp_path / name)
            assert not accepted, (name, why)


def test_check_dh_options_match_cli(cli, tmp_path):
    params = primekit.generate_dh_params(512, provable=True)
    group = write(tmp_path, "group.pem", params.pem)
    cert = write(tmp_path, "group.cert.json", params.certificate)
    other = write(tmp_path, "other.cert.json", primekit.generate_provable_prime(512)[1])
    got = same_as_cli(cli, "check-dh", group, cli_args=["--cert", cert], cert=params.certificate)
    assert got["checks"][-1] == {"name": "certificate", "status": "pass", "passed": True, "detail": got["checks"][-1]["detail"]}
    got = same_as_cli(cli, "check-dh", group, cli_args=["--cert", other], cert=other.read_bytes())
    assert got["checks"][-1]["name"] == "certificate" and got["checks"][-1]["status"] == "fail"
    garbage = write(tmp_path, "garbage.cert.json", "{not json")
    got = same_as_cli(cli, "check-dh", group, cli_args=["--cert", garbage], cert="{not json")
    assert got["checks"][-1]["status"] == "fail"
    got = same_as_cli(cli, "check-dh", group, cli_args=["--prove", "--jobs", "2"], prove=True, jobs=2, prove_details=False)
    assert [(c["name"], c["status"]) for c in got["checks"][-2:]] == [("p_proof", "pass"), ("q_proof", "pass")]
    # A cap below the group's size: both refuse it the same way.
    error = same_as_cli(cli, "check-dh", group, cli_args=["--max-bits", "256"], max_bits=256)
    assert isinstance(error, primekit.InputError) and error.kind == "over_limit"


def test_check_rsa_matches_cli(cli, tmp_path):
    key = primekit.generate_rsa_key(2048)
    files = [
        (write(tmp_path, "pk8.pem", key.private_pem()), True),
        (write(tmp_path, "pk1.pem", key.private_pem("pkcs1")), True),
    ]
    n_wrong = pkcs1(key.n + 2, key.e, key.d, key.p, key.q)
    d_wrong = pkcs1(key.n, key.e, key.d + 2, key.p, key.q)
    files += [(write(tmp_path, "n_wrong.pem", n_wrong), False), (write(tmp_path, "d_wrong.pem", d_wrong), False)]
    if OPENSSL:
        files.append((openssl(tmp_path, "openssl.pem", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"), True))
    for path, ok in files:
        report = same_as_cli(cli, "check-rsa", path)
        assert report["ok"] is ok, (path.name, report)
    assert same_as_cli(cli, "check-rsa", tmp_path / "pk1.pem")["format"] == "pkcs1"
    assert same_as_cli(cli, "check-rsa", tmp_path / "pk8.pem")["format"] == "pkcs8"
    if OPENSSL:
        for name, reason in [("n_wrong.pem", "n does not equal p q"), ("d_wrong.pem", "d e not congruent to 1")]:
            accepted, why = openssl_check(["pkey", "-check", "-noout"], tmp_path / name)
            assert not accepted and reason in why, (name, why)
        accepted, _ = openssl_check(["pkey", "-check", "-noout"], tmp_path / "pk1.pem")
        assert accepted


def test_unreadable_input_matches_cli(cli, tmp_path):
    key = primekit.generate_rsa_key(2048).private_pem()
    cases = {
        "garbage.pem": (b"\x00\xff garbage, not PEM", "not_pem", "check-dh"),
        "empty.pem": (b"", "not_pem", "check-rsa"),
        "rsa_as_dh.pem": (key, "wrong_label", "check-dh"),
        "dh_as_rsa.pem": (pkcs3(MODP2048_P, 2), "wrong_label", "check-rsa"),
        "truncated.pem": (key[: len(key) // 2], "pem", "check-rsa"),
        "bad_der.pem": (pem("DH PARAMETERS", b"\x30\x03\x02\x01"), "der", "check-dh"),
        "huge.pem": (b"A" * (2**20 + 10), "too_large", "check-dh"),
        "over_cap.pem": (pkcs3(2**12000 + 1, 2), "over_limit", "check-dh"),
    }
    if OPENSSL:
        ec = openssl(tmp_path, "ec.pem", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256")
        cases["ec.pem"] = (ec.read_bytes(), "unsupported", "check-rsa")
    for name, (text, kind, command) in cases.items():
        error = same_as_cli(cli, command, write(tmp_path, name, text))
        assert isinstance(error, primekit.InputError) and error.kind == kind, (name, error)


# --- generate_dh_params against the CLI and the oracles


def load_with_cryptography(text):
    import warnings

    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # finite-field DH is deprecated in `cryptography`
        numbers = serialization.load_pem_parameters(text.encode()).parameter_numbers()
    return numbers.p, numbers.g, numbers.q


@pytest.mark.parametrize("provable", [False, True])
def test_generate_dh_params_oracles(tmp_path, provable):
    import sympy

    for bits in (512, 1024):
        params = primekit.generate_dh_params(bits, provable=provable)
        p = params.p
        assert p.bit_length() == bits == params.bits and params.g == 2 and params.q == (p - 1) // 2
        assert p % 24 == 23  # p = 7 mod 8 (2 is a square: g generates the order-q subgroup), p = 2 mod 3
        assert sympy.isprime(p) and sympy.isprime(params.q)
        assert pow(2, params.q, p) == 1
        assert load_with_cryptography(params.pem) == (p, 2, None)
        if provable:
            assert primekit.verify_certificate(params.certificate, p)
            assert str(params.q) in params.certificate
        else:
            assert params.certificate is None
        if OPENSSL:
            path = write(tmp_path, f"{bits}.pem", params.pem)
            accepted, why = openssl_check(["dhparam", "-check", "-noout"], path)
            assert accepted and "DH parameters appear to be ok" in why, why
    assert ("provable" if provable else "probable") in repr(params)


def test_generated_params_are_distinct():
    assert len({primekit.generate_dh_params(128).p for _ in range(8)}) == 8


def test_generate_dh_params_like_cli_dhparam(cli, tmp_path):
    for provable in (False, True):
        cert_path = tmp_path / f"cli-{provable}.cert.json"
        extra = ["--provable", "--cert", cert_path] if provable else []
        want, code = cli_json(cli, "dhparam", "--bits", 1024, *extra)
        assert code == 0 and want["command"] == "dhparam"
        got = primekit.generate_dh_params(1024, provable=provable)
        # The same fields and the same encoding (for different random primes).
        assert (want["bits"], want["g"]) == (got.bits, got.g)
        assert load_with_cryptography(want["pem"]) == (int(want["p"]), 2, None)
        assert [len(line) for line in want["pem"].splitlines()] == [len(line) for line in got.pem.splitlines()]
        # Each side accepts the other's output: the CLI audits Python's, Python the CLI's.
        py_file = write(tmp_path, f"py-{provable}.pem", got.pem)
        args = ["--cert", write(tmp_path, f"py-{provable}.cert.json", got.certificate)] if provable else []
        report = same_as_cli(cli, "check-dh", py_file, cli_args=args, cert=got.certificate)
        assert report["ok"]
        assert primekit.check_dh(want["pem"], cert=cert_path.read_text() if provable else None)["ok"]


# --- bad arguments: documented exceptions, never a crash


@pytest.mark.parametrize("fn", [primekit.check_dh, primekit.check_rsa])
def test_check_bad_types(fn):
    for bad in (None, 123, 1.5, ["-----BEGIN"], bytearray(b"x"), memoryview(b"x")):
        with pytest.raises(TypeError, match="pem must be str or bytes"):
            fn(bad)
    with pytest.raises(TypeError):
        fn()
    with pytest.raises(TypeError):
        fn(pem="x")  # positional only
    with pytest.raises(TypeError):
        fn("x", max_bits="10")
    with pytest.raises(ValueError, match="max_bits must be non-negative"):
        fn("x", max_bits=-1)


@pytest.mark.parametrize("fn", [primekit.check_dh, primekit.check_rsa])
def test_check_bad_content_raises_input_error(fn):
    assert issubclass(primekit.InputError, ValueError)
    cases = [
        ("", "not_pem"),
        ("garbage", "not_pem"),
        ("\ud800 lone surrogate", "not_pem"),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "wrong_label"),
        (b"\x00" * 100, "not_pem"),
        (b"A" * (2**20 + 1), "too_large"),
        ("x" * (2**24), "too_large"),  # a 16 MiB str: refused after its first MiB
    ]
    for text, kind in cases:
        with pytest.raises(primekit.InputError) as info:
            fn(text)
        assert info.value.kind == kind, (text[:20], info.value)
        assert str(info.value)


def test_check_dh_option_errors():
    text = pkcs3(MODP2048_P, 2)
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="max_seconds must be positive"):
            primekit.check_dh(text, prove=True, max_seconds=bad)
    with pytest.raises(TypeError, match="cert must be str or bytes"):
        primekit.check_dh(text, cert=123)
    with pytest.raises(ValueError, match="jobs must be non-negative"):
        primekit.check_dh(text, prove=True, jobs=-1)
    # Exactly at 1 MiB is read; one byte more is refused.
    padded = text + " " * (2**20 - len(text))
    assert primekit.check_dh(padded)["ok"]
    with pytest.raises(primekit.InputError, match="1048577 bytes"):
        primekit.check_dh(padded + " ")
    # Numbers above the default cap, refused before any arithmetic unless the cap is raised.
    big = pkcs3(MODP2048_P * 2**10000 + 1, 2)
    with pytest.raises(primekit.InputError, match="above this audit's cap of 10000 bits") as info:
        primekit.check_dh(big)
    assert info.value.kind == "over_limit"
    assert primekit.check_dh(big, max_bits=12100)["ok"] is False


def test_mutated_pem_never_crashes(rng):
    """Random byte flips, cuts and insertions in valid files: a report or an InputError."""
    seeds = [pkcs3(MODP2048_P, 2), x942(RFC5114_P, RFC5114_G, RFC5114_Q), primekit.generate_rsa_key(2048).private_pem("pkcs1")]
    outcomes = {"report": 0, "error": 0}
    for _ in range(300):
        text = bytearray(rng.choice(seeds).encode())
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(text))
            op = rng.randrange(3)
            if op == 0:
                text[i] = rng.randrange(256)
            elif op == 1:
                del text[i : i + rng.randint(1, 40)]
            else:
                text[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        for fn in (primekit.check_dh, primekit.check_rsa):
            try:
                report = fn(bytes(text), max_bits=4096)
                assert set(report) == {"format", "ok", "checks"}
                outcomes["report"] += 1
            except primekit.InputError as e:
                assert e.kind in {"not_pem", "wrong_label", "pem", "der", "unsupported", "over_limit", "limit"}
                outcomes["error"] += 1
    assert outcomes["error"] > 0 and outcomes["report"] > 0, outcomes


def test_generate_dh_params_bad_arguments():
    for bits in (63, 8193, 0, -1, 2**40):
        with pytest.raises(ValueError):
            primekit.generate_dh_params(bits)
    with pytest.raises(ValueError):
        primekit.generate_dh_params(66, provable=True)
    for bad in (512.0, "512", None, True):
        with pytest.raises(TypeError, match="bits must be an int"):
            primekit.generate_dh_params(bad)
    with pytest.raises(TypeError):
        primekit.generate_dh_params(512, True)  # provable is keyword-only
    for jobs in (0, 1025, -1, 2**70):
        with pytest.raises(ValueError, match="jobs"):
            primekit.generate_dh_params(512, jobs=jobs)
    with pytest.raises(TypeError, match="jobs must be an int"):
        primekit.generate_dh_params(512, jobs=2.0)


def test_report_types_describe_the_dicts():
    report = primekit.check_dh(pkcs3(MODP2048_P, 2))
    assert set(report) == set(primekit.CheckReport.__annotations__)
    for check in report["checks"]:
        assert set(check) == set(primekit.Check.__annotations__)
        assert check["status"] in primekit.Status.__args__
        assert check["passed"] == (check["status"] in ("pass", "warn"))


def test_check_releases_the_gil():
    import time

    from test_gil import largest_pause_of_main_thread

    # A prime p that is not a named group (those are recognised at once): the 2203-bit
    # Mersenne prime, with q = 3 (which divides p - 1), so that p_prime runs 128 rounds.
    text = x942(2**2203 - 1, 2, 3)
    start = time.perf_counter()
    assert primekit.check_dh(text)["checks"][1] == {"name": "p_prime", "status": "pass", "passed": True, "detail": "p is prime (error probability <= 2^-128)"}
    one_call = time.perf_counter() - start
    assert one_call > 0.05, "input too small to observe the GIL"
    assert largest_pause_of_main_thread(lambda: primekit.check_dh(text)) < one_call / 2
