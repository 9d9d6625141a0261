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
 *        the opmask and zmm state (both probed in src/cpu/x86_detect.c).
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
 *   |   page (2W+1..)| straddles it; see "page-straddle" below; D10)                    |
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
 *   |   (no overlap) | threshold from the LLC one core group sees (x86_policy.c); with     |
 *   |                | nt_pages = 4, 16 KiB blocks as four interleaved 4 KiB streams,   |
 *   |                | the rest one stream with prefetch                                 |
 *   | movsb window   | no overlap, |(dst - src) mod 4096| >= movsb_gap: the first 64     |
 *   |   (no overlap) | bytes by vectors, rep movsb from the 64-aligned dst on.  The     |
 *   |                | window, gap and NT threshold: x86_policy.c (features, measured      |
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
 *     the same pair run faster backward; glibc goes backward there too (D07).
 *     An entry that sets FC_CONGRUENT_FWD (avx512-ymmloop, for Zen 4) copies
 *     them forward instead, unless n mod 4096 is 1..64 (D08).
 *   - no overlap, n >= inorder_min (2 KiB unless a profile or FASTCOPY_TUNE
 *     says otherwise), dst 1..FC_INORDER_WINDOW bytes behind
 *     src mod 4096 -> forward in address order (fc_loop_fwd_inorder: no edge
 *     preloaded or stored last, so no load meets an older store with the same
 *     low 12 bits, this call's or the previous call's).
 *     Otherwise forward.
 *
 * Every load and store stays inside [src, src + n) and [dst, dst + n): no
 * over-read, so nothing here is excluded from AddressSanitizer.
 *
 * Primitives: the head/tail moves (fc_ht_copy_1_3, FC_HEAD_TAIL and the
 * unaligned word, xmm and ymm moves) are fastcopy/bits/headtail.h's, shared
 * with the inline header and portable/word.h; fc_vec_2, fc_vec_4 and
 * memmove's fc_move_* are FC_HEAD_TAIL over this file's vectors (D44).
 * Here: the x86-only short classes (fc_copy_4_16, fc_copy_16_63), the
 * 4-vector blocks (FC_DEFINE_BLK4), the loops, the page-safe edges and the
 * direction choice.
 */
#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#include <fastcopy/bits/headtail.h>

#include "cpu/x86.h"

#if !defined(FC_VEC_ID) || !defined(FC_VT) || !defined(FC_W)
#error "define FC_VEC_ID, FC_VT, FC_W and the load/store macros before including vec_copy.h"
#endif

/* Window (bytes) of (dst - src) mod 4096 in which a non-overlapping copy goes
 * backward: a forward loop stalls there on false forwarding from its own stores (D07). */
#ifndef FC_ALIAS_WINDOW
#define FC_ALIAS_WINDOW 256
#endif

/* 4K-congruent buffers ((dst - src) mod 4096 == 0, no overlap): 0 copies them
 * backward at every size (the direction list at the top); 1 copies them
 * forward, except where n mod 4096 is 1..FC_CONGRUENT_KEEP_BWD: forward is
 * the faster on Zen 4 except just past a multiple of 4096 (1..16 lost; likely
 * cause: such a call's last stores end at the low 12 bits of the next call's
 * first loads from src), and 17..64 stay backward as a margin (D08).  The
 * setting belongs to the entry (avx512-ymmloop), and travels with it to any
 * CPU where a profile or FASTCOPY_IMPL selects that entry. */
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
 * points reach them by a tail jump.  Where clang proved it, the entry points
 * kept d in a callee-saved register across the call, and so saved and
 * restored registers on every path, the 4-byte ones included (D03).  gcc
 * already jumps; its code is left as it was. */
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
 * fc_vec_copy's n < 64 test: gcc already puts 64.. in the fall-through; clang
 * put n < 64 there instead (64.. behind a taken branch, 17..63 B slower, and d
 * kept in another register than the return's).  With the hint its layout is
 * gcc's (D03). */
#if defined(__clang__)
#define FC_EXPECT_CLANG(c, v) __builtin_expect((c), (v))
#else
#define FC_EXPECT_CLANG(c, v) (c)
#endif

typedef unsigned char fc_u8;
/* Unaligned words, and the head/tail moves over them and over xmm/ymm:
 * fastcopy/bits/headtail.h, shared with the inline header and word.h. */
typedef fc_ht_u64u fc_u64u;
typedef fc_ht_u32u fc_u32u;
typedef fc_ht_u16u fc_u16u;

/* ---- below 64 bytes: shared by every width, xmm and general registers ---- */

/* n = 0..3: bytes first, middle (n / 2), last cover every byte */
FC_INLINE void fc_copy_lt4(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n) fc_ht_copy_1_3(d, s, n);
}

/* 4 <= n <= 16 without a branch on n: two 4-byte moves (first and last
 * 4 bytes) always, then two 8-byte moves (first and last 8: from s8 and
 * s8 + n - 8 to d8 and d8 + n - 8) where s8, d8 are src, dst when n >= 8
 * and, when n < 8, two spots in a scratch block in the red zone, the 128
 * bytes below the stack pointer that the SysV x86-64 ABI keeps from signal
 * handlers: the loads read rsp-28..rsp-17 (never written here), the stores
 * write rsp-16..rsp-5 (never read), so no load of this path ever waits for
 * one of its stores (an 8-byte constant in .rodata read in place of src was
 * slower in one of two builds: its address matched the slot's in the low 12
 * bits, a 4K-alias stall on every call; D01).  The choice is
 * two cmovs on one compare: a branch at 8 here is mispredicted on real size
 * mixes (4..7 and 8..15 are both common).  The 8-byte stores come last, so
 * for n >= 8 an 8-byte read of either end of dst right after the copy is
 * served by one store (store-to-load forwarding, where four 4-byte moves
 * would need two each; D01).
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
 * stall). */
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
 * (mispredicted on real size mixes; D02).  xmm only, in every build: no ymm or zmm
 * state touched below 64 bytes, so no vzeroupper on this path.  Its cost:
 * about one cycle per call more than two moves on fixed sizes; and at 17..31 B
 * the middle moves overlap dst's last 8 bytes, so reading them right after
 * the copy is not forwarded from one store (D02). */
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
/* The ladder's vector as a headtail.h move */
#define FC_VLD(p) FC_LOADU((const FC_VT *)(const void *)(p))
#define FC_VST(p, v) FC_STOREU((FC_VT *)(void *)(p), v)

/* FC_HI_ZMM (W = 64): the 64..256 B classes, and 257..512 without
 * FC_VEC8_STEPS, move their zmm through zmm16-zmm23 in asm statements.  The
 * compilers place a vzeroupper before a return only where ymm0-15/zmm0-15
 * were written, and legacy SSE code cannot touch zmm16-31, so these paths
 * return without one (the XINUSE bits the test harness checks, ymm0-15's and
 * zmm0-15's upper halves, stay clear; zmm16-31's Hi16_ZMM bit does not, as
 * after glibc's AVX-512 memcpy): the vzeroupper on return was most of the gap
 * to glibc's AVX-512 memcpy at 129..256 B on Emerald Rapids (D04).
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
FC_HEAD_TAIL(fc_vec_2, 1, FC_VT, FC_W, FC_VLD, FC_VST) /* W <= n <= 2W */
FC_HEAD_TAIL(fc_vec_4, 2, FC_VT, FC_W, FC_VLD, FC_VST) /* 2W <= n <= 4W */

#endif

/* 4W <= n <= 8W: the first 4 vectors and the last 4, all loaded first.
 * FC_VEC8_STEPS (avx512_ymmloop.c): the first 4 and only as many last vectors
 * as the bytes past 4W need (1..4: n <= 5W, 6W, 7W, 8W; two compares), so a
 * 264-byte copy stores 5 zmm, not 8.  All loads still come before any store
 * (memmove's overlap).  For cores that split every zmm store in two 256-bit
 * halves (Zen 4), where the stores bound these copies; the two extra branches
 * mispredict on mixes that spread over the steps, a small price next to the
 * fixed-size gain, and one branch at 6W instead gained less (D05). */
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
    /* two blocks (not FC_HEAD_TAIL's per-move addressing): one index
     * register for the last 4 vectors, where fc_copy_split's computed n
     * gave clang one register per vector (D44) */
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
 * forwarding, and on Zen 4 such loads wait in turn, so the fewer the better;
 * the overlap test on memmove's short path costs little (D06).  memcpy's code
 * is unchanged (the test folds away). */
#ifndef FC_MOVE_TWO
#define FC_MOVE_TWO 1 /* 0: memmove's short overlapping moves by fc_copy_lt64 (for measuring) */
#endif
FC_HEAD_TAIL(fc_move_4x2, 1, uint32_t, 4, FC_HT_LD4U, FC_HT_ST4U)
FC_HEAD_TAIL(fc_move_8x2, 1, uint64_t, 8, FC_HT_LD8U, FC_HT_ST8U)
FC_HEAD_TAIL(fc_move_16x2, 1, __m128i, 16, FC_HT_LD16, FC_HT_ST16)
#if FC_W >= 32
FC_HEAD_TAIL(fc_move_32x2, 1, __m256i, 32, FC_HT_LD32, FC_HT_ST32)
#endif
FC_INLINE void fc_move_lt64(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n < 16) {
        if (n >= 8)
            fc_move_8x2(d, s, n);
        else
            fc_move_4x2(d, s, n);
    } else if (n <= 32) {
        fc_move_16x2(d, s, n);
    } else {
#if FC_W >= 32
        fc_move_32x2(d, s, n);
#else
        fc_vec_4(d, s, n); /* W = 16: 2W < n < 4W */
#endif
    }
}

