/*
 * neon - memcpy/memmove for AArch64 with Advanced SIMD (q registers).
 *
 * For:    every AArch64 Linux CPU: Advanced SIMD is part of the LP64 Linux
 *         ABI (the compiler itself uses q registers in any build).
 * Needs:  unaligned loads and stores of up to 16 bytes to normal memory
 *         (architectural for normal memory); little- or big-endian alike
 *         (bytes are only moved, never combined).
 * Uses:   x0-x7, x9, q0-q7, q16-q23 (caller-saved) under the names of the
 *         #define block below (dstin, src, count, srcend, dstend, dst_blk,
 *         src_blk, tailoff, diff/skew/left, A_l/B_l, A_q-P_q); no stack, no
 *         frame.
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

/* Arguments.  x0 is also the return value: memcpy and memmove return dst,
 * and no path writes dstin. */
#define dstin   x0
#define src     x1
#define count   x2
/* Above 32 bytes: the ends of both buffers. */
#define srcend  x4                      /* se = src + count */
#define dstend  x5                      /* de = dstin + count */
/* Above 256 bytes: the held 64-byte block's addresses.  Forward, dst_blk is
 * dst rounded up to 16 and src_blk src moved as far; backward, both count
 * down from the ends (dstend rounded down to 16).  The loops move them with
 * the addressing modes. */
#define dst_blk x6
#define src_blk x7
/* x3 holds one short-lived value after another (each dead before the next
 * name is written): */
#define diff    x3                      /* memmove: dstin - src, unsigned */
#define skew    x3                      /* > 256: dst_blk's distance from d (forward) or de (backward) */
#define left    x3                      /* > 256: the loop's count of bytes */
/* Below 33 bytes: the tail's offset, and data in general registers
 * (x3/x4 take these roles only below 16 bytes, w3/w4 below 8). */
#define tailoff x9                      /* count - k: the last k bytes */
#define A_l     x3
#define A_w     w3
#define B_l     x4
#define B_w     w4
/* Data in q registers: A_q-H_q are q0-q7, I_q-P_q q16-q23 (q8-q15 are
 * callee-saved in their low 64 bits: never touched). */
#define A_q     q0
#define B_q     q1
#define C_q     q2
#define D_q     q3
#define E_q     q4
#define F_q     q5
#define G_q     q6
#define H_q     q7
#define I_q     q16
#define J_q     q17
#define K_q     q18
#define L_q     q19
#define M_q     q20
#define N_q     q21
#define O_q     q22
#define P_q     q23

        .text
        .p2align 6
        .globl  fc_neon_memcpy
        .hidden fc_neon_memcpy
        .type   fc_neon_memcpy, %function
fc_neon_memcpy:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cmp     count, #16
        b.lo    .Llt16
        cmp     count, #32
        b.hi    .Lgt32
        sub     tailoff, count, #16     /* 16..32: first and last 16 */
        ldr     A_q, [src]
        ldr     B_q, [src, tailoff]
        str     A_q, [dstin]
        str     B_q, [dstin, tailoff]
        ret
.Llt16:
        tbz     count, #3, .Llt8
        sub     tailoff, count, #8      /* 8..15: first and last 8 */
        ldr     A_l, [src]
        ldr     B_l, [src, tailoff]
        str     A_l, [dstin]
        str     B_l, [dstin, tailoff]
        ret
.Llt8:
        tbz     count, #2, .Llt4
        sub     tailoff, count, #4      /* 4..7: first and last 4 */
        ldr     A_w, [src]
        ldr     B_w, [src, tailoff]
        str     A_w, [dstin]
        str     B_w, [dstin, tailoff]
        ret
.Llt4:
        tbz     count, #1, .Llt2
        sub     tailoff, count, #2      /* 2..3: first and last 2 */
        ldrh    A_w, [src]
        ldrh    B_w, [src, tailoff]
        strh    A_w, [dstin]
        strh    B_w, [dstin, tailoff]
        ret
.Llt2:
        cbz     count, .Lret            /* 0..1 */
        ldrb    A_w, [src]
        strb    A_w, [dstin]
.Lret:
        ret
        /* n > 32 (also entered from sve.S at VL 128 bits, past the compares) */
        .globl  fc__neon_memcpy_gt32
        .hidden fc__neon_memcpy_gt32
