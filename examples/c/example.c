/* The README's example: is 2^127 - 1 prime, and the next prime after it. */
#include <primekit.h>
#include <stdio.h>

int main(void) {
    int prime;
    if (primekit_is_prime_str("170141183460469231731687303715884105727", &prime) != PRIMEKIT_OK) return 1;
    uint8_t *next; size_t len; char *text; size_t text_len;
    const uint8_t m127[16] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    int rc = primekit_next_prime(m127, sizeof m127, &next, &len);
    if (rc != PRIMEKIT_OK) { fprintf(stderr, "%s: %s\n", primekit_strerror(rc), primekit_last_error()); return 1; }
    if (primekit_format_number(next, len, 10, &text, &text_len) != PRIMEKIT_OK) return 1;
    printf("2^127 - 1 is %s; the next prime is %s\n", prime ? "prime" : "composite", text);
    primekit_free(next);
    primekit_free(text);
    return 0;
}
