/* Configure-time helper (tests/CMakeLists.txt): prints the registry entry the
 * dispatcher should pick on this x86-64 machine, decided independently of
 * src/cpu/x86.c through libgcc's CPU model (which also checks OS ymm/zmm
 * support) and the policy's two feature rules: avx512 on Intel with AVX-VNNI
 * (CPUID.7.1:EAX[4], read here directly: not every compiler's CPU model has it),
 * avx512-ymmloop on AMD family 0x19 with AVX-512F (Zen 4; CPUID.1:EAX read here). */
#include <cpuid.h>
#include <stdio.h>

int main(void)
{
    __builtin_cpu_init();
    unsigned a, b, c, d;
    int vnni = __get_cpuid_count(7, 1, &a, &b, &c, &d) && ((a >> 4) & 1);
    unsigned fam = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) fam = ((a >> 8) & 0xf) == 0xf ? 0xf + ((a >> 20) & 0xff) : (a >> 8) & 0xf;
    if (__builtin_cpu_is("intel") && __builtin_cpu_supports("avx512f") && vnni)
        fputs("avx512", stdout);
    else if (__builtin_cpu_is("amd") && __builtin_cpu_supports("avx512f") && fam == 0x19)
        fputs("avx512-ymmloop", stdout);
    else
        fputs(__builtin_cpu_supports("avx2") ? "avx2" : "sse2", stdout);
    return 0;
}
