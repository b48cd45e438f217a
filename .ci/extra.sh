#!/usr/bin/env bash
# Reliability checks beyond `cargo test`: the fuzz smoke run (each cargo-fuzz
# target for FUZZ_SECONDS, default 20 s) and the ctgrind constant-time check. Each script
# skips with exit 0 and a message when its tool (nightly + cargo-fuzz, valgrind) is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
bash .ci/fuzz-smoke.sh || status=1
bash .ci/ctgrind.sh || status=1
exit $status
