#!/bin/bash
B=${BIN:-target/release/primekit}
OUT=${OUT:-.}
for k in adx avx2; do
  PRIMEKIT_KERNEL=$k $B bench gen --bits 1024 --safe --count 40 --no-peer --sieve-primes 100000,290000,1000000,3950000 > $OUT/sieve-$k-safe1024.jsonl 2>&1
  PRIMEKIT_KERNEL=$k $B bench gen --bits 1024,2048 --count 60 --no-peer --sieve-primes 9999,30000,100000,300000 > $OUT/sieve-$k-rand.jsonl 2>&1
done
