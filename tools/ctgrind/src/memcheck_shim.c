/* valgrind memcheck client requests as functions Rust can call. Outside valgrind each
 * request is a few no-op instructions. */
#include <stddef.h>
#include <valgrind/memcheck.h>

void ctgrind_secret(const void *p, size_t len) { VALGRIND_MAKE_MEM_UNDEFINED(p, len); }
void ctgrind_public(const void *p, size_t len) { VALGRIND_MAKE_MEM_DEFINED(p, len); }
void ctgrind_errors_off(void) { VALGRIND_DISABLE_ERROR_REPORTING; }
void ctgrind_errors_on(void) { VALGRIND_ENABLE_ERROR_REPORTING; }
unsigned ctgrind_error_count(void) { return VALGRIND_COUNT_ERRORS; }
unsigned ctgrind_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
