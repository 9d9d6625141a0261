/*
 * vec_copy.h - the x86-64 copy primitives, written once, parameterised by the
 * vector width W.  Included by exactly one .c file per entry (sse2.c: W = 16,
 * avx2.c: W = 32, avx512.c, avx512_masked.c and avx512_ymmloop.c: W = 64),
 * which first defines:
 *
 *   FC_VEC_ID          name stem of the entry points (fc_<ID>_memcpy/_memmove)
 *   FC_VT              the vector type (__m128i, __m256i, __m512i)
 *   FC_W               its width in bytes
 *   FC_LOADU(p)        unaligned load
 *   FC_STOREU(p, v)    unaligned store
 *   FC_STOREA(p, v)    aligned store (p % W == 0)
 *   FC_STREAM(p, v)    non-temporal store (p % W == 0)
 *   FC_MASKED_SMALL    (optional) n <= 64 by one byte-masked zmm move (AVX512BW)
 *   FC_LVT, FC_LW,     (optional) the loops' own vector, narrower than the
 *   FC_LLOADU, ...     ladder's (avx512_ymmloop.c: zmm classes, ymm loops);
 *                      by default the loops use FC_VT and W
 *
 * For:   x86-64.  W = 16 needs only SSE2 (every x86-64); W = 32 needs AVX2 and
 *        an OS that saves the ymm state, W = 64 AVX512F and an OS that saves
 *        the opmask and zmm state (both probed in src/cpu/x86.c).
 * Needs: unaligned vector loads/stores that are as fast as aligned ones when
 *        the address happens to be aligned (every x86-64 since Nehalem/Bulldozer).
 *
 * Size-class policy (the same ladder for memcpy and memmove):
 *
 *   | n              | technique                                                        |
 *   |----------------|------------------------------------------------------------------|
 *   | 0..3           | bytes first, middle, last (no loop, one branch)                  |
 *   | 4..16          | two 4-byte moves (first, last) and two 8-byte moves (first,      |
 *   |                | last) that cmov redirects into the red zone below the stack      |
 *   |                | pointer when n < 8: no branch at 8                                |
 *   | 17..63         | four 16-byte moves at 0, a, n-16-a, n-16, a = 11(n-16)/32: no    |
 *   |                | branch at 32; xmm in every build (no vzeroupper below 64)         |
 *   |                | (n < 64 is the first compare; 2 compares to 17..63, 3 below 17)  |
 *   |   memmove,     | overlapping buffers, 4..63: two moves per class (first and last  |
 *   |   overlapping  | 4, 8, 16 or 32 bytes; W = 16: four at 33..63), as few loads as   |
 *   |                | can meet the previous call's stores (fc_move_lt64)                |
 *   | 64..2W         | two overlapping vectors (first and last; W >= 32)                 |
 *   |   W = 64       | 64..512: zmm16-23 in asm, no vzeroupper on return (FC_HI_ZMM)    |
 *   | 2W+1..4W       | 4 vectors: first 2 and last 2, all loaded before any store        |
 *   | 4W+1..8W       | 8 vectors: first 4 and last 4, all loaded before any store        |
 *   |                | (avx512-ymmloop: first 4 and the last 1..4 that n needs)          |
 *   |   dst across a | memcpy: two copies that meet at the page boundary (no store      |
 *   |   page (2W+1..)| straddles it: ~6.5 ns each on Zen 3, see "page-straddle" below)  |
 *   | > 8W           | direction by overlap / 4K aliasing (below); preload head and tail,|
 *   |                | align dst to LW, loop of 4 unaligned loads + 4 aligned stores     |
 *   |                | (LW, the loops' vector width: W unless the entry sets FC_LW)      |
 *   |   dst just     | no overlap, n >= 2 KiB, dst 1..4 LW bytes behind src mod 4096:   |
 *   |   behind src   | forward with every access in address order: head and tail by     |
 *   |   mod 4096     | the < 64 B classes, no edge preloaded (a call's preloaded tail   |
 *   |                | 4K-aliases the previous call's last stores; see below)           |
 *   |   memmove edge | overlapping, a page boundary under the first vector (forward) or|
 *   |   on a page    | the last (backward): the bytes beyond it first, then the loop;   |
 *   |                | no store straddles it (fc_move_fwd_page_head, _bwd_page_tail)    |
 *   |   edge on a    | no overlap, ~5 in 4096 placements, out of line: no store crosses |
 *   |   page boundary| the boundary.  The edge where the loop stops: loaded after the    |
 *   |                | loop, aligned vectors from the loop's stop, then the last bytes   |
 *   |                | (only those past the boundary when it is inside them); the other  |
 *   |                | edge, one vector: only its bytes past the boundary.  Forward      |
 *   |                | tests after the loop (fc_edges_page_safe), backward before it     |
 *   |                | (fc_loop_bwd_edges)                                               |
 *   | >= NT thresh.  | no overlap: dst aligned to 64, non-temporal stores, sfence;      |
 *   |   (no overlap) | threshold from the LLC one core group sees (cpu/x86.c); with     |
 *   |                | nt_pages = 4, 16 KiB blocks as four interleaved 4 KiB streams,   |
 *   |                | the rest one stream with prefetch                                 |
 *   | movsb window   | no overlap, |(dst - src) mod 4096| >= movsb_gap: the first 64     |
 *   |   (no overlap) | bytes by vectors, rep movsb from the 64-aligned dst on.  The     |
 *   |                | window, gap and NT threshold: cpu/x86.c (features, measured      |
 *   |                | exceptions, a tuned profile, FASTCOPY_TUNE; docs/x86-policy.md)  |
 *
 * Up to 8W every load happens before any store, so memmove needs no overlap
 * test there to be correct (below 64 B it makes one to be fast: fewer loads
 * when the buffers overlap).  Above 8W (the loops):
 *   - dst inside (src, src + n)          -> backward (the only correct direction)
 *   - src inside (dst, dst + n)          -> forward
 *   - no overlap, n >= NT threshold      -> non-temporal forward
 *   - no overlap, n in the movsb window, movsb_gap away from 4K aliasing -> rep movsb
 *     (both behind one compare with special_min, the smaller threshold)
 *   - no overlap, (dst - src) mod 4096 in 0..FC_ALIAS_WINDOW-1 -> backward: at
 *     1..WINDOW-1 a forward loop would load from addresses that alias (in their
 *     low 12 bits) the stores just made, and stall on false store-to-load
 *     forwarding; the backward loop moves away from them.  At 0 (4K-congruent
 *     buffers) one call meets no such alias either way, but repeated calls on
 *     the same pair run faster backward (Zen 3, odd sizes 513 B - 4 KiB: 1.04-
 *     1.1x glibc's time forward, 1.00x backward; glibc goes backward there too).
 *     An entry that sets FC_CONGRUENT_FWD (avx512-ymmloop, for Zen 4) copies
 *     them forward instead, unless n mod 4096 is 1..64: on Zen 4, with neither
 *     buffer cached, forward took 0.89-0.96x backward's time at 4-64 KiB.
 *   - no overlap, n >= inorder_min (2 KiB unless a profile or FASTCOPY_TUNE
 *     says otherwise), dst 1..FC_INORDER_WINDOW bytes behind
 *     src mod 4096 -> forward in address order (fc_loop_fwd_inorder: no edge
 *     preloaded or stored last, so no load meets an older store with the same
 *     low 12 bits, this call's or the previous call's).
 *     Otherwise forward.
 *
 * Every load and store stays inside [src, src + n) and [dst, dst + n): no
 * over-read, so nothing here is excluded from AddressSanitizer.
 */
#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#include "cpu/x86.h"

#if !defined(FC_VEC_ID) || !defined(FC_VT) || !defined(FC_W)
#error "define FC_VEC_ID, FC_VT, FC_W and the load/store macros before including vec_copy.h"
#endif

/* Window (bytes) of (dst - src) mod 4096 in which a non-overlapping copy goes
 * backward to avoid 4K aliasing; measured with fcbench distance (README). */
#ifndef FC_ALIAS_WINDOW
#define FC_ALIAS_WINDOW 256
#endif

/* 4K-congruent buffers ((dst - src) mod 4096 == 0, no overlap): 0 copies them
 * backward at every size (the direction list at the top); 1 copies them
 * forward, except where n mod 4096 is 1..FC_CONGRUENT_KEEP_BWD.  Zen 4, hot,
 * repeated calls on one pair: forward took 1.13-1.14x backward's time at 4097
 * and 4100 B, 1.07x at 8193 and 8200, 1.05x at 12289, 1.01x at 4128 (fcbench,
 * page-aligned pairs), and 1.03-1.14x at n mod 4096 = 1..16 in a harness at
 * page offsets 0 and 16, in some of its processes.  Above 64 it depends on
 * the physical pages: with new ones every round, at page offset 48 forward
 * read above 1.05x in 1-11 of 40 rounds at n mod 4096 = 65..200, and at
 * offsets 0 and 16 below 0.95x in 2-9 of 40; the medians 0.98-1.00x
 * (docs/machines/data/amd-zen4/congruent-fwd/).  A likely
 * cause, not shown: such a call's last stores end just past a multiple of 4096
 * from dst, at the low 12 bits of the next call's first loads from src.  17..64
 * stay backward as a margin.  The setting belongs to the
 * entry (avx512-ymmloop, measured on Zen 4), and travels with it to any CPU
 * where a profile or FASTCOPY_IMPL selects that entry. */
