#!/usr/bin/env bash
# The research crate's tests of its in-process peers (OpenSSL 3's libcrypto, GMP, Nettle's
# libhogweed, linked under the `compare` feature): the OpenSSL-arithmetic Miller-Rabin
# engine and generator pieces against num-bigint and known primes. Skips with a message
# when the system libraries are missing (the build cannot link).
set -uo pipefail
cd "$(dirname "$0")/.."
missing=()
for lib in libcrypto.so libgmp.so libhogweed.so; do
  ldconfig -p 2>/dev/null | grep -q "$lib " || missing+=("$lib")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "peers: SKIPPED (missing ${missing[*]}; install libssl-dev libgmp-dev nettle-dev)"
  exit 0
fi
cargo test --release -q -p primekit-research --features compare --lib peers
