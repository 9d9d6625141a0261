/*
 * neon - memcpy/memmove for AArch64 with Advanced SIMD (q registers).
 *
 * For:    every AArch64 Linux CPU: Advanced SIMD is part of the LP64 Linux
 *         ABI (the compiler itself uses q registers in any build).
 * Needs:  unaligned loads and stores of up to 16 bytes to normal memory
 *         (architectural for normal memory); little- or big-endian alike
 *         (bytes are only moved, never combined).
 * Uses:   x0-x9, q0-q7, q16-q23 (caller-saved); no stack, no frame.
 *
 * Size classes (s = src, d = dst, se = s + n, de = d + n):
 *
 *   | n        | technique                                                   |
 *   |----------|-------------------------------------------------------------|
 *   | 0        | nothing                                                     |
 *   | 1        | one byte                                                    |
 *   | 2..3     | two 2-byte moves: first and last 2                          |
 *   | 4..7     | two 4-byte moves: first and last 4                          |
 *   | 8..15    | two 8-byte moves: first and last 8                          |
 *   | 16..32   | two q moves: first and last 16                              |
 *   | 33..64   | ldp/stp of q pairs: first and last 32                       |
 *   | 65..128  | first 64 and last 64 (four q pairs, all loaded first)       |
 *   | 129..256 | first 128 and last 128 (eight q pairs, all loaded first)    |
 *   | > 256    | forward: last 64 and first 16 loaded up front; dst rounded  |
 *   |          | up to 16 (src by the same amount), 64-byte blocks of ldp/stp|
 *   |          | q pairs, each block loaded while the previous one is being  |
 *   |          | stored, pointers moved by the addressing modes (6           |
 *   |          | instructions per 64 bytes); first 16 stored after the first |
 *   |          | block is loaded, last 64 stored last                        |
 *
 * Below 16 bytes a bit-test tree (tbz on bits 3, 2 and 1 of n), 16..32 two
 * compares; the tail addressed as [s + (n - k)] (one sub for both buffers).
 * Every class up to 256 bytes loads everything before it stores, so memmove
 * takes them as they are.  Above 256: memmove goes backward only when dst is
 * inside (s, se); the backward path mirrors the forward one (first 64 and
 * last 16 up front, de rounded down to 16, blocks from the top).  Forward is
 * correct for dst below src too: a block's stores land below the next
 * block's loads, and the edges were loaded before any store could reach them.
 *
 * No access outside [s, se) and [d, de); no byte loop.
 */
#if defined(__aarch64__)
#include "gnu_property.h"

        .text
        .p2align 6
        .globl  fc_neon_memcpy
        .hidden fc_neon_memcpy
        .type   fc_neon_memcpy, %function
fc_neon_memcpy:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cmp     x2, #16
        b.lo    .Llt16
        cmp     x2, #32
        b.hi    .Lgt32
        sub     x9, x2, #16             /* 16..32: first and last 16 */
        ldr     q0, [x1]
        ldr     q1, [x1, x9]
        str     q0, [x0]
        str     q1, [x0, x9]
        ret
.Llt16:
        tbz     x2, #3, .Llt8
        sub     x9, x2, #8              /* 8..15: first and last 8 */
        ldr     x3, [x1]
        ldr     x4, [x1, x9]
        str     x3, [x0]
        str     x4, [x0, x9]
        ret
.Llt8:
        tbz     x2, #2, .Llt4
        sub     x9, x2, #4              /* 4..7: first and last 4 */
        ldr     w3, [x1]
        ldr     w4, [x1, x9]
        str     w3, [x0]
        str     w4, [x0, x9]
        ret
.Llt4:
        tbz     x2, #1, .Llt2
        sub     x9, x2, #2              /* 2..3: first and last 2 */
        ldrh    w3, [x1]
        ldrh    w4, [x1, x9]
        strh    w3, [x0]
        strh    w4, [x0, x9]
        ret
.Llt2:
        cbz     x2, .Lret               /* 0..1 */
        ldrb    w3, [x1]
        strb    w3, [x0]
.Lret:
        ret
        /* n > 32 (also entered from sve.S at VL 128 bits, past the compares) */
        .globl  fc__neon_memcpy_gt32
        .hidden fc__neon_memcpy_gt32
