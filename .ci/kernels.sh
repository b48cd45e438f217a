#!/usr/bin/env bash
# The primality and generation test suites once more for every other kernel this CPU has
# (PRIMEKIT_KERNEL), reusing the test binaries `cargo test --release --workspace` built:
# the default kernel ran them already; the arithmetic and lane tests iterate over every
# kernel by themselves. `--workspace` as in the test command: `-p primekit` would resolve
# other features and rebuild the library.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${CARGO_TARGET_DIR:-target}/release/primekit"
[ -x "$BIN" ] || cargo build --release -q -p primekit-cli
kernels=$( (PRIMEKIT_KERNEL=nonsense "$BIN" test 3 2>&1 || true) | sed -n 's/.*this CPU has: \([^)]*\)).*/\1/p' | tr -d ,)
default=$("$BIN" bench test --bits 64 --count 1 2>/dev/null | sed -n 's/.*"kernel":"\([a-z0-9]*\)".*/\1/p' | head -1)
echo "kernels: this CPU has: $kernels; default: ${default:-unknown}"
for k in $kernels; do
    [ "$k" = "$default" ] && continue
    echo "kernels: PRIMEKIT_KERNEL=$k"
    PRIMEKIT_KERNEL=$k cargo test --release -q --workspace --test is_prime --test gen
done
