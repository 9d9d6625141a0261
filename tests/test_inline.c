/*
 * fc_memcpy_inline (include/fastcopy/inline.h), compiled for this target's
 * default ISA at -O2 - and, as test_inline_O0, at -O0, and as
 * test_inline_avx2 with -mavx2 (exits 77, "skipped", where the CPU or OS
 * lacks AVX2).
 *
 *   variable n:  n = 0 .. FC_INLINE_MAX + 64 (so the fc_memcpy calls above the
 *                limit too) through a call the compiler cannot see n through;
 *   constant n:  n = 0 .. 329, one function per size with n a literal, so the
 *                folded code of every size class is run (not only inspected,
 *                which is tests/check_inline.cmake's job);
 * both at src_off x dst_off in 0..63 (--offsets N: 0..N-1) in the middle of
 * guard-paged arenas, with 64 sentinel bytes checked on each side of dst, and
 * for every mutual offset (dst - src) mod 64 the four flush placements: src
 * ending right at a PROT_NONE page, src starting right after one, the same
 * for dst.  Checks: the return value is dst, dst[0..n) equals src, no byte
 * outside dst changed, no access outside either buffer (SIGSEGV, reported
 * with the case).
 */
#include "harness.h"

#include <fastcopy/inline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENT 0xA5
#define SIDE 64
#define NCONST 330

typedef void *(*inl_fn)(void *, const void *, size_t);

/* variable n: noinline, and called through a volatile pointer, so no constant reaches it */
__attribute__((noinline)) static void *copy_var(void *d, const void *s, size_t n)
{
    return fc_memcpy_inline(d, s, n);
}

/* constant n: k_A_B copies exactly 10 * A + B bytes */
#define K(a, b)                                                                       \
    static void *k_##a##_##b(void *d, const void *s, size_t n)                        \
    {                                                                                 \
        (void)n;                                                                      \
        return fc_memcpy_inline(d, s, 10 * a + b);                                    \
    }
#define KROW(a) K(a, 0) K(a, 1) K(a, 2) K(a, 3) K(a, 4) K(a, 5) K(a, 6) K(a, 7) K(a, 8) K(a, 9)
#define TROW(a) k_##a##_0, k_##a##_1, k_##a##_2, k_##a##_3, k_##a##_4, k_##a##_5, k_##a##_6, k_##a##_7, k_##a##_8, k_##a##_9,
#define ROWS(X)                                                                                               \
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) \
    X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
ROWS(KROW)
static inl_fn const konst[NCONST] = {ROWS(TROW)};

static unsigned long long ncases;
static size_t noffsets = 64;

static void check_one(inl_fn f, const char *label, unsigned char *dst, const unsigned char *src, size_t n,
                      unsigned char *lo, unsigned char *hi)
{
    cur.n = (long long)n;
    void *ret = f(dst, src, n);
    if (ret != dst) fail("%s returned %p, expected dst %p", label, ret, (void *)dst);
    size_t at = first_diff(dst, src, n);
    if (at != (size_t)-1) fail("%s: dst[%zu] = 0x%02x, expected 0x%02x", label, at, dst[at], src[at]);
    for (unsigned char *p = lo; p < hi; p++) {
        if (p == dst) p += n;
        if (p < hi && *p != SENT) fail("%s wrote outside dst: byte at dst%+td changed to 0x%02x", label, p - dst, *p);
    }
    memset(dst, SENT, n);
    ncases++;
}

static unsigned char *clamp_hi(unsigned char *p, const struct arena *a) { return p > a->hi ? a->hi : p; }
static unsigned char *clamp_lo(unsigned char *p, const struct arena *a) { return p < a->lo ? a->lo : p; }

/* every placement for one size */
static void one_size(inl_fn f, const char *label, struct arena *S, struct arena *D, size_t n)
{
    size_t ps = page_size();
    cur.placement = "mid";
    cur.dist = -1;
    for (size_t so = 0; so < noffsets; so++) {
        cur.src_off = (long long)so;
        for (size_t dof = 0; dof < noffsets; dof++) {
            cur.dst_off = (long long)dof;
            unsigned char *src = S->lo + ps + so, *dst = D->lo + ps + dof;
            check_one(f, label, dst, src, n, dst - SIDE, dst + n + SIDE);
        }
    }
    cur.src_off = cur.dst_off = -1;
    for (size_t delta = 0; delta < 64; delta++) {
        unsigned char *src, *dst;
        cur.dist = (long long)delta;
        cur.placement = "src flush before guard";
        src = S->hi - n;
        dst = D->lo + ps + (((uintptr_t)src + delta) & 63);
        check_one(f, label, dst, src, n, dst - SIDE, clamp_hi(dst + n + SIDE, D));
        cur.placement = "src flush after guard";
        src = S->lo;
        dst = D->lo + ps + delta;
        check_one(f, label, dst, src, n, dst - SIDE, clamp_hi(dst + n + SIDE, D));
        cur.placement = "dst flush before guard";
        dst = D->hi - n;
        src = S->lo + ps + (((uintptr_t)dst - delta) & 63);
        check_one(f, label, dst, src, n, clamp_lo(dst - SIDE, D), D->hi);
        cur.placement = "dst flush after guard";
        dst = D->lo;
        src = S->lo + ps + ((0 - delta) & 63);
        check_one(f, label, dst, src, n, D->lo, clamp_hi(dst + n + SIDE, D));
    }
}

__attribute__((noinline)) static int run(int argc, char **argv)
{
    install_crash_handler();
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--offsets") == 0) {
            noffsets = strtoul(argv[i + 1], NULL, 0);
            if (noffsets < 1 || noffsets > 64) fail("--offsets wants 1..64");
        }
    size_t span = 4 * page_size();
    struct arena S = arena_new(span), D = arena_new(span);
    struct rng r;
    rng_seed(&r, 0x1d1e);
    rng_fill(&r, S.lo, S.len);
    for (size_t i = 0; i < S.len; i++)
        if (S.lo[i] == SENT) S.lo[i] = (unsigned char)~SENT;
    memset(D.lo, SENT, D.len);
    cur.suite = "inline";
    printf("inline: vector %d B, inline limit %d B (above it fc_memcpy[%s])\n", FC_INLINE_VEC, FC_INLINE_MAX,
           fc_active());
    unsigned long long total = 0;

    static inl_fn volatile var = copy_var;
    cur.fn = "fc_memcpy_inline(n variable)";
    ncases = 0;
    for (size_t n = 0; n <= FC_INLINE_MAX + 64; n++) one_size(var, cur.fn, &S, &D, n);
    print_count(cur.suite, "variable n 0..max+64", ncases);
    total += ncases;

    cur.fn = "fc_memcpy_inline(n constant)";
    ncases = 0;
    for (size_t n = 0; n < NCONST; n++) one_size(konst[n], cur.fn, &S, &D, n);
    print_count(cur.suite, "constant n 0..329", ncases);
    total += ncases;

    print_count(cur.suite, "TOTAL", total);
    arena_free(&S);
    arena_free(&D);
    return 0;
}

int main(int argc, char **argv)
{
#ifdef FC_TEST_NEED_AVX2
    /* nothing above this line may use AVX: this file is built with -mavx2 */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) {
        puts("inline: no AVX2 on this CPU/OS: skipped");
        return 77;
    }
#endif
    return run(argc, argv);
}
