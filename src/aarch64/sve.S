/*
 * sve - memcpy/memmove for AArch64 with the Scalable Vector Extension,
 * vector-length agnostic (VL = 16..256 bytes, read with cntb).
 *
 * For:    AArch64 Linux CPUs whose kernel reports HWCAP_SVE (src/cpu/aarch64.c:
 *         AT_HWCAP bit 22, read without libc in the ifunc resolver).
 * Needs:  SVE (ld1b/st1b, whilelo, ptrue, addvl, cntb); nothing of SVE2.
 *         Predicated-off elements are not accessed, so the predicated classes
 *         touch exactly [s, se) and [d, de).
 * Uses:   x0-x11, z0-z7, p0-p3 (all caller-saved); no stack, no frame.
 *
 * Size classes (VL = vector length in bytes; s = src, d = dst, se = s + n,
 * de = d + n):
 *
 *   | n           | technique                                                |
 *   |-------------|----------------------------------------------------------|
 *   | 0..2 VL     | two vectors under whilelo predicates (no size ladder:    |
 *   |             | n = 0 stores nothing)                                     |
 *   | 2VL+1..4VL  | four vectors under whilelo predicates                     |
 *   | > 4 VL      | forward: the last 4 VL loaded up front; 4-vector blocks   |
 *   |             | (ld1b/st1b, all-true predicate, addvl; 12 instructions)   |
 *   |             | while more than 4 VL remain; then the preloaded last 4 VL |
 *   | > 2 VL at   | neon (src/aarch64/neon.S): an ldp/stp of q registers moves|
 *   | VL = 16     | 32 bytes per instruction, ld1b/st1b 16 (the split glibc's |
 *   |             | SVE memcpy makes too)                                     |
 *
 * Up to 4 VL every load precedes every store, so memmove takes those
 * classes as they are.  Above: memmove goes backward only when dst is inside
 * (s, se), the mirror image (first 4 VL up front, blocks from the top).
 * Forward is correct for dst below src: a block's stores land below the next
 * block's loads, and the last 4 VL were loaded before any store.
 *
 * No dst alignment: SVE stores that cross a cache line cost about what two
 * narrower ones do on the cores this is for, and the vector length is not
 * known when this is written.  Not timed on hardware (none here); correct at
 * every VL, proven under qemu-aarch64 at 128, 256, 512 and 2048 bits.
 */
#if defined(__aarch64__)

        .arch   armv8.2-a+sve
        .text
        .p2align 6
        .globl  fc_sve_memcpy
        .hidden fc_sve_memcpy
        .type   fc_sve_memcpy, %function
fc_sve_memcpy:
        cntb    x3                      /* VL */
        cmp     x2, x3, lsl #1
        b.hi    .Lgt2
