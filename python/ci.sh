#!/usr/bin/env bash
# Fresh-machine check of the Python package: a new venv, `pip install ./python`
# (maturin from PyPI builds the extension; crates from crates.io), then pytest.
# Exits non-zero on any failure, including pytest collecting no tests (exit 5).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT

python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$here" pytest sympy cryptography

# Run from tests/ so `import primekit` is the installed package, not ./primekit
# (the source folder, which has no compiled module).
cd "$here/tests"
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider . || status=$?
if [ "$status" -eq 5 ]; then
    echo "python/ci.sh: pytest collected no tests" >&2
fi
exit "$status"
