#!/usr/bin/env bash
# Merge the shards of one job array: tools/slurm/merge.sh OUTDIR [N]
# Refuses (exit 1) when fewer than N shard files exist, so a partial array is never
# mistaken for a whole one. Prints the merged JSON lines (bench merge) on stdout.
set -euo pipefail
out=$1
want=${2:-0}
shopt -s nullglob
files=("$out"/shard-*.jsonl)
if [ "${#files[@]}" -lt "$want" ]; then
  echo "merge: ${#files[@]} of $want shards in $out" >&2
  exit 1
fi
"${PRIMEKIT_LAB:-primekit-lab}" bench merge "${files[@]}"
