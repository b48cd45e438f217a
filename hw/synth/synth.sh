#!/usr/bin/env bash
# Yosys synthesis of one module of the Lucas tester for Virtex-5 (synth_xilinx -family xc5v,
# experimental in Yosys) without I/O buffers; writes Yosys' `stat -json` to OUT.
#   synth.sh MODULE K NP NR OUT [generic]
# With "generic", a technology-independent gate count instead (synth; abc -g ...): a trend
# only, not the paper's TSMC NAND2 equivalents.
set -euo pipefail
mod=$1 k=$2 np=$3 nr=$4 out=$5 mode=${6:-xilinx}
here=$(cd "$(dirname "$0")/.." && pwd)
params="-set K $k"
case $mod in
  lucas_mont_mul|lucas_tester) params="$params -set NP $np -set NR $nr" ;;
esac
if [ "$mode" = generic ]; then
  flow="synth -top $mod; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX"
else
  flow="synth_xilinx -top $mod -family xc5v -noiopad"
fi
yosys -q -p "read_verilog $here/rtl/lucas_tester.v $here/rtl/lucas_mont_mul.v $here/rtl/lucas_add_shift.v $here/rtl/lucas_jacobi.v $here/rtl/lucas_isqrt.v; chparam $params $mod; $flow; tee -q -o $out.tmp stat -json" >/dev/null
mv "$out.tmp" "$out"
