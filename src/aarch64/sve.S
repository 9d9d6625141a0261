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
 * Uses:   x0-x5, x7, x10, x11, z0-z7, z16-z23, p0-p3 (all caller-saved: of
 *         z8-z15 the AAPCS64 keeps the low 64 bits) under the names of the
 *         #define block below (dstin, src, count, vlen, srcend, dstend, dst,
 *         left, off2/off3, diff, blksz, A_z-P_z, A_p-D_p); no stack, no
 *         frame.
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

/* Arguments.  x0 is also the return value: memcpy and memmove return dst,
 * and no path writes dstin.  src moves up in the forward loop. */
#define dstin   x0
#define src     x1
#define count   x2
#define vlen    x3                      /* VL in bytes (cntb) */
/* Above 4 VL: the ends of both buffers; the backward loop moves them down. */
#define srcend  x10                     /* se = src + count */
#define dstend  x11                     /* de = dstin + count */
/* 2 VL < n <= 4 VL: where the third and fourth vectors start. */
#define off2    x5                      /* 2 VL */
#define off3    x4                      /* 3 VL */
/* Above 8 VL (x4 and x5 in these roles only there): */
#define diff    x4                      /* memmove: dstin - src, unsigned; dead before blksz */
#define blksz   x4                      /* 8 VL: one block */
#define dst     x5                      /* forward loop: the block's dst */
#define left    x7                      /* the loops' count of bytes */
/* Data: A_z-H_z are z0-z7 (a block, or the vectors of a class up to 8 VL),
 * I_z-P_z z16-z23 (the 8 VL loaded before the loop); z8-z15 never touched.
 * A_p-D_p: the predicates of A_z-D_z (p0-p3) up to 4 VL. */
#define A_z     z0
#define B_z     z1
#define C_z     z2
#define D_z     z3
#define E_z     z4
#define F_z     z5
#define G_z     z6
#define H_z     z7
#define I_z     z16
#define J_z     z17
#define K_z     z18
#define L_z     z19
#define M_z     z20
#define N_z     z21
#define O_z     z22
#define P_z     z23
#define A_p     p0
#define B_p     p1
#define C_p     p2
#define D_p     p3

        .arch   armv8.2-a+sve
        .text
        .p2align 6
        .globl  fc_sve_memcpy
        .hidden fc_sve_memcpy
        .type   fc_sve_memcpy, %function
fc_sve_memcpy:
        .cfi_startproc
        FC_BTI_C                        /* reached through a pointer or a PLT slot */
        cntb    vlen                    /* VL */
        cmp     count, vlen, lsl #1
        b.hi    .Lsv_gt2
