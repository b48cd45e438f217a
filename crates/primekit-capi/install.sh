#!/usr/bin/env bash
# Builds the C library (release profile) and installs it into PREFIX:
#   PREFIX/lib/libprimekit.so.X.Y.Z, with the links libprimekit.so.X (the soname) and
#   libprimekit.so; PREFIX/lib/libprimekit.a; PREFIX/include/primekit.h;
#   PREFIX/lib/pkgconfig/primekit.pc.
# Then: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig cc app.c $(pkg-config --cflags --libs primekit)
# (static: pkg-config --static --libs, and link libprimekit.a).
#
# Usage: crates/primekit-capi/install.sh PREFIX
# Environment: CARGO_TARGET_DIR and the CARGO_PROFILE_RELEASE_* variables are honoured;
# PRIMEKIT_CAPI_CARGO_ARGS replaces the package selection (default `-p primekit-capi`),
# so a caller that has just built the workspace's tests can pass the same selection
# and reuse that build instead of compiling primekit again with other features;
# LIBDIR overrides PREFIX/lib.
set -euo pipefail
if [ "$#" -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$1"
prefix="$(cd "$1" && pwd)"
libdir="${LIBDIR:-$prefix/lib}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" | head -n 1)"
major="${version%%.*}"

# shellcheck disable=SC2086 # PRIMEKIT_CAPI_CARGO_ARGS is a list of words.
(cd "$root" && cargo build --release --quiet ${PRIMEKIT_CAPI_CARGO_ARGS:--p primekit-capi})
target="${CARGO_TARGET_DIR:-$root/target}"
[[ $target = /* ]] || target="$root/$target"

install -d "$libdir/pkgconfig" "$prefix/include"
install -m 0755 "$target/release/libprimekit.so" "$libdir/libprimekit.so.$version"
ln -sf "libprimekit.so.$version" "$libdir/libprimekit.so.$major"
ln -sf "libprimekit.so.$major" "$libdir/libprimekit.so"
install -m 0644 "$target/release/libprimekit.a" "$libdir/libprimekit.a"
install -m 0644 "$here/include/primekit.h" "$prefix/include/primekit.h"
# Libs.private: what rustc reports for the static library on Linux
# (`--print native-static-libs`): the Rust standard library's system dependencies.
cat > "$libdir/pkgconfig/primekit.pc" <<PC
prefix=$prefix
exec_prefix=\${prefix}
libdir=$libdir
includedir=\${prefix}/include

Name: primekit
Description: Misuse-resistant primality testing and fast prime generation for cryptography
Version: $version
Libs: -L\${libdir} -lprimekit
Libs.private: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags: -I\${includedir}
PC
echo "installed primekit $version into $prefix"
