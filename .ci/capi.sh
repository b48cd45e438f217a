#!/usr/bin/env bash
# The C library as a C user gets it: install it into a temporary prefix
# (crates/primekit-capi/install.sh), then build the programs in examples/c with
# `cc $(pkg-config --cflags --libs primekit)` against the installed header, library and
# primekit.pc, and run them: known answers and bad arguments (check.c), many threads at
# once (threads.c), the README example, the header compiled as C++, and a static link.
# OpenSSL checks what the library made (primes, RSA keys, DH parameters) and made the
# files it audits; the audit JSON must equal the CLI's `--json` (less its "file" key)
# when $PRIMEKIT names the CLI. check.c and threads.c run again under AddressSanitizer.
#
# Reuses the release build of `cargo test --release --workspace` (.ci/test.sh runs this
# right after it): the same package selection and profile, so only libprimekit itself
# is compiled and linked.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
out="$work/out"
mkdir -p "$out"

PRIMEKIT_CAPI_CARGO_ARGS="--workspace --lib --bins --tests --examples" crates/primekit-capi/install.sh "$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
version="$(pkg-config --modversion primekit)"
[ "$(readlink "$prefix/lib/libprimekit.so")" = libprimekit.so.0 ]
# (Outputs are captured before grep -q reads them: with pipefail, a writer cut off by
# grep's early exit would fail the pipeline.)
grep -q 'SONAME.*\[libprimekit\.so\.0\]' <<<"$(readelf -d "$prefix/lib/libprimekit.so.$version")"

# shellcheck disable=SC2046 # pkg-config's output is a list of flags.
build() { # build OUTPUT SOURCE [CFLAGS...]
    local output="$1" source="$2"
    shift 2
    cc -std=c11 -Wall -Wextra -Werror -O1 "$@" -DEXPECTED_VERSION="\"$version\"" -o "$work/$output" "examples/c/$source" $(pkg-config --cflags --libs primekit) -lpthread
}
build example example.c
build check check.c
build threads threads.c
build check-asan check.c -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
build threads-asan threads.c -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# shellcheck disable=SC2046
g++ -std=c++11 -Wall -Wextra -Werror -pedantic -o "$work/header-cpp" examples/c/header.cpp $(pkg-config --cflags --libs primekit)
# The static library with pkg-config's private libraries, and no shared one in reach.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$work/example-static" examples/c/example.c $(pkg-config --cflags primekit) "$prefix/lib/libprimekit.a" $(pkg-config --static --libs-only-l primekit | sed 's/-lprimekit//')
if grep -q libprimekit <<<"$(ldd "$work/example-static")"; then echo "capi: the static example loads libprimekit.so" >&2; exit 1; fi

# The README's example (examples/c/example.c), linked both ways: "prime", then DH
# parameters that OpenSSL checks; the README must show the file as it is.
for exe in example example-static; do
    "$work/$exe" > "$out/$exe.txt"
    [ "$(head -n 1 "$out/$exe.txt")" = prime ]
    grep -q "DH parameters appear to be ok" <<<"$(tail -n +2 "$out/$exe.txt" | openssl dhparam -check -noout 2>&1)"
done
python3 -c 'import sys; sys.exit(open("examples/c/example.c").read() not in open("README.md").read())'
"$work/header-cpp"
# A PRIMEKIT_KERNEL this CPU cannot run is an error code, not a crash.
status=0
PRIMEKIT_KERNEL=no-such-kernel "$work/header-cpp" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "capi: PRIMEKIT_KERNEL=no-such-kernel gave exit status $status, not PRIMEKIT_ERR_KERNEL's 1" >&2; exit 1; }

# Inputs made by OpenSSL for the audits.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$out/ossl-rsa.pem" 2>/dev/null
openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048 -out "$out/ossl-ffdhe2048.pem"
grep -q "BEGIN DH PARAMETERS" "$out/ossl-ffdhe2048.pem"

"$work/check" "$out"
"$work/threads"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$work/check-asan" "$out"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$work/threads-asan"

# OpenSSL agrees with what the library made: every prime (and (p - 1) / 2 of each safe
# prime) is prime, the RSA keys and the DH group pass OpenSSL's own checks.
while read -r hex; do
    grep -q "is prime" <<<"$(openssl prime -hex "$hex")" || { echo "capi: openssl says $hex is not prime" >&2; exit 1; }
done < <(cat "$out/primes.hex" "$out/safe.hex")
[ "$(cat "$out/primes.hex" "$out/safe.hex" | wc -l)" -eq 8 ]
openssl pkey -in "$out/rsa-pkcs8.pem" -check -noout >/dev/null
openssl rsa -in "$out/rsa-pkcs1.pem" -check -noout >/dev/null
grep -q "publicExponent: 65539" <<<"$(openssl rsa -in "$out/rsa-pkcs1.pem" -text -noout)"
grep -q "DH parameters appear to be ok" <<<"$(openssl dhparam -in "$out/dh.pem" -check -noout 2>&1)"

# The library's audit JSON is the CLI's --json without "file".
if [ -n "${PRIMEKIT:-}" ]; then
    for kind in dh rsa; do
        file="$out/ossl-$([ $kind = dh ] && echo ffdhe2048 || echo rsa).pem"
        "$PRIMEKIT" check-$kind "$file" --json | python3 -c '
import json, sys
cli = json.loads(sys.stdin.read()); cli.pop("file")
lib = json.load(open(sys.argv[1]))
assert cli == lib, (cli, lib)' "$out/check-$kind.json"
    done
fi
echo "capi: ok (installed library, header, pkg-config; C, C++, static, threads, ASan+UBSan)"
