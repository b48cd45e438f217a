#!/usr/bin/env bash
# The RTL Lucas tester: lint, simulate against the software model, synthesise.
#   hw/run.sh test     64- and 128-bit configurations on the model's vectors, a check that
#                      the testbench catches a wrong vector, a Yosys smoke synthesis
#                      (the part of the test command; a few minutes at most)
#   hw/run.sh report   1024 bits, the eight (N_p, N_r) of Le Masle et al. 2011, Table I:
#                      cycles on random odd inputs, LUTs and flip-flops from Yosys;
#                      writes results/hw/*.jsonl (then `primekit-lab report` renders them)
# Needs verilator and yosys (installed here when missing and run as root), a C++ compiler,
# and the research CLI primekit-lab (built on demand; PRIMEKIT_LAB overrides).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mode=${1:-test}
build=${HW_BUILD:-${CARGO_TARGET_DIR:-$root/target}/hw}
mkdir -p "$build"

ensure_tools() {
  local missing=()
  command -v verilator >/dev/null || missing+=(verilator)
  command -v yosys >/dev/null || missing+=(yosys)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "hw: installing ${missing[*]}"
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
    else
      echo "hw: SKIPPED: ${missing[*]} not installed and cannot install (not root or no apt-get)"
      exit 0
    fi
  fi
}

primekit-lab() {
  if [ -n "${PRIMEKIT_LAB:-}" ]; then "$PRIMEKIT_LAB" "$@"; return; fi
  (cd "$root" && cargo build -q --release -p primekit-lab)
  "${CARGO_TARGET_DIR:-$root/target}/release/primekit-lab" "$@"
}

rtl=("$here/rtl/lucas_tester.v" "$here/rtl/lucas_mont_mul.v" "$here/rtl/lucas_add_shift.v" \
     "$here/rtl/lucas_jacobi.v" "$here/rtl/lucas_isqrt.v")

# sim_build K NP NR -> path of the testbench binary
sim_build() {
  local k=$1 np=$2 nr=$3 dir="$build/k$1-np$2-nr$3"
  verilator --cc --exe --build -j 2 -Wall -O3 -GK="$k" -GNP="$np" -GNR="$nr" \
    -CFLAGS "-O2 -std=c++17 -DTB_K=$k -DTB_NP=$np -DTB_NR=$nr" \
    --top-module lucas_tester -Mdir "$dir" -o tb "${rtl[@]}" "$here/sim/tb_lucas.cpp" >"$dir.log" 2>&1 \
    || { cat "$dir.log" >&2; echo "hw: verilator build failed for K=$k N_p=$np N_r=$nr" >&2; exit 1; }
  echo "$dir/tb"
}

corpus="$root/crates/primekit/tests/data/vectors.tsv"
corpus_arg=()
[ -f "$corpus" ] && corpus_arg=(--corpus "$corpus")

case $mode in
  test)
    ensure_tools
    for k in 64 128 1024; do
      verilator --lint-only -Wall -GK=$k -GNP=3 -GNR=2 --top-module lucas_tester "${rtl[@]}"
    done
    echo "hw: lint clean (verilator -Wall, K = 64, 128, 1024)"
    [ -f "$corpus" ] || echo "hw: corpus not found at $corpus: generated vectors only"
    # K, N_p, N_r, random inputs
    for cfg in "64 3 2 300" "128 1 1 200" "128 3 4 800"; do
      set -- $cfg
      tb=$(sim_build "$1" "$2" "$3")
      vec="$build/vectors-k$1-np$2-nr$3.txt"
      primekit-lab hw-vectors --k "$1" --np "$2" --nr "$3" --random "$4" --primes 20 --squares 10 --long-d 10 \
        --seed 7 "${corpus_arg[@]}" --force --out "$vec"
      echo "hw: K=$1 N_p=$2 N_r=$3: $(wc -l <"$vec") vectors"
      "$tb" <"$vec" | tee "$build/sim-k$1-np$2-nr$3.json"
    done
    # The testbench must fail on a wrong expectation: flip the first prime's verdict.
    vec="$build/vectors-k64-np3-nr2.txt"
    awk 'BEGIN{d=0} $1=="prime" && !d {$3="C"; d=1} {print}' "$vec" >"$build/vectors-wrong.txt"
    if "$(sim_build 64 3 2)" <"$build/vectors-wrong.txt" >/dev/null 2>"$build/wrong.err"; then
      echo "hw: FAIL: the testbench accepted a wrong verdict"; exit 1
    fi
    echo "hw: a wrong vector is caught: $(head -1 "$build/wrong.err" | cut -c1-60)..."
    bash "$here/synth/synth.sh" lucas_tester 64 3 2 "$build/synth-k64.json"
    python3 - "$build/synth-k64.json" <<'PY'
