/* Throughput ceilings of the instruction mixes the scalar and AVX2 kernels are made of,
 * in core cycles per step, on the CPU this runs on. The core clock is estimated first from
 * a chain of dependent 64-bit `imul` (latency 3 cycles on every x86-64 core since
 * Sandy Bridge / Zen), so no frequency is assumed.
 *
 *   gcc -O2 -mavx2 tools/port-limits/port_limits.c -o /tmp/port_limits && /tmp/port_limits
 *
 * Steps (each loop is independent of the previous iteration, so throughput, not latency,
 * is measured):
 *   mulx                 - a 64x64->128 product alone;
 *   adox+adcx            - the two carry-chain additions a schoolbook row needs per product;
 *   mulx+adox+adcx       - one limb product of a Montgomery row (`arith/mont/adx.rs`);
 *   vpmuludq             - four 32x32->64 products (one AVX2 instruction);
 *   vpmuludq+vpaddq      - one digit product of the AVX2 lanes (`arith/lanes/avx2_columns.rs`). */
#include <stdio.h>
#include <stdint.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define ITERS 100000000L

static double ghz(void) {
    long x = 3;
    double s = now();
    __asm__ volatile("mov %1, %%rcx\n1:\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n dec %%rcx\n jnz 1b\n"
                     : "+r"(x) : "r"(ITERS) : "rcx", "cc");
    return 3.0 * 4 * ITERS / (now() - s) / 1e9;
}

/* Time ITERS trips of one loop (asm operands after the template), `steps` steps per trip;
 * keep the fewest cycles per step in best[slot]. */
#define TIMED(slot, steps, ...)                                                   \
    do {                                                                          \
        double s0 = now();                                                        \
        __asm__ volatile(__VA_ARGS__);                                            \
        double c = (now() - s0) * f * 1e9 / (ITERS * (double)(steps));            \
        if (c < best[slot]) best[slot] = c;                                       \
    } while (0)

int main(void) {
    uint64_t m[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double f = ghz(), best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
    for (int rep = 0; rep < 3; rep++) {
        TIMED(0, 8,
              "mov %0, %%rcx\n mov $12345, %%rdx\n1:\n"
              ".irp k, 0, 8, 16, 24, 32, 40, 48, 56\n mulx \\k(%1), %%rax, %%rbx\n .endr\n"
              "dec %%rcx\n jnz 1b\n" ::"r"(ITERS), "r"(m) : "rax", "rbx", "rcx", "rdx", "cc");
        TIMED(1, 8,
              "mov %0, %%rcx\n xor %%r8d, %%r8d\n xor %%r9d, %%r9d\n1:\n xor %%eax, %%eax\n"
              ".rept 8\n adox %%rax, %%r8\n adcx %%rbx, %%r9\n .endr\n"
              "dec %%rcx\n jnz 1b\n" ::"r"(ITERS) : "rax", "rbx", "rcx", "r8", "r9", "cc");
        /* A row of eight limb products accumulating into four rotating registers. */
        TIMED(2, 8,
              "mov %0, %%rcx\n xor %%r8d, %%r8d\n xor %%r9d, %%r9d\n xor %%r10d, %%r10d\n xor %%r11d, %%r11d\n mov $12345, %%rdx\n1:\n"
              "xor %%eax, %%eax\n"
              ".irp k, 0, 32\n"
              "mulx \\k(%1), %%rax, %%rbx\n adox %%rax, %%r8\n adcx %%rbx, %%r9\n"
              "mulx \\k+8(%1), %%rax, %%rbx\n adox %%rax, %%r9\n adcx %%rbx, %%r10\n"
              "mulx \\k+16(%1), %%rax, %%rbx\n adox %%rax, %%r10\n adcx %%rbx, %%r11\n"
              "mulx \\k+24(%1), %%rax, %%rbx\n adox %%rax, %%r11\n adcx %%rbx, %%r8\n"
              ".endr\n"
              "dec %%rcx\n jnz 1b\n" ::"r"(ITERS), "r"(m) : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "cc");
        TIMED(3, 8,
              "vpxor %%ymm0, %%ymm0, %%ymm0\n vpxor %%ymm1, %%ymm1, %%ymm1\n mov %0, %%rcx\n1:\n"
              ".irp r, 2, 3, 4, 5, 6, 7, 8, 9\n vpmuludq %%ymm0, %%ymm1, %%ymm\\r\n .endr\n"
              "dec %%rcx\n jnz 1b\n" ::"r"(ITERS) : "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "cc");
        TIMED(4, 4,
              "vpxor %%ymm0, %%ymm0, %%ymm0\n vpxor %%ymm1, %%ymm1, %%ymm1\n mov %0, %%rcx\n1:\n"
              ".irp r, 2, 3, 4, 5\n vpmuludq %%ymm0, %%ymm1, %%ymm\\r\n vpaddq %%ymm\\r, %%ymm1\\r, %%ymm1\\r\n .endr\n"
              "dec %%rcx\n jnz 1b\n" ::"r"(ITERS) : "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm12", "xmm13", "xmm14", "xmm15", "cc");
    }
    printf("{\"clock_ghz\": %.2f, \"mulx\": %.2f, \"adox_adcx\": %.2f, \"mulx_adox_adcx\": %.2f, \"vpmuludq\": %.2f, \"vpmuludq_vpaddq\": %.2f}\n",
           f, best[0], best[1], best[2], best[3], best[4]);
    return 0;
}