.Lle2:                                  /* n <= 2 VL */
        whilelo p0.b, xzr, x2
        whilelo p1.b, x3, x2
        ld1b    z0.b, p0/z, [x1]
        ld1b    z1.b, p1/z, [x1, #1, mul vl]
        st1b    z0.b, p0, [x0]
        st1b    z1.b, p1, [x0, #1, mul vl]
        ret
.Lgt2:
        cmp     x3, #16                 /* VL 128 bits: neon above 2 VL (an ldp/stp of */
        b.ne    .Lgt2_sve               /* q registers moves 32 bytes, an ld1b/st1b 16; */
        b       fc__neon_memcpy_gt32    /* b, not b.eq: the linker can reach it from anywhere) */
.Lgt2_sve:
        cmp     x2, x3, lsl #2
        b.hi    .Lfwd
.Lle4:                                  /* 2 VL < n <= 4 VL */
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

        /* n > 4 VL, forward.  z4-z7 = the last 4 VL; x6/x5 walk s/d; x7 =
         * bytes from x5 + 4 VL to de (> 0 at each block); x4 = 4 VL. */
.Lfwd:
        ptrue   p0.b
        add     x10, x1, x2             /* se */
        add     x11, x0, x2             /* de */
        ld1b    z4.b, p0/z, [x10, #-4, mul vl]
        ld1b    z5.b, p0/z, [x10, #-3, mul vl]
        ld1b    z6.b, p0/z, [x10, #-2, mul vl]
        ld1b    z7.b, p0/z, [x10, #-1, mul vl]
        lsl     x4, x3, #2
        mov     x5, x0
        mov     x6, x1
        sub     x7, x2, x4              /* bytes beyond the block at x6, > 0 */
.Lfwd_loop:
        ld1b    z0.b, p0/z, [x6]
        ld1b    z1.b, p0/z, [x6, #1, mul vl]
        ld1b    z2.b, p0/z, [x6, #2, mul vl]
        ld1b    z3.b, p0/z, [x6, #3, mul vl]
        st1b    z0.b, p0, [x5]
        st1b    z1.b, p0, [x5, #1, mul vl]
        st1b    z2.b, p0, [x5, #2, mul vl]
        st1b    z3.b, p0, [x5, #3, mul vl]
        addvl   x6, x6, #4
        addvl   x5, x5, #4
        subs    x7, x7, x4
        b.hi    .Lfwd_loop
        st1b    z4.b, p0, [x11, #-4, mul vl]
        st1b    z5.b, p0, [x11, #-3, mul vl]
        st1b    z6.b, p0, [x11, #-2, mul vl]
        st1b    z7.b, p0, [x11, #-1, mul vl]
        ret
        .size   fc_sve_memcpy, . - fc_sve_memcpy

        .p2align 6
        .globl  fc_sve_memmove
        .hidden fc_sve_memmove
        .type   fc_sve_memmove, %function
fc_sve_memmove:
        cntb    x3
        cmp     x2, x3, lsl #1
        b.ls    .Lle2                   /* up to 2 VL: every load before any store */
        cmp     x3, #16                 /* VL 128 bits: neon's classes, past its checks */
        b.ne    2f
        cmp     x2, #256
        b.hi    3f
        b       fc__neon_memcpy_gt32    /* 33..256: every load before any store */
3:      b       fc_neon_memmove
2:      sub     x4, x0, x1
        cmp     x4, x2
        b.hs    .Lgt2_sve               /* dst not in [s, se): forward is correct */
        cbz     x4, .Lmv_ret            /* dst == src */
        cmp     x2, x3, lsl #2
        b.ls    .Lle4                   /* up to 4 VL: every load before any store */
        /* n > 4 VL, dst in (s, se): backward.  z4-z7 = the first 4 VL; x6/x5
         * walk down from se/de. */
        ptrue   p0.b
        ld1b    z4.b, p0/z, [x1]
        ld1b    z5.b, p0/z, [x1, #1, mul vl]
        ld1b    z6.b, p0/z, [x1, #2, mul vl]
        ld1b    z7.b, p0/z, [x1, #3, mul vl]
        lsl     x4, x3, #2
        add     x6, x1, x2
        add     x5, x0, x2
        sub     x7, x2, x4              /* bytes from d to the block below x5, > 0 */
.Lbwd_loop:
        addvl   x6, x6, #-4
        addvl   x5, x5, #-4
        ld1b    z0.b, p0/z, [x6]
        ld1b    z1.b, p0/z, [x6, #1, mul vl]
        ld1b    z2.b, p0/z, [x6, #2, mul vl]
        ld1b    z3.b, p0/z, [x6, #3, mul vl]
        st1b    z3.b, p0, [x5, #3, mul vl]
        st1b    z2.b, p0, [x5, #2, mul vl]
        st1b    z1.b, p0, [x5, #1, mul vl]
        st1b    z0.b, p0, [x5]
        subs    x7, x7, x4
        b.hi    .Lbwd_loop
        st1b    z4.b, p0, [x0]
        st1b    z5.b, p0, [x0, #1, mul vl]
        st1b    z6.b, p0, [x0, #2, mul vl]
        st1b    z7.b, p0, [x0, #3, mul vl]
.Lmv_ret:
        ret
        .size   fc_sve_memmove, . - fc_sve_memmove

#endif
#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
