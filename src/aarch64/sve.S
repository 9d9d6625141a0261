/*
 * sve - memcpy/memmove for AArch64 with the Scalable Vector Extension,
 * vector-length agnostic (VL = 16..256 bytes, read with cntb).
 *
 * For:    AArch64 Linux CPUs whose kernel reports HWCAP_SVE (src/cpu/aarch64.c:
 *         AT_HWCAP bit 22, read without libc in the ifunc resolver).
 * Needs:  SVE (ld1b/st1b, ldr/str of z registers, whilelo, addvl, rdvl,
 *         cntb); nothing of SVE2.
 *         Predicated-off elements are not accessed, so the predicated classes
 *         touch exactly [s, se) and [d, de).
 * Uses:   x0-x11, z0-z7, z16-z23, p0-p3 (all caller-saved: of z8-z15 the
 *         AAPCS64 keeps the low 64 bits); no stack, no frame.
 *
 * Size classes (VL = vector length in bytes; s = src, d = dst, se = s + n,
 * de = d + n):
 *
 *   | n           | technique                                                |
 *   |-------------|----------------------------------------------------------|
 *   | 0..2 VL     | two vectors under whilelo predicates (no size ladder:    |
 *   |             | n = 0 stores nothing)                                     |
 *   | 2VL+1..4VL  | four vectors under whilelo predicates                     |
 *   | 4VL+1..8VL  | first and last 4 VL (unpredicated ldr/str of z registers) |
 *   | > 8 VL      | forward: the last 8 VL loaded up front; 8-vector blocks   |
 *   |             | (20 instructions) while more than 8 VL remain; then the   |
 *   |             | preloaded last 8 VL                                       |
 *   | > 2 VL at   | neon (neon.S, assembled into the same object by simd.S,   |
 *   | VL = 16     | so one b.eq reaches it): an ldp/stp of q registers moves  |
 *   |             | 32 bytes per instruction, ld1b/st1b 16 (the split glibc's |
 *   |             | SVE memcpy makes too)                                     |
 *
 * Full vectors move with LDR/STR (vector), which need no predicate and copy
 * VL bytes in memory order (byte-exact on either endianness for a copy).
 * Up to 8 VL every load precedes every store, so memmove takes those
 * classes as they are.  Above: memmove goes backward only when dst is inside
 * (s, se), the mirror image (first 8 VL up front, blocks from the top).
 * Forward is correct for dst below src: a block's stores land below the next
 * block's loads, and the last 8 VL were loaded before any store.
 *
 * No dst alignment: SVE stores that cross a cache line cost about what two
 * narrower ones do on the cores this is for, and the vector length is not
 * known when this is written.  Not timed on hardware (none here); correct at
 * every VL, proven under qemu-aarch64 at 128, 256, 512 and 2048 bits.
 */
#if defined(__aarch64__)
#include "gnu_property.h"

        .arch   armv8.2-a+sve
        .text
        .p2align 6
        .globl  fc_sve_memcpy
        .hidden fc_sve_memcpy
        .type   fc_sve_memcpy, %function
fc_sve_memcpy:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cntb    x3                      /* VL */
        cmp     x2, x3, lsl #1
        b.hi    .Lsv_gt2
