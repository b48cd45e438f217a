// Pipelined modular add-shift (Le Masle, Luk & Moritz 2011, Alg. 5 and Fig. 2).
//
// Contract
//   out_s = (in_a + in_b) / 2 mod n   when in_pass = 0,
//   out_s = in_a                      when in_pass = 1 (the ladder's k_i = 0 case, kept on
//                                      the same path so every iteration takes the same time),
//   for odd n and in_a, in_b < n; 0 <= out_s < n. Tags travel with the operands.
//   Latency 3 cycles, one result per cycle:
//     1. t = a + b           (pass: t = 2a, which the next steps turn back into a)
//     2. h = (t + (t odd ? n : 0)) / 2      < 3n/2
//     3. s = h >= n ? h - n : h
//   The paper's version splits each K-bit row into l blocks for l + 2 cycles of latency;
//   here each row is one carry chain, so the latency is 3 for every K.
// Timing: data independent.
module lucas_add_shift #(
    parameter K  = 64,
    parameter TW = 2
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [K-1:0]  n,
    input  wire          in_valid,
    input  wire          in_pass,
    input  wire [K-1:0]  in_a,
    input  wire [K-1:0]  in_b,
    input  wire [TW-1:0] in_tag,
    output reg           out_valid,
    output reg  [K-1:0]  out_s,
    output reg  [TW-1:0] out_tag
);
  reg          v1, v2;
  reg [K:0]    t1;
  reg [K:0]    h2;
  reg [TW-1:0] g1, g2;

  wire [K+1:0] t_plus_n = {1'b0, t1} + {2'b00, n};
  /* verilator lint_off UNUSEDSIGNAL */
  wire [K+1:0] t_adj    = t1[0] ? t_plus_n : {1'b0, t1};   // even: bit 0 is dropped
  /* verilator lint_on UNUSEDSIGNAL */
  wire [K+1:0] h_minus  = {1'b0, h2} - {2'b00, n};

  always @(posedge clk) begin
    if (rst) begin
      v1 <= 1'b0;
      v2 <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      v1 <= in_valid;
      t1 <= in_pass ? {in_a, 1'b0} : {1'b0, in_a} + {1'b0, in_b};
      g1 <= in_tag;

      v2 <= v1;
      h2 <= t_adj[K+1:1];
      g2 <= g1;

      out_valid <= v2;
      out_s     <= h_minus[K+1] ? h2[K-1:0] : h_minus[K-1:0];
      out_tag   <= g2;
    end
  end
endmodule
