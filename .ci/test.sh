#!/usr/bin/env bash
# The project's test command (README). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/hygiene.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --release --workspace
bash .ci/kernels.sh
bash python/ci.sh
bash .ci/extra.sh
