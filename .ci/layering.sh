#!/usr/bin/env bash
# Layering of the production library (README, "Shape of the code"): every CPU-specific
# backend stays private to `arith`, so the layers above it name no instruction set, tests
# and comments included; they ask `arith` in kernel-neutral terms (lanes, costs).
# Prints file:line:text for every offending line and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."
if grep -rniE 'ifma|adx|avx' crates/primekit/src/primality crates/primekit/src/gen crates/primekit/src/keys; then
    echo "layering: instruction-set names above arith (lines above); ask arith in kernel-neutral terms" >&2
    exit 1
fi
echo "layering: primality, gen and keys name no instruction set"