/* ---- loops (n > 8W) ------------------------------------------------------ */

/* The loops' vector: the ladder's (FC_VT, W) unless the entry names another
 * (FC_LVT, FC_LW <= FC_W and its load/store macros): avx512-ymmloop keeps the
 * zmm ladder and runs the loops on ymm, for cores that split every 512-bit
 * load and store in two (AMD Zen 4; see cpu/x86_policy.c). */
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
 * the non-temporal loop, which starts at megabytes, stays out of line: the
 * call showed at 257-700 B (D09). */

/* ---- page-straddle-free edges ----------------------------------------------
 * A store that straddles a 4 KiB page boundary costs several plain stores
 * (Zen 3, at every width from 4 to 32 bytes), a straddling load little (D10).
 * The unaligned vector stores at a copy's edges straddle whenever a page
 * boundary falls inside them: fcbench distance and cliffs show it as a cliff
 * at 256 B (in glibc too) and at 1 KiB.
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
 * two, which showed at 300-512 B (D11). */
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
 * Loading the tail's aligned vectors from src after the loop replaced
 * splitting the preloaded edge vectors at the boundary (D12), which cost Zen 4
 * more than this reload; storing the split tail before the loop was slower
 * (D11). */
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

/* The aligned loops: 4 unaligned loads + 4 aligned stores per step, also
 * where src and dst differ mod 64 and every load splits two lines: aligned
 * loads shifted into place, and aligned loads with unaligned stores, were
 * slower (D28).  Forward while more than 4W remain after dp, backward while
 * more than 4W remain before dp.  Return where they stopped.  `sure` (a
 * constant after inlining): the caller knows that more than 4 LW remain, so
 * the first step runs untested (fc_loop_fwd and fc_loop_bwd: n > 8 LW, at
 * most LW skipped): the test showed in the backward loop at 264-512 B (D09). */
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
 * last 4W), fc_edges_page_safe stores them split at the boundary instead.
 * Against 4K aliasing between consecutive calls on the same buffers (a call's
 * first loads hitting the previous call's last stores), storing the preloaded
 * edges before the loop and loading the tail only after it were both measured
 * slower and not kept (D11). */
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
    /* Tested after the loop, off the path to the first loads (before it was slower).
     * Where each call's first loads wait for the previous call's last stores (src 1 byte ahead
     * of dst mod 4096) the test costs time, cause not found.  Kept: without it some
     * placements store across a page (the worst-placement target; D11). */
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
 * an edge cost Zen 4 more than these reloads (not the previous call's stores:
 * the same with a pause between calls); the split head stored first, and one
 * leftover-bytes helper shared by both loops, were measured and not kept (one
 * vector store where no boundary lies inside it is cheaper than the branchy
 * small copy) (D11). */
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
 * mirror of fc_move_bwd_page_tail (D13). */
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
 * byte into the next page), where the straddling tail store left fastcopy
 * behind glibc (D13). */
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
 * At 1 KiB the branchy head and tail cost more than the stalls they avoid,
 * hence the default inorder_min of 2 KiB (fc__x86_tune; fastcopy-tune
 * measures it per machine) (D14).  The mirror for dst just ahead (a backward
 * loop in address order) and this path for 4K-congruent buffers were measured
 * and not kept (D14). */
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
 * streams all 16 (more DRAM pages and write-combining buffers in flight, as
 * glibc's large_memcpy_4x) (D15); the rest, and every stream with nt_pages = 1,
 * is one linear stream with source prefetch ahead.
 *
 * The linear stream prefetches every source line (one prefetchnta per 64 B)
 * FC_NT_PREFETCH bytes ahead: one prefetch per 4 LW step skips lines (D15). */
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

/* n > 8W: pick the direction (see the table at the top).  The tests on the
 * way into the loops (overlap, the special_min compare, 4K aliasing) are the
 * whole fixed cost above 8W; a 16-vector straight-line class up to 1 KiB in
 * front of them stores more than the loop and was not kept (D27). */
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
         * mod 4096 outside [-gap, gap) (Zen 3/Zen 4: 128, rep movsb collapses
         * there; EMR and Zen 5, the default: 0, no exclusion) (D16) */
        size_t gap = fc__x86_tune.movsb_gap;
        if (n - fc__x86_tune.movsb_min < fc__x86_tune.movsb_max - fc__x86_tune.movsb_min &&
            ((diff + gap) & 4095) >= 2 * gap) {
            /* from a 64-aligned dst (Zen 3's rep movsb is far slower from an unaligned
             * one; D16): the first 64 bytes by vectors, rep movsb from the next line on */
            size_t head = 64 - ((uintptr_t)d & 63); /* 1..64 */
            for (size_t k = 0; k < 64; k += FC_LW) FC_LST(k, FC_LLD(k));
            fc__rep_movsb(d + head, s + head, n - head);
            return d;
        }
    }
    /* (dst - src) mod 4096 in 0..WINDOW-1: backward within 256 B of 4K aliasing:
     * forward stalls on false forwarding (D07); 0 included, as glibc does:
     * repeated copies between two 4K-congruent buffers - two page-aligned
     * allocations - run faster backward (D07), unless the entry sets
     * FC_CONGRUENT_FWD: then 0 goes forward, n mod 4096 = 1..64 excepted (D08) */
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
 * minimum).  257..512 B by the ymm loop (avx512-ymmloop with 256) won on fixed
 * sizes but lost on random ones (the extra branch and the loop's setup);
 * FC_VEC8_STEPS takes most of the fixed-size gain inside the class (D05). */
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
 * Near the floor for the stores such a copy needs; aligned vectors between
 * unaligned edges, every load first, and byte-masked stores were measured
 * slower (D10). */
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
 * and 4..16 three, and 64..2W one: a compare per class below 64 mispredicts
 * on real size mixes, and the price is about a cycle per call on fixed sizes
 * (D02).
 * `split` (a constant): memcpy splits 2W+1..8W copies at a page boundary;
 * memmove does not test for it, keeping its short path as it was (its
 * overlapping moves across a page were slower behind a test, and slower
 * still routed into the split; D10). */
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
    /* W = 64: the 64..128 class falls through (no taken branch, as glibc's
     * 64..128 path), then 257..512 falls through after one taken branch (Google A
     * is one third 304-byte copies), and 129..256 and the loops take two (D17). */
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
    /* W = 16, 32: 64..4W falls through, 4W+1..8W takes two taken branches; the
     * other order cost 64..128 B and the size mixes more than it gained at
     * 160..256 B (D17). */
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
 * and their speed no longer moves with where the linker puts the function (D17). */
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

/* memmove: the ladder and loops of memcpy at every distance dst - src; the
 * W = 64 entries keep zmm even where the distance is an odd multiple of 32
 * (handing those to ymm code lost; D26) */
__attribute__((aligned(64))) void *FC_ENTRY_NAME(FC_VEC_ID, _memmove)(void *dst, const void *src, size_t n)
{
    return fc_vec_copy(dst, src, n, 0);
}
#endif
