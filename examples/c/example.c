#include <primekit.h>
#include <stdio.h>
int main(void) {
    int prime;
    int rc = primekit_is_prime_str("170141183460469231731687303715884105727", &prime);
    if (rc != PRIMEKIT_OK) { fprintf(stderr, "%s: %s\n", primekit_strerror(rc), primekit_last_error()); return 1; }
    char *pem; size_t len;                       /* results are allocated by the library */
    if (primekit_generate_dh_params(2048, 2, &pem, &len) != PRIMEKIT_OK) return 1;
    printf("%s\n%s", prime ? "prime" : "composite", pem);
    primekit_free(pem);
}
