/*
 * RISC-V CPU detection for dispatch (RV64 Linux).
 *
 *   V (RVV 1.0):  the 'V' bit of AT_HWCAP - the kernel sets it only where
 *                 this process may use V (not with abi.riscv_v_default_allow
 *                 = 0, nor after a PR_RISCV_V_SET_CONTROL that turned it off
 *                 for the next exec: the first vector instruction would then
 *                 get SIGILL) - and, where the kernel answers them,
 *                 riscv_hwprobe key IMA_EXT_0 (4) bit 2 (the hardware has V)
 *                 and PR_RISCV_V_GET_CONTROL (Linux 6.5+: V not turned off
 *                 for this thread).  hwprobe missing (ENOSYS: Linux < 6.4,
 *                 qemu-user 7.2) or not knowing the key leaves AT_HWCAP alone.
 *   misaligned:   riscv_hwprobe key MISALIGNED_SCALAR_PERF (9); when the
 *                 kernel does not know it (key comes back as -1), the older
 *                 CPUPERF_0 (5) & 7.  Same values: 0 unknown, 1 emulated,
 *                 2 slow, 3 fast, 4 unsupported.  Only 3 counts as fast; no
 *                 hwprobe means unknown, so the safe rv64-shifted is used.
 *
 * Runs inside ifunc resolvers, before libc is usable: raw system calls only
 * (AT_HWCAP comes from /proc/self/auxv, not getauxval).  glibc 2.36 and the
 * 6.1 kernel headers have no <asm/hwprobe.h>, so the ABI is defined here.
 * The result is computed once and cached (racing first callers compute the
 * same value).
 *
 * Test builds only (-DFC_TEST_HOOKS, the fastcopy_hooks library of
 * tests/CMakeLists.txt; never the installed library): FASTCOPY_TEST_HWPROBE
 * replaces the system call - "enosys", or "KEY=VALUE,..." answered like a
 * kernel that knows exactly those keys - FASTCOPY_TEST_HWCAP=HEX replaces
 * AT_HWCAP, and FASTCOPY_TEST_VCTRL=N the result of PR_RISCV_V_GET_CONTROL
 * (-1: the kernel does not know it).
 */
#include <stddef.h>
#include <stdint.h>

#include "cpu/riscv.h"
#include "dispatch/early.h"
#include "internal.h"

#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)

struct fc_hwprobe {
    int64_t key;
    uint64_t value;
};
#define FC_NR_riscv_hwprobe 258
#define FC_HWPROBE_KEY_IMA_EXT_0 4
#define FC_HWPROBE_IMA_V (1ull << 2)
#define FC_HWPROBE_KEY_CPUPERF_0 5
#define FC_HWPROBE_MISALIGNED_MASK 7ull
#define FC_HWPROBE_KEY_MISALIGNED_SCALAR_PERF 9
#define FC_MISALIGNED_FAST 3
#define FC_AT_HWCAP 16
#define FC_HWCAP_V (1ul << ('V' - 'A'))
#define FC_ENOSYS 38

#define FC_PR_RISCV_V_GET_CONTROL 70
#define FC_PR_RISCV_V_VSTATE_CTRL_CUR_MASK 3
#define FC_PR_RISCV_V_VSTATE_CTRL_OFF 1

enum { FC_NR_prctl = 167 };

static long fc_ecall(long nr, long a, long b, long c, long d, long e)
{
    register long a7 __asm__("a7") = nr, a0 __asm__("a0") = a, a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c, a3 __asm__("a3") = d, a4 __asm__("a4") = e;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4) : "memory");
    return a0;
}

#ifdef FC_TEST_HOOKS
/* A number of the test hooks' specifications, decimal or 0x-hexadecimal
 * (fc__parse_num, dispatch/early.c), and *p past it; 0 where none is. */
static uint64_t fc_parse_num(const char **p)
{
    uint64_t v = 0;
    const char *e = fc__parse_num(*p, FC_NUM_AUTO, &v);
    if (e) *p = e;
    return v;
}

/* A kernel that knows exactly the keys listed in spec ("4=0x4,9=3"). */
static long fc_fake_hwprobe(const char *spec, struct fc_hwprobe *pairs, long n)
{
    if (spec[0] == 'e') return -FC_ENOSYS; /* "enosys" */
    for (long i = 0; i < n; i++) {
        int found = 0;
        for (const char *p = spec; *p;) {
            uint64_t k = fc_parse_num(&p), v = 0;
            if (*p == '=') {
                p++;
                v = fc_parse_num(&p);
            }
            if ((int64_t)k == pairs[i].key) {
                pairs[i].value = v;
                found = 1;
            }
            while (*p && *p != ',') p++;
            if (*p == ',') p++;
        }
        if (!found) {
            pairs[i].key = -1;
            pairs[i].value = 0;
        }
    }
    return 0;
}
#endif

