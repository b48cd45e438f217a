// Pipelined carry-save Montgomery multiplier (Le Masle, Luk & Moritz 2011, Fig. 1;
// Le Masle et al. 2010).
//
// Contract
//   out_p = in_a * in_b * 2^-L mod n, fully reduced (0 <= out_p < n), where
//   L = S * NP * NR and S = ceil(K / (NP * NR)) is the number of cycles a product
//   spends in each pipeline stage (a "beat"). The caller uses R = 2^L.
//   Inputs: n odd, n < 2^K, stable while any product is in flight; in_b < n;
//   in_a < 2^K (in_a >= n is allowed: the bound below only needs in_b < n).
//   in_tag travels with the product and comes out with it.
//
// Datapath
//   Radix-2 Montgomery in carry-save form: per bit a_i of A,
//     q = (S + a_i B) mod 2,  S = (S + a_i B + q n) / 2,
//   two rows of carry-save adders and a shift, no carry propagation. S = ss + sc stays
//   below 2n (S < 2n  =>  (S + B + n)/2 < 2n), so each of ss and sc fits K + 2 bits.
//   NR iterations are unrolled per cycle (the paper's replicated CSAs); NP stages each own
//   S * NR bits of A and hand (ss, sc, A, B) to the next stage at the end of a beat.
//   All stages advance together; a new product enters stage 0 at a beat boundary, or at
//   once when the pipeline is empty. After the last stage, three registered steps:
//   capture, carry-propagate ss + sc, conditional subtraction of n.
//   Latency: NP * S + 3 cycles from acceptance. Throughput: one product per beat.
//
// Timing: data independent (n is public in a primality test; nothing here branches on it).
module lucas_mont_mul #(
    parameter K  = 64,
    parameter NP = 1,
    parameter NR = 1,
    parameter TW = 3
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [K-1:0]  n,
    input  wire          in_valid,
    input  wire [K-1:0]  in_a,
    input  wire [K-1:0]  in_b,
    input  wire [TW-1:0] in_tag,
    output wire          in_ready,
    output reg           out_valid,
    output reg  [K-1:0]  out_p,
    output reg  [TW-1:0] out_tag
);
  localparam integer S  = (K + NP * NR - 1) / (NP * NR);
  localparam integer L  = S * NP * NR;
  localparam integer W  = K + 2;
  localparam integer BW = (S > 1) ? $clog2(S) : 1;

  // Stage registers, stage j in slice j.
  reg [NP*W-1:0]  ss;
  reg [NP*W-1:0]  sc;
  reg [NP*L-1:0]  a;
  reg [NP*K-1:0]  b;
  reg [NP*TW-1:0] tag;
  reg [NP-1:0]    valid;
  reg [BW-1:0]    beat;

  // Each stage after NR iterations (combinational).
  wire [NP*W-1:0] ss_next;
  wire [NP*W-1:0] sc_next;
  wire [NP*L-1:0] a_next;

  // NR iterations of the carry-save step on (s, c); returns {c, s}.
  // Row 1 adds x = a_i B, row 2 adds y = q n; the total is even, so the low bits of both
  // row-2 outputs are zero and the halving is a plain shift of each.
  function [2*W-1:0] csa_rows;
    input [W-1:0]  s_in;
    input [W-1:0]  c_in;
    input [NR-1:0] abits;
    input [K-1:0]  bv;
    input [K-1:0]  nv;
    reg   [W-1:0]  s, c, x, y, s1, c1, s2;
    reg            q;
    integer        t;
    begin
      s = s_in;
      c = c_in;
      for (t = 0; t < NR; t = t + 1) begin
        x  = abits[t] ? {2'b00, bv} : {W{1'b0}};
        q  = s[0] ^ c[0] ^ x[0];
        y  = q ? {2'b00, nv} : {W{1'b0}};
        s1 = s ^ c ^ x;
        c1 = ((s & c) | (s & x) | (c & x)) << 1;
        s2 = s1 ^ c1 ^ y;
        // Carries are weighted 2: (maj << 1) >> 1 is the majority itself. No bit is lost
        // to the shifts, as s + c + x + y < 4n <= 2^W.
        s  = s2 >> 1;
        c  = (s1 & c1) | (s1 & y) | (c1 & y);
      end
      csa_rows = {c, s};
    end
  endfunction

  genvar j;
  generate
    for (j = 0; j < NP; j = j + 1) begin : stage
      assign {sc_next[j*W +: W], ss_next[j*W +: W]} =
          csa_rows(ss[j*W +: W], sc[j*W +: W], a[j*L +: NR], b[j*K +: K], n);
      assign a_next[j*L +: L] = a[j*L +: L] >> NR;
    end
  endgenerate

  // A zero-extended to L bits (L >= K).
  wire [L-1:0] a_in;
  generate
    if (L > K) begin : pad
      assign a_in = {{(L-K){1'b0}}, in_a};
    end else begin : nopad
      assign a_in = in_a;
    end
  endgenerate

  wire empty    = ~|valid;
  wire beat_end = (beat == S[BW-1:0] - 1'b1);
  wire advance  = beat_end || empty;
  assign in_ready = advance;
  wire accept   = in_valid && advance;

  // Resolution after the last stage.
  reg          r0_valid, r1_valid;
  reg [W-1:0]  r0_s, r0_c;
  reg [W-1:0]  r1_sum;
  reg [TW-1:0] r0_tag, r1_tag;
  wire [W:0]   r1_minus_n = {1'b0, r1_sum} - {3'b000, n};

  integer i;
  always @(posedge clk) begin
    if (rst) begin
      valid     <= {NP{1'b0}};
      beat      <= {BW{1'b0}};
      r0_valid  <= 1'b0;
      r1_valid  <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      // Beat counter: restarts when a product enters an empty pipeline.
      if (advance) beat <= {BW{1'b0}};
      else beat <= beat + 1'b1;

      if (advance) begin
        // Hand every stage to the next; the last one to the resolution steps.
        r0_valid <= valid[NP-1];
        r0_s     <= ss_next[(NP-1)*W +: W];
        r0_c     <= sc_next[(NP-1)*W +: W];
        r0_tag   <= tag[(NP-1)*TW +: TW];
        for (i = NP - 1; i > 0; i = i - 1) begin
          valid[i]          <= valid[i-1];
          ss[i*W +: W]      <= ss_next[(i-1)*W +: W];
          sc[i*W +: W]      <= sc_next[(i-1)*W +: W];
          a[i*L +: L]       <= a_next[(i-1)*L +: L];
          b[i*K +: K]       <= b[(i-1)*K +: K];
          tag[i*TW +: TW]   <= tag[(i-1)*TW +: TW];
        end
        valid[0]      <= accept;
        ss[0 +: W]    <= {W{1'b0}};
        sc[0 +: W]    <= {W{1'b0}};
        a[0 +: L]     <= a_in;
        b[0 +: K]     <= in_b;
        tag[0 +: TW]  <= in_tag;
      end else begin
        r0_valid <= 1'b0;
        ss <= ss_next;
        sc <= sc_next;
        a  <= a_next;
      end

      r1_valid <= r0_valid;
      r1_sum   <= r0_s + r0_c;
      r1_tag   <= r0_tag;

      out_valid <= r1_valid;
      out_p     <= r1_minus_n[W] ? r1_sum[K-1:0] : r1_minus_n[K-1:0];
      out_tag   <= r1_tag;
    end
  end
endmodule
