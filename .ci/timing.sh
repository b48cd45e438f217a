#!/usr/bin/env bash
# Constant-time timing smoke run (dudect style: fixed vs random secret in random order,
# cycle counter, Welch's t at several crops; `primekit-lab bench ct`, docs/reliability.md) of
# every `_ct` entry point on every kernel this CPU has, plus the deliberately leaky
# control, which must be flagged. A target over |t| = 4.5 is measured once more and fails
# only if the re-run exceeds it too; every line names its t and sample count.
# CT_MEASUREMENTS (default 3000) timed calls per target and run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${PRIMEKIT_LAB:-${CARGO_TARGET_DIR:-target}/release/primekit-lab}"
[ -x "$BIN" ] || cargo build --release -q -p primekit-lab
kernels=$( (PRIMEKIT_KERNEL=nonsense "$BIN" --version 2>&1 || true) | sed -n 's/.*this CPU has: \([^)]*\)).*/\1/p' | tr -d ,)
status=0
for k in $kernels; do
    PRIMEKIT_KERNEL=$k "$BIN" bench ct --measurements "${CT_MEASUREMENTS:-3000}" >"${TMPDIR:-/tmp}/ct-timing-$k.jsonl" || status=1
done
[ $status = 0 ] && echo "ct-timing: OK on kernels: $kernels" || echo "ct-timing: FAILED (lines above; JSON in ${TMPDIR:-/tmp}/ct-timing-*.jsonl)"
exit $status