.Lsv_le2:                                  /* n <= 2 VL */
        whilelo p0.b, xzr, x2
        whilelo p1.b, x3, x2
        ld1b    z0.b, p0/z, [x1]
        ld1b    z1.b, p1/z, [x1, #1, mul vl]
        st1b    z0.b, p0, [x0]
        st1b    z1.b, p1, [x0, #1, mul vl]
        ret
.Lsv_gt2:
        cmp     x3, #16                 /* VL 128 bits: neon above 2 VL (an ldp/stp of q registers */
        b.eq    fc__neon_memcpy_gt32    /* moves 32 bytes, an ld1b/st1b 16); same object (simd.S) */
.Lsv_gt2_sve:
        cmp     x2, x3, lsl #2
        b.hi    .Lsv_gt4
.Lsv_le4:                                  /* 2 VL < n <= 4 VL */
        add     x4, x3, x3, lsl #1      /* 3 VL */
        whilelo p0.b, xzr, x2
        whilelo p1.b, x3, x2
        lsl     x5, x3, #1
        whilelo p2.b, x5, x2
        whilelo p3.b, x4, x2
        ld1b    z0.b, p0/z, [x1]
        ld1b    z1.b, p1/z, [x1, #1, mul vl]
        ld1b    z2.b, p2/z, [x1, #2, mul vl]
        ld1b    z3.b, p3/z, [x1, #3, mul vl]
        st1b    z0.b, p0, [x0]
        st1b    z1.b, p1, [x0, #1, mul vl]
        st1b    z2.b, p2, [x0, #2, mul vl]
        st1b    z3.b, p3, [x0, #3, mul vl]
        ret
.Lsv_gt4:
        add     x10, x1, x2             /* se */
        add     x11, x0, x2             /* de */
        cmp     x2, x3, lsl #3
        b.hi    .Lsv_fwd
.Lsv_le8:                                  /* 4 VL < n <= 8 VL: first and last 4 VL, all loaded first */
        ldr     z0, [x1]
        ldr     z1, [x1, #1, mul vl]
        ldr     z2, [x1, #2, mul vl]
        ldr     z3, [x1, #3, mul vl]
        ldr     z4, [x10, #-4, mul vl]
        ldr     z5, [x10, #-3, mul vl]
        ldr     z6, [x10, #-2, mul vl]
        ldr     z7, [x10, #-1, mul vl]
        str     z0, [x0]
        str     z1, [x0, #1, mul vl]
        str     z2, [x0, #2, mul vl]
        str     z3, [x0, #3, mul vl]
        str     z4, [x11, #-4, mul vl]
        str     z5, [x11, #-3, mul vl]
        str     z6, [x11, #-2, mul vl]
        str     z7, [x11, #-1, mul vl]
        ret

        /* n > 8 VL, forward.  z16-z23 = the last 8 VL; x1/x5 walk s/d; x7 =
         * bytes beyond the block at x1 (> 0 at each block); x4 = 8 VL. */
.Lsv_fwd:
        ldr     z16, [x10, #-8, mul vl]
        ldr     z17, [x10, #-7, mul vl]
        ldr     z18, [x10, #-6, mul vl]
        ldr     z19, [x10, #-5, mul vl]
        ldr     z20, [x10, #-4, mul vl]
        ldr     z21, [x10, #-3, mul vl]
        ldr     z22, [x10, #-2, mul vl]
        ldr     z23, [x10, #-1, mul vl]
        rdvl    x4, #8
        mov     x5, x0
        sub     x7, x2, x4
.Lsv_fwd_loop:
        ldr     z0, [x1]
        ldr     z1, [x1, #1, mul vl]
        ldr     z2, [x1, #2, mul vl]
        ldr     z3, [x1, #3, mul vl]
        ldr     z4, [x1, #4, mul vl]
        ldr     z5, [x1, #5, mul vl]
        ldr     z6, [x1, #6, mul vl]
        ldr     z7, [x1, #7, mul vl]
        str     z0, [x5]
        str     z1, [x5, #1, mul vl]
        str     z2, [x5, #2, mul vl]
        str     z3, [x5, #3, mul vl]
        str     z4, [x5, #4, mul vl]
        str     z5, [x5, #5, mul vl]
        str     z6, [x5, #6, mul vl]
        str     z7, [x5, #7, mul vl]
        addvl   x1, x1, #8
        addvl   x5, x5, #8
        subs    x7, x7, x4
        b.hi    .Lsv_fwd_loop
        str     z16, [x11, #-8, mul vl]
        str     z17, [x11, #-7, mul vl]
        str     z18, [x11, #-6, mul vl]
        str     z19, [x11, #-5, mul vl]
        str     z20, [x11, #-4, mul vl]
        str     z21, [x11, #-3, mul vl]
        str     z22, [x11, #-2, mul vl]
        str     z23, [x11, #-1, mul vl]
        ret
        .cfi_endproc
        .size   fc_sve_memcpy, . - fc_sve_memcpy

        .p2align 6
        .globl  fc_sve_memmove
        .hidden fc_sve_memmove
        .type   fc_sve_memmove, %function
fc_sve_memmove:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cntb    x3
        cmp     x2, x3, lsl #1
        b.ls    .Lsv_le2                   /* up to 2 VL: every load before any store */
        cmp     x3, #16                 /* VL 128 bits: neon's classes, past its checks */
        b.ne    2f
        cmp     x2, #256
        b.ls    fc__neon_memcpy_gt32    /* 33..256: every load before any store */
        b       fc__neon_memmove_gt256
2:      cmp     x2, x3, lsl #3
        b.ls    .Lsv_gt2_sve            /* up to 8 VL: memcpy's classes, every load before any store */
        add     x10, x1, x2
        add     x11, x0, x2
        sub     x4, x0, x1
        cmp     x4, x2
        b.hs    .Lsv_fwd                /* dst not in [s, se): forward is correct */
        cbz     x4, .Lsv_mv_ret         /* dst == src */
        /* n > 8 VL, dst in (s, se): backward.  z16-z23 = the first 8 VL;
         * x10/x11 walk down from se/de; x7 = bytes from d to the block below
         * x11 (> 0 at each block); x4 = 8 VL. */
        ldr     z16, [x1]
        ldr     z17, [x1, #1, mul vl]
        ldr     z18, [x1, #2, mul vl]
        ldr     z19, [x1, #3, mul vl]
        ldr     z20, [x1, #4, mul vl]
        ldr     z21, [x1, #5, mul vl]
        ldr     z22, [x1, #6, mul vl]
        ldr     z23, [x1, #7, mul vl]
        rdvl    x4, #8
        sub     x7, x2, x4
.Lsv_bwd_loop:
        addvl   x10, x10, #-8
        addvl   x11, x11, #-8
        ldr     z0, [x10]
        ldr     z1, [x10, #1, mul vl]
        ldr     z2, [x10, #2, mul vl]
        ldr     z3, [x10, #3, mul vl]
        ldr     z4, [x10, #4, mul vl]
        ldr     z5, [x10, #5, mul vl]
        ldr     z6, [x10, #6, mul vl]
        ldr     z7, [x10, #7, mul vl]
        str     z7, [x11, #7, mul vl]
        str     z6, [x11, #6, mul vl]
        str     z5, [x11, #5, mul vl]
        str     z4, [x11, #4, mul vl]
        str     z3, [x11, #3, mul vl]
        str     z2, [x11, #2, mul vl]
        str     z1, [x11, #1, mul vl]
        str     z0, [x11]
        subs    x7, x7, x4
        b.hi    .Lsv_bwd_loop
        str     z16, [x0]
        str     z17, [x0, #1, mul vl]
        str     z18, [x0, #2, mul vl]
        str     z19, [x0, #3, mul vl]
        str     z20, [x0, #4, mul vl]
        str     z21, [x0, #5, mul vl]
        str     z22, [x0, #6, mul vl]
        str     z23, [x0, #7, mul vl]
.Lsv_mv_ret:
        ret
        .cfi_endproc
        .size   fc_sve_memmove, . - fc_sve_memmove

#endif
#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