#ifndef FC_CONGRUENT_FWD
#define FC_CONGRUENT_FWD 0
#endif
#ifndef FC_CONGRUENT_KEEP_BWD
#define FC_CONGRUENT_KEEP_BWD 64
#endif


#define FC_XCAT(a, b, c) a##b##c
#define FC_CAT(a, b, c) FC_XCAT(a, b, c)
#define FC_ENTRY_NAME(id, what) FC_CAT(fc_, id, what)

#define FC_INLINE static inline __attribute__((always_inline))
#define FC_NOINLINE static __attribute__((noinline))
/* clang: the out-of-line helpers return d through an empty asm, so that the
 * compiler cannot prove that they return their first argument and the entry
 * points reach them by a tail jump.  Where clang 14 proved it, the entry
 * points kept d in a callee-saved register across the call, and so saved and
 * restored registers on every path, the 4-byte ones included (Zen 4, clang
 * build, 64-400 B: 1.09-1.33x glibc's time, where the gcc build reads
 * 0.72-1.00x).  gcc already jumps; its code is left as it was. */
#if defined(__clang__)
#define FC_RETURN_OPAQUE(p)            \
    do {                               \
        __asm__("" : "+r"(p));         \
        return p;                      \
    } while (0)
#else
#define FC_RETURN_OPAQUE(p) return p
#endif
/* clang: a branch hint that gcc does not need to lay the ladder out as intended.
 * fc_vec_copy's n < 64 test: gcc already puts 64.. in the fall-through; clang 14
 * put n < 64 there instead (4..16 B one cycle faster than gcc's build, 17..63 B one
 * slower, 64.. behind a taken branch, and d kept in another register than the
 * return's).  With the hint its
 * layout is gcc's (Zen 4, clang build against gcc's, both dlopen'ed, 4 processes,
 * medians of time / glibc's, avx512-ymmloop: 17-63 B 0.91-1.00x -> 0.82-0.90x,
 * as gcc's; 4-16 B 0.82x -> 0.91x, as gcc's; fcbench dist 0.73-0.88x ->
 * 0.71-0.86x, gcc's 0.70-0.87x; avx512, 2 processes: the same steps.  The
 * sse2 entry's clang layout changes too; not timed). */
#if defined(__clang__)
#define FC_EXPECT_CLANG(c, v) __builtin_expect((c), (v))
#else
#define FC_EXPECT_CLANG(c, v) (c)
#endif

typedef unsigned char fc_u8;
typedef uint64_t __attribute__((may_alias, aligned(1))) fc_u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) fc_u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) fc_u16u;

/* ---- below 64 bytes: shared by every width, xmm and general registers ---- */

/* n = 0..3: bytes first, middle (n / 2), last cover every byte */
FC_INLINE void fc_copy_lt4(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n) {
        fc_u8 a = s[0], m = s[n >> 1], z = s[n - 1];
        d[0] = a;
        d[n >> 1] = m;
        d[n - 1] = z;
    }
}

/* 4 <= n <= 16 without a branch on n: two 4-byte moves (first and last
 * 4 bytes) always, then two 8-byte moves (first and last 8: from s8 and
 * s8 + n - 8 to d8 and d8 + n - 8) where s8, d8 are src, dst when n >= 8
 * and, when n < 8, two spots in a scratch block in the red zone, the 128
 * bytes below the stack pointer that the SysV x86-64 ABI keeps from signal
 * handlers: the loads read rsp-28..rsp-17 (never written here), the stores
 * write rsp-16..rsp-5 (never read), so no load of this path ever waits for
 * one of its stores (an 8-byte constant in .rodata read in place of src
 * measured 3x slower at 4-7 B in one of two builds: its address matched the
 * slot's in the low 12 bits, a 4K-alias stall on every call).  The choice is
 * two cmovs on one compare: a branch at 8 here is mispredicted on real size
 * mixes (4..7 and 8..15 are both common).  The 8-byte stores come last, so
 * for n >= 8 an 8-byte read of either end of dst right after the copy is
 * served by one store (store-to-load forwarding; fcbench readback: 8-15 B
 * at 1.1x glibc's time, where four 4-byte moves took 2-2.7x).
 * The red zone is ours alone: the x86 routines are built with -mno-red-zone
 * (CMakeLists.txt), so the compiler keeps nothing below the stack pointer,
 * and this path sets up no frame (nothing moves the stack pointer down between
 * the lea below and the moves).  Neither thread-local storage, which a
 * memcpy called from another ifunc resolver of a static program (before TLS
 * exists) cannot reach and which can make a dlopen of the library fail once
 * the static TLS surplus is used up, nor a C local, which made gcc realign
 * the stack (and $-32, %rsp) for the whole function.  What it cannot avoid:
 * its loads read stack bytes that a function the caller ran just before
 * may have written (a store-to-load forwarding wait if those stores are
 * still in flight), and a load the caller makes right after from an address
 * with the same low 12 bits as its stores waits for them (a 4K-alias
 * stall, ~3 ns). */
FC_INLINE void fc_copy_4_16(fc_u8 *d, const fc_u8 *s, size_t n)
{
    const fc_u8 *s8 = s, *zs;
    fc_u8 *d8 = d, *zd;
    ptrdiff_t k = (ptrdiff_t)n - 8; /* n < 8: -4..-1, and s8 + k, d8 + k stay in their halves */
    /* n < 8: s8 = rsp - 24 (reads rsp-28..rsp-17), d8 = rsp - 12 (writes rsp-16..rsp-5) */
    __asm__("lea -24(%%rsp), %[zs]\n\t"
            "lea -12(%%rsp), %[zd]\n\t"
            "cmpq $8, %[n]\n\t"
            "cmovb %[zs], %[s8]\n\t"
            "cmovb %[zd], %[d8]"
            : [s8] "+r"(s8), [d8] "+r"(d8), [zs] "=&r"(zs), [zd] "=&r"(zd)
            : [n] "r"(n)
            : "cc");
    uint32_t a = *(const fc_u32u *)s, b = *(const fc_u32u *)(s + n - 4);
    uint64_t x = *(const fc_u64u *)s8, y = *(const fc_u64u *)(s8 + k);
    *(fc_u32u *)d = a;
    *(fc_u32u *)(d + n - 4) = b;
    *(fc_u64u *)d8 = x;
    *(fc_u64u *)(d8 + k) = y;
}

/* 16 <= n <= 63: four 16-byte moves at 0, a, n - 16 - a, n - 16 with
 * a = (11 (n - 16)) >> 5, about a third of the way: consecutive moves overlap
 * or touch for every n in 16..64 (checked exhaustively by the grids), so one
 * class, no branch, where two moves of 16 and two of 32 needed a branch at 32
 * (mispredicted on real size mixes).  xmm only, in every build: no ymm or zmm
 * state touched below 64 bytes, so no vzeroupper on this path.  Its cost,
 * measured (Intel Xeon guest): fixed sizes in a loop ~1 cycle more per call
 * than two moves; and at 17..31 B the middle moves overlap dst's last 8
 * bytes, so reading them right after the copy (fcbench readback) takes 1.25x
 * glibc's time (32..63 B: 1.04x). */
FC_INLINE void fc_copy_16_63(fc_u8 *d, const fc_u8 *s, size_t n)
{
    size_t m = n - 16, a = (m * 11) >> 5, b = m - a;
    __m128i w = _mm_loadu_si128((const __m128i *)s), x = _mm_loadu_si128((const __m128i *)(s + a));
    __m128i y = _mm_loadu_si128((const __m128i *)(s + b)), z = _mm_loadu_si128((const __m128i *)(s + m));
    _mm_storeu_si128((__m128i *)d, w);
    _mm_storeu_si128((__m128i *)(d + a), x);
    _mm_storeu_si128((__m128i *)(d + b), y);
    _mm_storeu_si128((__m128i *)(d + m), z); /* last: an 8-byte read of dst's end forwards from it */
}

/* n < 64: three classes; n <= 16, then n >= 4 (17..63 one compare away,
 * the others two; with the caller's n < 64, two and three). */
FC_INLINE void fc_copy_lt64(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n <= 16) {
        if (n >= 4)
            fc_copy_4_16(d, s, n);
        else
            fc_copy_lt4(d, s, n);
    } else {
        fc_copy_16_63(d, s, n);
    }
}

/* ---- W-wide blocks: all loads before stores ----------------------------- */

/* A block of 4 consecutive vectors of type T (W bytes each) at p + off,
 * unaligned, kept in registers: fc_vec_8's edges (T = FC_VT) and the loops'
 * preloaded edges (fc_blk4, T = FC_LVT).  (p, off) rather than one pointer
 * keeps the base + index addressing the compiler gives the callers' other
 * accesses (no extra lea before the loads). */
