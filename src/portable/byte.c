/*
 * byte - the "stock" baseline: one byte at a time.
 *
 * For:   reference and measurement only; what a copy without any word or
 *        vector technique costs on the running CPU.
 * Needs: nothing.  An empty asm on the pointer in every iteration keeps the
 *        compiler from vectorising the loop or turning it into a libc call.
 *
 *   | n   | alignment | technique                                              |
 *   |-----|-----------|--------------------------------------------------------|
 *   | any | any       | byte loop; memmove runs it backward when dst lies in    |
 *   |     |           | (src, src + n)                                         |
 */
#include "portable.h"
#include "word.h"

static void byte_fwd(fc_u8 *d, const fc_u8 *s, size_t n)
{
    for (; n; n--) {
        FC_OPAQUE(d);
        *d++ = *s++;
    }
}

void *fc_byte_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    byte_fwd(dst, src, n);
    return dst;
}

void *fc_byte_memmove(void *dst, const void *src, size_t n)
{
    fc_u8 *d = dst;
    const fc_u8 *s = src;
    if (!fc_overlap_backward(d, s, n)) {
        byte_fwd(d, s, n);
        return dst;
    }
    for (d += n, s += n; n; n--) {
        FC_OPAQUE(d);
        *--d = *--s;
    }
    return dst;
}
