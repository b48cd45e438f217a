// Perfect-square test by the bit-serial integer square root (Crenshaw; Le Masle, Luk &
// Moritz 2011, §III): shifts, additions and subtractions only.
//
// Contract
//   start (one cycle) loads n (K even); done pulses K/2 + 1 cycles later with
//   square = (n is a perfect square). A start while busy restarts.
// Timing: K/2 + 1 cycles for every n.
module lucas_isqrt #(
    parameter K = 64
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [K-1:0] n,
    output reg          done,
    output reg          square
);
  reg [K-1:0] rem, root, bit_r;
  reg         busy;

  wire [K-1:0] trial = root + bit_r;
  wire [K:0]   diff  = {1'b0, rem} - {1'b0, trial};

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
    end else if (start) begin
      rem   <= n;
      root  <= {K{1'b0}};
      bit_r <= {2'b01, {(K-2){1'b0}}};
      busy  <= 1'b1;
      done  <= 1'b0;
    end else begin
      done <= 1'b0;
      if (busy) begin
        if (bit_r == {K{1'b0}}) begin
          busy   <= 1'b0;
          done   <= 1'b1;
          square <= (rem == {K{1'b0}});
        end else begin
          if (!diff[K]) begin
            rem  <= diff[K-1:0];
            root <= (root >> 1) + bit_r;
          end else begin
            root <= root >> 1;
          end
          bit_r <= bit_r >> 2;
        end
      end
    end
  end
endmodule