#define FC_DEFINE_BLK4(blk, ld, st, T, W, LOADU, STOREU)                                                   \
    typedef struct { T v[4]; } blk;                                                                       \
    FC_INLINE blk ld(const fc_u8 *p, size_t off)                                                          \
    {                                                                                                      \
        blk b = {{LOADU((const T *)(p + off)), LOADU((const T *)(p + off + (W))),                          \
                  LOADU((const T *)(p + off + 2 * (W))), LOADU((const T *)(p + off + 3 * (W)))}};          \
        return b;                                                                                          \
    }                                                                                                      \
    FC_INLINE void st(fc_u8 *p, size_t off, blk b)                                                        \
    {                                                                                                      \
        STOREU((T *)(p + off), b.v[0]);                                                                    \
        STOREU((T *)(p + off + (W)), b.v[1]);                                                              \
        STOREU((T *)(p + off + 2 * (W)), b.v[2]);                                                          \
        STOREU((T *)(p + off + 3 * (W)), b.v[3]);                                                          \
    }
FC_DEFINE_BLK4(fc_vblk4, fc_vld4, fc_vst4, FC_VT, FC_W, FC_LOADU, FC_STOREU)

#define FC_LD(off) FC_LOADU((const FC_VT *)(s + (off)))
#define FC_ST(off, v) FC_STOREU((FC_VT *)(d + (off)), v)

/* FC_HI_ZMM (W = 64): the 64..256 B classes, and 257..512 without
 * FC_VEC8_STEPS, move their zmm through zmm16-zmm23 in asm statements.  The
 * compilers place a vzeroupper before a return only where ymm0-15/zmm0-15
 * were written, and legacy SSE code cannot touch zmm16-31, so these paths
 * return without one (the XINUSE bits the test harness checks, ymm0-15's and
 * zmm0-15's upper halves, stay clear; zmm16-31's Hi16_ZMM bit does not, as
 * after glibc's AVX-512 memcpy).  Measured on the lent Emerald Rapids guest
 * (2026-11-27, both builds dlopen'ed by fcbench, 8 processes, contender order
 * alternated, medians of time / glibc's): 129-256 B aligned 1.26-1.36x ->
 * 1.12-1.17x, dst+1 1.22x -> 1.07-1.11x, src+1 1.31-1.37x -> 1.13-1.20x;
 * 64-128 and 257-512 B unchanged (1.00x); the Google mixes unchanged within
 * the processes' spread (6 processes).  Most of the rest of the gap at
 * 129-256 B is the page test before the class: in an earlier A/B of the same
 * lease (18 processes), a build without it (FC_PAGE_SAFE=0) read 1.15x where
 * the intrinsics read 1.27x and a build without vzeroupper 1.13x.  On Zen 4
 * (avx512 and avx512-ymmloop, 6 processes): 0.91-1.01x the intrinsics' time,
 * the mixes unchanged.
 * Under AddressSanitizer the intrinsics stay: it does not see into asm. */
#ifndef FC_HI_ZMM
#if defined(__SANITIZE_ADDRESS__)
#define FC_HI_ZMM 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FC_HI_ZMM 0
#endif
#endif
#endif
#ifndef FC_HI_ZMM
#define FC_HI_ZMM 1
#endif
#if FC_HI_ZMM && FC_W == 64
#define FC_HZ_LD(r, off) "vmovdqu64 " off "(%[s]), %%zmm" r "\n\t"
#define FC_HZ_ST(r, off) "vmovdqu64 %%zmm" r ", " off "(%[d])\n\t"
#define FC_HZ_LDE(r, off) "vmovdqu64 " off "(%[s],%[n]), %%zmm" r "\n\t"
#define FC_HZ_STE(r, off) "vmovdqu64 %%zmm" r ", " off "(%[d],%[n])\n\t"
FC_INLINE void fc_vec_2(fc_u8 *d, const fc_u8 *s, size_t n)
{
    __asm__ volatile(FC_HZ_LD("16", "") FC_HZ_LDE("17", "-64") FC_HZ_ST("16", "") FC_HZ_STE("17", "-64")
                     : : [d] "r"(d), [s] "r"(s), [n] "r"(n) : "memory", "xmm16", "xmm17");
}
FC_INLINE void fc_vec_4(fc_u8 *d, const fc_u8 *s, size_t n)
{
    __asm__ volatile(FC_HZ_LD("16", "") FC_HZ_LD("17", "64") FC_HZ_LDE("18", "-128") FC_HZ_LDE("19", "-64")
                     FC_HZ_ST("16", "") FC_HZ_ST("17", "64") FC_HZ_STE("18", "-128") FC_HZ_STE("19", "-64")
                     : : [d] "r"(d), [s] "r"(s), [n] "r"(n)
                     : "memory", "xmm16", "xmm17", "xmm18", "xmm19");
}
#if !defined(FC_VEC8_STEPS) || !FC_VEC8_STEPS
#define FC_HZ_VEC8 1
FC_INLINE void fc_vec_8(fc_u8 *d, const fc_u8 *s, size_t n)
{
    __asm__ volatile(FC_HZ_LD("16", "") FC_HZ_LD("17", "64") FC_HZ_LD("18", "128") FC_HZ_LD("19", "192")
                     FC_HZ_LDE("20", "-256") FC_HZ_LDE("21", "-192") FC_HZ_LDE("22", "-128") FC_HZ_LDE("23", "-64")
                     FC_HZ_ST("16", "") FC_HZ_ST("17", "64") FC_HZ_ST("18", "128") FC_HZ_ST("19", "192")
                     FC_HZ_STE("20", "-256") FC_HZ_STE("21", "-192") FC_HZ_STE("22", "-128") FC_HZ_STE("23", "-64")
                     : : [d] "r"(d), [s] "r"(s), [n] "r"(n)
                     : "memory", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23");
}
#endif
#else
/* W <= n <= 2W */
FC_INLINE void fc_vec_2(fc_u8 *d, const fc_u8 *s, size_t n)
{
    FC_VT a = FC_LD(0), b = FC_LD(n - FC_W);
    FC_ST(0, a);
    FC_ST(n - FC_W, b);
}

/* 2W <= n <= 4W */
FC_INLINE void fc_vec_4(fc_u8 *d, const fc_u8 *s, size_t n)
{
    FC_VT a = FC_LD(0), b = FC_LD(FC_W), y = FC_LD(n - 2 * FC_W), z = FC_LD(n - FC_W);
    FC_ST(0, a);
    FC_ST(FC_W, b);
    FC_ST(n - 2 * FC_W, y);
    FC_ST(n - FC_W, z);
}

#endif

/* 4W <= n <= 8W: the first 4 vectors and the last 4, all loaded first.
 * FC_VEC8_STEPS (avx512_ymmloop.c): the first 4 and only as many last vectors
 * as the bytes past 4W need (1..4: n <= 5W, 6W, 7W, 8W; two compares), so a
 * 264-byte copy stores 5 zmm, not 8.  All loads still come before any store
 * (memmove's overlap).  For cores that split every zmm store in two 256-bit
 * halves (Zen 4), where the stores bound these copies.  Measured (Zen 4 guest,
 * FCBENCH_LIBS A/B of the two builds, fcbench sizes and memmove, 6 processes,
 * contender order rotated, medians; time / the 8-vector class's, aligned,
 * src+1 and dst+1): 257-320 B 0.56-0.68x, 321-384 B 0.74-0.79x, 385-448 B
 * 0.83-0.90x, 449-512 B 0.99-1.04x; memmove 257-400 B 0.42-0.93x by every
 * overlap and none, 480-512 B 0.97-1.03x.  The Google mixes (fcbench dist of
 * two whole builds, 8 processes alternated, medians, time / glibc's): A 0.78x
 * -> 0.73x (a third of its calls are 304 B); D 0.82x -> 0.83x and W 0.75x ->
 * 0.76x, whose 257-512 B calls spread over all four steps, so the two extra
 * branches mispredict; B, L, M unchanged.  Measured and not kept: one branch
 * at 6W (6 or 8 stores): D 0.82x, A 0.735x, but 257-384 B only 0.70-0.79x
 * and 385-448 B unchanged. */
#ifndef FC_VEC8_STEPS
#define FC_VEC8_STEPS 0
#endif
#if !defined(FC_HZ_VEC8)
FC_INLINE void fc_vec_8(fc_u8 *d, const fc_u8 *s, size_t n)
{
#if FC_VEC8_STEPS
    if (n <= 6 * FC_W) {
        fc_vblk4 h = fc_vld4(s, 0);
        FC_VT z = FC_LD(n - FC_W);
        if (n > 5 * FC_W) {
            FC_VT y = FC_LD(n - 2 * FC_W);
            FC_ST(n - 2 * FC_W, y);
        }
        fc_vst4(d, 0, h);
        FC_ST(n - FC_W, z);
        return;
    }
    if (n <= 7 * FC_W) {
        fc_vblk4 h = fc_vld4(s, 0);
        FC_VT x = FC_LD(n - 3 * FC_W), y = FC_LD(n - 2 * FC_W), z = FC_LD(n - FC_W);
        fc_vst4(d, 0, h);
        FC_ST(n - 3 * FC_W, x);
        FC_ST(n - 2 * FC_W, y);
        FC_ST(n - FC_W, z);
        return;
    }
#endif
    fc_vblk4 h = fc_vld4(s, 0), t = fc_vld4(s, n - 4 * FC_W);
    fc_vst4(d, 0, h);
    fc_vst4(d, n - 4 * FC_W, t);
}
#endif

/* memmove, 4 <= n <= 63, buffers that overlap: two moves per class, first
 * and last (4, 8, 16 or 32 bytes; four of 16 at 33..63 in the W = 16 build),
 * where fc_copy_4_16 and fc_copy_16_63 make four.  A repeated move on the
 * same buffers (a parser consuming the front of its buffer, an array shifted
 * by one element) loads bytes that the previous call's stores, still in the
 * store buffer, cover only in part: each such load fails store-to-load
 * forwarding, and on Zen 4 the time steps by ~9.5 ns per such load, as if
 * they waited in turn.  Four moves made four where glibc's two make two
 * (fcbench memmove, 17..30 B by -n/2: 40.8 ns against 21.8; 18 B by -1 and
 * 9..15 B by -1: 1.8x glibc's time).  Measured (Zen 4; fcbench memmove, sizes
 * 2..64, avx2 and avx512-ymmloop each built with and without this path into
 * one fcbench, 6 rounds, medians of time / glibc's): overlapping rows,
 * geometric mean over the sizes, 0.95-1.13x -> 0.89-1.00x, worst size
 * 1.03-2.54x -> 1.00-1.02x; the non-overlapping row (the price: the overlap
 * test on memmove's short path) 0.66-0.74x -> 0.67-0.76x in two runs, though
 * a first version that tested at 17..63 B only read +17-21% there in three
 * runs.  memcpy's code is unchanged (the test folds away). */
#ifndef FC_MOVE_TWO
#define FC_MOVE_TWO 1 /* 0: memmove's short overlapping moves by fc_copy_lt64 (for measuring) */
#endif
FC_INLINE void fc_move_lt64(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n < 16) {
        if (n >= 8) {
            uint64_t a = *(const fc_u64u *)s, z = *(const fc_u64u *)(s + n - 8);
            *(fc_u64u *)d = a;
            *(fc_u64u *)(d + n - 8) = z;
        } else {
            uint32_t a = *(const fc_u32u *)s, z = *(const fc_u32u *)(s + n - 4);
            *(fc_u32u *)d = a;
            *(fc_u32u *)(d + n - 4) = z;
        }
    } else if (n <= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)s), z = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + n - 16), z);
    } else {
#if FC_W >= 32
        __m256i a = _mm256_loadu_si256((const __m256i *)s), z = _mm256_loadu_si256((const __m256i *)(s + n - 32));
        _mm256_storeu_si256((__m256i *)d, a);
        _mm256_storeu_si256((__m256i *)(d + n - 32), z);
#else
        fc_vec_4(d, s, n); /* W = 16: 2W < n < 4W */
#endif
    }
}

