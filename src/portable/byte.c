/*
 * byte - the "stock" baseline: one byte at a time.
 *
 * For:   reference and measurement only; what a copy without any word or
 *        vector technique costs on the running CPU.
 * Needs: nothing.  fc_bytes_fwd/bwd (word.h) keep it one load and one store
 *        per byte: not vectorised, not turned into a libc call.
 *
 *   | n   | alignment | technique                                              |
 *   |-----|-----------|--------------------------------------------------------|
 *   | any | any       | byte loop; memmove runs it backward when dst lies in    |
 *   |     |           | (src, src + n)                                         |
 */
#include "portable.h"
#include "word.h"

void *fc_byte_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    fc_bytes_fwd(dst, src, n);
    return dst;
}

void *fc_byte_memmove(void *dst, const void *src, size_t n)
{
    if (fc_overlap_backward(dst, src, n))
        fc_bytes_bwd((fc_u8 *)dst + n, (const fc_u8 *)src + n, n);
    else
        fc_bytes_fwd(dst, src, n);
    return dst;
}
