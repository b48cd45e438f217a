// primekit.h compiled as C++: the declarations have C linkage and valid C++ syntax.
#include <primekit.h>
#include <cstdio>
#include <cstring>

int main() {
    const char *kernel = nullptr;
    int rc = primekit_kernel(&kernel);
    if (rc != PRIMEKIT_OK) {
        std::fprintf(stderr, "%s: %s\n", primekit_strerror(rc), primekit_last_error());
        return rc == PRIMEKIT_ERR_KERNEL ? 1 : 2;
    }
    std::printf("primekit %s, kernel %s (from C++)\n", primekit_version(), kernel);
    return std::strlen(primekit_version()) > 0 ? 0 : 1;
}