/* ---- loops (n > 8W) ------------------------------------------------------ */

/* The loops' vector: the ladder's (FC_VT, W) unless the entry names another
 * (FC_LVT, FC_LW <= FC_W and its load/store macros): avx512-ymmloop keeps the
 * zmm ladder and runs the loops on ymm, for cores that split every 512-bit
 * load and store in two (AMD Zen 4; see cpu/x86.c). */
#ifndef FC_LW
#define FC_LVT FC_VT
#define FC_LW FC_W
#define FC_LLOADU FC_LOADU
#define FC_LSTOREU FC_STOREU
#define FC_LSTOREA FC_STOREA
#define FC_LSTREAM FC_STREAM
#endif
#if FC_LW > FC_W
#error "the loop vector must not be wider than the ladder's (fc_copy_large needs n > 8 FC_LW)"
#endif
/* The upper halves of the ymm/zmm registers cleared, for a return the
 * compiler would leave dirty (fc_edges_page_safe); nothing at W = 16.
 * clang merges _mm256_zeroupper() with the vzeroupper it places itself (one
 * per return).  gcc, which places none in that function, adds its own beside
 * the intrinsic (two per return, gcc 12); an asm statement it does not look
 * into gives exactly one ("memory": every store of the copy comes before it;
 * the xmm clobbers: no vector value lives across it). */
#if FC_W > 16 && defined(__clang__)
#define FC_VZEROUPPER() _mm256_zeroupper()
#elif FC_W > 16
#define FC_VZEROUPPER()                                                                                    \
    __asm__ volatile("vzeroupper" ::: "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
                     "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15")
#else
#define FC_VZEROUPPER() ((void)0)
#endif
#define FC_LLD(off) FC_LLOADU((const FC_LVT *)(s + (off)))
#define FC_LST(off, v) FC_LSTOREU((FC_LVT *)(d + (off)), v)

/* The loops' preloaded edges: the first or the last 4 LW bytes (FC_DEFINE_BLK4). */
FC_DEFINE_BLK4(fc_blk4, fc_ld4, fc_st4, FC_LVT, FC_LW, FC_LLOADU, FC_LSTOREU)

/* The forward and backward loops and the direction choice are inlined into
 * the entry points (no call or jump between the size test and the loop); only
 * the non-temporal loop, which starts at megabytes, stays out of line.
 * fcbench, same run, 7 rounds alternating with the out-of-line version
 * (fc_avx2 time / glibc time, median): 257 B 1.16 -> 0.84, 300 B 1.13 -> 1.00,
 * 512 B 1.19 -> 0.98, 700 B 1.08 -> 1.00; 1-3 KiB and the real size
 * distributions unchanged within noise. */

/* ---- page-straddle-free edges ----------------------------------------------
 * On Zen 3 a store that straddles a 4 KiB page boundary costs ~6.5 ns more
 * than one that does not, at every width from 4 to 32 bytes (a loop of
 * repeated stores on this KVM guest: 1.6-2.6 -> 8.2-8.9 ns per store), while
 * a straddling load costs ~1 ns.  The unaligned vector stores at a copy's
 * edges straddle whenever a page boundary falls inside them: fcbench distance
 * showed it as a 0.11x cliff at 256 B (in glibc too) and 0.4x at 1 KiB.
 * Below, a copy whose dst has a page boundary under an unaligned edge store
 * makes no store across it instead: memcpy's 2W+1..8W classes (fc_copy_split:
 * two copies that meet at the boundary) and, when the buffers do not overlap,
 * the loops of both entries (fc_edges_page_safe, fc_loop_bwd_edges: aligned
 * vectors and the bytes past the boundary). */

/* A page boundary lies strictly inside [p, p + len): a store there may straddle it. */
#define FC_NEAR_PAGE_END(p, len) (((-(uintptr_t)(p) - 1) & 4095) < (uintptr_t)(len) - 1)
/* [d, d + n) crosses a page boundary (n <= 4096). */
#define FC_CROSSES_PAGE(d, n) (((uintptr_t)(d) & 4095) + (n) > 4096)
/* Both edges of a loop copy tested at once: [p, p + a) or [q, q + b) has a
 * page boundary strictly inside when its first and last bytes differ above
 * bit 11.  One compare and one branch where two FC_NEAR_PAGE_END tests took
 * two (Zen 3, a same-process loop against glibc, fixed sizes: 300 and 400 B
 * 1.06x -> 1.00x glibc's time, 512 B 1.11x -> 1.06x). */
#define FC_EDGES_NEAR_PAGE(p, a, q, b)                                                                              \
    (((((uintptr_t)(p) ^ ((uintptr_t)(p) + (a) - 1)) | ((uintptr_t)(q) ^ ((uintptr_t)(q) + (b) - 1)))) > 4095)
#ifndef FC_PAGE_SAFE
#define FC_PAGE_SAFE 1 /* 0: the straddling edges, for measuring what the tests cost */
#endif

/* A loop copy's first vector v (src's first W bytes) when the loop began at
 * the first W-aligned address above d: a page boundary inside [d, d + W) is
 * that address, so only the 1..W-1 bytes below it are left to store. */
FC_INLINE void fc_first_page_safe(fc_u8 *d, const fc_u8 *s, FC_LVT v)
{
    if (FC_NEAR_PAGE_END(d, FC_LW))
        fc_copy_lt64(d, s, 4096 - ((uintptr_t)d & 4095));
    else
        FC_LSTOREU((FC_LVT *)d, v);
}

/* The edges of a forward loop copy of buffers that do not overlap, when a
 * page boundary lies under one of them (~5 in 4096 placements; out of line),
 * stored with none straddling the boundary:
 *   - tail: aligned vectors from where the loop stopped (dp, W-aligned, at
 *     most 4W before the end; aligned stores cannot straddle), loaded from
 *     src only now, then the last bytes: the preloaded last vector, or, when
 *     the boundary is inside it (it is then the last aligned address, where
 *     the aligned vectors stopped), only the 1..W-1 bytes above it;
 *   - head: the loop began at the first W-aligned address above d, so a
 *     boundary inside [d, d + W) is that address and only the bytes below it
 *     are left: one fc_copy_lt64 from src.
 * The tail's loads read bytes at or above dp, whose low 12 bits match only
 * dst bytes the loop has not reached (dst behind src mod 4096, or at 0 with
 * FC_CONGRUENT_FWD) or stored 256 or more bytes earlier (dst ahead by 256 or
 * more; nearer, the copy goes backward).
 * The version before split each edge vector at the boundary (the tail from
 * the preloaded registers, 16-byte lanes and narrower moves, chosen on the
 * Intel Xeon guest over reloading the tail's 4 unaligned vectors from src,
 * whose loads 4K-aliased the loop's last stores: fcbench worst at 4 KiB 139-
 * 143 against 101-121 GB/s).  On Zen 4 that split cost 4-10 ns a copy (the
 * same cost in the backward loop: fc_loop_bwd_edges).  Measured (Zen 4, avx2
 * and avx512-ymmloop built both ways in one process, alternating, 31 medians
 * per placement), time with / without: the boundary under the tail 0.55-0.77x
 * at 600 B - 1 KiB, 0.85-0.97x at 2-8 KiB (4 KiB, dst 1000 bytes ahead: 39.4
 * -> 35.9 ns, the aligned copy 35.2), other placements 1.00x.  Not measured
 * since on an Intel CPU.  Also measured and not kept (Zen 4): storing the
 * split tail before the loop, 1.05-1.18x at 1-8 KiB. */
