#!/usr/bin/env python3
"""Benchmark primekit against sympy, gmpy2 and pycryptodome on the same inputs, in one run.

    pip install ./python sympy gmpy2 pycryptodome
    python python/bench.py [--bits 512,1024,2048] [--count 200] [--reps 3]

Prints one JSON object per line, like `primekit bench ...`: op, engine, bits, count,
mean_ms and median_ms (per call; mean and median over `reps` timed passes over the
same inputs, engines interleaved within each pass so machine noise hits all alike).

Ops:
- is_prime: random odd ints of exactly `bits` bits (almost all composite), the
  common case in a search; every engine's answers are checked equal to sympy's.
- is_prime_on_primes: primes of `bits` bits (the costly case: a composite test
  stops at the first witness, a prime must pass every round).
- generate_prime: a random `bits`-bit prime (pycryptodome getPrime, sympy randprime,
  primekit generate_prime); each output is checked prime with sympy.

Engines' guarantees differ; see python/README.md. Not equal work: sympy and gmpy2
run BPSW (or few-round) tests, primekit 64 random-base rounds (2^-128 bound)
on every prime.
"""

import argparse
import json
import random
import statistics
import sys
import time

import os
import subprocess

import gmpy2
import sympy
from Crypto.Util import number as pycryptodome

import primekit

# sympy.isprime delegates to gmpy2's BPSW test when gmpy2 is importable, which it is
# here; a plain `pip install sympy` has no gmpy2 and runs sympy's pure-Python test.
# Both are measured: "sympy[gmpy2]" in process, "sympy[python]" in a child process
# started with SYMPY_GROUND_TYPES=python on the same inputs (import time excluded).
SYMPY_PYTHON_CHILD = """
import json, sys, time
import sympy
assert sympy.external.gmpy.GROUND_TYPES == "python", sympy.external.gmpy.GROUND_TYPES
inputs = [int(x, 16) for x in json.load(sys.stdin)]
start = time.perf_counter()
out = [sympy.isprime(n) for n in inputs]
print(json.dumps([(time.perf_counter() - start) * 1e3 / len(inputs), out]))
"""


def sympy_python_pass(inputs):
    env = dict(os.environ, SYMPY_GROUND_TYPES="python")
    child = subprocess.run(
        [sys.executable, "-c", SYMPY_PYTHON_CHILD],
        input=json.dumps([hex(n) for n in inputs]),
        capture_output=True, text=True, env=env, check=True,
    )
    return json.loads(child.stdout)


IS_PRIME_ENGINES = {
    "primekit": primekit.is_prime,
    "sympy[gmpy2]": sympy.isprime,
    "gmpy2": gmpy2.is_prime,
    "pycryptodome": pycryptodome.isPrime,
}

GENERATE_ENGINES = {
    "pycryptodome": pycryptodome.getPrime,
    "sympy[gmpy2]": lambda bits: sympy.randprime(2 ** (bits - 1), 2**bits),
    "primekit": primekit.generate_prime,
}


def emit(op, engine, bits, count, per_call_ms):
    print(
        json.dumps(
            {
                "op": op,
                "engine": engine,
                "bits": bits,
                "count": count,
                "mean_ms": statistics.fmean(per_call_ms),
                "median_ms": statistics.median(per_call_ms),
                "passes": len(per_call_ms),
            }
        ),
        flush=True,
    )


def time_pass(fn, inputs):
    """Per-call milliseconds of one pass of fn over inputs, and its results."""
    start = time.perf_counter()
    out = [fn(x) for x in inputs]
    return (time.perf_counter() - start) * 1e3 / len(inputs), out


def bench_is_prime(op, bits, inputs, reps):
    expected = [sympy.isprime(n) for n in inputs]
    passes = {name: (lambda fn=fn: time_pass(fn, inputs)) for name, fn in IS_PRIME_ENGINES.items()}
    passes["sympy[python]"] = lambda: sympy_python_pass(inputs)
    samples = {name: [] for name in passes}
    for _ in range(reps):
        for name, one_pass in passes.items():
            ms, out = one_pass()
            if [bool(b) for b in out] != expected:
                sys.exit(f"error: {name} disagrees with sympy.isprime on {op} at {bits} bits")
            samples[name].append(ms)
    for name, ms in samples.items():
        emit(op, name, bits, len(inputs), ms)


def bench_generate(bits, count, reps):
    samples = {name: [] for name in GENERATE_ENGINES}
    sizes = [bits] * count
    for _ in range(reps):
        for name, fn in GENERATE_ENGINES.items():
            ms, out = time_pass(fn, sizes)
            for p in out:
                if p.bit_length() != bits or not sympy.isprime(p):
                    sys.exit(f"error: {name} produced a non-prime or wrong size at {bits} bits: {p}")
            samples[name].append(ms)
    for name, ms in samples.items():
        emit("generate_prime", name, bits, count, ms)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bits", default="512,1024,2048", help="comma-separated sizes")
    ap.add_argument("--count", type=int, default=400, help="random odd ints per size (is_prime)")
    ap.add_argument("--prime-count", type=int, default=20, help="primes per size (is_prime_on_primes)")
    ap.add_argument("--gen-count", type=int, default=10, help="primes generated per engine and pass")
    ap.add_argument("--reps", type=int, default=3, help="timed passes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for bits in (int(b) for b in args.bits.split(",")):
        odd = [rng.getrandbits(bits) | 1 | (1 << (bits - 1)) for _ in range(args.count)]
        bench_is_prime("is_prime", bits, odd, args.reps)
        primes = [int(sympy.nextprime(rng.getrandbits(bits) | (1 << (bits - 1)))) for _ in range(args.prime_count)]
        primes = [p for p in primes if p.bit_length() == bits]
        bench_is_prime("is_prime_on_primes", bits, primes, args.reps)
        bench_generate(bits, args.gen_count, args.reps)


if __name__ == "__main__":
    main()
