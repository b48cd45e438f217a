#!/usr/bin/env bash
# Rewrites every `<!-- render: KIND FILE... -->` ... `<!-- end render -->` block of the
# results READMEs, README.md and docs/research.md with `primekit-lab render KIND FILE...`
# (files relative to the repository root), then the claims table (tools/update_claims.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PRIMEKIT_LAB:-${CARGO_TARGET_DIR:-target}/release/primekit-lab}
[ -x "$bin" ] || cargo build -q --release -p primekit-lab
export PRIMEKIT_BIN=$bin
python3 - <<'PY'
import glob, os, subprocess
docs = ["README.md", "docs/research.md"] + sorted(glob.glob("results/**/README.md", recursive=True))
begin, end = "<!-- render: ", "<!-- end render -->"
for path in docs:
    text = open(path).read()
    out, pos, changed = [], 0, 0
    while (i := text.find(begin, pos)) >= 0:
        close = text.index(" -->\n", i)
        args = text[i + len(begin):close].split()
        j = text.index(end, close)
        md = subprocess.run([os.environ["PRIMEKIT_BIN"], "render", *args], check=True, capture_output=True, text=True).stdout
        out.append(text[pos:close + 5] + md)
        pos, changed = j, changed + 1
    if changed:
        out.append(text[pos:])
        open(path + ".tmp", "w").write("".join(out))
        os.replace(path + ".tmp", path)
        print(f"{path}: {changed} block(s)")
PY
bash tools/update_claims.sh