FC_NOINLINE void *fc_edges_page_safe(fc_u8 *d, const fc_u8 *s, size_t n, fc_u8 *dp, FC_LVT h, FC_LVT t3)
{
    /* Its vector arguments make gcc leave out the vzeroupper it puts before
     * the returns of every other function here, and the entry points reach
     * it by a tail call: the explicit one below is the only one on this path
     * (tests/harness.c checks the upper state after every call). */
    fc_u8 *const dend = d + n;
    for (; (size_t)(dend - dp) >= FC_LW; dp += FC_LW) FC_LSTOREA((FC_LVT *)dp, FC_LLOADU((const FC_LVT *)(s + (dp - d))));
    if (dp != dend) {
        if (FC_NEAR_PAGE_END(dend - FC_LW, FC_LW)) /* the boundary is dp: only the bytes above it, 1..W-1 */
            fc_copy_lt64(dp, s + (dp - d), (size_t)(dend - dp));
        else
            FC_LSTOREU((FC_LVT *)(dend - FC_LW), t3);
    }
    fc_first_page_safe(d, s, h);
    FC_VZEROUPPER();
    FC_RETURN_OPAQUE(d);
}

/* The aligned loops: 4 unaligned loads + 4 aligned stores per step; forward
 * while more than 4W remain after dp, backward while more than 4W remain
 * before dp.  Return where they stopped.  `sure` (a constant after inlining):
 * the caller knows that more than 4 LW remain, so the first step runs untested
 * (fc_loop_fwd and fc_loop_bwd: n > 8 LW, at most LW skipped).  That test
 * cost the backward loop 4-10% at 264-512 B (Zen 3, fcbench sizes, a build
 * with it and one without in one process, 6 runs of 21 rounds, medians of
 * time / glibc's: aligned 1.08-1.10x -> 0.98-1.03x, dst+1 1.07-1.09x ->
 * 1.01-1.06x at 264-384 B). */
FC_INLINE fc_u8 *fc_body_fwd(fc_u8 *dp, const fc_u8 *sp, fc_u8 *dend, int sure)
{
    if (!sure && (size_t)(dend - dp) <= 4 * FC_LW) return dp;
    do {
        FC_LVT a = FC_LLOADU((const FC_LVT *)sp), b = FC_LLOADU((const FC_LVT *)(sp + FC_LW));
        FC_LVT c = FC_LLOADU((const FC_LVT *)(sp + 2 * FC_LW)), e = FC_LLOADU((const FC_LVT *)(sp + 3 * FC_LW));
        FC_LSTOREA((FC_LVT *)dp, a);
        FC_LSTOREA((FC_LVT *)(dp + FC_LW), b);
        FC_LSTOREA((FC_LVT *)(dp + 2 * FC_LW), c);
        FC_LSTOREA((FC_LVT *)(dp + 3 * FC_LW), e);
        dp += 4 * FC_LW;
        sp += 4 * FC_LW;
    } while ((size_t)(dend - dp) > 4 * FC_LW);
    return dp;
}

FC_INLINE fc_u8 *fc_body_bwd(fc_u8 *dp, const fc_u8 *sp, fc_u8 *d, int sure)
{
    if (!sure && (size_t)(dp - d) <= 4 * FC_LW) return dp;
    do {
        dp -= 4 * FC_LW;
        sp -= 4 * FC_LW;
        FC_LVT e = FC_LLOADU((const FC_LVT *)(sp + 3 * FC_LW)), c = FC_LLOADU((const FC_LVT *)(sp + 2 * FC_LW));
        FC_LVT b = FC_LLOADU((const FC_LVT *)(sp + FC_LW)), a = FC_LLOADU((const FC_LVT *)sp);
        FC_LSTOREA((FC_LVT *)(dp + 3 * FC_LW), e);
        FC_LSTOREA((FC_LVT *)(dp + 2 * FC_LW), c);
        FC_LSTOREA((FC_LVT *)(dp + FC_LW), b);
        FC_LSTOREA((FC_LVT *)dp, a);
    } while ((size_t)(dp - d) > 4 * FC_LW);
    return dp;
}

/* Forward: preload the first vector and the last 4; align dst up to W; the
 * loop; then store the preloaded tail and head.  Correct for memmove whenever
 * dst <= src or the buffers do not overlap: each loop load reads bytes no
 * earlier store wrote.
 * `apart` (a constant after inlining): the buffers do not overlap, so when a
 * page boundary lies under the unaligned edge stores (the first W bytes, the
 * last 4W), fc_edges_page_safe stores them split at the boundary instead.  Measured
 * and not kept, against 4K aliasing between consecutive calls on the same
 * buffers (a call's first loads hitting the previous call's last stores):
 * storing the preloaded edges before the loop (0.96-1.04x at 1-16 KiB, 1.06x
 * slower at 300 B) and loading the tail only after the loop (1.1-1.5x slower
 * when dst - src is 6..26 below a multiple of 4096 at 1-4 KiB). */
FC_NOINLINE void *fc_move_fwd_page_head(fc_u8 *d, const fc_u8 *s, size_t n);
FC_INLINE void *fc_loop_fwd(fc_u8 *d, const fc_u8 *s, size_t n, int apart)
{
    if (!apart && FC_PAGE_SAFE && __builtin_expect(FC_NEAR_PAGE_END(d, FC_LW), 0))
        return fc_move_fwd_page_head(d, s, n);
    FC_LVT h = FC_LLD(0);
    fc_blk4 t = fc_ld4(s, n - 4 * FC_LW);
    fc_u8 *const dend = d + n;
    size_t skip = FC_LW - ((uintptr_t)d & (FC_LW - 1)); /* 1..W: the head covers it */
    fc_u8 *dp = fc_body_fwd(d + skip, s + skip, dend, 1);
    /* Tested after the loop, off the path to the first loads (before it: 300-512 B 1.06x slower).
     * What it costs where each call's first loads wait for the previous call's last stores (src
     * 1 byte ahead of dst mod 4096, fcbench's src+1; Zen 3, 6 runs, time / glibc's): 264-1536 B
     * 1.10-1.17x, a build without the test 0.93-1.01x.  Neither the flag computed before the
     * loop, nor the branch before it, nor the same ALU work with no branch gave that back: cause
     * not found.  Kept: without it a store straddles a page at ~3% of placements (~6.5 ns
     * each on Zen 3; the worst-placement target). */
    if (apart && FC_PAGE_SAFE &&
        __builtin_expect(FC_EDGES_NEAR_PAGE(d, FC_LW, dend - 4 * FC_LW, 4 * FC_LW), 0))
        return fc_edges_page_safe(d, s, n, dp, h, t.v[3]); /* a tail call: no frame for the common path */
    fc_st4(d, n - 4 * FC_LW, t);
    FC_LST(0, h);
    return d;
}

/* Backward, the mirror: preload the first 4 vectors and the last one; align
 * the dst end down to W; the loop downward; store head and tail last.
 * Correct for memmove whenever dst >= src or the buffers do not overlap.
 * `apart`: the buffers do not overlap, so when a page boundary lies under an
 * unaligned edge store (the first 4W bytes, the last W) the copy goes to
 * fc_loop_bwd_edges.  Tested before the loop (unlike the forward loop, whose
 * test sits after it: the backward order costs nothing measurable there). */
FC_NOINLINE void *fc_loop_bwd_edges(fc_u8 *d, const fc_u8 *s, size_t n);
FC_NOINLINE void *fc_move_bwd_page_tail(fc_u8 *d, const fc_u8 *s, size_t n);
FC_INLINE void *fc_loop_bwd(fc_u8 *d, const fc_u8 *s, size_t n, int apart)
{
    if (apart && FC_PAGE_SAFE && __builtin_expect(FC_EDGES_NEAR_PAGE(d, 4 * FC_LW, d + n - FC_LW, FC_LW), 0))
        return fc_loop_bwd_edges(d, s, n);
    if (!apart && FC_PAGE_SAFE && __builtin_expect(FC_NEAR_PAGE_END(d + n - FC_LW, FC_LW), 0))
        return fc_move_bwd_page_tail(d, s, n);
    fc_blk4 h = fc_ld4(s, 0);
    FC_LVT t = FC_LLD(n - FC_LW);
    fc_u8 *const dend = d + n;
    size_t skip = (((uintptr_t)dend - 1) & (FC_LW - 1)) + 1; /* 1..W: the tail covers it */
    fc_body_bwd(dend - skip, s + n - skip, d, 1);
    fc_st4(d, 0, h);
    FC_LST(n - FC_LW, t);
    return d;
}