fc__neon_memcpy_gt32:
.Lgt32:
        cmp     count, #64
        b.hi    .Lgt64
        add     srcend, src, count      /* 33..64: first and last 32 */
        add     dstend, dstin, count
        ldp     A_q, B_q, [src]
        ldp     C_q, D_q, [srcend, #-32]
        stp     A_q, B_q, [dstin]
        stp     C_q, D_q, [dstend, #-32]
        ret
.Lgt64:
        add     srcend, src, count      /* se */
        add     dstend, dstin, count    /* de */
        cmp     count, #128
        b.hi    .Lgt128
        ldp     A_q, B_q, [src]         /* 65..128: first and last 64 */
        ldp     E_q, F_q, [src, #32]
        ldp     G_q, H_q, [srcend, #-64]
        ldp     C_q, D_q, [srcend, #-32]
        stp     A_q, B_q, [dstin]
        stp     E_q, F_q, [dstin, #32]
        stp     G_q, H_q, [dstend, #-64]
        stp     C_q, D_q, [dstend, #-32]
        ret

.Lgt128:
        cmp     count, #256
        b.hi    .Lfwd_large
        ldp     A_q, B_q, [src]         /* 129..256: first and last 128 (q8-q15 are */
        ldp     C_q, D_q, [src, #32]    /* callee-saved: I_q-P_q = q16-q23 instead) */
        ldp     E_q, F_q, [src, #64]
        ldp     G_q, H_q, [src, #96]
        ldp     I_q, J_q, [srcend, #-128]
        ldp     K_q, L_q, [srcend, #-96]
        ldp     M_q, N_q, [srcend, #-64]
        ldp     O_q, P_q, [srcend, #-32]
        stp     A_q, B_q, [dstin]
        stp     C_q, D_q, [dstin, #32]
        stp     E_q, F_q, [dstin, #64]
        stp     G_q, H_q, [dstin, #96]
        stp     I_q, J_q, [dstend, #-128]
        stp     K_q, L_q, [dstend, #-96]
        stp     M_q, N_q, [dstend, #-64]
        stp     O_q, P_q, [dstend, #-32]
        ret

        /* n > 256, forward.  I_q = first 16, E_q-H_q = last 64 (loaded
         * before any store); dst_blk = d rounded up to 16 (skew = 1..16
         * bytes past d), src_blk = s moved as far.  A_q-D_q hold the block
         * at src_blk, to be stored at dst_blk; left = (de - dst_blk) - 128,
         * > 0 while a block beyond the held one is needed before the last
         * 64.  6 instructions per 64 bytes: the stores' post-index and the
         * loads' pre-index move the pointers. */
.Lfwd_large:
        ldr     I_q, [src]
        ldp     E_q, F_q, [srcend, #-64]
        ldp     G_q, H_q, [srcend, #-32]
        add     dst_blk, dstin, #16
        and     dst_blk, dst_blk, #-16
        sub     skew, dst_blk, dstin    /* 1..16 */
        add     src_blk, src, skew
        sub     left, dstend, dst_blk   /* bytes from the aligned dst to de, > 112 */
        ldp     A_q, B_q, [src_blk]
        ldp     C_q, D_q, [src_blk, #32]
        str     I_q, [dstin]
        subs    left, left, #128
        b.ls    .Lfwd_last
.Lfwd_loop:
        stp     A_q, B_q, [dst_blk], #64
        ldp     A_q, B_q, [src_blk, #64]!
        stp     C_q, D_q, [dst_blk, #-32]
        ldp     C_q, D_q, [src_blk, #32]
        subs    left, left, #64
        b.hi    .Lfwd_loop
.Lfwd_last:                             /* the held block ends within 128 bytes of de: it, then the last 64 */
        stp     A_q, B_q, [dst_blk]
        stp     C_q, D_q, [dst_blk, #32]
        stp     E_q, F_q, [dstend, #-64]
        stp     G_q, H_q, [dstend, #-32]
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
        cmp     count, #256
        b.ls    fc_neon_memcpy          /* up to 256: every load before any store */
        /* n > 256 (also entered from sve.S at VL 128 bits, past the compare) */
        .globl  fc__neon_memmove_gt256
        .hidden fc__neon_memmove_gt256
fc__neon_memmove_gt256:
        add     srcend, src, count      /* se */
        add     dstend, dstin, count    /* de */
        sub     diff, dstin, src
        cmp     diff, count
        b.hs    .Lfwd_large             /* dst not in [s, se): forward is correct */
        cbz     diff, .Lmv_ret          /* dst == src */
        /* n > 256, dst in (s, se): backward.  I_q = last 16, E_q-H_q =
         * first 64; de rounded down to 16 (skew = 0..15 bytes below de), se
         * moved as far; A_q-D_q hold the block [src_blk, src_blk + 64), to
         * be stored at dst_blk; left = (dst_blk - d) - 64, > 0 while a block
         * below the held one is needed before the first 64. */
        ldr     I_q, [srcend, #-16]
        ldp     E_q, F_q, [src]
        ldp     G_q, H_q, [src, #32]
        and     dst_blk, dstend, #-16
        sub     skew, dstend, dst_blk   /* 0..15 */
        sub     src_blk, srcend, skew
        sub     src_blk, src_blk, #64
        sub     dst_blk, dst_blk, #64
        sub     left, dst_blk, dstin    /* > 48 */
        ldp     A_q, B_q, [src_blk]
        ldp     C_q, D_q, [src_blk, #32]
        str     I_q, [dstend, #-16]
        subs    left, left, #64
        b.ls    .Lbwd_last
.Lbwd_loop:
        stp     C_q, D_q, [dst_blk, #32]
        ldp     C_q, D_q, [src_blk, #-32]
        stp     A_q, B_q, [dst_blk], #-64
        ldp     A_q, B_q, [src_blk, #-64]!
        subs    left, left, #64
        b.hi    .Lbwd_loop
.Lbwd_last:                             /* the held block starts within 128 bytes of d: it, then the first 64 */
        stp     A_q, B_q, [dst_blk]
        stp     C_q, D_q, [dst_blk, #32]
        stp     G_q, H_q, [dstin, #32]
        stp     E_q, F_q, [dstin]
.Lmv_ret:
        ret
        .cfi_endproc
        .size   fc_neon_memmove, . - fc_neon_memmove

/* simd.S assembles sve.S right after this file: its names are its own. */
#undef dstin
#undef src
#undef count
#undef srcend
#undef dstend
#undef dst_blk
#undef src_blk
#undef diff
#undef skew
#undef left
#undef tailoff
#undef A_l
#undef A_w
#undef B_l
#undef B_w
#undef A_q
#undef B_q
#undef C_q
#undef D_q
#undef E_q
#undef F_q
#undef G_q
#undef H_q
#undef I_q
#undef J_q
#undef K_q
#undef L_q
#undef M_q
#undef N_q
#undef O_q
#undef P_q
#endif
#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
