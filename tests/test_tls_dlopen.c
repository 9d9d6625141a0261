/*
 * dlopen of libfastcopy.so after other libraries have used up the static TLS
 * surplus (a dlopen'ed library's initial-exec TLS must come from that
 * surplus; glibc then fails with "cannot allocate memory in static TLS
 * block").  libfastcopy.so has no TLS, so it must still load.
 *   test_tls_dlopen FILLER_DIR LIBFASTCOPY
 * FILLER_DIR holds libtls_fill_N.so for N = 2048, 1024, ..., 16 (loaded
 * largest first, each where it still fits: what is left is below 16 bytes)
 * and libtls_fill_probe.so (32 bytes): it must then fail to load, or the
 * fillers did not exhaust the surplus and the test proves nothing (exit 77).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_tls_dlopen FILLER_DIR LIBFASTCOPY\n");
        return 2;
    }
    char path[4096];
    unsigned taken = 0;
    for (unsigned n = 2048; n >= 16; n /= 2) {
        snprintf(path, sizeof path, "%s/libtls_fill_%u.so", argv[1], n);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h) taken += n;
        else if (!strstr(dlerror(), "static TLS")) {
            fprintf(stderr, "FAIL: dlopen %s failed for another reason\n", path);
            return 1;
        }
    }
    printf("fillers took %u bytes of static TLS\n", taken);
    void *fc = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!fc) {
        fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[2], dlerror());
        return 1;
    }
    void *(*cpy)(void *, const void *, size_t) = (void *(*)(void *, const void *, size_t))dlsym(fc, "fc_memcpy");
    const char *(*active)(void) = (const char *(*)(void))dlsym(fc, "fc_active");
    if (!cpy || !active) {
        fprintf(stderr, "FAIL: %s has no fc_memcpy/fc_active\n", argv[2]);
        return 1;
    }
    char a[100], b[100];
    for (int i = 0; i < 100; i++) a[i] = (char)(i * 7 + 1), b[i] = 0;
    for (size_t n = 0; n <= 64; n++)
        if (cpy(b, a, n) != b || memcmp(a, b, n) != 0) {
            fprintf(stderr, "FAIL: fc_memcpy of %zu bytes\n", n);
            return 1;
        }
    printf("libfastcopy.so loaded after them (%s)\n", active());
    snprintf(path, sizeof path, "%s/libtls_fill_probe.so", argv[1]);
    if (dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        printf("skipped: 32 bytes of static TLS were still free after the fillers: nothing proved\n");
        return 77;
    }
    printf("a 32-byte initial-exec TLS library no longer loads: the surplus was used up\n");
    return 0;
}
