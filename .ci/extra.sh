#!/usr/bin/env bash
# Reliability checks beyond `cargo test`: the fuzz smoke run (each cargo-fuzz
# target for FUZZ_SECONDS, default 10 s), the ctgrind constant-time check and the backends' soundness
# under qemu on CPU models without BMI2/ADX or AVX-512. Each script
# skips with exit 0 and a message when its tool (nightly + cargo-fuzz, valgrind) is missing.
# Then the library's tests cross-built for aarch64 and run under qemu-aarch64, and the RTL
# Lucas tester simulated against its software model (hw/run.sh test; skips without
# verilator/yosys when they cannot be installed), a Slurm job array of benchmark
# shards merged and compared with a one-process run (tools/slurm/test.sh; skips likewise),
# and the research peers' tests on the system OpenSSL/GMP/Nettle (.ci/peers.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
step() { local start=$SECONDS; "$@" || status=1; echo "ci-time: $* took $((SECONDS - start)) s"; }
step bash .ci/fuzz-smoke.sh
step bash .ci/ctgrind.sh
step bash .ci/soundness-qemu.sh
step bash .ci/aarch64.sh
step bash hw/run.sh test
step bash tools/slurm/test.sh
step bash .ci/peers.sh
exit $status