/* fc_loop_bwd for buffers that do not overlap with a page boundary under an
 * edge (~5 in 4096 placements).  No edge store straddles the boundary:
 *   - tail, stored first: the loop starts at the last W-aligned address
 *     below d + n, so a boundary inside [d + n - W, d + n) is that address
 *     and only the 1..W-1 bytes above it are left: one fc_copy_lt64 from src;
 *   - head, after the loop and loaded only then: aligned vectors from where
 *     the loop stopped down to the first W-aligned address above d (aligned
 *     stores cannot straddle), then [d, d + W) - or, when the boundary is
 *     inside it, only the bytes below the boundary (fc_copy_lt64).
 * These loads read bytes below where the loop's stores began (dst is 0..255
 * bytes ahead of src mod 4096 here), so they meet none of this call's stores.
 * Stored after the loop from the preloaded registers, split at the boundary,
 * an edge cost Zen 4 6-14 ns (4 KiB, dst 9 bytes ahead of src mod 4096, the
 * boundary under the tail: 42-44 ns, 36.6 with the tail not stored at all,
 * 35.2 aligned; the same with a 65 ns pause between calls, so not the
 * previous call's stores).  Measured (Zen 4, avx2 and avx512-ymmloop built
 * both ways in one process, alternating, 31 medians per placement), time
 * with / without, 1-8 KiB: the boundary under the tail 0.71-0.97x (4097 B
 * with page-aligned buffers 0.875x), under the head 0.58-0.97x (4097 B,
 * dst 46 bytes below a boundary: 45 -> 36 ns, the aligned copy 35.2), other
 * placements 0.98-1.01x.  Measured and not kept: the split head stored
 * first, before the loop, from registers or from src (4097 B: 0.90-0.95x);
 * both loops' leftover bytes always by fc_copy_lt64 after the aligned
 * vectors, one helper shared with fc_loop_fwd_inorder's epilogue (1.03-
 * 1.19x the time at 1-4 KiB for these placements: one vector store where
 * no boundary lies inside it is cheaper than the branchy small copy). */
FC_NOINLINE void *fc_loop_bwd_edges(fc_u8 *d, const fc_u8 *s, size_t n)
{
    fc_u8 *const dend = d + n;
    size_t skip = (((uintptr_t)dend - 1) & (FC_LW - 1)) + 1; /* 1..W: the tail covers it */
    if (FC_NEAR_PAGE_END(dend - FC_LW, FC_LW)) {
        size_t r = (uintptr_t)dend & 4095; /* the bytes above the boundary: 1..W-1 (= skip) */
        fc_copy_lt64(dend - r, s + n - r, r);
    } else {
        FC_LST(n - FC_LW, FC_LLD(n - FC_LW));
    }
    fc_u8 *dp = fc_body_bwd(dend - skip, s + n - skip, d, 0); /* W-aligned, d < dp <= d + 4W */
    for (dp -= FC_LW; dp > d; dp -= FC_LW) FC_LSTOREA((FC_LVT *)dp, FC_LLOADU((const FC_LVT *)(s + (dp - d))));
    fc_first_page_safe(d, s, FC_LLD(0));
    FC_RETURN_OPAQUE(d);
}

/* fc_loop_fwd for a forward memmove (src inside (dst, dst + n)) whose first
 * vector would straddle a page boundary: the loop starts at the first
 * LW-aligned address above d, which is then the boundary, so the 1..LW-1
 * bytes below it are moved first (fc_copy_lt64).  Safe before the loop:
 * those stores land below src + p - (src - dst), under every byte the loop
 * reads (from src + p up).  The tail is preloaded as in fc_loop_fwd.  The
 * mirror of fc_move_bwd_page_tail; measured with it (below). */
FC_NOINLINE void *fc_move_fwd_page_head(fc_u8 *d, const fc_u8 *s, size_t n)
{
    fc_blk4 t = fc_ld4(s, n - 4 * FC_LW);
    size_t p = FC_LW - ((uintptr_t)d & (FC_LW - 1)); /* 1..LW-1 */
    fc_copy_lt64(d, s, p); /* the bytes below the boundary, first */
    fc_body_fwd(d + p, s + p, d + n, 0);
    fc_st4(d, n - 4 * FC_LW, t);
    FC_RETURN_OPAQUE(d);
}

/* fc_loop_bwd for a backward memmove (dst inside (src, src + n)) whose last
 * vector would straddle a page boundary: the loop starts at the last
 * LW-aligned address below d + n, which is then the boundary, so the 1..LW-1
 * bytes above it are moved first, by fc_copy_lt64 (every load before its
 * stores).  That is safe before the loop: those stores land at or above
 * src + n - r + (dst - src), above every byte the loop still reads (below
 * src + n - r).  The head is preloaded as in fc_loop_bwd.  This is
 * fcbench memmove's "dst = src + 1" at 4 KiB, src page-aligned (dst ends 1
 * byte into the next page): the straddling tail store took fastcopy to 1.04-
 * 1.05x glibc's time in three runs (52.0-52.4 against 49.9-50.0 ns).
 * Measured (Zen 4, avx512-ymmloop built with and without both page-edge
 * moves in one process, 21 rounds, medians, src page-aligned, dst = src +
 * delta): delta +1, time with / without, 4 KiB 0.78x (52.0 -> 40.6 ns;
 * glibc 49.9), 8 KiB 0.87x, 16 KiB 0.93x, 64 KiB 0.97x; delta -1 (the
 * forward head across the boundary) 1 KiB 0.64x, 4 KiB 0.78x, 8 KiB 0.87x,
 * 16 KiB 0.93x, 64 KiB 0.98x; +-32, -2048 and 1 KiB at +1 (no boundary
 * under an edge) 1.00x, within 0.8%. */
FC_NOINLINE void *fc_move_bwd_page_tail(fc_u8 *d, const fc_u8 *s, size_t n)
{
    fc_blk4 h = fc_ld4(s, 0);
    fc_u8 *const dend = d + n;
    size_t r = (uintptr_t)dend & 4095; /* 1..LW-1 */
    fc_copy_lt64(dend - r, s + n - r, r); /* the bytes above the boundary, first */
    fc_body_bwd(dend - r, s + n - r, d, 0);
    fc_st4(d, 0, h);
    FC_RETURN_OPAQUE(d);
}

/* Forward with no edge loaded early or stored late, for buffers that do not
 * overlap and dst just behind src in the low 12 bits: (src - dst) mod 4096 =
 * delta in 1..FC_INORDER_WINDOW.  Repeated calls on such a pair meet 4K
 * aliasing in fc_loop_fwd: a call's first loads (its preloaded tail, src's
 * last 4 LW bytes) match, in their low 12 bits, the previous call's last
 * stores (dst's last bytes, delta lower) still in the store buffer, and wait
 * for them.  Here every access runs in address order and no load comes
 * after a store of a higher address: the head up to the aligned dst by
 * fc_copy_lt64, the loop, single aligned vectors, the last < LW bytes by
 * fc_copy_lt64.  A load at src + x then only ever follows stores below
 * dst + x, whose low 12 bits are those of src + x - delta: no load matches
 * an older store, in this call or from the previous one (whose end the loop
 * reaches long after it drained).
 * Measured (Zen 4, avx2 and avx512-ymmloop built with and without this path
 * in one process, alternating, 11 medians per placement, src_off 0/13/33/58,
 * 12 distances per side; geometric means over the placements, 3-4 runs):
 * dst behind src, time with / without: 4 KiB 0.89-0.91x (the best
 * placements 0.71-0.82x), 16 KiB 0.96x, 2 KiB 0.96-0.99x; at 1 KiB 1.04-
 * 1.12x (the branchy head and tail), hence the default inorder_min of 2 KiB
 * (fc__x86_tune; fastcopy-tune measures it per machine: on Emerald Rapids
 * this path lost at 2 KiB, docs/x86.md); the other
 * placements unchanged (0.99-1.01x).  Measured and not kept: the mirror for
 * dst just ahead (a backward loop in address order: 0.95-1.13x at 2-16 KiB
 * over two sessions' runs, the worst at 2-3.5 KiB)
 * and this path for 4K-congruent buffers (0.95-0.96x at 4 KiB, 1.02-1.09x at
 * 16 KiB).  fcbench's worst placements also move from one process to the
 * next (the same build: 4 KiB 0.73-0.82x its aligned speed in three runs). */
#ifndef FC_INORDER_WINDOW
#define FC_INORDER_WINDOW (4 * FC_LW) /* 0: no in-order paths (for measuring them) */
#endif
FC_INLINE void *fc_loop_fwd_inorder(fc_u8 *d, const fc_u8 *s, size_t n)
{
    size_t head = (0 - (uintptr_t)d) & (FC_LW - 1); /* 0..LW-1 bytes up to the aligned dst */
    fc_copy_lt64(d, s, head);
    fc_u8 *const dend = d + n, *dp = fc_body_fwd(d + head, s + head, dend, 0);
    const fc_u8 *sp = s + (dp - d);
    for (; (size_t)(dend - dp) >= FC_LW; dp += FC_LW, sp += FC_LW) FC_LSTOREA((FC_LVT *)dp, FC_LLOADU((const FC_LVT *)sp));
    fc_copy_lt64(dp, sp, (size_t)(dend - dp)); /* inside one aligned LW block: no page boundary */
    return d;
}

