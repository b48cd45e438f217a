#!/usr/bin/env bash
# primekit on aarch64: cross-builds the library's tests for aarch64-unknown-linux-gnu and
# runs them under qemu-user, so the portable backend (the only one off x86_64) and the
# non-x86_64 side of every cfg(target_arch) are built and tested where no x86 kernel exists.
#
# Runs (release, -p primekit): the unit tests (--lib) and the integration tests
# arith_vs_num_bigint, is_prime, gen, fuzz_regressions; then the soundness child
# (tests/soundness.rs, `entry_points_child`) once per kernel name: `portable` must run
# every public entry point, `adx`, `ifma` and an unknown name must be refused. The
# soundness test's own parent tests re-execute the test binary, which the host cannot
# do without binfmt, so the script runs the child directly instead.
#
# Emulation is several times slower than native, so by default the tests whose cost is
# mostly the num-bigint oracle or thousands of primality tests are skipped (SKIPS below;
# they run natively in `cargo test`); AARCH64_FULL=1 runs every test.
#
# Installs gcc-aarch64-linux-gnu, qemu-user and the rustup target where missing and the
# user is root; otherwise skips with a message and exit 0. Linker and runner are set by
# environment variables only. Build output: target/aarch64-qemu (AARCH64_TARGET_DIR), so
# the normal build directory is left alone.
set -uo pipefail
cd "$(dirname "$0")/.."

TARGET=aarch64-unknown-linux-gnu
SYSROOT=/usr/aarch64-linux-gnu

skip() {
    echo "aarch64: SKIPPED: $*"
    exit 0
}

missing=()
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "aarch64: installing ${missing[*]}"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}") >/tmp/aarch64-apt.log 2>&1 \
            || skip "apt-get install ${missing[*]} failed (see /tmp/aarch64-apt.log)"
    else
        skip "${missing[*]} not installed and not root (apt-get install ${missing[*]})"
    fi
fi
if ! rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
    if [ "$(id -u)" = 0 ] && command -v rustup >/dev/null 2>&1; then
        echo "aarch64: adding the rustup target $TARGET"
        rustup target add "$TARGET" >/tmp/aarch64-rustup.log 2>&1 || skip "rustup target add $TARGET failed (see /tmp/aarch64-rustup.log)"
    else
        skip "rustup target $TARGET not installed and not root (rustup target add $TARGET)"
    fi
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $SYSROOT"
export CARGO_TARGET_DIR="${AARCH64_TARGET_DIR:-target/aarch64-qemu}"
cargo_test() { cargo test --target "$TARGET" --release -p primekit "$@"; }
TESTS=(--lib --test arith_vs_num_bigint --test is_prime --test gen --test fuzz_regressions)

# Skipped unless AARCH64_FULL=1. Wall time of each under qemu in a full run on a shared
# 2-core machine (load ~7): the full set took 16 min wall (6 min CPU), this subset about
# 1 min. Each is dominated by num-bigint modpow or by thousands of is_prime calls, not by
# code that differs between targets; the rest of their binaries still runs.
SKIPS=(
    arith::lanes::tests::fermat_batch_matches_modpow_on_every_kernel # 29 s under emulation (every kernel's lanes at up to 3072 bits; natively on x86_64 in the test step)
    gen::candidate::tests::batch_matches_scalar_and_modpow           # 10.5 s under emulation (the same lanes through the generator; natively in the test step)
    random_sizes_match                                               # 3 min: 96 cases up to 8192 bits against num-bigint
    msb_byte_distribution                                            # 1.7 min: 5760 generated primes
    chernick_carmichael_numbers_are_composite                        # 4 min: is_prime on random triples until all three are prime
    public_corpus_every_verdict                                      # 3.4 min: 1326 corpus values, many of thousands of bits
    known_large_primes_and_their_products                            # 49 s: 128 rounds on 2^4423 - 1 (the portable kernel at that size runs natively in kernels.sh)
    genus_factor_roots_are_class_polynomial_roots                    # 12 s: the class table's genus factors (number theory, no kernel code of its own)
)
filters=()
if [ "${AARCH64_FULL:-0}" != 1 ]; then
    for s in "${SKIPS[@]}"; do
        filters+=(--skip "$s")
    done
fi

start=$(date +%s)
if ! cargo_test "${TESTS[@]}" --test soundness --no-run >/tmp/aarch64-build.log 2>&1; then
    echo "aarch64: FAILED to build the tests for $TARGET:"
    tail -30 /tmp/aarch64-build.log
    exit 1
fi
built=$(date +%s)
grep -E '^warning' /tmp/aarch64-build.log | grep -v 'generated [0-9]* warning' | sort | uniq -c | sed 's/^/aarch64: build /'

status=0
cargo_test "${TESTS[@]}" --no-fail-fast -- "${filters[@]}" >/tmp/aarch64-test.log 2>&1 || status=1
passed=$(grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' /tmp/aarch64-test.log | grep -Eo '[0-9]+ passed' | awk '{s += $1} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed;' /tmp/aarch64-test.log | awk '{s += $1} END {print s + 0}')
filtered=$(grep -Eo '[0-9]+ filtered out' /tmp/aarch64-test.log | awk '{s += $1} END {print s + 0}')
if [ "$status" != 0 ]; then
    echo "aarch64: FAILED: tests under qemu-aarch64:"
    grep -E '^test .*FAILED|panicked at|^error' /tmp/aarch64-test.log | head -40
fi

# The soundness child, once per kernel name (see above).
sound=()
for spec in portable:portable adx:error ifma:error avx9:error; do
    kernel=${spec%%:*}
    expect=${spec##*:}
    if out=$(PRIMEKIT_KERNEL=$kernel PRIMEKIT_SOUNDNESS_EXPECT=$expect cargo_test --test soundness -- --ignored --exact entry_points_child --nocapture --test-threads 1 2>&1) \
        && grep -q '1 passed' <<<"$out"; then
        sound+=("$kernel:$expect")
    else
        echo "aarch64: FAILED: soundness child with PRIMEKIT_KERNEL=$kernel (expected $expect):"
        tail -20 <<<"$out"
        status=1
    fi
done
done_at=$(date +%s)

mode="reduced: ${#SKIPS[@]} slow tests skipped, AARCH64_FULL=1 runs them"
[ "${AARCH64_FULL:-0}" = 1 ] && mode="full"
summary="$passed passed, $failed failed, $filtered filtered out; soundness child ${sound[*]:-none} ok; build $((built - start)) s, run $((done_at - built)) s ($mode)"
if [ "$status" = 0 ]; then
    echo "aarch64: OK: $summary"
else
    echo "aarch64: FAILED: $summary (logs /tmp/aarch64-build.log, /tmp/aarch64-test.log)"
fi
exit $status
