#!/usr/bin/env bash
# PARI/GP for the certificate interoperability tests (crates/primekit/tests/pari_interop.rs
# and `primekit bench prove`): installed quietly when `gp` is missing and this runs as
# root with apt-get (Debian, Ubuntu); otherwise those tests print a SKIP line and pass.
# Never fails the build: it only says what it did.
set -uo pipefail
if command -v gp >/dev/null 2>&1; then
  echo "pari: gp $(gp --version-short 2>/dev/null) already installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "pari: gp not found and cannot install it (needs root and apt-get): the PARI tests will SKIP"
  exit 0
fi
log=$(mktemp)
if apt-get update -qq >"$log" 2>&1 &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pari-gp >>"$log" 2>&1; then
  echo "pari: installed pari-gp (gp $(gp --version-short 2>/dev/null))"
else
  echo "pari: installing pari-gp failed, the PARI tests will SKIP; apt-get said:"
  tail -n 5 "$log"
fi
rm -f "$log"
exit 0
