#!/usr/bin/env bash
# Fuzz smoke run: each cargo-fuzz target in fuzz/ for FUZZ_SECONDS (default 6) seconds.
# Exits non-zero if a target crashes (the reproducer is left in fuzz/artifacts/<target>/;
# turn it into a regression test). Exits 0 with a message saying what was skipped when the
# fuzz toolchain (nightly Rust + cargo-fuzz) is not available on this machine.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
SECONDS_EACH="${FUZZ_SECONDS:-6}"
# One entry per target in fuzz/fuzz_targets.
TARGETS=(parse_is_prime mont_vs_bigint is_prime_u64_oracle pem_parse)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz-smoke: SKIPPED: no nightly Rust toolchain (rustup toolchain install nightly --profile minimal)"
    exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: cargo-fuzz missing; installing it from crates.io"
    if ! timeout 600 cargo install cargo-fuzz --locked >/tmp/fuzz-smoke-install.log 2>&1; then
        echo "fuzz-smoke: SKIPPED: cargo-fuzz could not be installed (log: /tmp/fuzz-smoke-install.log)"
        exit 0
    fi
fi
if ! cargo +nightly fuzz build -O >/tmp/fuzz-smoke-build.log 2>&1; then
    echo "fuzz-smoke: FAILED to build the fuzz targets:"
    tail -30 /tmp/fuzz-smoke-build.log
    exit 1
fi
status=0
for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t"
    # Seeds for the parser: a few numbers of the shapes the corpus tests use.
    if [ "$t" = parse_is_prime ] && [ -z "$(ls -A "corpus/$t")" ]; then
        printf '%s' 2047 > "corpus/$t/psi1"
        printf '%s' 3317044064679887385961981 > "corpus/$t/psi13"
        printf '%s' 18446744073709551557 > "corpus/$t/u64max_prime"
        printf '%s' 170141183460469231731687303715884105727 > "corpus/$t/m127"
    fi
    # Seeds for the key parser: real files from the system openssl, mode byte 0 (whole file).
    if [ "$t" = pem_parse ] && [ -z "$(ls -A "corpus/$t")" ] && command -v openssl >/dev/null; then
        { printf '\0'; openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null; } > "corpus/$t/pkcs8_rsa"
        { printf '\0'; openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null | openssl rsa -traditional 2>/dev/null; } > "corpus/$t/pkcs1_rsa"
        { printf '\0'; openssl dhparam -dsaparam 1024 2>/dev/null; } > "corpus/$t/dh"
    fi
    log="/tmp/fuzz-smoke-$t.log"
    if cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 >"$log" 2>&1; then
        echo "fuzz-smoke: $t: ok, $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)"
    else
        echo "fuzz-smoke: $t: CRASH (artifacts in fuzz/artifacts/$t/):"
        grep -E -A12 'panicked|ERROR: libFuzzer|SUMMARY' "$log" | head -40
        status=1
    fi
done
exit $status
