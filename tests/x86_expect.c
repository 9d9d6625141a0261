/* Configure-time helper (tests/CMakeLists.txt): prints the registry entry the
 * dispatcher should pick on this x86-64 machine without a profile, decided
 * independently of src/cpu/x86_detect.c through libgcc's CPU model (which also
 * checks OS ymm/zmm support) and docs/x86-policy.md: the widest ladder the CPU
 * runs (avx512, avx2, sse2), except avx512-ymmloop on AMD family 0x19 with
 * AVX-512F (Zen 4; CPUID.1:EAX read here). */
#include <cpuid.h>
#include <stdio.h>

int main(void)
{
    __builtin_cpu_init();
    unsigned a, b, c, d;
    unsigned fam = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) fam = ((a >> 8) & 0xf) == 0xf ? 0xf + ((a >> 20) & 0xff) : (a >> 8) & 0xf;
    if (__builtin_cpu_supports("avx512f"))
        fputs(__builtin_cpu_is("amd") && fam == 0x19 ? "avx512-ymmloop" : "avx512", stdout);
    else
        fputs(__builtin_cpu_supports("avx2") ? "avx2" : "sse2", stdout);
    return 0;
}
