/*
 * word-coaligned - the pre-2026 Linux riscv memcpy algorithm, the "before"
 * baseline of the Linux riscv shifted-copy patch (docs/riscv.md).
 *
 * For:   measurement: what the shifted-copy patch replaced.  Any CPU; aligned accesses only.
 * Needs: nothing.
 *
 *   | n     | src/dst alignment          | technique                                      |
 *   |-------|----------------------------|------------------------------------------------|
 *   | < 128 | any                        | byte loop                                      |
 *   | >= 128| d%W != s%W                 | byte loop (the case the shifted copy fixed)    |
 *   | >= 128| co-aligned                 | bytes to align dst, 16-word unrolled loop      |
 *   |       |                            | (128 B on 64-bit), bytes for the remainder     |
 *
 * memmove: forward as above unless dst lies in (src, src + n); then the same
 * classes mirrored from the end (the kernel's memmove of that era went
 * backward byte by byte; mirroring keeps the two directions comparable).
 */
#include "portable.h"
#include "word.h"

#define MIN_WORDS 128
#define UNROLL 16

static int use_words(const fc_u8 *d, const fc_u8 *s, size_t n)
{
    return n >= MIN_WORDS && ((FC_ADDR(d) ^ FC_ADDR(s)) & FC_WMASK) == 0;
}

static void coaligned_fwd(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (!use_words(d, s, n)) {
        fc_bytes_fwd(d, s, n);
        return;
    }
    fc_align_dst_fwd(&d, &s, &n);
    for (; n >= UNROLL * FC_WSIZE; n -= UNROLL * FC_WSIZE, d += UNROLL * FC_WSIZE, s += UNROLL * FC_WSIZE)
        fc_block(d, s, UNROLL);
    fc_bytes_fwd(d, s, n);
}

void *fc_word_coaligned_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    coaligned_fwd(dst, src, n);
    return dst;
}

void *fc_word_coaligned_memmove(void *dst, const void *src, size_t n)
{
    fc_u8 *d = dst;
    const fc_u8 *s = src;
    if (!fc_overlap_backward(d, s, n)) {
        coaligned_fwd(d, s, n);
        return dst;
    }
    fc_u8 *de = d + n;
    const fc_u8 *se = s + n;
    if (!use_words(d, s, n)) {
        fc_bytes_bwd(de, se, n);
        return dst;
    }
    fc_align_dst_bwd(&de, &se, &n);
    for (; n >= UNROLL * FC_WSIZE; n -= UNROLL * FC_WSIZE) {
        de -= UNROLL * FC_WSIZE;
        se -= UNROLL * FC_WSIZE;
        fc_block(de, se, UNROLL);
    }
    fc_bytes_bwd(de, se, n);
    return dst;
}
