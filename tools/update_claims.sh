#!/usr/bin/env bash
# Regenerates the claims table of docs/research.md from results/ (primekit-lab claims) in place.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PRIMEKIT_LAB:-${CARGO_TARGET_DIR:-target}/release/primekit-lab}
[ -x "$bin" ] || cargo build -q --release -p primekit-lab
table=$("$bin" claims --results results)
python3 - "$table" <<'PY'
import sys
p = "docs/research.md"
s = open(p).read()
b, e = "<!-- claims:begin -->\n", "<!-- claims:end -->"
i, j = s.index(b) + len(b), s.index(e)
open(p + ".tmp", "w").write(s[:i] + sys.argv[1] + "\n" + s[j:])
import os
os.replace(p + ".tmp", p)
PY