import json, sys
cells = json.load(open(sys.argv[1]))["design"]["num_cells_by_type"]
luts = sum(v for k, v in cells.items() if k.startswith("LUT") or k in ("INV",) or k.startswith("SRL"))
ffs = sum(v for k, v in cells.items() if k.startswith("FD"))
assert luts > 0 and ffs > 0, cells
print(f"hw: yosys synth_xilinx (xc5v) K=64 N_p=3 N_r=2: {luts} LUTs, {ffs} flip-flops")
PY
    ;;
  report)
    ensure_tools
    out="$root/results/hw"
    mkdir -p "$out"
    count=${HW_RANDOM:-100}
    configs=${HW_CONFIGS:-"1 1,1 2,2 1,2 2,3 1,3 2,3 4,3 8"}
    IFS=, read -ra cfgs <<<"$configs"
    # One file per configuration, so several report runs can share the machine.
    if [ "${HW_SKIP_SIM:-0}" != 1 ]; then
      for c in "${cfgs[@]}"; do
        set -- $c
        tb=$(sim_build 1024 "$1" "$2")
        vec="$build/vectors-k1024-np$1-nr$2.txt"
        primekit-lab hw-vectors --k 1024 --np "$1" --nr "$2" --random "$count" --primes 5 --squares 2 --long-d 2 \
          --seed 2011 "${corpus_arg[@]}" --corpus-max-bits 256 --force --out "$vec"
        start=$(date +%s)
        "$tb" <"$vec" >"$build/sim-1024-$1-$2.json"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["sim_seconds"]=int(sys.argv[2]); d["random_inputs"]=int(sys.argv[3]); print(json.dumps(d))' \
          "$build/sim-1024-$1-$2.json" $(( $(date +%s) - start )) "$count" >"$out/sim-1024-np$1-nr$2.json"
        echo "hw: simulated K=1024 N_p=$1 N_r=$2"
      done
    fi
    if [ "${HW_SKIP_CPU:-0}" != 1 ]; then
      # The CPU side: primekit's NIST Lucas test on the same inputs (the random class is
      # the same for every configuration: same seed, same order).
      vec="$build/vectors-k1024-cpu.txt"
      primekit-lab hw-vectors --k 1024 --random "$count" --primes 5 --squares 0 --long-d 0 --seed 2011 --force --out "$vec"
      cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
      primekit-lab bench hw-lucas --vectors "$vec" --reps 5 | python3 -c '
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    d.update(cpu=sys.argv[1], linux=sys.argv[2])
    print(json.dumps(d))' "$cpu" "$(uname -r)" >"$out/cpu-1024.jsonl"
      echo "hw: CPU NIST Lucas timed on the same inputs"
    fi
    if [ "${HW_SKIP_SYNTH:-0}" != 1 ]; then
      # Everything but the multiplier is the same for every (N_p, N_r): the whole tester is
      # synthesised once (N_p = N_r = 1, hierarchy kept, so per-module counts add up), the
      # multiplier alone per configuration; a configuration's total is the tester's
      # modules other than the multiplier plus its own multiplier.
      if [ "${HW_SKIP_REST:-0}" != 1 ]; then
        for m in lucas_tester; do
          start=$(date +%s)
          bash "$here/synth/synth.sh" $m 1024 1 1 "$build/synth-$m.json"
          python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"module": sys.argv[2], "k": 1024, "modules": {k: v.get("num_cells_by_type", {}) for k, v in d["modules"].items()}, "synth_seconds": int(sys.argv[3])}))' \
            "$build/synth-$m.json" $m $(( $(date +%s) - start )) >"$out/synth-1024-$m.json"
        done
      fi
      for c in "${cfgs[@]}"; do
        set -- $c
        start=$(date +%s)
        bash "$here/synth/synth.sh" lucas_mont_mul 1024 "$1" "$2" "$build/synth-mul-$1-$2.json"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"module": "lucas_mont_mul", "k": 1024, "np": int(sys.argv[2]), "nr": int(sys.argv[3]), "cells": d["design"]["num_cells_by_type"], "synth_seconds": int(sys.argv[4])}))' \
          "$build/synth-mul-$1-$2.json" "$1" "$2" $(( $(date +%s) - start )) >"$out/synth-1024-mul-np$1-nr$2.json"
        echo "hw: synthesised the K=1024 multiplier, N_p=$1 N_r=$2"
      done
    fi
    if [ "${HW_SKIP_GENERIC:-0}" != 1 ]; then
      # Technology-independent gate counts (a trend beside Table II's TSMC NAND2
      # equivalents, which need libraries we do not have): the tester's other modules once,
      # the multiplier per configuration.
      if [ "${HW_SKIP_REST:-0}" != 1 ]; then
        bash "$here/synth/synth.sh" lucas_tester 1024 1 1 "$build/generic-lucas_tester.json" generic
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"module": "lucas_tester", "k": 1024, "flow": "generic", "modules": {k: v.get("num_cells_by_type", {}) for k, v in d["modules"].items()}}))' \
          "$build/generic-lucas_tester.json" >"$out/generic-1024-lucas_tester.json"
      fi
      for c in "${cfgs[@]}"; do
        set -- $c
        bash "$here/synth/synth.sh" lucas_mont_mul 1024 "$1" "$2" "$build/generic-mul-$1-$2.json" generic
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"module": "lucas_mont_mul", "k": 1024, "np": int(sys.argv[2]), "nr": int(sys.argv[3]), "flow": "generic", "cells": d["design"]["num_cells_by_type"]}))' \
          "$build/generic-mul-$1-$2.json" "$1" "$2" >"$out/generic-1024-mul-np$1-nr$2.json"
        echo "hw: generic gate count of the K=1024 multiplier, N_p=$1 N_r=$2"
      done
    fi
    ;;
  *) echo "usage: hw/run.sh test|report" >&2; exit 2 ;;
esac
