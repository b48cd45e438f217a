#!/usr/bin/env bash
# Paper-scale runs as Slurm job arrays (one core per task), each followed by a merge job:
#   PRIMEKIT=/path/to/primekit tools/slurm/paper-scale.sh RESULTS_DIR [TASKS]
#   - Massimo & Paterson 2020, Table 2: 2^20 random odd inputs per size (the paper: 2^25),
#     both engines (primekit; OpenSSL's arithmetic needs a --features compare build);
#   - Table 3: 2^20 adversarial 1024-bit n = (2x+1)(4x+1), as the paper;
# The merge job writes RESULTS_DIR/<name>.jsonl; the per-task logs stay in the cwd.
set -euo pipefail
res=${1:?results directory}
tasks=${2:-64}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$res"
submit() { # name, bench arguments...
  local name=$1
  shift
  local dir="$res/$name.shards" id
  id=$(sbatch --parsable --array=0-$((tasks - 1)) "$here/shard.sbatch" "$dir" "$@")
  sbatch --parsable --dependency=afterok:"$id" --job-name=primekit-merge --output="$res/$name.merge.log" \
    --wrap "bash '$here/merge.sh' '$dir' $tasks > '$res/$name.jsonl.tmp' && mv '$res/$name.jsonl.tmp' '$res/$name.jsonl'"
}
submit table2-primekit suite --bits 512,1024,2048 --r 0,64,128,384,2047 --tests mrac,mr64,mr128,bpsw --count 1048576 --primes 256
submit table2-openssl suite --engine openssl --bits 512,1024,2048 --r 0,64,128,384,2047 --tests mrac,mr64,mr128 --count 1048576 --primes 256
submit table3 adversarial --bits 1024 --count 1048576
