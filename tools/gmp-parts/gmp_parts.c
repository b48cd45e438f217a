/* The parts of GMP's large-modulus exponentiation, timed one by one, to set against
 * primekit's `reduction_crossover` figures (cargo test --release -p primekit --lib
 * reduction_crossover -- --ignored --nocapture) on the same machine.
 *
 *   cc -O2 gmp_parts.c -lgmp -o gmp_parts && ./gmp_parts
 *
 * mpn_mul_n and mpn_sqr are public; mullo_n, mulmod_bnm1 and redc_n are GMP internals
 * that its shared library exports (declared here by hand; GMP 6.2 signatures). Each
 * figure is the fastest of nine batches, in nanoseconds per call; redc_n's includes
 * refilling its input, which it destroys (the `copy` column is that refill alone). */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void __gmpn_mullo_n(mp_ptr, mp_srcptr, mp_srcptr, mp_size_t);
void __gmpn_mulmod_bnm1(mp_ptr, mp_size_t, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t, mp_ptr);
void __gmpn_redc_n(mp_ptr, mp_ptr, mp_srcptr, mp_size_t, mp_srcptr);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#define TIME(name, expr)                                                  \
    do {                                                                  \
        double best = 1e30;                                               \
        for (int k = 0; k < 9; k++) {                                     \
            double t0 = now();                                            \
            for (long i = 0; i < reps; i++) { expr; }                     \
            double d = (now() - t0) / reps;                               \
            if (d < best) best = d;                                       \
        }                                                                 \
        printf(" %s %.0f", name, best);                                   \
    } while (0)

int main(void) {
    printf("GMP %s\n", gmp_version);
    int sizes[] = {32, 64, 128, 256};
    for (int j = 0; j < 4; j++) {
        int n = sizes[j];
        long reps = 50000000L / (n * n) + 10;
        mp_limb_t *a = malloc(8 * n), *b = malloc(8 * n), *m = malloc(8 * n), *ip = malloc(8 * n);
        mp_limb_t *w = malloc(16 * n), *t = malloc(16 * n), *o = malloc(8 * n), *tp = malloc(8 * 20 * n);
        for (int i = 0; i < n; i++) {
            a[i] = (mp_limb_t)i * 0x9e3779b97f4a7c15ULL | 1;
            b[i] = (mp_limb_t)i * 0x6a09e667f3bcc909ULL + 7;
            m[i] = ~0ULL;
            ip[i] = a[i] * 3;
        }
        m[0] = ~0ULL - 24690;
        printf("n=%d:", n);
        TIME("mul_n", mpn_mul_n(w, a, b, n));
        TIME("sqr", mpn_sqr(w, a, n));
        TIME("mullo_n", __gmpn_mullo_n(w, a, b, n));
        TIME("mulmod_bnm1", __gmpn_mulmod_bnm1(w, n, a, n, b, n, tp));
        TIME("redc_n", {
            for (int i = 0; i < 2 * n; i++) t[i] = a[i % n] ^ i;
            __gmpn_redc_n(o, t, m, n, ip);
        });
        TIME("copy", {
            for (int i = 0; i < 2 * n; i++) t[i] = a[i % n] ^ i;
        });
        printf("\n");
        free(a); free(b); free(m); free(ip); free(w); free(t); free(o); free(tp);
    }
    return 0;
}