.Lsv_le2:                                  /* n <= 2 VL */
        whilelo A_p.b, xzr, count
        whilelo B_p.b, vlen, count
        ld1b    A_z.b, A_p/z, [src]
        ld1b    B_z.b, B_p/z, [src, #1, mul vl]
        st1b    A_z.b, A_p, [dstin]
        st1b    B_z.b, B_p, [dstin, #1, mul vl]
        ret
.Lsv_gt2:
        cmp     vlen, #16               /* VL 128 bits: neon above 2 VL (an ldp/stp of q registers */
        b.eq    fc__neon_memcpy_gt32    /* moves 32 bytes, an ld1b/st1b 16); same object (simd.S) */
.Lsv_gt2_sve:
        cmp     count, vlen, lsl #2
        b.hi    .Lsv_gt4
.Lsv_le4:                                  /* 2 VL < n <= 4 VL */
        add     off3, vlen, vlen, lsl #1 /* 3 VL */
        whilelo A_p.b, xzr, count
        whilelo B_p.b, vlen, count
        lsl     off2, vlen, #1
        whilelo C_p.b, off2, count
        whilelo D_p.b, off3, count
        ld1b    A_z.b, A_p/z, [src]
        ld1b    B_z.b, B_p/z, [src, #1, mul vl]
        ld1b    C_z.b, C_p/z, [src, #2, mul vl]
        ld1b    D_z.b, D_p/z, [src, #3, mul vl]
        st1b    A_z.b, A_p, [dstin]
        st1b    B_z.b, B_p, [dstin, #1, mul vl]
        st1b    C_z.b, C_p, [dstin, #2, mul vl]
        st1b    D_z.b, D_p, [dstin, #3, mul vl]
        ret
.Lsv_gt4:
        add     srcend, src, count      /* se */
        add     dstend, dstin, count    /* de */
        cmp     count, vlen, lsl #3
        b.hi    .Lsv_fwd
.Lsv_le8:                                  /* 4 VL < n <= 8 VL: first and last 4 VL, all loaded first */
        ldr     A_z, [src]
        ldr     B_z, [src, #1, mul vl]
        ldr     C_z, [src, #2, mul vl]
        ldr     D_z, [src, #3, mul vl]
        ldr     E_z, [srcend, #-4, mul vl]
        ldr     F_z, [srcend, #-3, mul vl]
        ldr     G_z, [srcend, #-2, mul vl]
        ldr     H_z, [srcend, #-1, mul vl]
        str     A_z, [dstin]
        str     B_z, [dstin, #1, mul vl]
        str     C_z, [dstin, #2, mul vl]
        str     D_z, [dstin, #3, mul vl]
        str     E_z, [dstend, #-4, mul vl]
        str     F_z, [dstend, #-3, mul vl]
        str     G_z, [dstend, #-2, mul vl]
        str     H_z, [dstend, #-1, mul vl]
        ret

        /* n > 8 VL, forward.  I_z-P_z = the last 8 VL; src/dst walk s/d;
         * left = bytes beyond the block at src (> 0 at each block); blksz =
         * 8 VL. */
.Lsv_fwd:
        ldr     I_z, [srcend, #-8, mul vl]
        ldr     J_z, [srcend, #-7, mul vl]
        ldr     K_z, [srcend, #-6, mul vl]
        ldr     L_z, [srcend, #-5, mul vl]
        ldr     M_z, [srcend, #-4, mul vl]
        ldr     N_z, [srcend, #-3, mul vl]
        ldr     O_z, [srcend, #-2, mul vl]
        ldr     P_z, [srcend, #-1, mul vl]
        rdvl    blksz, #8
        mov     dst, dstin
        sub     left, count, blksz
.Lsv_fwd_loop:
        ldr     A_z, [src]
        ldr     B_z, [src, #1, mul vl]
        ldr     C_z, [src, #2, mul vl]
        ldr     D_z, [src, #3, mul vl]
        ldr     E_z, [src, #4, mul vl]
        ldr     F_z, [src, #5, mul vl]
        ldr     G_z, [src, #6, mul vl]
        ldr     H_z, [src, #7, mul vl]
        str     A_z, [dst]
        str     B_z, [dst, #1, mul vl]
        str     C_z, [dst, #2, mul vl]
        str     D_z, [dst, #3, mul vl]
        str     E_z, [dst, #4, mul vl]
        str     F_z, [dst, #5, mul vl]
        str     G_z, [dst, #6, mul vl]
        str     H_z, [dst, #7, mul vl]
        addvl   src, src, #8
        addvl   dst, dst, #8
        subs    left, left, blksz
        b.hi    .Lsv_fwd_loop
        str     I_z, [dstend, #-8, mul vl]
        str     J_z, [dstend, #-7, mul vl]
        str     K_z, [dstend, #-6, mul vl]
        str     L_z, [dstend, #-5, mul vl]
        str     M_z, [dstend, #-4, mul vl]
        str     N_z, [dstend, #-3, mul vl]
        str     O_z, [dstend, #-2, mul vl]
        str     P_z, [dstend, #-1, mul vl]
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
        cntb    vlen
        cmp     count, vlen, lsl #1
        b.ls    .Lsv_le2                   /* up to 2 VL: every load before any store */
        cmp     vlen, #16               /* VL 128 bits: neon's classes, past its checks */
        b.ne    2f
        cmp     count, #256
        b.ls    fc__neon_memcpy_gt32    /* 33..256: every load before any store */
        b       fc__neon_memmove_gt256
2:      cmp     count, vlen, lsl #3
        b.ls    .Lsv_gt2_sve            /* up to 8 VL: memcpy's classes, every load before any store */
        add     srcend, src, count
        add     dstend, dstin, count
        sub     diff, dstin, src
        cmp     diff, count
        b.hs    .Lsv_fwd                /* dst not in [s, se): forward is correct */
        cbz     diff, .Lsv_mv_ret       /* dst == src */
        /* n > 8 VL, dst in (s, se): backward.  I_z-P_z = the first 8 VL;
         * srcend/dstend walk down from se/de; left = bytes from d to the
         * block below dstend (> 0 at each block); blksz = 8 VL. */
        ldr     I_z, [src]
        ldr     J_z, [src, #1, mul vl]
        ldr     K_z, [src, #2, mul vl]
        ldr     L_z, [src, #3, mul vl]
        ldr     M_z, [src, #4, mul vl]
        ldr     N_z, [src, #5, mul vl]
        ldr     O_z, [src, #6, mul vl]
        ldr     P_z, [src, #7, mul vl]
        rdvl    blksz, #8
        sub     left, count, blksz
.Lsv_bwd_loop:
        addvl   srcend, srcend, #-8
        addvl   dstend, dstend, #-8
        ldr     A_z, [srcend]
        ldr     B_z, [srcend, #1, mul vl]
        ldr     C_z, [srcend, #2, mul vl]
        ldr     D_z, [srcend, #3, mul vl]
        ldr     E_z, [srcend, #4, mul vl]
        ldr     F_z, [srcend, #5, mul vl]
        ldr     G_z, [srcend, #6, mul vl]
        ldr     H_z, [srcend, #7, mul vl]
        str     H_z, [dstend, #7, mul vl]
        str     G_z, [dstend, #6, mul vl]
        str     F_z, [dstend, #5, mul vl]
        str     E_z, [dstend, #4, mul vl]
        str     D_z, [dstend, #3, mul vl]
        str     C_z, [dstend, #2, mul vl]
        str     B_z, [dstend, #1, mul vl]
        str     A_z, [dstend]
        subs    left, left, blksz
        b.hi    .Lsv_bwd_loop
        str     I_z, [dstin]
        str     J_z, [dstin, #1, mul vl]
        str     K_z, [dstin, #2, mul vl]
        str     L_z, [dstin, #3, mul vl]
        str     M_z, [dstin, #4, mul vl]
        str     N_z, [dstin, #5, mul vl]
        str     O_z, [dstin, #6, mul vl]
        str     P_z, [dstin, #7, mul vl]
.Lsv_mv_ret:
        ret
        .cfi_endproc
        .size   fc_sve_memmove, . - fc_sve_memmove

#undef dstin
#undef src
#undef count
#undef vlen
#undef srcend
#undef dstend
#undef off2
#undef off3
#undef diff
#undef blksz
#undef dst
#undef left
#undef A_z
#undef B_z
#undef C_z
#undef D_z
#undef E_z
#undef F_z
#undef G_z
#undef H_z
#undef I_z
#undef J_z
#undef K_z
#undef L_z
#undef M_z
#undef N_z
#undef O_z
#undef P_z
#undef A_p
#undef B_p
#undef C_p
#undef D_p
#endif
#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