/* Non-temporal forward, buffers known not to overlap: the first 64 bytes with
 * ordinary stores, then dst aligned to 64 and blocks of 4 vectors (a multiple
 * of 64 bytes) streamed; sfence; the last 4W with ordinary stores (they may
 * rewrite streamed bytes with the same values).  With nt_pages = 4 (policy or
 * FASTCOPY_TUNE) the bulk goes 16 KiB at a time as four 4 KiB streams: each
 * step loads 4 vectors at the same offset of four consecutive pages, then
 * streams all 16 (more DRAM pages and write-combining buffers in flight: 1.3x
 * faster at 400 MiB on the Intel Xeon development machine, equal to glibc's
 * large_memcpy_4x); the rest, and every stream with nt_pages = 1, is one linear
 * stream with source prefetch ahead.
 *
 * The linear stream prefetches every source line (one prefetchnta per 64 B)
 * FC_NT_PREFETCH bytes ahead.  Measured (Zen 4 guest, fcbench large, 400 MiB,
 * FCBENCH_LIBS builds side by side, 4 processes, order rotated; share of the
 * best DRAM kernel without prefetch beside the aligned copy, aligned /
 * src+1): one prefetch per 4 LW step, 512 B ahead (until 2026-11-27: every
 * other line at LW = 32, every fourth at 64) 0.89-1.01 / 0.87-0.98; no
 * prefetch 0.96-1.01 / 0.91-0.95; every line 512 B ahead 0.99-1.06 /
 * 0.94-1.06, 1 KiB 1.04-1.10 / 0.96-1.07, 2 KiB 1.06 / 1.02-1.15; the
 * avx512 entry (LW = 64) 0.89-0.95 / 0.88-0.99 -> 0.98-1.12 / 0.94-1.06 at
 * 1 KiB.  One prefetch per step 1-2 KiB ahead: 0.70-0.75 (it skips lines).
 * Against fcbench's avx2-nt-pf kernel (this loop's prefetch; 3 processes):
 * avx512-ymmloop 0.82-0.96 / 0.83-0.89 -> 0.95-1.03 / 0.98-1.02, avx512
 * 0.75-0.85 / 0.79-0.83 -> 0.94-0.97 / 0.97-1.03, avx2 0.87-0.93 /
 * 0.84-0.90 -> 0.96-1.00 / 0.96-1.05; 16-32 MiB (fcbench sizes) 0.92-1.01x
 * the time. */
#ifndef FC_NT_PREFETCH
#define FC_NT_PREFETCH 2048 /* bytes ahead; 0: no prefetch */
#endif
#define FC_NT_PAGE 4096
FC_NOINLINE void *fc_loop_nt(fc_u8 *d, const fc_u8 *s, size_t n)
{
    for (size_t k = 0; k < 64; k += FC_LW) FC_LST(k, FC_LLD(k));
    size_t skip = 64 - ((uintptr_t)d & 63);
    fc_u8 *dp = d + skip, *const dend = d + n;
    const fc_u8 *sp = s + skip;
    if (fc__x86_tune.nt_pages == 4) {
        while ((size_t)(dend - dp) >= 4 * FC_NT_PAGE) {
            for (size_t o = 0; o < FC_NT_PAGE; o += 4 * FC_LW) {
                FC_LVT v[4][4];
                for (size_t p = 0; p < 4; p++)
                    for (size_t k = 0; k < 4; k++) v[p][k] = FC_LLOADU((const FC_LVT *)(sp + p * FC_NT_PAGE + o + k * FC_LW));
                for (size_t p = 0; p < 4; p++)
                    for (size_t k = 0; k < 4; k++) FC_LSTREAM((FC_LVT *)(dp + p * FC_NT_PAGE + o + k * FC_LW), v[p][k]);
            }
            dp += 4 * FC_NT_PAGE;
            sp += 4 * FC_NT_PAGE;
        }
    }
    while ((size_t)(dend - dp) >= 4 * FC_LW) {
        if (FC_NT_PREFETCH)
            for (size_t k = 0; k < 4 * FC_LW; k += 64) __builtin_prefetch(sp + FC_NT_PREFETCH + k, 0, 0);
        FC_LVT a = FC_LLOADU((const FC_LVT *)sp), b = FC_LLOADU((const FC_LVT *)(sp + FC_LW));
        FC_LVT c = FC_LLOADU((const FC_LVT *)(sp + 2 * FC_LW)), e = FC_LLOADU((const FC_LVT *)(sp + 3 * FC_LW));
        FC_LSTREAM((FC_LVT *)dp, a);
        FC_LSTREAM((FC_LVT *)(dp + FC_LW), b);
        FC_LSTREAM((FC_LVT *)(dp + 2 * FC_LW), c);
        FC_LSTREAM((FC_LVT *)(dp + 3 * FC_LW), e);
        dp += 4 * FC_LW;
        sp += 4 * FC_LW;
    }
    _mm_sfence();
    fc_st4(d, n - 4 * FC_LW, fc_ld4(s, n - 4 * FC_LW));
    FC_RETURN_OPAQUE(d);
}

/* n > 8W: pick the direction (see the table at the top). */
FC_INLINE void *fc_copy_large(fc_u8 *d, const fc_u8 *s, size_t n)
{
    uintptr_t diff = (uintptr_t)d - (uintptr_t)s;
    if (diff < n) /* dst in [src, src + n) */
        return diff ? fc_loop_bwd(d, s, n, 0) : d;
    if ((uintptr_t)s - (uintptr_t)d < n) /* src in (dst, dst + n) */
        return fc_loop_fwd(d, s, n, 0);
    /* Non-temporal stores and the rep movsb window (empty unless the policy
     * or FASTCOPY_TUNE opens it) start at special_min: one compare below it. */
    if (__builtin_expect(n >= fc__x86_tune.special_min, 0)) {
        if (n >= fc__x86_tune.nt_threshold) return fc_loop_nt(d, s, n);
        /* in the window, and not within movsb_gap bytes of 4K aliasing: (dst - src)
         * mod 4096 outside [-gap, gap) (Zen 3/Zen 4: 128, rep movsb collapses 30x
         * there; EMR and Zen 5, the default: 0, no exclusion) */
        size_t gap = fc__x86_tune.movsb_gap;
        if (n - fc__x86_tune.movsb_min < fc__x86_tune.movsb_max - fc__x86_tune.movsb_min &&
            ((diff + gap) & 4095) >= 2 * gap) {
            /* from a 64-aligned dst (Zen 3's rep movsb is 7-60x slower at dst+1):
             * the first 64 bytes by vectors, rep movsb from the next line on */
            size_t head = 64 - ((uintptr_t)d & 63); /* 1..64 */
            for (size_t k = 0; k < 64; k += FC_LW) FC_LST(k, FC_LLD(k));
            fc__rep_movsb(d + head, s + head, n - head);
            return d;
        }
    }
    /* (dst - src) mod 4096 in 0..WINDOW-1: backward (0 included, as glibc
     * does: repeated copies between two 4K-congruent buffers - two page-aligned
     * allocations - run faster backward; Zen 3, fcbench sizes aligned, 3 rounds,
     * time / glibc's: 513 B 1.105 -> 1.052, 1023 B 1.085 -> 1.000, 1025 B
     * 1.057 -> 1.000, 2047 B 1.044 -> 1.000, 4097 B 1.058 -> 0.910, powers of
     * two unchanged), unless the entry sets FC_CONGRUENT_FWD: then 0 goes
     * forward, n mod 4096 = 1..64 excepted (above) */
    if ((diff & 4095) < (uintptr_t)FC_ALIAS_WINDOW &&
        (!FC_CONGRUENT_FWD || (diff & 4095) != 0 || ((n - 1) & 4095) < FC_CONGRUENT_KEEP_BWD))
        return fc_loop_bwd(d, s, n, 1);
    /* dst 1..FC_INORDER_WINDOW bytes behind src mod 4096, n >= inorder_min:
     * forward with every access in address order (the distance first: other
     * placements do not load the setting) */
    if (FC_INORDER_WINDOW && ((0 - diff - 1) & 4095) < (uintptr_t)FC_INORDER_WINDOW &&
        n >= fc__x86_tune.inorder_min)
        return fc_loop_fwd_inorder(d, s, n);
    return fc_loop_fwd(d, s, n, 1);
}

/* Sizes above FC_LOOP_FROM go to the loops (fc_copy_large): 8W unless set
 * lower (read by the W = 64 ladder only; never below 8 FC_LW, the loops'
 * minimum).  Measured and not kept (Zen 4, avx512-ymmloop with 256: 257-512 B
 * by the ymm loop instead of the zmm class): fixed sizes 0.55-0.95x the 8 zmm
 * moves' time, but random sizes pay for the extra branch and the loop's setup:
 * Google A 0.79x -> 0.87x glibc's time (6 processes; an earlier run read the
 * loop 0.41x-1.22x glibc's by process, which 6 later processes did not show).
 * FC_VEC8_STEPS takes most of the fixed-size gain inside the class. */
#ifndef FC_LOOP_FROM
#define FC_LOOP_FROM (8 * FC_W)
#endif
#if FC_LOOP_FROM < 8 * FC_LW || FC_LOOP_FROM > 8 * FC_W
#error "FC_LOOP_FROM must lie in [8 FC_LW, 8 FC_W]"
#endif

