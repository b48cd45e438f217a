// Binary Jacobi symbol (a / b) for a signed a (Le Masle, Luk & Moritz 2011, Alg. 3, after
// Shallit & Sorenson 1993): shifts, one comparison and one subtraction, no division.
//
// Contract
//   start (one cycle) loads a = (a_neg ? -a_mag : a_mag) and b (odd, b >= 1); a start while
//   busy abandons the running symbol. done pulses once with res = 2'b01 (+1), 2'b11 (-1) or
//   2'b00 (0). One loop step per cycle: SHIFT (a even), SWAP (a < b), or NEWA
//   (a = (a - b) / 2); at most about 2 log2(b) + 2 log2(|a|) + 2 cycles.
// Timing: depends on a and b (public in a primality test).
module lucas_jacobi #(
    parameter K  = 64,
    parameter DW = 16
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,
    input  wire [DW-1:0] a_mag,
    input  wire          a_neg,
    input  wire [K-1:0]  b_in,
    output reg           done,
    output reg  [1:0]    res
);
  reg [K-1:0] a, b;
  reg         t_neg;   // t = -1 when set
  reg         busy;

  wire        b_flip8 = (b[2:0] == 3'd3) || (b[2:0] == 3'd5);
  wire [K:0]  a_minus_b = {1'b0, a} - {1'b0, b};
  wire        a_lt_b = a_minus_b[K];

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
    end else if (start) begin
      a     <= {{(K-DW){1'b0}}, a_mag};
      b     <= b_in;
      t_neg <= a_neg && (b_in[1:0] == 2'd3);
      busy  <= 1'b1;
      done  <= 1'b0;
    end else begin
      done <= 1'b0;
      if (busy) begin
        if (a == {K{1'b0}}) begin
          busy <= 1'b0;
          done <= 1'b1;
          res  <= (b == {{(K-1){1'b0}}, 1'b1}) ? (t_neg ? 2'b11 : 2'b01) : 2'b00;
        end else if (!a[0]) begin                           // SHIFT
          a <= a >> 1;
          if (b_flip8) t_neg <= ~t_neg;
        end else if (a_lt_b) begin                          // SWAP
          a <= b;
          b <= a;
          if (a[1:0] == 2'd3 && b[1:0] == 2'd3) t_neg <= ~t_neg;
        end else begin                                      // NEWA
          a <= a_minus_b[K:1];
          if (b_flip8) t_neg <= ~t_neg;
        end
      end
    end
  end
endmodule
