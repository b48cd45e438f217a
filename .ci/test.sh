#!/usr/bin/env bash
# The project's test command (README). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
# Test builds use a quicker release profile than the shipped one (16 codegen units, no
# LTO, no debug info): the same code with less cross-unit inlining, built in about a
# third of the time on 2 cores (2.4 vs 6.7 min for `cargo test --release --workspace`).
# .ci/ctgrind.sh builds with the shipped profile: it checks the machine code users get.
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_DEBUG=0
# Each step's wall time is printed, so the whole command can be kept near its budget
# (about 20 minutes on 2 cores).
step() { local start=$SECONDS; "$@"; echo "ci-time: $* took $((SECONDS - start)) s"; }
step bash .ci/hygiene.sh
step bash .ci/layering.sh
step cargo fmt --all --check
step cargo clippy --workspace --all-targets -- -D warnings
step bash .ci/pari.sh
step cargo test --release --workspace
# The CLIs that test just built (the same features as the tests'): the kernel, RTL and
# Slurm steps use them instead of building their own (a `cargo build` resolves other
# features and would rebuild the library). PRIMEKIT_LAB runs the research commands.
target_dir="${CARGO_TARGET_DIR:-target}"
[[ $target_dir = /* ]] || target_dir="$PWD/$target_dir"
export PRIMEKIT="$target_dir/release/primekit" PRIMEKIT_LAB="$target_dir/release/primekit-lab"
step bash .ci/capi.sh  # the C library, installed with pkg-config, from C, C++, threads and ASan (docs/capi.md)
step bash .ci/kernels.sh
step bash .ci/cli-install.sh
# Constant-time timing tests (dudect style) on every kernel, the leaky control included.
step bash .ci/timing.sh
step bash python/ci.sh
step bash .ci/extra.sh
echo "ci-time: total $SECONDS s"