/* n <= 8W, the ladder without the page test (fc_copy_split's halves). */
FC_INLINE void fc_copy_le8w(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n < 64)
        fc_copy_lt64(d, s, n);
#if FC_W > 16
    else if (n <= 2 * FC_W)
        fc_vec_2(d, s, n);
#endif
    else if (n <= 4 * FC_W)
        fc_vec_4(d, s, n);
    else
        fc_vec_8(d, s, n);
}

/* memcpy, 2W < n <= 8W, dst crosses a page boundary: two copies that meet at
 * the boundary, so no store straddles it (the buffers do not overlap: memcpy's
 * contract, on which the compiler already relies through `restrict`).
 * This is fcbench's 256 B worst placement on Zen 4 (src page-aligned, dst
 * 1..127 bytes below a page end: 0.48x the aligned speed in the 00:14 run of
 * 2026-11-25; glibc, which stores across the boundary, 0.17x).
 * avx512-ymmloop, 256 B, src page-aligned, dst 48 below a page end: this
 * split 5.0-5.4 ns, the aligned copy 2.45, the same distance without the
 * crossing (src at 512) 3.1-3.5, unsplit straddling stores 12-16 ns.  Written
 * out by hand for that one placement (no calls, no size tests; another
 * harness, quiet moments): these two copies 4.1-4.5 ns; the bytes below the
 * boundary by two ymm moves, then three aligned zmm and the last zmm, all
 * loads first, 3.7-4.4 ns (0.55-0.66x aligned), near the floor for the stores
 * such a copy needs.  Measured and not kept (the A/B harness of the page-safe
 * edges, 31 medians, dst 1..255 bytes below a page end), time / this
 * split's: aligned W-vectors between an unaligned first and last vector (or
 * fc_copy_lt64 for the < W bytes on one side) in one or two loops,
 * 0.85-1.34x; the same with every load first (4 or 8 aligned offsets,
 * clamped to the last one), 1.3-2.2x.  Nor do byte-masked stores help (AVX-
 * 512BW, each straddling zmm stored as two masked stores, one per page): 22-26
 * ns against the unsplit 12-16 in a standalone loop.  The same virtual
 * placement also depends on the physical pages behind it (2026-11-25: src
 * page-aligned, dst 91 below a page end, the pages remapped in one process
 * between 10 trials: 5.4-5.6 ns in most, 10.5 ns in 1-3 of 10, the aligned
 * copy 2.45 throughout; glibc 15-20 ns by process): fcbench's 256 B worst
 * placement reads 0.2-0.7x from run to run. */
FC_NOINLINE void *fc_copy_split(fc_u8 *d, const fc_u8 *s, size_t n)
{
    size_t p = 4096 - ((uintptr_t)d & 4095); /* 1..n-1 */
    fc_copy_le8w(d, s, p);
    fc_copy_le8w(d + p, s + p, n - p);
    FC_RETURN_OPAQUE(d);
}

/* The whole ladder; memcpy and memmove share it.  Returns d.  n < 64 is
 * tested first, then n <= 16 and n >= 4 (fc_copy_lt64): with the two
 * branch-free classes 4..16 and 17..63, 17..63 is two compares away, 0..3
 * and 4..16 three, and 64..2W one.  Intel Xeon guest, fcbench dist head to head with glibc
 * (batches of 65536 calls), 4 alternating rounds, medians (A B D L M W): the
 * ladder with classes <16, 16..32, 33..64 (a compare for each, and one at 8
 * and 4) 0.87 1.05 1.09 0.80 1.03 1.08; this one 0.81 0.82 0.81 0.72 0.73
 * 0.77.  The price, fixed sizes in a loop:
 * 16-63 B about 1 cycle more per call (4 moves instead of 2), 1.0-1.13x
 * glibc's time where the old ladder had 0.7-0.87x (fcbench sizes).
 * `split` (a constant): memcpy splits 2W+1..8W copies at a page boundary;
 * memmove does not test for it, keeping its short path as it was (its
 * overlapping moves across a page measured 1-3 ns slower per call behind a
 * test - 128-256 B moved by -32 - and routing them into the split, even to
 * the same all-loads-first copy, 2x slower: 4.9 -> 9.9 ns at 256 B). */
FC_INLINE void *fc_vec_copy(fc_u8 *d, const fc_u8 *s, size_t n, int split)
{
#if defined(FC_MASKED_SMALL)
    /* avx512_masked.c: n <= 64 with one byte-masked load and store (AVX512BW,
     * BMI2): masked-off bytes are not accessed and cannot fault. */
    if (n <= 64) {
        __mmask64 m = _bzhi_u64(~0ull, (unsigned)n);
        _mm512_mask_storeu_epi8(d, m, _mm512_maskz_loadu_epi8(m, s));
        return d;
    }
#endif
    if (FC_EXPECT_CLANG(n < 64, 0)) {
        /* memmove: overlapping buffers take two moves per class (fc_move_lt64);
         * the test sits inside this block so that memcpy's code, where it
         * folds away, keeps its layout */
        if (FC_MOVE_TWO && !split && n >= 4 && __builtin_expect((uintptr_t)d - (uintptr_t)s + n < 2 * n, 0))
            fc_move_lt64(d, s, n);
        else
            fc_copy_lt64(d, s, n);
        return d;
    }
#if FC_W == 64
    /* W = 64: the 64..128 class falls through (no taken branch: glibc's
     * 64..128 path has none and took 4 cycles to this one's 5 behind a taken
     * branch), then 257..512 falls through after one taken branch (Google A
     * is one third 304-byte copies), and 129..256 and the loops take two. */
    if (__builtin_expect(n <= 2 * FC_W, 1)) {
        fc_vec_2(d, s, n);
        return d;
    }
    if (__builtin_expect(n <= 4 * FC_W, 0)) {
        if (FC_PAGE_SAFE && split && __builtin_expect(FC_CROSSES_PAGE(d, n), 0))
            return fc_copy_split(d, s, n);
        fc_vec_4(d, s, n);
        return d;
    }
    if (__builtin_expect(n > FC_LOOP_FROM, 0)) return fc_copy_large(d, s, n);
    if (FC_PAGE_SAFE && split && __builtin_expect(FC_CROSSES_PAGE(d, n), 0))
        return fc_copy_split(d, s, n);
    fc_vec_8(d, s, n);
    return d;
#else
    /* W = 16, 32: 64..4W falls through, 4W+1..8W takes two taken branches.
     * Measured and not kept (Zen 3, avx2, fcbench sizes and dist, 6 and 4
     * runs, medians of time / glibc's): 4W+1..8W as the fall-through after
     * one taken branch (64..4W behind one): 160-256 B 1.09-1.11x -> 1.00-
     * 1.02x, but 65-128 B 0.86-0.90x -> 1.03-1.13x, and the Google size
     * mixes 2-4% slower (D 0.86x -> 0.89x); n = 64 also in fc_vec_4 (no test
     * for it): 64 B 1.18x -> 1.43x. */
#if FC_W > 16
    if (n <= 2 * FC_W) {
        fc_vec_2(d, s, n);
        return d;
    }
#endif
    if (n <= 4 * FC_W) {
        if (FC_PAGE_SAFE && split && __builtin_expect(FC_CROSSES_PAGE(d, n), 0))
            return fc_copy_split(d, s, n);
        fc_vec_4(d, s, n);
        return d;
    }
    if (n <= 8 * FC_W) {
        if (FC_PAGE_SAFE && split && __builtin_expect(FC_CROSSES_PAGE(d, n), 0))
            return fc_copy_split(d, s, n);
        fc_vec_8(d, s, n);
        return d;
    }
    return fc_copy_large(d, s, n);
#endif
}

/* Entry points start on a 64-byte boundary (as glibc's do): the short classes'
 * few instructions then sit at fixed offsets in the decoded-uop cache lines,
 * and their speed no longer moves with where the linker puts the function
 * (Intel Xeon guest: 65-128 B took 5 or 6 cycles per call depending on the
 * link; aligned, 5). */
#if defined(FC_ASM_LADDER)
/* The entry points are in assembly (FC_ASM_LADDER names the file, avx2 only):
 * it moves n <= 8W itself and jumps here for the loops (n > 8W, memcpy and
 * memmove alike) and for memcpy's 2W+1..8W copies across a page boundary. */
__attribute__((visibility("hidden"), aligned(64))) void *FC_ENTRY_NAME(FC_VEC_ID, _large)(void *dst, const void *src,
                                                                                         size_t n)
{
    return fc_copy_large(dst, src, n);
}
__attribute__((visibility("hidden"))) void *FC_ENTRY_NAME(FC_VEC_ID, _split)(void *dst, const void *src, size_t n)
{
    return fc_copy_split(dst, src, n);
}
#else
__attribute__((aligned(64))) void *FC_ENTRY_NAME(FC_VEC_ID, _memcpy)(void *restrict dst, const void *restrict src,
                                                                      size_t n)
{
    return fc_vec_copy(dst, src, n, 1);
}

__attribute__((aligned(64))) void *FC_ENTRY_NAME(FC_VEC_ID, _memmove)(void *dst, const void *src, size_t n)
{
    return fc_vec_copy(dst, src, n, 0);
}
#endif
