#!/usr/bin/env bash
# Same-run comparisons with OpenSSL 3 and GMP for every kernel this CPU has (the
# PRIMEKIT_KERNEL switch), for README's table per CPU class. Each run writes one JSON file
# per kernel and workload into OUT (default results/kernels/<date>), REPS runs (default 3).
#   cargo build --release --workspace --features compare && bash tools/bench-kernels.sh
# (modexp is a research benchmark: primekit-lab, LAB overrides; the rest are primekit's.)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/primekit}
LAB=${LAB:-target/release/primekit-lab}
OUT=${OUT:-results/kernels/$(date +%Y-%m-%d)}
REPS=${REPS:-3}
KERNELS=${KERNELS:-$( (PRIMEKIT_KERNEL=nonsense "$BIN" test 3 2>&1 || true) | sed -n 's/.*this CPU has: \([^)]*\)).*/\1/p' | tr -d ,)}
mkdir -p "$OUT"
{
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
    echo "cpuid: vendor $(grep -m1 vendor_id /proc/cpuinfo | cut -d: -f2- | tr -d ' '), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2- | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2- | tr -d ' ')"
    echo "flags: $(grep -o -m1 -w -e avx512ifma -e avx2 -e adx -e bmi2 /proc/cpuinfo | sort -u | tr '\n' ' ')"
    echo "kernel: $(uname -r)"
    echo "commit: $(git rev-parse --short HEAD)"
    echo "kernels: $KERNELS"
} > "$OUT/machine.txt"
for rep in $(seq 1 "$REPS"); do
    for k in $KERNELS; do
        export PRIMEKIT_KERNEL=$k
        "$LAB" bench modexp --count 8 --reps 5 --interleave >"$OUT/modexp-$k-$rep.jsonl"
        "$BIN" bench test --bits 1024 --count 2000 --interleave >"$OUT/test-random-$k-$rep.jsonl"
        "$BIN" bench test --bits 1024,2048 --inputs primes --count 8 --interleave >"$OUT/test-primes-$k-$rep.jsonl"
        "$BIN" bench gen --bits 1024,2048,3072 --count 16 --peer-count 6 >"$OUT/gen-$k-$rep.jsonl"
        "$BIN" bench gen --bits 1024 --safe --count 24 --peer-count 6 >"$OUT/gen-safe-$k-$rep.jsonl"
        unset PRIMEKIT_KERNEL
    done
done
echo "bench-kernels: wrote $OUT"
