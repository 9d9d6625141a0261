/*
 * Portable word-copy primitives shared by the C implementations.
 *
 * A "word" is the register width (unsigned long: 8 bytes on LP64, 4 on ILP32).
 * Every access made through these helpers is naturally aligned: they are valid
 * on strict-alignment CPUs.  Type punning goes through may_alias types, so no
 * strict-aliasing rule is broken.  The library is built with -fno-builtin and
 * without loop-idiom recognition, so none of this turns into a libc call.
 */
#ifndef FC_PORTABLE_WORD_H
#define FC_PORTABLE_WORD_H

#include <stddef.h>
#include <stdint.h>

#include <fastcopy/bits/headtail.h>

typedef unsigned long fc_word;
typedef unsigned long __attribute__((may_alias)) fc_word_alias;
typedef uint32_t __attribute__((may_alias)) fc_u32_alias;
typedef uint16_t __attribute__((may_alias)) fc_u16_alias;

#define FC_WSIZE ((size_t)sizeof(fc_word))
#define FC_WMASK (FC_WSIZE - 1)
#define FC_WBITS (8u * (unsigned)sizeof(fc_word))

typedef unsigned char fc_u8;

#define FC_INLINE static inline __attribute__((always_inline))

/* Fully unrolls the next fixed-count loop, so a block's words live in
 * registers rather than in a stack array (gcc and clang both honour it). */
#define FC_UNROLL_FULL _Pragma("GCC unroll 32")

/* Keeps the compiler from vectorising a loop or turning it into a libc call:
 * the value of x is "changed" by an empty asm every iteration. */
#define FC_OPAQUE(x) __asm__("" : "+r"(x))

/* Functions that deliberately read bytes outside the source buffer (inside an
 * aligned word that holds source bytes, never across a page) opt out of
 * AddressSanitizer and of its hardware-tag variant HWASan (-fsanitize=
 * hwaddress, AArch64: such a word can reach into a neighbouring 16-byte
 * granule of another tag).  no_sanitize("address", "hwaddress") covers both
 * (gcc >= 8, clang); older compilers know only no_sanitize_address. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define FC_NO_ASAN __attribute__((no_sanitize("address", "hwaddress")))
#endif
#endif
#if !defined(FC_NO_ASAN) && (defined(__clang__) || defined(__GNUC__))
#define FC_NO_ASAN __attribute__((no_sanitize_address))
#endif
#ifndef FC_NO_ASAN
#define FC_NO_ASAN
#endif

#define FC_ADDR(p) ((uintptr_t)(p))

/* Byte loops that stay byte loops on every target: the opaque value forces one
 * load and one store per byte (no vectorising, no libc call, no s390x MVC). */
FC_INLINE void fc_bytes_fwd(fc_u8 *d, const fc_u8 *s, size_t n)
{
    for (; n; n--) {
        fc_u8 c = *s++;
        FC_OPAQUE(c);
        *d++ = c;
    }
}

FC_INLINE void fc_bytes_bwd(fc_u8 *de, const fc_u8 *se, size_t n)
{
    for (; n; n--) {
        fc_u8 c = *--se;
        FC_OPAQUE(c);
        *--de = c;
    }
}

/* align: bytes until dst is word-aligned; advances the pointers and shrinks n.
 * The _bwd version works below end pointers de/se. */
FC_INLINE void fc_align_dst_fwd(fc_u8 **dp, const fc_u8 **sp, size_t *n)
{
    size_t k = (size_t)(-FC_ADDR(*dp) & FC_WMASK);
    fc_bytes_fwd(*dp, *sp, k);
    *dp += k;
    *sp += k;
    *n -= k;
}

FC_INLINE void fc_align_dst_bwd(fc_u8 **dep, const fc_u8 **sep, size_t *n)
{
    size_t k = (size_t)(FC_ADDR(*dep) & FC_WMASK);
    fc_bytes_bwd(*dep, *sep, k);
    *dep -= k;
    *sep -= k;
    *n -= k;
}

FC_INLINE fc_word fc_ldw(const fc_u8 *p) { return *(const fc_word_alias *)(const void *)p; }
FC_INLINE void fc_stw(fc_u8 *p, fc_word w) { *(fc_word_alias *)(void *)p = w; }

/* block: k (a compile-time constant <= 16) words from an aligned s to an
 * aligned d, every load before any store - so a block is correct for memmove
 * in either direction, and loops of blocks may walk forward or backward. */
FC_INLINE void fc_block(fc_u8 *d, const fc_u8 *s, unsigned k)
{
    fc_word w[16];
    FC_UNROLL_FULL
    for (unsigned i = 0; i < k; i++) w[i] = fc_ldw(s + i * FC_WSIZE);
    FC_UNROLL_FULL
    for (unsigned i = 0; i < k; i++) fc_stw(d + i * FC_WSIZE, w[i]);
}

/* True when dst - src needs a backward copy: dst lies inside (src, src + n). */
FC_INLINE int fc_overlap_backward(const void *dst, const void *src, size_t n)
{
    return FC_ADDR(dst) - FC_ADDR(src) < n && dst != src;
}

