#!/usr/bin/env bash
# Paper-scale runs as Slurm job arrays (one core per task), each followed by a merge job:
#   PRIMEKIT_LAB=/path/to/primekit-lab tools/slurm/paper-scale.sh RESULTS_DIR [TASKS]
#   - Massimo & Paterson 2020, Table 2: 2^20 random odd inputs per size (the paper: 2^25),
#     both engines (primekit; OpenSSL's arithmetic needs a --features compare build);
#   - Table 3: 2^20 adversarial 1024-bit n = (2x+1)(4x+1), as the paper;
#   - Dobrosavljević 2021, §5.2: the distribution check at its k = 1024 with its 2,240,000
#     primes (Natural PGA + NSS sieve), seeded so the merge equals one process;
#   - Tables 5.1/5.2: every grid point at 64 primes (1024 and 2048 bits) and 64 safe
#     primes (1024 bits); `primekit-lab render pga-best RESULTS_DIR/tables-5.jsonl` tabulates.
# The merge job writes RESULTS_DIR/<name>.jsonl; the per-task logs stay in the cwd.
set -euo pipefail
res=${1:?results directory}
tasks=${2:-64}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$res"
submit() { # [--tasks N] name, bench arguments...
  local n=$tasks
  if [ "$1" = --tasks ]; then
    n=$2
    shift 2
  fi
  local name=$1
  shift
  local dir="$res/$name.shards" id
  id=$(sbatch --parsable --array=0-$((n - 1)) "$here/shard.sbatch" "$dir" "$@")
  sbatch --parsable --dependency=afterok:"$id" --job-name=primekit-merge --output="$res/$name.merge.log" \
    --wrap "bash '$here/merge.sh' '$dir' $n > '$res/$name.jsonl.tmp' && mv '$res/$name.jsonl.tmp' '$res/$name.jsonl'"
}
submit table2-primekit suite --bits 512,1024,2048 --r 0,64,128,384,2047 --tests mrac,mr64,mr128,bpsw --count 1048576 --primes 256
submit table2-openssl suite --engine openssl --bits 512,1024,2048 --r 0,64,128,384,2047 --tests mrac,mr64,mr128 --count 1048576 --primes 256
submit table3 adversarial --bits 1024 --count 1048576
submit dist-1024 dist --bits 1024 --pga natural --sieve nss --count 2240000 --seed 1
# 8 tasks: each task measures 8 primes per grid point (and one untimed warm-up call).
submit --tasks 8 tables-5 pga-tables --bits 1024,2048 --count 64 --safe-bits 1024 --safe-count 64
