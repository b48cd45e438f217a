#!/usr/bin/env bash
# The Python package as a user installs it: one abi3 wheel, installed and tested where
# no Rust toolchain exists.
#
# 1. `maturin sdist`, then `maturin build --release` inside the unpacked sdist: the one
#    compile both proves the sdist builds and makes the wheel, which must be exactly one
#    `primekit-*-cp39-abi3-manylinux_*.whl` (one wheel for CPython 3.9 and later).
# 2. A fresh venv, used under `env -i` with PATH = the venv and /usr/bin:/bin only: the
#    script fails if `cargo` or `rustc` is found there; the wheel is installed with
#    `--no-index --no-deps` (nothing can be fetched or built) and pytest runs against it.
#    The CLI comparisons (tests/test_keys.py, test_certificates.py) use $PRIMEKIT
#    (exported by .ci/test.sh; without it they are skipped, and -rs prints why).
# 3. When a CPython 3.9 is installed, the same wheel in a 3.9 venv (the oldest version
#    its tag claims), where the documented examples run as doctests.
#
# Exits non-zero on any failure, including pytest collecting no tests (exit 5).
# CARGO_TARGET_DIR, when set, is the build's target dir (a warm one saves the compile;
# the sdist is unpacked in it, under python-sdist/); otherwise the build is cold, in a
# temporary directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
log() { echo "python/ci.sh: $*" >&2; }
fail() {
    log "$*"
    exit 1
}

# Build tools, in their own venv (the test venv gets none of them).
python3 -m venv "$tmp/build"
"$tmp/build/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2"
maturin="$tmp/build/bin/maturin"

"$maturin" sdist --manifest-path "$here/Cargo.toml" --out "$tmp/sdist" 2>"$tmp/sdist.log" || {
    cat "$tmp/sdist.log" >&2
    fail "maturin sdist failed"
}
sdists=("$tmp"/sdist/primekit-*.tar.gz)
[ "${#sdists[@]}" -eq 1 ] && [ -f "${sdists[0]}" ] || fail "expected one sdist, got: ${sdists[*]}"
# With a target dir given, the sdist is unpacked at a fixed place beside it, so that a
# second run finds the same paths (cargo keys path dependencies by their path) and
# rebuilds nothing that did not change.
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
    [[ $CARGO_TARGET_DIR = /* ]] || export CARGO_TARGET_DIR="$PWD/$CARGO_TARGET_DIR"
    unpacked="$CARGO_TARGET_DIR/python-sdist"
else
    unpacked="$tmp/src"
    export CARGO_TARGET_DIR="$tmp/target"
fi
rm -rf "$unpacked"
mkdir -p "$unpacked"
tar -xzf "${sdists[0]}" -C "$unpacked"
src=("$unpacked"/primekit-*)
(cd "${src[0]}" && "$maturin" build --release --out "$tmp/dist") || fail "the wheel did not build from the sdist"

wheels=("$tmp"/dist/*.whl)
[ "${#wheels[@]}" -eq 1 ] || fail "expected one wheel, got: ${wheels[*]}"
wheel="${wheels[0]}"
case "$(basename "$wheel")" in
    primekit-*-cp39-abi3-manylinux_*.whl) log "wheel $(basename "$wheel") from sdist $(basename "${sdists[0]}")" ;;
    *) fail "not a cp39-abi3 manylinux wheel: $(basename "$wheel")" ;;
esac
# The tag inside the wheel agrees with its name.
"$tmp/build/bin/python" - "$wheel" <<'EOF' || fail "the wheel's WHEEL file does not say cp39-abi3-manylinux"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/WHEEL"))
    tags = [l.split(":", 1)[1].strip() for l in z.read(meta).decode().splitlines() if l.startswith("Tag:")]
print("WHEEL tags:", tags, file=sys.stderr)
sys.exit(0 if tags and all(t.startswith("cp39-abi3-manylinux_") for t in tags) else 1)
EOF

# The test venv: third-party test dependencies from PyPI first (ordinary network use)...
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest sympy cryptography
# ...then everything else in an environment without Rust.
clean=(env -i HOME="$tmp/home" LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 PATH="$tmp/venv/bin:/usr/bin:/bin" PRIMEKIT="${PRIMEKIT:-}")
mkdir "$tmp/home"
if found="$("${clean[@]}" bash -c 'command -v cargo; command -v rustc')"; [ -n "$found" ]; then
    fail "the test environment has a Rust toolchain: $found"
fi
"${clean[@]}" python -m pip install --quiet --disable-pip-version-check --no-index --no-deps "$wheel"

# Run from tests/ so `import primekit` is the installed package, not ./primekit
# (the source folder, which has no compiled module).
cd "$here/tests"
status=0
"${clean[@]}" python -m pytest -q -rs -p no:cacheprovider . || status=$?
if [ "$status" -eq 5 ]; then
    log "pytest collected no tests"
fi

# The same wheel on the oldest CPython it is tagged for, when one is installed: it
# installs (still no Rust, no index) and the documented examples run.
py39="$(command -v python3.9 2>/dev/null || true)"
if ! "$py39" -c 'import sys; assert sys.version_info[:2] == (3, 9)' 2>/dev/null; then
    py39="$(ls "$(pyenv root 2>/dev/null || echo /nonexistent)"/versions/3.9.*/bin/python3.9 2>/dev/null | tail -n 1)"
fi
if [ -n "$py39" ] && "$py39" -c 'import sys; assert sys.version_info[:2] == (3, 9)' 2>/dev/null; then
    "$py39" -m venv "$tmp/venv39"
    clean39=(env -i HOME="$tmp/home" LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 PATH="$tmp/venv39/bin:/usr/bin:/bin")
    "${clean39[@]}" python -m pip install --quiet --disable-pip-version-check --no-index --no-deps "$wheel"
    "${clean39[@]}" python - <<'EOF' || status=1
import doctest, sys
import primekit, primekit._primekit
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
results = [doctest.testmod(m, optionflags=flags) for m in (primekit, primekit._primekit)]
attempted, failed = sum(r.attempted for r in results), sum(r.failed for r in results)
print(f"python/ci.sh: CPython {sys.version.split()[0]}: {attempted} doctests, {failed} failed", file=sys.stderr)
sys.exit(1 if failed or attempted < 20 else 0)
EOF
else
    log "no CPython 3.9 found: the wheel was tested on $("${clean[@]}" python -c 'import platform; print(platform.python_version())') only"
fi
exit "$status"
