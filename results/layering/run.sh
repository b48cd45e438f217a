#!/usr/bin/env bash
# Before/after of the architecture change: same machine, alternating binaries.
B=${BEFORE:?path of the earlier binary}
A=${AFTER:?path of the later binary}
cd "$(dirname "$0")"
for rep in 1 2 3; do
  for which in before after; do
    bin=$B; [ $which = after ] && bin=$A
    $bin bench modexp --count 16 --reps 5 --interleave --all-kernels --bits 1024,2048 > modexp-$which-$rep.jsonl 2>/dev/null
    $bin bench test --bits 1024 --count 2000 > test-rand-$which-$rep.jsonl 2>/dev/null
    $bin bench test --bits 1024,2048 --inputs primes --count 8 > test-primes-$which-$rep.jsonl 2>/dev/null
    $bin bench gen --bits 1024,2048 --count 24 --peer-count 6 > gen-$which-$rep.jsonl 2>/dev/null
    $bin bench gen --bits 1024 --safe --count 40 --peer-count 4 > gensafe-$which-$rep.jsonl 2>/dev/null
  done
done
echo done > DONE
