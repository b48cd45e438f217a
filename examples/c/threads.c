/*
 * Many threads calling libprimekit at once: each mixes primality tests, prime walks,
 * generation, an audit of one shared PEM buffer and deliberate errors, and checks every
 * answer, including that the error message it reads is its own thread's.
 * Prints "N passed, M failed"; exits 1 on any failure.
 */
#include <primekit.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 16, ROUNDS = 25 };

static atomic_int passed, failed;
static char *shared_pem, *expected_json;
static size_t shared_len;
static int expected_ok;

#define CHECK(cond, what)                                                         \
    do {                                                                          \
        if (cond) {                                                               \
            atomic_fetch_add(&passed, 1);                                         \
        } else {                                                                  \
            atomic_fetch_add(&failed, 1);                                         \
            fprintf(stderr, "FAIL thread %ld: %s [%s]\n", id, what, primekit_last_error()); \
        }                                                                         \
    } while (0)

static void *worker(void *arg) {
    long id = (long)arg;
    const uint8_t m61[8] = {0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}; /* 2^61 - 1 */
    const uint8_t carmichael[2] = {0x02, 0x31};                              /* 561 */
    for (int round = 0; round < ROUNDS; round++) {
        int r = -1;
        CHECK(primekit_is_prime(m61, sizeof m61, &r) == PRIMEKIT_OK && r == 1, "2^61 - 1 is prime");
        CHECK(primekit_is_prime(carmichael, sizeof carmichael, &r) == PRIMEKIT_OK && r == 0, "561 is composite");

        uint8_t *p = NULL;
        size_t len = 0;
        CHECK(primekit_next_prime(m61, sizeof m61, &p, &len) == PRIMEKIT_OK && len == 8 && p[0] == 0x20, "next_prime(2^61 - 1)");
        primekit_free(p);

        /* A failure whose message names this thread's argument, then a success. */
        int rc = id % 2 ? primekit_is_prime(NULL, 1, &r) : primekit_is_prime(m61, 0, &r);
        CHECK(rc == (id % 2 ? PRIMEKIT_ERR_NULL : PRIMEKIT_ERR_LENGTH), "error code");
        CHECK(strstr(primekit_last_error(), id % 2 ? "NULL" : "empty") != NULL, "own error message");
        CHECK(primekit_is_prime_str("0x1fffffffffffffff", &r) == PRIMEKIT_OK && primekit_last_error()[0] == 0, "message cleared");

        CHECK(primekit_generate_primes(128, 0, 2, 1, &p, &len) == PRIMEKIT_OK && len == 32 && p[0] >= 0xc0 && p[16] >= 0xc0, "two 128-bit primes");
        if (p) CHECK(primekit_is_prime(p + 16, 16, &r) == PRIMEKIT_OK && r == 1, "the second is prime");
        primekit_free(p);

        if (round % 5 == 0) {
            int ok = -1;
            char *json = NULL;
            CHECK(primekit_check_dh((const uint8_t *)shared_pem, shared_len, &ok, &json, &len) == PRIMEKIT_OK && ok == expected_ok && !strcmp(json, expected_json),
                  "the shared group's report is the same in every thread");
            primekit_free(json);
        }
    }
    return NULL;
}

int main(void) {
    long id = -1;
    int ok = -1;
    size_t len;
    CHECK(primekit_generate_dh_params(512, 1, &shared_pem, &shared_len) == PRIMEKIT_OK, "DH parameters");
    CHECK(primekit_check_dh((const uint8_t *)shared_pem, shared_len, &ok, &expected_json, &len) == PRIMEKIT_OK, "first report");
    expected_ok = ok;
    if (atomic_load(&failed)) return 1;
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++)
        if (pthread_create(&threads[i], NULL, worker, (void *)i) != 0) {
            perror("pthread_create");
            return 2;
        }
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    primekit_free(shared_pem);
    primekit_free(expected_json);
    printf("%d passed, %d failed\n", atomic_load(&passed), atomic_load(&failed));
    return atomic_load(&failed) ? 1 : 0;
}