/*
 * Head/tail moves for n <= 16, direction-free: every byte is loaded before any
 * is stored, so the same code serves memcpy and memmove.  Written with byte
 * accesses only; where the target allows misaligned access (x86-64, AArch64,
 * s390x) the compiler merges them into one load/store per group, elsewhere it
 * keeps bytes.  The groups overlap: 1-3 copies bytes 0, n/2, n-1; 4-7 the
 * first and last 4; 8-16 the first and last 8.
 */
/* Unaligned 4/8-byte values composed from byte accesses (little-endian order
 * whatever the CPU: a load and the matching store round-trip). */
FC_INLINE uint32_t fc_ld4u(const fc_u8 *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
FC_INLINE void fc_st4u(fc_u8 *p, uint32_t v)
{
    p[0] = (fc_u8)v;
    p[1] = (fc_u8)(v >> 8);
    p[2] = (fc_u8)(v >> 16);
    p[3] = (fc_u8)(v >> 24);
}
FC_INLINE uint64_t fc_ld8u(const fc_u8 *p) { return (uint64_t)fc_ld4u(p) | (uint64_t)fc_ld4u(p + 4) << 32; }
FC_INLINE void fc_st8u(fc_u8 *p, uint64_t v)
{
    fc_st4u(p, (uint32_t)v);
    fc_st4u(p + 4, (uint32_t)(v >> 32));
}

/* The moves over those values, in fastcopy/bits/headtail.h's vocabulary
 * (the inline header's and vec_copy.h's, over their own moves). */
FC_HEAD_TAIL(fc_small_4x2, 1, uint32_t, 4, fc_ld4u, fc_st4u) /* 4 <= n <= 8 */
FC_HEAD_TAIL(fc_small_8x2, 1, uint64_t, 8, fc_ld8u, fc_st8u) /* 8 <= n <= 16 */

FC_INLINE void fc_small_16(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (n >= 8)
        fc_small_8x2(d, s, n);
    else if (n >= 4)
        fc_small_4x2(d, s, n);
    else if (n)
        fc_ht_copy_1_3(d, s, n);
}

/* Aligned 2- and 4-byte accesses. */
FC_INLINE uint16_t fc_ld16(const fc_u8 *p) { return *(const fc_u16_alias *)(const void *)p; }
FC_INLINE void fc_st16(fc_u8 *p, uint16_t v) { *(fc_u16_alias *)(void *)p = v; }
FC_INLINE uint32_t fc_ld32(const fc_u8 *p) { return *(const fc_u32_alias *)(const void *)p; }
FC_INLINE void fc_st32(fc_u8 *p, uint32_t v) { *(fc_u32_alias *)(void *)p = v; }

/*
 * Co-aligned sub-word moves: the low address bits of d and s are equal, so
 * moving 1, then 2, then 4 bytes as the bits of k ask keeps every access
 * aligned.  fc_head_align copies the k bytes up to the next word boundary and
 * advances the pointers; fc_tail_sub copies the k < W bytes left after the
 * words (both pointers aligned).  The _bwd versions mirror them below end
 * pointers de/se.
 */
#define FC_HAS_4 (__SIZEOF_LONG__ == 8)

FC_INLINE void fc_head_align(fc_u8 **dp, const fc_u8 **sp, size_t k)
{
    fc_u8 *d = *dp;
    const fc_u8 *s = *sp;
    if (k & 1) { *d = *s; d += 1; s += 1; }
    if (k & 2) { fc_st16(d, fc_ld16(s)); d += 2; s += 2; }
    if (FC_HAS_4 && (k & 4)) { fc_st32(d, fc_ld32(s)); d += 4; s += 4; }
    *dp = d;
    *sp = s;
}

FC_INLINE void fc_tail_sub(fc_u8 *d, const fc_u8 *s, size_t k)
{
    if (FC_HAS_4 && (k & 4)) { fc_st32(d, fc_ld32(s)); d += 4; s += 4; }
    if (k & 2) { fc_st16(d, fc_ld16(s)); d += 2; s += 2; }
    if (k & 1) *d = *s;
}

FC_INLINE void fc_tail_align_bwd(fc_u8 **dep, const fc_u8 **sep, size_t k)
{
    fc_u8 *de = *dep;
    const fc_u8 *se = *sep;
    if (k & 1) { de -= 1; se -= 1; *de = *se; }
    if (k & 2) { de -= 2; se -= 2; fc_st16(de, fc_ld16(se)); }
    if (FC_HAS_4 && (k & 4)) { de -= 4; se -= 4; fc_st32(de, fc_ld32(se)); }
    *dep = de;
    *sep = se;
}

FC_INLINE void fc_head_sub_bwd(fc_u8 *de, const fc_u8 *se, size_t k)
{
    if (FC_HAS_4 && (k & 4)) { de -= 4; se -= 4; fc_st32(de, fc_ld32(se)); }
    if (k & 2) { de -= 2; se -= 2; fc_st16(de, fc_ld16(se)); }
    if (k & 1) { de -= 1; se -= 1; *de = *se; }
}

#endif /* FC_PORTABLE_WORD_H */
