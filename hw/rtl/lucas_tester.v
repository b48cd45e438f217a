// NIST FIPS 186-4 C.3.3 Lucas probable-prime tester (Le Masle, Luk & Moritz 2011, Alg. 2),
// the top of the design: perfect-square test, Selfridge's D by the binary Jacobi unit, the
// Montgomery constants, and the U/V ladder of Alg. 4 on one Montgomery multiplier and one
// modular add-shift unit, scheduled as in the paper (§III-C, Fig. 3-4).
//
// Interface
//   Load n while idle or done: ld_valid with ld_word, 32 bits a cycle, least significant
//   word first. Words past the K/32nd are not stored; a non-zero one marks n too wide.
//   start (one cycle) runs the test on the loaded words and clears the word count.
//   busy is high while testing; done stays high until the next start, with
//     prime = 1  n passed (U_{n+1} = 0: probably prime),
//     prime = 0  n failed (a square, (D/n) = 0 with |D| < n, or U_{n+1} != 0),
//     error = 1  no test: n even, n < 3, n wider than K bits, or |D| outgrew DW bits.
//   dbg_iter pulses when one ladder step has updated both U and V; dbg_u, dbg_v are those
//   registers (Montgomery form, R = 2^L of lucas_mont_mul).
//
// Differences from Alg. 2 (each one keeps the verdict of NIST's algorithm for n > |D|):
//   - the square test and the D search run in parallel (as the paper's §III-D does);
//   - (D/n) = 0 with n <= |D| (only for tiny n, where n may divide D) skips to the next D
//     instead of calling n composite;
//   - lines 13-14 and the k_i = 0 branch take the same path through the add-shift unit.
//
// Schedule
//   Multiplier issue order per bit: 3 (U^2), 1 (UV), 2 (V^2), 4 (D U^2), 6 (D U_temp);
//   add-shift order: 5, 7, 8. An instruction issues when its operands are valid and its unit
//   accepts; a register's valid bit is cleared when its last reader issues (readers copy
//   their operands), and set when its writer completes, so the next bit's instruction 3
//   starts as soon as instruction 7 has written U.
// Timing: depends on n only (the bit length of n + 1 and the D search), never on U or V.
module lucas_tester #(
    parameter K  = 64,
    parameter NP = 1,
    parameter NR = 1,
    parameter DW = 16
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         ld_valid,
    input  wire [31:0]  ld_word,
    input  wire         start,
    output wire         busy,
    output reg          done,
    output reg          prime,
    output reg          error,
    output reg          dbg_iter,
    output wire [K-1:0] dbg_u,
    output wire [K-1:0] dbg_v
);
  localparam integer WORDS = K / 32;
  localparam integer S     = (K + NP * NR - 1) / (NP * NR);
  localparam integer L     = S * NP * NR;
  localparam integer CW    = $clog2(2 * L + 1);
  localparam integer IW    = $clog2(K + 1);
  /* verilator lint_off WIDTH */
  localparam [CW-1:0] L_C     = L;
  localparam [CW-1:0] TWO_L_C = 2 * L;
  localparam [IW-1:0] WORDS_C = WORDS;
  /* verilator lint_on WIDTH */

  localparam [2:0] ST_IDLE = 3'd0, ST_SETUP = 3'd1, ST_DMUL = 3'd2, ST_DWAIT = 3'd3,
                   ST_LOOP = 3'd4, ST_DONE = 3'd5;
  localparam [2:0] T_U2 = 3'd0, T_UT = 3'd1, T_V2 = 3'd2, T_DU2 = 3'd3, T_DUT = 3'd4,
                   T_DM = 3'd5;
  localparam [1:0] A_VT = 2'd0, A_U = 2'd1, A_V = 2'd2;

  reg [2:0] state;
  assign busy = (state != ST_IDLE) && (state != ST_DONE);

  // ---- loading n ---------------------------------------------------------------------
  reg [K-1:0]  nreg;
  reg [IW-1:0] ld_count;
  reg          too_wide;

  // ---- set-up -------------------------------------------------------------------------
  reg           sq_start, jac_start;
  wire          sq_done, sq_square, jac_done;
  wire [1:0]    jac_res;
  reg           sq_seen, sq_is_square;
  reg           fresh;         // first set-up cycle: a done pulse then is the previous test's
  reg [DW-1:0]  dmag;
  reg           dneg;
  reg           d_found, d_zero, d_over;
  reg [K-1:0]   x;             // 2^i mod n by doubling
  reg [CW-1:0]  dbl_count;
  reg [K-1:0]   r_mod, r2_mod;  // R mod n, R^2 mod n
  reg [K:0]     kreg;           // n + 1, normalised so that bit K is its leading 1
  reg [IW-1:0]  iters;          // ladder steps: bit length of n + 1, minus 1
  reg           k_ready;
  wire [K:0]    x2       = {x, 1'b0};
  wire [K+1:0]  x2_minus = {1'b0, x2} - {2'b00, nreg};
  wire          n_gt_d   = (|nreg[K-1:DW]) || (nreg[DW-1:0] > dmag);
  wire          dbl_done = (dbl_count == TWO_L_C);

  // ---- ladder -------------------------------------------------------------------------
  reg [K-1:0] u, v, ut, v2, u2, du2, vt, dut, dm;
  reg         vld_u, vld_v, vld_ut, vld_v2, vld_u2, vld_du2, vld_vt, vld_dut;
  reg [2:0]   mpos;
  reg [1:0]   apos;
  reg [IW-1:0] m_left, a_left;
  assign dbg_u = u;
  assign dbg_v = v;

  // Multiplier port.
  reg          m_valid;
  reg [K-1:0]  m_a, m_b;
  reg [2:0]    m_tag;
  wire         m_ready, m_out_valid;
  wire [K-1:0] m_out;
  wire [2:0]   m_out_tag;
  always @* begin
    m_valid = 1'b0;
    m_a = u;
    m_b = u;
    m_tag = T_U2;
    if (state == ST_DMUL) begin
      m_valid = 1'b1;
      m_a = {{(K-DW){1'b0}}, dmag};
      m_b = r2_mod;
      m_tag = T_DM;
    end else if (state == ST_LOOP && m_left != {IW{1'b0}}) begin
      case (mpos)
        3'd0: begin m_valid = vld_u;           m_a = u;  m_b = u;  m_tag = T_U2;  end
        3'd1: begin m_valid = vld_u && vld_v;  m_a = u;  m_b = v;  m_tag = T_UT;  end
        3'd2: begin m_valid = vld_v;           m_a = v;  m_b = v;  m_tag = T_V2;  end
        3'd3: begin m_valid = vld_u2;          m_a = u2; m_b = dm; m_tag = T_DU2; end
        default: begin m_valid = vld_ut;       m_a = ut; m_b = dm; m_tag = T_DUT; end
      endcase
    end
  end
  wire m_issue = m_valid && m_ready;

  // Add-shift port.
  reg          s_valid, s_pass;
  reg [K-1:0]  s_a, s_b;
  reg [1:0]    s_tag;
  wire         s_out_valid;
  wire [K-1:0] s_out;
  wire [1:0]   s_out_tag;
  wire         k_bit = kreg[K-1];
  always @* begin
    s_valid = 1'b0;
    s_pass = 1'b0;
    s_a = v2;
    s_b = du2;
    s_tag = A_VT;
    if (state == ST_LOOP && a_left != {IW{1'b0}}) begin
      case (apos)
        2'd0: begin s_valid = vld_v2 && vld_du2; s_a = v2; s_b = du2; s_tag = A_VT; end
        2'd1: begin s_valid = vld_ut && vld_vt;  s_a = ut; s_b = vt;  s_tag = A_U; s_pass = !k_bit; end
        default: begin s_valid = vld_vt && vld_dut; s_a = vt; s_b = dut; s_tag = A_V; s_pass = !k_bit; end
      endcase
    end
  end

  lucas_mont_mul #(.K(K), .NP(NP), .NR(NR), .TW(3)) mul (
      .clk(clk), .rst(rst), .n(nreg),
      .in_valid(m_valid), .in_a(m_a), .in_b(m_b), .in_tag(m_tag), .in_ready(m_ready),
      .out_valid(m_out_valid), .out_p(m_out), .out_tag(m_out_tag));

  lucas_add_shift #(.K(K), .TW(2)) addsh (
      .clk(clk), .rst(rst), .n(nreg),
      .in_valid(s_valid), .in_pass(s_pass), .in_a(s_a), .in_b(s_b), .in_tag(s_tag),
      .out_valid(s_out_valid), .out_s(s_out), .out_tag(s_out_tag));

  lucas_isqrt #(.K(K)) sq (
      .clk(clk), .rst(rst), .start(sq_start), .n(nreg), .done(sq_done), .square(sq_square));

  lucas_jacobi #(.K(K), .DW(DW)) jac (
      .clk(clk), .rst(rst), .start(jac_start), .a_mag(dmag), .a_neg(dneg), .b_in(nreg),
      .done(jac_done), .res(jac_res));

  wire n_ok = nreg[0] && (|nreg[K-1:1]) && !too_wide;

  always @(posedge clk) begin
    if (rst) begin
      state <= ST_IDLE;
      done <= 1'b0;
      prime <= 1'b0;
      error <= 1'b0;
      dbg_iter <= 1'b0;
      ld_count <= {IW{1'b0}};
      too_wide <= 1'b0;
      sq_start <= 1'b0;
      jac_start <= 1'b0;
    end else begin
      sq_start <= 1'b0;
      jac_start <= 1'b0;
      dbg_iter <= 1'b0;

      if (ld_valid && !busy) begin
        if (ld_count < WORDS_C) begin
          nreg <= {ld_word, nreg[K-1:32]};
          ld_count <= ld_count + 1'b1;
        end else if (ld_word != 32'd0) begin
          too_wide <= 1'b1;
        end
      end

      case (state)
        ST_IDLE, ST_DONE: if (start) begin
          done <= 1'b0;
          prime <= 1'b0;
          error <= 1'b0;
          ld_count <= {IW{1'b0}};
          too_wide <= 1'b0;
          if (!n_ok || ld_count < WORDS_C) begin
            state <= ST_DONE;
            done <= 1'b1;
            error <= 1'b1;
          end else begin
            state <= ST_SETUP;
            sq_start <= 1'b1;
            jac_start <= 1'b1;
            dmag <= 5;
            dneg <= 1'b0;
            {d_found, d_zero, d_over, sq_seen, sq_is_square} <= 5'b0;
            fresh <= 1'b1;
            x <= {{(K-1){1'b0}}, 1'b1};
            dbl_count <= {CW{1'b0}};
            kreg <= {1'b0, nreg} + 1'b1;
            iters <= K[IW-1:0];
            k_ready <= 1'b0;
          end
        end

        ST_SETUP: begin
          fresh <= 1'b0;
          // Perfect-square test.
          if (sq_done && !fresh) begin
            sq_seen <= 1'b1;
            sq_is_square <= sq_square;
          end
          // D search: 5, -7, 9, -11, ...
          if (jac_done && !fresh && !d_found && !d_zero && !d_over) begin
            if (jac_res == 2'b11) begin
              d_found <= 1'b1;
            end else if (jac_res == 2'b00 && n_gt_d) begin
              d_zero <= 1'b1;
            end else if (dmag >= {DW{1'b1}} - 2) begin
              d_over <= 1'b1;
            end else begin
              dmag <= dmag + {{(DW-2){1'b0}}, 2'd2};
              dneg <= !dneg;
              jac_start <= 1'b1;
            end
          end
          // 2^i mod n for i = 1 .. 2L: R mod n at L, R^2 mod n at 2L.
          if (!dbl_done) begin
            x <= x2_minus[K+1] ? x2[K-1:0] : x2_minus[K-1:0];
            dbl_count <= dbl_count + 1'b1;
          end
          if (dbl_count == L_C) r_mod <= x;
          if (dbl_done) r2_mod <= x;
          // Normalise k = n + 1.
          if (!kreg[K]) begin
            kreg <= kreg << 1;
            iters <= iters - 1'b1;
          end else begin
            k_ready <= 1'b1;
          end

          if ((sq_seen && sq_is_square) || d_zero) begin
            state <= ST_DONE;
            done <= 1'b1;
          end else if (d_over) begin
            state <= ST_DONE;
            done <= 1'b1;
            error <= 1'b1;
          end else if (sq_seen && d_found && dbl_done && k_ready) begin
            state <= ST_DMUL;
          end
        end

        ST_DMUL: if (m_issue) state <= ST_DWAIT;  // |D| R^2 R^-1 = |D| R

        ST_DWAIT: if (m_out_valid && m_out_tag == T_DM) begin
          dm <= (!dneg || m_out == {K{1'b0}}) ? m_out : nreg - m_out;
          u <= r_mod;   // U_1 = 1
          v <= r_mod;   // V_1 = P = 1
          {vld_u, vld_v} <= 2'b11;
          {vld_ut, vld_v2, vld_u2, vld_du2, vld_vt, vld_dut} <= 6'b0;
          mpos <= 3'd0;
          apos <= 2'd0;
          m_left <= iters;
          a_left <= iters;
          state <= ST_LOOP;
        end

        ST_LOOP: begin
          // Issue: clear the valid bit of each register whose last reader issues.
          if (m_issue) begin
            case (mpos)
              3'd0: mpos <= 3'd1;
              3'd1: begin mpos <= 3'd2; vld_u <= 1'b0; end
              3'd2: begin mpos <= 3'd3; vld_v <= 1'b0; end
              3'd3: begin mpos <= 3'd4; vld_u2 <= 1'b0; end
              default: begin mpos <= 3'd0; m_left <= m_left - 1'b1; end
            endcase
          end
          if (s_valid) begin
            case (apos)
              2'd0: begin apos <= 2'd1; vld_v2 <= 1'b0; vld_du2 <= 1'b0; end
              2'd1: begin apos <= 2'd2; vld_ut <= 1'b0; end
              default: begin
                apos <= 2'd0;
                vld_vt <= 1'b0;
                vld_dut <= 1'b0;
                kreg <= kreg << 1;
                a_left <= a_left - 1'b1;
              end
            endcase
          end
          // Completion: write and set valid (after the clears, so a set wins).
          if (m_out_valid) begin
            case (m_out_tag)
              T_U2:  begin u2 <= m_out;  vld_u2 <= 1'b1;  end
              T_UT:  begin ut <= m_out;  vld_ut <= 1'b1;  end
              T_V2:  begin v2 <= m_out;  vld_v2 <= 1'b1;  end
              T_DU2: begin du2 <= m_out; vld_du2 <= 1'b1; end
              default: begin dut <= m_out; vld_dut <= 1'b1; end
            endcase
          end
          if (s_out_valid) begin
            case (s_out_tag)
              A_VT: begin vt <= s_out; vld_vt <= 1'b1; end
              A_U:  begin u <= s_out;  vld_u <= 1'b1;  end
              default: begin v <= s_out; vld_v <= 1'b1; dbg_iter <= 1'b1; end
            endcase
          end
          if (a_left == {IW{1'b0}} && vld_u && vld_v) begin
            state <= ST_DONE;
            done <= 1'b1;
            prime <= (u == {K{1'b0}});
          end
        end

        default: state <= ST_IDLE;
      endcase
    end
  end
endmodule
