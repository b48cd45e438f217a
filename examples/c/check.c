/*
 * Checks libprimekit through its installed header and library: known answers, bad
 * arguments, audits and proofs. Usage: check WORKDIR
 *
 * WORKDIR holds files made by OpenSSL beforehand (ossl-rsa.pem, ossl-ffdhe2048.pem),
 * which the audits must pass, and receives this program's outputs for OpenSSL and the
 * CLI to check afterwards (.ci/capi.sh): primes.hex and safe.hex (one hex number a
 * line, for `openssl prime`), rsa-pkcs8.pem, rsa-pkcs1.pem, dh.pem, check-dh.json,
 * check-rsa.json.
 * Prints each failure and a closing line "N passed, M failed"; exits 1 on any failure.
 */
#include <primekit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EXPECTED_VERSION
#error "compile with -DEXPECTED_VERSION=\"$(pkg-config --modversion primekit)\""
#endif

static int passed, failed;
static const char *workdir;

#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (cond) {                                           \
            passed++;                                         \
        } else {                                              \
            failed++;                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                     \
            fprintf(stderr, " [last error: %s]\n", primekit_last_error()); \
        }                                                     \
    } while (0)

static char *path_in(const char *name) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", workdir, name);
    return buf;
}

static void write_file(const char *name, const void *data, size_t len) {
    FILE *f = fopen(path_in(name), "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path_in(name));
        exit(2);
    }
}

static uint8_t *read_file(const char *name, size_t *len) {
    FILE *f = fopen(path_in(name), "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path_in(name));
        exit(2);
    }
    uint8_t *data = malloc(1 << 20);
    *len = fread(data, 1, 1 << 20, f);
    fclose(f);
    return data;
}

/* is_prime on a decimal or hex string, and on its bytes with two leading zero bytes. */
static int prime_both_ways(const char *s) {
    int by_text = -1, by_bytes = -1;
    uint8_t *b = NULL;
    size_t len = 0;
    if (primekit_is_prime_str(s, &by_text) != PRIMEKIT_OK) return -1;
    if (primekit_parse_number(s, &b, &len) != PRIMEKIT_OK) return -1;
    uint8_t *padded = calloc(len + 2, 1);
    memcpy(padded + 2, b, len);
    int rc = primekit_is_prime(padded, len + 2, &by_bytes);
    free(padded);
    primekit_free(b);
    if (rc != PRIMEKIT_OK || by_text != by_bytes) return -1;
    return by_text;
}