static long fc_hwprobe(struct fc_hwprobe *pairs, long n)
{
#ifdef FC_TEST_HOOKS
    char spec[128];
    if (fc__early_getenv("FASTCOPY_TEST_HWPROBE", spec, sizeof spec) && spec[0])
        return fc_fake_hwprobe(spec, pairs, n);
#endif
    /* riscv_hwprobe(pairs, pair_count, cpusetsize 0, cpus NULL: all online CPUs, flags 0) */
    return fc_ecall(FC_NR_riscv_hwprobe, (long)pairs, n, 0, 0, 0);
}

/* AT_HWCAP (dispatch/early.c reads /proc/self/auxv: getauxval is a libc
 * call); 0 if unreadable. */
static unsigned long fc_hwcap(void)
{
#ifdef FC_TEST_HOOKS
    char spec[32];
    if (fc__early_getenv("FASTCOPY_TEST_HWCAP", spec, sizeof spec) && spec[0]) {
        const char *p = spec;
        return (unsigned long)fc_parse_num(&p);
    }
#endif
    int found;
    return fc__auxv(FC_AT_HWCAP, &found);
}

/* PR_RISCV_V_GET_CONTROL: the calling thread's V state; negative if the
 * kernel does not know the request (Linux < 6.5, qemu-user). */
static long fc_v_control(void)
{
#ifdef FC_TEST_HOOKS
    char spec[32];
    if (fc__early_getenv("FASTCOPY_TEST_VCTRL", spec, sizeof spec) && spec[0]) {
        const char *p = spec + (spec[0] == '-');
        long v = (long)fc_parse_num(&p);
        return spec[0] == '-' ? -v : v;
    }
#endif
    return fc_ecall(FC_NR_prctl, FC_PR_RISCV_V_GET_CONTROL, 0, 0, 0, 0);
}

enum { FC_PROBED = 1, FC_HAS_V = 2, FC_MIS_FAST = 4 };
static int fc_cpu_state;

static int fc_riscv_state(void)
{
    int st = __atomic_load_n(&fc_cpu_state, __ATOMIC_RELAXED);
    if (st) return st;
    struct fc_hwprobe q[3] = {{FC_HWPROBE_KEY_IMA_EXT_0, 0},
                              {FC_HWPROBE_KEY_MISALIGNED_SCALAR_PERF, 0},
                              {FC_HWPROBE_KEY_CPUPERF_0, 0}};
    int v = -1; /* -1: hwprobe did not say */
    unsigned long long mis = 0;
    if (fc_hwprobe(q, 3) == 0) {
        if (q[0].key == FC_HWPROBE_KEY_IMA_EXT_0) v = !!(q[0].value & FC_HWPROBE_IMA_V);
        if (q[1].key == FC_HWPROBE_KEY_MISALIGNED_SCALAR_PERF)
            mis = q[1].value;
        else if (q[2].key == FC_HWPROBE_KEY_CPUPERF_0)
            mis = q[2].value & FC_HWPROBE_MISALIGNED_MASK;
    }
    /* hwprobe says whether the hardware has V, AT_HWCAP whether this process
     * may use it, PR_RISCV_V_GET_CONTROL whether this thread still may: all
     * that answer must agree (hwprobe V alone once chose rv64-rvv where the
     * first vector instruction gets SIGILL) */
    v = v != 0 && (fc_hwcap() & FC_HWCAP_V);
    if (v) {
        long ctl = fc_v_control();
        if (ctl >= 0 && (ctl & FC_PR_RISCV_V_VSTATE_CTRL_CUR_MASK) == FC_PR_RISCV_V_VSTATE_CTRL_OFF) v = 0;
    }
    st = FC_PROBED | (v ? FC_HAS_V : 0) | (mis == FC_MISALIGNED_FAST ? FC_MIS_FAST : 0);
    __atomic_store_n(&fc_cpu_state, st, __ATOMIC_RELAXED);
    return st;
}

int fc__riscv_has_v(void) { return !!(fc_riscv_state() & FC_HAS_V); }
int fc__riscv_misaligned_fast(void) { return !!(fc_riscv_state() & FC_MIS_FAST); }

#else /* not RV64 Linux: nothing to detect */
int fc__riscv_has_v(void) { return 0; }
int fc__riscv_misaligned_fast(void) { return 0; }
#endif
