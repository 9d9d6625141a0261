/* Configure-time helper (tests/CMakeLists.txt): prints the registry entry the
 * dispatcher should pick on this x86-64 machine, decided independently of
 * src/cpu/x86.c through libgcc's CPU model (which also checks OS ymm support). */
#include <stdio.h>

int main(void)
{
    __builtin_cpu_init();
    fputs(__builtin_cpu_supports("avx2") ? "avx2" : "sse2", stdout);
    return 0;
}
