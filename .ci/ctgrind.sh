#!/usr/bin/env bash
# Constant-time check (ctgrind): runs tools/ctgrind under valgrind memcheck with the secret
# inputs marked undefined, so any branch or memory index that depends on a secret is an
# error. Fails unless
#   1. `ct` mode (Montgomery mul/sqr/to_mont/from_mont on every kernel, pow_ct,
#      MillerRabin::new and passes_ct; at 576 and 768 bits pow2_ct, the MillerRabin
#      set-up (from_context, its context included), random_base, passes_all_ct and
#      passes_ct on the portable, ADX and AVX2 contexts) reports zero errors,
#   2. the leaky control (pow_vartime on a secret exponent) reports errors, proving the
#      check can see a leak, and
#   3. `secret-s` mode (MillerRabin::new and passes_ct with s = v2(n-1) secret too)
#      reports zero errors.
# The binary goes to $CARGO_TARGET_DIR when that is set (tools/ctgrind/target otherwise).
# Skips with exit 0 and a message if valgrind is not installed.
set -uo pipefail
cd "$(dirname "$0")/../tools/ctgrind"

if ! command -v valgrind >/dev/null 2>&1 || [ ! -f /usr/include/valgrind/memcheck.h ]; then
    echo "ctgrind: SKIPPED: valgrind (and its headers) not installed (apt-get install valgrind)"
    exit 0
fi
# The shipped release profile, whatever the caller exported (.ci/test.sh speeds up its
# own builds): the check is about the machine code users get.
if ! env -u CARGO_PROFILE_RELEASE_CODEGEN_UNITS -u CARGO_PROFILE_RELEASE_LTO -u CARGO_PROFILE_RELEASE_DEBUG \
    cargo build --release >/tmp/ctgrind-build.log 2>&1; then
    echo "ctgrind: FAILED to build tools/ctgrind:"
    tail -30 /tmp/ctgrind-build.log
    exit 1
fi
BIN="${CARGO_TARGET_DIR:-target}/release/primekit-ctgrind"
if grep -qw adx /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
    export CTGRIND_HOST_HAS_ADX=1
    if grep -qw avx2 /proc/cpuinfo; then
        export CTGRIND_HOST_HAS_AVX2=1
    fi
fi
run() { valgrind --error-exitcode=1 --num-callers=12 "$BIN" "$1" >"/tmp/ctgrind-$1.log" 2>&1; }
errors() { grep -Eo 'ERROR SUMMARY: [0-9]+' "/tmp/ctgrind-$1.log" | grep -Eo '[0-9]+$' || echo '?'; }

status=0
if run ct; then
    grep '^ctgrind ct: checked' /tmp/ctgrind-ct.log
    echo "ctgrind: ct: OK, $(errors ct) memcheck errors"
else
    echo "ctgrind: ct: FAILED, $(errors ct) memcheck errors (secret-dependent branch or index); first reports:"
    grep -E -A14 'Conditional jump|Use of uninitialised|uninitialised value|panicked' /tmp/ctgrind-ct.log | head -60
    status=1
fi
if run leaky-control; then
    echo "ctgrind: leaky-control: FAILED: pow_vartime on a secret exponent gave no errors, so the check is blind"
    status=1
else
    echo "ctgrind: leaky-control: OK, the deliberately leaky pow_vartime was caught ($(errors leaky-control) memcheck errors)"
fi
if run secret-s; then
    echo "ctgrind: secret-s: OK, passes_ct with s = v2(n-1) secret: $(errors secret-s) memcheck errors"
else
    echo "ctgrind: secret-s: FAILED, passes_ct's timing depends on s = v2(n-1): $(errors secret-s) memcheck errors"
    status=1
fi
exit $status
