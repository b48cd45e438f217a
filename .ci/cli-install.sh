#!/usr/bin/env bash
# The user CLI as installed (README "Install"): `cargo install --path crates/primekit-cli`
# with default features must not build the research crate or the plotting library, and
# the completions and the man page must load where users put them.
#   - the dependency tree check (cargo tree, about a second);
#   - bash loads the completion script and registers `primekit`; man(1) renders the page;
#   - with CLI_INSTALL=1, the real `cargo install --path crates/primekit-cli` into a
#     temporary root, and the checks above run on the installed binary. Off by default:
#     it rebuilds the library with the CLI's own feature set (2.6 min on the 2 shared
#     cores), where the rest of this script reuses the binary `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "cli-install: FAIL: $*"; exit 1; }

tree=$(cargo tree -p primekit-cli -e normal --prefix none --offline 2>/dev/null || cargo tree -p primekit-cli -e normal --prefix none)
for crate in primekit-research plotters; do
  ! grep -q "^$crate v" <<<"$tree" || fail "the default primekit-cli build depends on $crate"
done
grep -q "^primekit-research v" <<<"$(cargo tree -p primekit-cli -e normal --prefix none --features compare)" \
  || fail "--features compare does not bring the peers (primekit-research)"
echo "cli-install: default primekit-cli builds neither primekit-research nor plotters"

bin=${PRIMEKIT:-${CARGO_TARGET_DIR:-target}/release/primekit}
if [ "${CLI_INSTALL:-0}" = 1 ]; then
  root=$(mktemp -d /tmp/primekit-install.XXXXXX)
  trap 'rm -rf "$root"' EXIT
  cargo install --quiet --locked --path crates/primekit-cli --root "$root"
  bin="$root/bin/primekit"
  [ -x "$bin" ] || fail "cargo install left no $bin"
fi
[ -x "$bin" ] || cargo build -q --release -p primekit-cli
"$bin" --version | grep -q '^kernel: ' || fail "--version does not name the kernel"
# Completions: sourced by bash, `complete -p primekit` shows the registration.
PATH="$(dirname "$bin"):$PATH" bash -c 'source <(primekit completions bash) && complete -p primekit' >/dev/null \
  || fail "bash does not load the completion script"
if command -v man >/dev/null; then
  page=$(mktemp /tmp/primekit.XXXXXX.1)
  "$bin" man >"$page"
  rendered=$(MANWIDTH=80 man -P cat -l "$page" 2>/dev/null) || { rm -f "$page"; fail "man -l does not render the page"; }
  rm -f "$page"
  grep -q "check-dh" <<<"$rendered" || fail "the rendered man page lacks check-dh"
  echo "cli-install: completions load in bash, man -l renders the page ($bin)"
else
  echo "cli-install: completions load in bash; man(1) not installed, page not rendered ($bin)"
fi
