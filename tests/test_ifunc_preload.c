/*
 * test_ifunc_preload: a program linked against libfc_ifunc_copy.so, whose
 * ifunc resolver copies memory while the dynamic linker relocates it (see
 * ifunc_copylib.c).  Run plain, under LD_PRELOAD=libfastcopy-preload.so or
 * libfastcopy-record.so, with lazy and immediate binding (tests/CMakeLists.txt):
 * it must print the resolver's string and the ifunc's answer, and report that
 * the resolver's 3,612 copies of 0..300 bytes were all exact.
 * Built a second time with -DFC_IFUNC_TRUE, not linked against the library:
 * a program that does nothing, for LD_PRELOAD="libfastcopy-preload.so
 * libfc_ifunc_copy.so" (the library then comes later in the search order than
 * the shim, and is relocated before it).
 */
#include <stdio.h>
#include <string.h>

#if defined(FC_IFUNC_TRUE)
int main(void) { return 0; }
#else
#include "ifunc_copylib.h"

int main(void)
{
    const char *fn = "";
    size_t n = 0;
    long calls = ifunc_copylib_calls(), bad = ifunc_copylib_bad(&fn, &n);
    int answer = ifunc_copylib_answer();
    printf("ifunc answer %d, resolver copied \"%s\", %ld copies of 0..300 bytes in the resolver, %ld wrong\n", answer,
           ifunc_copylib_name(), calls, bad);
    if (bad) printf("FAIL: first wrong copy: %s of %zu bytes\n", fn, n);
    if (answer != 42 || strcmp(ifunc_copylib_name(), "resolved by the resolver") || calls != 3612 || bad) {
        printf("FAIL\n");
        return 1;
    }
    return 0;
}
#endif
