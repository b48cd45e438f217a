// Verilator testbench for lucas_tester: reads vectors (hw-vectors format) on stdin, runs
// each through the RTL, compares the verdict and the U, V checkpoint with the software
// model, and prints one JSON summary line (per-class mean cycles). Exit status 1 on any
// disagreement or timeout.
//
// Line format: class n_hex verdict(P|C|E) step u_hex v_hex   (step 0: no checkpoint)
#include "Vlucas_tester.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifndef TB_K
#error "TB_K (the RTL's K) must be defined"
#endif

static const int WORDS = TB_K / 32;

// Hex string -> little-endian 32-bit words (at least `min_words`).
static std::vector<uint32_t> hex_words(const std::string& hex, size_t min_words) {
  std::vector<uint32_t> w;
  int shift = 0;
  uint32_t cur = 0;
  for (auto it = hex.rbegin(); it != hex.rend(); ++it) {
    char c = *it;
    uint32_t d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : 99;
    if (d == 99) throw std::runtime_error("bad hex digit");
    cur |= d << shift;
    shift += 4;
    if (shift == 32) {
      w.push_back(cur);
      cur = 0;
      shift = 0;
    }
  }
  if (shift) w.push_back(cur);
  while (w.size() < min_words) w.push_back(0);
  return w;
}

// Word i of an RTL output of K bits.
static uint32_t out_word(const QData& q, int i) { return (uint32_t)(q >> (32 * i)); }
template <std::size_t N>
static uint32_t out_word(const VlWide<N>& w, int i) { return w[i]; }

template <typename T>
static bool equals(const T& port, const std::vector<uint32_t>& want) {
  for (int i = 0; i < WORDS; i++)
    if (out_word(port, i) != (i < (int)want.size() ? want[i] : 0)) return false;
  for (size_t i = WORDS; i < want.size(); i++)
    if (want[i]) return false;
  return true;
}

struct ClassStats {
  uint64_t count = 0, cycles = 0, laddered = 0;  // laddered: reached the U/V ladder
};

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Vlucas_tester top;
  uint64_t cycle = 0;
  auto tick = [&]() {
    top.clk = 0;
    top.eval();
    top.clk = 1;
    top.eval();
    cycle++;
  };
  top.rst = 1;
  top.ld_valid = 0;
  top.start = 0;
  tick();
  tick();
  top.rst = 0;

  // Generous bound: the slowest configuration needs about 5.3 K^2 cycles.
  const uint64_t limit = 40ull * TB_K * TB_K + 200000;
  std::map<std::string, ClassStats> stats;
  uint64_t inputs = 0, agree = 0, mismatch = 0, cp_checked = 0, cp_bad = 0, timeouts = 0, errors_flagged = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string cls, nhex, verdict, uhex, vhex;
    uint64_t step = 0;
    if (!(in >> cls >> nhex >> verdict >> step >> uhex >> vhex)) {
      std::cerr << "malformed vector line: " << line << "\n";
      return 2;
    }
    std::vector<uint32_t> nw = hex_words(nhex, WORDS);
    for (uint32_t w : nw) {
      top.ld_valid = 1;
      top.ld_word = w;
      tick();
    }
    top.ld_valid = 0;
    top.start = 1;
    tick();
    top.start = 0;
    uint64_t t0 = cycle, iter = 0;
    bool cp_done = (step == 0);
    while (!top.done && cycle - t0 < limit) {
      tick();
      if (top.dbg_iter) {
        iter++;
        if (iter == step) {
          cp_checked++;
          cp_done = true;
          if (!equals(top.dbg_u, hex_words(uhex, WORDS)) || !equals(top.dbg_v, hex_words(vhex, WORDS))) {
            cp_bad++;
            std::cerr << "checkpoint mismatch at step " << step << " for " << cls << " " << nhex << "\n";
          }
        }
      }
    }
    inputs++;
    if (!top.done) {
      timeouts++;
      std::cerr << "timeout (" << limit << " cycles) for " << cls << " " << nhex << "\n";
      top.rst = 1;
      tick();
      top.rst = 0;
      continue;
    }
    uint64_t cycles = cycle - t0 + 1;  // from the start edge to the done edge
    std::string got = top.error ? "E" : (top.prime ? "P" : "C");
    if (top.error) errors_flagged++;
    if (got == verdict && cp_done) {
      agree++;
    } else {
      mismatch++;
      std::cerr << "mismatch: " << cls << " " << nhex << " model " << verdict << " rtl " << got
                << (cp_done ? "" : " (checkpoint never reached)") << "\n";
    }
    stats[cls].count++;
    stats[cls].cycles += cycles;
    if (iter > 0) stats[cls].laddered++;
  }
  std::printf("{\"k\": %d, \"np\": %d, \"nr\": %d, \"inputs\": %llu, \"agree\": %llu, \"mismatch\": %llu, "
              "\"checkpoints\": %llu, \"checkpoint_mismatch\": %llu, \"timeouts\": %llu, \"errors_flagged\": %llu, \"classes\": {",
              TB_K, TB_NP, TB_NR, (unsigned long long)inputs, (unsigned long long)agree, (unsigned long long)mismatch,
              (unsigned long long)cp_checked, (unsigned long long)cp_bad, (unsigned long long)timeouts, (unsigned long long)errors_flagged);
  bool first = true;
  for (auto& [cls, s] : stats) {
    std::printf("%s\"%s\": {\"count\": %llu, \"laddered\": %llu, \"mean_cycles\": %.1f}", first ? "" : ", ", cls.c_str(),
                (unsigned long long)s.count, (unsigned long long)s.laddered, s.count ? (double)s.cycles / s.count : 0.0);
    first = false;
  }
  std::printf("}}\n");
  return (mismatch || cp_bad || timeouts) ? 1 : 0;
}
