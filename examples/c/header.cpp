// primekit.h compiled as C++: the declarations have C linkage and valid C++ syntax.
#include <primekit.h>
#include <cstdio>
#include <cstring>

int main() {
    const char *kernel = nullptr;
    if (primekit_kernel(&kernel) != PRIMEKIT_OK) return 1;
    std::printf("primekit %s, kernel %s (from C++)\n", primekit_version(), kernel);
    return std::strlen(primekit_version()) > 0 ? 0 : 1;
}