fc__neon_memcpy_gt32:
.Lgt32:
        cmp     x2, #64
        b.hi    .Lgt64
        add     x4, x1, x2              /* 33..64: first and last 32 */
        add     x5, x0, x2
        ldp     q0, q1, [x1]
        ldp     q2, q3, [x4, #-32]
        stp     q0, q1, [x0]
        stp     q2, q3, [x5, #-32]
        ret
.Lgt64:
        add     x4, x1, x2              /* se */
        add     x5, x0, x2              /* de */
        cmp     x2, #128
        b.hi    .Lgt128
        ldp     q0, q1, [x1]            /* 65..128: first and last 64 */
        ldp     q4, q5, [x1, #32]
        ldp     q6, q7, [x4, #-64]
        ldp     q2, q3, [x4, #-32]
        stp     q0, q1, [x0]
        stp     q4, q5, [x0, #32]
        stp     q6, q7, [x5, #-64]
        stp     q2, q3, [x5, #-32]
        ret

.Lgt128:
        cmp     x2, #256
        b.hi    .Lfwd_large
        ldp     q0, q1, [x1]            /* 129..256: first and last 128 (q8-q15 are */
        ldp     q2, q3, [x1, #32]       /* callee-saved: q16-q23 instead) */
        ldp     q4, q5, [x1, #64]
        ldp     q6, q7, [x1, #96]
        ldp     q16, q17, [x4, #-128]
        ldp     q18, q19, [x4, #-96]
        ldp     q20, q21, [x4, #-64]
        ldp     q22, q23, [x4, #-32]
        stp     q0, q1, [x0]
        stp     q2, q3, [x0, #32]
        stp     q4, q5, [x0, #64]
        stp     q6, q7, [x0, #96]
        stp     q16, q17, [x5, #-128]
        stp     q18, q19, [x5, #-96]
        stp     q20, q21, [x5, #-64]
        stp     q22, q23, [x5, #-32]
        ret

        /* n > 256, forward.  q16 = first 16, q4-q7 = last 64 (loaded before
         * any store); x6 = d rounded up to 16 (1..16 bytes past d), x7 = s
         * moved as far.  q0-q3 hold the block at x7, to be stored at x6;
         * x3 = (de - x6) - 128, > 0 while a block beyond the held one is
         * needed before the last 64.  6 instructions per 64 bytes: the
         * stores' post-index and the loads' pre-index move the pointers. */
.Lfwd_large:
        ldr     q16, [x1]
        ldp     q4, q5, [x4, #-64]
        ldp     q6, q7, [x4, #-32]
        add     x6, x0, #16
        and     x6, x6, #-16
        sub     x3, x6, x0              /* 1..16 */
        add     x7, x1, x3
        sub     x3, x5, x6              /* bytes from the aligned dst to de, > 112 */
        ldp     q0, q1, [x7]
        ldp     q2, q3, [x7, #32]
        str     q16, [x0]
        subs    x3, x3, #128
        b.ls    .Lfwd_last
.Lfwd_loop:
        stp     q0, q1, [x6], #64
        ldp     q0, q1, [x7, #64]!
        stp     q2, q3, [x6, #-32]
        ldp     q2, q3, [x7, #32]
        subs    x3, x3, #64
        b.hi    .Lfwd_loop
.Lfwd_last:                             /* the held block ends within 128 bytes of de: it, then the last 64 */
        stp     q0, q1, [x6]
        stp     q2, q3, [x6, #32]
        stp     q4, q5, [x5, #-64]
        stp     q6, q7, [x5, #-32]
        ret
        .cfi_endproc
        .size   fc_neon_memcpy, . - fc_neon_memcpy

        .p2align 6
        .globl  fc_neon_memmove
        .hidden fc_neon_memmove
        .type   fc_neon_memmove, %function
fc_neon_memmove:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cmp     x2, #256
        b.ls    fc_neon_memcpy          /* up to 256: every load before any store */
        /* n > 256 (also entered from sve.S at VL 128 bits, past the compare) */
        .globl  fc__neon_memmove_gt256
        .hidden fc__neon_memmove_gt256
fc__neon_memmove_gt256:
        add     x4, x1, x2              /* se */
        add     x5, x0, x2              /* de */
        sub     x3, x0, x1
        cmp     x3, x2
        b.hs    .Lfwd_large             /* dst not in [s, se): forward is correct */
        cbz     x3, .Lmv_ret            /* dst == src */
        /* n > 256, dst in (s, se): backward.  q16 = last 16, q4-q7 = first
         * 64; de rounded down to 16 (0..15 bytes below de), se moved as far;
         * q0-q3 hold the block [x7, x7 + 64), to be stored at x6; x3 =
         * (x6 - d) - 64, > 0 while a block below the held one is needed
         * before the first 64. */
        ldr     q16, [x4, #-16]
        ldp     q4, q5, [x1]
        ldp     q6, q7, [x1, #32]
        and     x6, x5, #-16
        sub     x3, x5, x6              /* 0..15 */
        sub     x7, x4, x3
        sub     x7, x7, #64
        sub     x6, x6, #64
        sub     x3, x6, x0              /* > 48 */
        ldp     q0, q1, [x7]
        ldp     q2, q3, [x7, #32]
        str     q16, [x5, #-16]
        subs    x3, x3, #64
        b.ls    .Lbwd_last
.Lbwd_loop:
        stp     q2, q3, [x6, #32]
        ldp     q2, q3, [x7, #-32]
        stp     q0, q1, [x6], #-64
        ldp     q0, q1, [x7, #-64]!
        subs    x3, x3, #64
        b.hi    .Lbwd_loop
.Lbwd_last:                             /* the held block starts within 128 bytes of d: it, then the first 64 */
        stp     q0, q1, [x6]
        stp     q2, q3, [x6, #32]
        stp     q6, q7, [x0, #32]
        stp     q4, q5, [x0]
.Lmv_ret:
        ret
        .cfi_endproc
        .size   fc_neon_memmove, . - fc_neon_memmove

#endif
#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