static void known_answers(void) {
    static const struct {
        const char *n;
        int prime;
    } cases[] = {
        {"0", 0}, {"1", 0}, {"2", 1}, {"3", 1}, {"4", 0},
        {"561", 0},                                       /* Carmichael number */
        {"3215031751", 0},                                /* strong pseudoprime to bases 2, 3, 5, 7 */
        {"2147483647", 1},                                /* 2^31 - 1 */
        {"18446744073709551557", 1},                      /* largest prime below 2^64 */
        {"18446744073709551617", 0},                      /* 2^64 + 1 = 274177 * 67280421310721 */
        {"170141183460469231731687303715884105727", 1},   /* 2^127 - 1 */
        {"340282366920938463463374607431768211457", 0},   /* 2^128 + 1, the composite Fermat number F7 */
        {"0x1fffffffffffffff", 1},                        /* 2^61 - 1 */
        {"0X10000000000000001", 0},                       /* 2^64 + 1 in hex */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(prime_both_ways(cases[i].n) == cases[i].prime, "is_prime(%s) should be %d", cases[i].n, cases[i].prime);
    /* 2^521 - 1 is a Mersenne prime; 2^523 - 1 is not; 2^521 + 1 is divisible by 3. */
    char m521[140] = "0x1", m523[140] = "0x7", p521[140] = "0x2";
    for (int i = 0; i < 130; i++) {
        strcat(m521, "f");
        strcat(m523, "f");
        strcat(p521, i == 129 ? "1" : "0");
    }
    CHECK(prime_both_ways(m521) == 1, "2^521 - 1 is prime");
    CHECK(prime_both_ways(m523) == 0, "2^523 - 1 is composite");
    CHECK(prime_both_ways(p521) == 0, "2^521 + 1 is composite");
}

/* A walk from the decimal `from`; the answer as decimal text in `dec` (or "" on error). */
static int walk(int next, const char *from, char *dec, size_t cap) {
    uint8_t *n = NULL, *p = NULL;
    char *text = NULL;
    size_t n_len, p_len, text_len;
    dec[0] = 0;
    int rc = primekit_parse_number(from, &n, &n_len);
    if (rc == PRIMEKIT_OK) rc = next ? primekit_next_prime(n, n_len, &p, &p_len) : primekit_prev_prime(n, n_len, &p, &p_len);
    if (rc == PRIMEKIT_OK) rc = primekit_format_number(p, p_len, 10, &text, &text_len);
    if (rc == PRIMEKIT_OK) snprintf(dec, cap, "%s", text);
    primekit_free(n);
    primekit_free(p);
    primekit_free(text);
    return rc;
}

static void walks(void) {
    char dec[64];
    CHECK(walk(1, "1000000000000", dec, sizeof dec) == PRIMEKIT_OK && !strcmp(dec, "1000000000039"), "next_prime(10^12) = %s", dec);
    CHECK(walk(0, "1000000000000", dec, sizeof dec) == PRIMEKIT_OK && !strcmp(dec, "999999999989"), "prev_prime(10^12) = %s", dec);
    CHECK(walk(1, "0", dec, sizeof dec) == PRIMEKIT_OK && !strcmp(dec, "2"), "next_prime(0) = %s", dec);
    CHECK(walk(0, "3", dec, sizeof dec) == PRIMEKIT_OK && !strcmp(dec, "2"), "prev_prime(3) = %s", dec);
    CHECK(walk(1, "18446744073709551557", dec, sizeof dec) == PRIMEKIT_OK && !strcmp(dec, "18446744073709551629"), "next_prime(2^64 - 59) = %s", dec);
    CHECK(walk(0, "2", dec, sizeof dec) == PRIMEKIT_ERR_INVALID_ARGUMENT, "prev_prime(2) has no answer");
    char *hex = NULL;
    size_t hex_len;
    const uint8_t v[] = {0x00, 0x01, 0xab};
    CHECK(primekit_format_number(v, 3, 16, &hex, &hex_len) == PRIMEKIT_OK && !strcmp(hex, "0x1ab") && hex_len == 5, "format 0x1ab");
    primekit_free(hex);
}

/* Writes n numbers of `width` bytes as hex lines; with `half`, (p - 1) / 2 of each. */
static void write_hex(FILE *f, const uint8_t *p, size_t width, int half) {
    uint8_t carry = 0;
    for (size_t i = 0; i < width; i++) {
        uint8_t b = half ? (uint8_t)((p[i] >> 1) | carry) : p[i];
        carry = (uint8_t)(p[i] << 7);
        fprintf(f, "%02x", b);
    }
    fputc('\n', f);
}

static void generation(void) {
    uint8_t *ps = NULL;
    size_t len = 0;
    int rc = primekit_generate_primes(256, 0, 4, 2, &ps, &len);
    CHECK(rc == PRIMEKIT_OK && len == 4 * 32, "4 primes of 256 bits: rc %d, %zu bytes", rc, len);
    FILE *f = fopen(path_in("primes.hex"), "w");
    for (size_t i = 0; rc == PRIMEKIT_OK && i < 4; i++) {
        CHECK(ps[32 * i] >= 0xc0, "top two bits set");
        write_hex(f, ps + 32 * i, 32, 0);
    }
    fclose(f);
    primekit_free(ps);
    rc = primekit_generate_primes(192, 1, 2, 1, &ps, &len);
    CHECK(rc == PRIMEKIT_OK && len == 2 * 24, "2 safe primes of 192 bits: rc %d, %zu bytes", rc, len);
    f = fopen(path_in("safe.hex"), "w");
    for (size_t i = 0; rc == PRIMEKIT_OK && i < 2; i++) {
        write_hex(f, ps + 24 * i, 24, 0);
        write_hex(f, ps + 24 * i, 24, 1);
    }
    fclose(f);
    primekit_free(ps);

    char *pem = NULL;
    size_t pem_len = 0;
    int ok = -1;
    char *json = NULL;
    size_t json_len;
    rc = primekit_generate_rsa_key(2048, 0, PRIMEKIT_RSA_PKCS8, 2, &pem, &pem_len);
    CHECK(rc == PRIMEKIT_OK && strstr(pem, "-----BEGIN PRIVATE KEY-----") == pem && strlen(pem) == pem_len, "RSA PKCS#8 PEM");
    if (rc == PRIMEKIT_OK) {
        write_file("rsa-pkcs8.pem", pem, pem_len);
        rc = primekit_check_rsa((const uint8_t *)pem, pem_len, &ok, &json, &json_len);
        CHECK(rc == PRIMEKIT_OK && ok == 1 && strstr(json, "\"format\":\"pkcs8\""), "check_rsa passes our key: %s", json ? json : "");
        primekit_free(json);
    }
    primekit_free(pem);
    rc = primekit_generate_rsa_key(2048, 65539, PRIMEKIT_RSA_PKCS1, 1, &pem, &pem_len);
    CHECK(rc == PRIMEKIT_OK && strstr(pem, "-----BEGIN RSA PRIVATE KEY-----") == pem, "RSA PKCS#1 PEM with e = 65539");
    if (rc == PRIMEKIT_OK) write_file("rsa-pkcs1.pem", pem, pem_len);
    primekit_free(pem);

    rc = primekit_generate_dh_params(1024, 2, &pem, &pem_len);
    CHECK(rc == PRIMEKIT_OK && strstr(pem, "-----BEGIN DH PARAMETERS-----") == pem, "DH parameters PEM");
    if (rc == PRIMEKIT_OK) {
        write_file("dh.pem", pem, pem_len);
        rc = primekit_check_dh((const uint8_t *)pem, pem_len, &ok, &json, &json_len);
        /* 1024 bits warns (NIST SP 800-131A) but passes. */
        CHECK(rc == PRIMEKIT_OK && ok == 1 && strstr(json, "\"status\":\"warn\""), "check_dh passes our group with a warning: %s", json ? json : "");
        primekit_free(json);
    }
    primekit_free(pem);
}

static void audits(void) {
    size_t len, json_len;
    int ok = -1;
    char *json = NULL;
    uint8_t *rsa = read_file("ossl-rsa.pem", &len);
    int rc = primekit_check_rsa(rsa, len, &ok, &json, &json_len);
    CHECK(rc == PRIMEKIT_OK && ok == 1 && strstr(json, "\"command\":\"check-rsa\""), "OpenSSL's RSA key passes: %s", json ? json : "");
    if (rc == PRIMEKIT_OK) write_file("check-rsa.json", json, json_len);
    primekit_free(json);
    rc = primekit_check_dh(rsa, len, &ok, &json, &json_len);
    CHECK(rc == PRIMEKIT_ERR_BAD_INPUT && json == NULL && json_len == 0 && ok == 0, "an RSA key given to check_dh");
    CHECK(strncmp(primekit_last_error(), "wrong_label: ", 13) == 0, "error kind first: %s", primekit_last_error());
    free(rsa);

    uint8_t *dh = read_file("ossl-ffdhe2048.pem", &len);
    rc = primekit_check_dh(dh, len, &ok, &json, &json_len);
    CHECK(rc == PRIMEKIT_OK && ok == 1 && strstr(json, "\"p_safe_prime\""), "OpenSSL's ffdhe2048 passes: %s", json ? json : "");
    if (rc == PRIMEKIT_OK) write_file("check-dh.json", json, json_len);
    primekit_free(json);
    /* The same group with one base64 character changed in the middle of p. */
    char *mid = (char *)dh + len / 2;
    *mid = *mid == 'A' ? 'B' : 'A';
    rc = primekit_check_dh(dh, len, &ok, &json, &json_len);
    CHECK((rc == PRIMEKIT_OK && ok == 0 && strstr(json, "\"ok\":false")) || rc == PRIMEKIT_ERR_BAD_INPUT, "a damaged group fails: rc %d", rc);
    primekit_free(json);
    free(dh);
    rc = primekit_check_dh((const uint8_t *)"hello", 5, &ok, &json, &json_len);
    CHECK(rc == PRIMEKIT_ERR_BAD_INPUT && strncmp(primekit_last_error(), "not_pem: ", 9) == 0, "not PEM: %d", rc);
}

static void proofs(void) {
    uint8_t *n = NULL, *other = NULL, *f7 = NULL;
    size_t n_len, other_len, f7_len, cert_len;
    char *cert = NULL;
    primekit_parse_number("170141183460469231731687303715884105727", &n, &n_len);
    primekit_parse_number("170141183460469231731687303715884105757", &other, &other_len);
    primekit_parse_number("340282366920938463463374607431768211457", &f7, &f7_len);
    int rc = primekit_prove(n, n_len, 2, 60.0, &cert, &cert_len);
    CHECK(rc == PRIMEKIT_OK && cert_len > 0, "prove 2^127 - 1: %d", rc);
    if (rc == PRIMEKIT_OK) {
        write_file("m127.cert.json", cert, cert_len);
        CHECK(primekit_verify_certificate((const uint8_t *)cert, cert_len, n, n_len, 0) == PRIMEKIT_OK, "certificate of 2^127 - 1 verifies");
        CHECK(primekit_verify_certificate((const uint8_t *)cert, cert_len, NULL, 0, 0) == PRIMEKIT_OK, "and verifies for any n");
        CHECK(primekit_verify_certificate((const uint8_t *)cert, cert_len, other, other_len, 0) == PRIMEKIT_ERR_INVALID_CERTIFICATE, "not for another n");
        CHECK(primekit_verify_certificate((const uint8_t *)cert, cert_len, n, n_len, 1) == PRIMEKIT_ERR_INVALID_CERTIFICATE, "nor under a work limit of 1");
        /* Change the first digit of the first step's n. */
        char *step_n = strstr(cert, "\"n\":\"");
        CHECK(step_n != NULL, "a certificate with steps: %s", cert);
        if (step_n) {
            step_n[5] = step_n[5] == '1' ? '2' : '1';
            CHECK(primekit_verify_certificate((const uint8_t *)cert, cert_len, NULL, 0, 0) == PRIMEKIT_ERR_INVALID_CERTIFICATE, "a changed certificate fails");
        }
    }
    primekit_free(cert);
    /* The same number in Primo's format (an all-elliptic-curve chain). */
    rc = primekit_prove_as(n, n_len, 1, 60.0, PRIMEKIT_CERT_PRIMO, &cert, &cert_len);
    CHECK(rc == PRIMEKIT_OK && cert && strncmp(cert, "[PRIMO - Primality Certificate]\nFormat=4\n", 40) == 0, "prove_as Primo: %d", rc);
    primekit_free(cert);
    CHECK(primekit_prove_as(n, n_len, 1, 0.0, 7, &cert, &cert_len) == PRIMEKIT_ERR_INVALID_ARGUMENT && cert == NULL, "unknown certificate format");
    rc = primekit_prove(f7, f7_len, 1, 0.0, &cert, &cert_len);
    CHECK(rc == PRIMEKIT_ERR_COMPOSITE && cert == NULL, "prove F7 is refused as composite: %d", rc);
    primekit_free(n);
    primekit_free(other);
    primekit_free(f7);
}

static void bad_arguments(void) {
    const uint8_t one[1] = {7};
    int r = 5;
    uint8_t *out = (uint8_t *)one;
    size_t len = 99;
    char *text = (char *)one;
    CHECK(primekit_is_prime(NULL, 1, &r) == PRIMEKIT_ERR_NULL, "NULL number");
    CHECK(primekit_is_prime(one, 1, NULL) == PRIMEKIT_ERR_NULL, "NULL result");
    CHECK(primekit_is_prime(one, 0, &r) == PRIMEKIT_ERR_LENGTH, "zero length");
    /* 2^40 bytes on a 1-byte buffer: refused before any read (ASan would see one). */
    CHECK(primekit_is_prime(one, (size_t)1 << 40, &r) == PRIMEKIT_ERR_LENGTH, "2^40 length");
    CHECK(primekit_next_prime(one, (size_t)1 << 40, &out, &len) == PRIMEKIT_ERR_LENGTH && out == NULL && len == 0, "outputs cleared on error");
    CHECK(primekit_next_prime(one, 1, NULL, &len) == PRIMEKIT_ERR_NULL, "NULL output");
    CHECK(primekit_next_prime(one, 1, &out, NULL) == PRIMEKIT_ERR_NULL, "NULL output length");
    CHECK(primekit_is_prime_str("\xff\xfe", &r) == PRIMEKIT_ERR_ENCODING, "non-UTF-8 string");
    CHECK(primekit_is_prime_str(NULL, &r) == PRIMEKIT_ERR_NULL, "NULL string");
    const char *not_numbers[] = {"", "12a", "-7", "+7", " 7", "7 ", "0x", "1_000", "0xg", "\xc3\xa9"};
    for (size_t i = 0; i < sizeof not_numbers / sizeof not_numbers[0]; i++)
        CHECK(primekit_is_prime_str(not_numbers[i], &r) == PRIMEKIT_ERR_ENCODING, "not a number: \"%s\"", not_numbers[i]);
    uint8_t *huge = calloc(4097, 1);
    huge[0] = 1; /* 2^32768: one bit over the cap */
    CHECK(primekit_is_prime(huge, 4097, &r) == PRIMEKIT_ERR_TOO_LARGE, "32,769-bit number");
    free(huge);
    CHECK(primekit_generate_primes(1, 0, 1, 1, &out, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "1-bit prime");
    CHECK(primekit_generate_primes(9000, 0, 1, 1, &out, &len) == PRIMEKIT_ERR_TOO_LARGE, "9000-bit prime");
    CHECK(primekit_generate_primes(64, 0, 0, 1, &out, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "count 0");
    CHECK(primekit_generate_primes(64, 0, (size_t)1 << 40, 1, &out, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "count 2^40");
    CHECK(primekit_generate_primes(64, 0, 1, 0, &out, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "jobs 0");
    CHECK(primekit_generate_primes(64, 0, 1, 5000, &out, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "jobs 5000");
    CHECK(primekit_generate_rsa_key(1024, 0, PRIMEKIT_RSA_PKCS8, 1, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "1024-bit RSA");
    CHECK(primekit_generate_rsa_key(2048, 4, PRIMEKIT_RSA_PKCS8, 1, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "even e");
    CHECK(primekit_generate_rsa_key(2048, 0, 7, 1, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "unknown format");
    CHECK(primekit_generate_dh_params(32, 1, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "32-bit DH");
    CHECK(primekit_check_dh(NULL, 10, &r, &text, &len) == PRIMEKIT_ERR_NULL, "NULL PEM");
    CHECK(primekit_check_dh(one, 0, &r, &text, &len) == PRIMEKIT_ERR_LENGTH, "empty PEM");
    CHECK(primekit_check_rsa(one, (size_t)1 << 40, &r, &text, &len) == PRIMEKIT_ERR_LENGTH, "2^40-byte PEM");
    CHECK(primekit_check_rsa(one, 1, NULL, &text, &len) == PRIMEKIT_ERR_NULL, "NULL ok");
    CHECK(primekit_verify_certificate(NULL, 0, NULL, 0, 0) == PRIMEKIT_ERR_NULL, "NULL certificate");
    CHECK(primekit_verify_certificate(one, (size_t)1 << 40, NULL, 0, 0) == PRIMEKIT_ERR_LENGTH, "2^40-byte certificate");
    CHECK(primekit_verify_certificate((const uint8_t *)"{", 1, NULL, 0, 0) == PRIMEKIT_ERR_INVALID_CERTIFICATE, "truncated certificate");
    CHECK(primekit_verify_certificate((const uint8_t *)"{}", 2, NULL, 5, 0) == PRIMEKIT_ERR_NULL, "NULL n with a length");
    CHECK(primekit_prove(one, 1, 1, -1.0, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "negative time limit");
    CHECK(primekit_prove(one, 1, 0, 0.0, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "prove with jobs 0");
    CHECK(primekit_format_number(one, 1, 2, &text, &len) == PRIMEKIT_ERR_INVALID_ARGUMENT, "radix 2");
    CHECK(primekit_kernel(NULL) == PRIMEKIT_ERR_NULL, "NULL kernel name");
    CHECK(strlen(primekit_last_error()) > 0, "a failure leaves a message");
    CHECK(primekit_is_prime(one, 1, &r) == PRIMEKIT_OK && r == 1 && primekit_last_error()[0] == 0, "a success clears it");
    CHECK(!strcmp(primekit_strerror(12345), "unknown status code"), "unknown code");
    CHECK(strcmp(primekit_strerror(PRIMEKIT_ERR_LENGTH), "unknown status code") != 0, "known code");
    primekit_free(NULL);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s WORKDIR\n", argv[0]);
        return 2;
    }
    workdir = argv[1];
    const char *kernel = NULL;
    CHECK(!strcmp(primekit_version(), EXPECTED_VERSION), "version %s, pkg-config says %s", primekit_version(), EXPECTED_VERSION);
    CHECK(primekit_kernel(&kernel) == PRIMEKIT_OK && kernel, "kernel");
    const char *wanted = getenv("PRIMEKIT_KERNEL");
    if (kernel && wanted && *wanted) CHECK(!strcmp(kernel, wanted), "kernel %s, PRIMEKIT_KERNEL=%s", kernel, wanted);
    printf("primekit %s, kernel %s\n", primekit_version(), kernel ? kernel : "?");
    known_answers();
    walks();
    bad_arguments();
    generation();
    audits();
    proofs();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
