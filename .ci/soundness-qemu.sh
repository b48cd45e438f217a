#!/usr/bin/env bash
# Soundness of the CPU backends on CPUs that lack their instructions: the soundness test's
# child (crates/primekit/tests/soundness.rs, `entry_points_child`) runs every public entry
# point under qemu-x86_64 with CPU models that lack AVX-512 IFMA (EPYC and EPYC-Rome:
# BMI2/ADX, AVX2) and also BMI2/ADX (Westmere). Detection must pick the kernel the model has, and an
# illegal instruction anywhere would kill the process. Installs qemu-user where missing
# and the user is root; otherwise skips with a message.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -m)" != x86_64 ]; then
    echo "soundness-qemu: SKIPPED: not an x86_64 host"
    exit 0
fi
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "soundness-qemu: installing qemu-user"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq qemu-user) >/tmp/soundness-qemu-apt.log 2>&1
    fi
fi
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    echo "soundness-qemu: SKIPPED: qemu-x86_64 not installed (apt-get install qemu-user)"
    exit 0
fi
BIN=$(cargo test --release --workspace --test soundness --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*soundness[^"]*\)".*/\1/p' | tail -1)
if [ -z "$BIN" ] || [ ! -x "$BIN" ]; then
    echo "soundness-qemu: FAILED to build the soundness test"
    exit 1
fi
status=0
# model:kernel expected by default, or model:kernel:1 to request that kernel explicitly.
# EPYC (Zen 1) splits 256-bit operations, so its default is ADX; EPYC-Rome (Zen 2) runs
# them at full width, so its default is the AVX2 lanes (arith::cpu::avx2_full_width).
for spec in Westmere:portable EPYC:adx EPYC-Rome:avx2 EPYC-Rome:adx:1; do
    IFS=: read -r model want explicit <<<"$spec"
    request=""
    [ -n "$explicit" ] && request="$want"
    if out=$(PRIMEKIT_KERNEL="$request" PRIMEKIT_SOUNDNESS_EXPECT="$want" qemu-x86_64 -cpu "$model" "$BIN" --ignored --exact entry_points_child --nocapture --test-threads 1 2>&1) \
        && grep -q '1 passed' <<<"$out"; then
        echo "soundness-qemu: $model: every entry point ran on the $want kernel ($(grep -o 'available: .*' <<<"$out"))"
    else
        echo "soundness-qemu: FAILED on $model (expected kernel $want):"
        tail -20 <<<"$out"
        status=1
    fi
done
exit $status
