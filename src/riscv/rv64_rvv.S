/*
 * rv64-rvv - memcpy/memmove with the RISC-V Vector extension 1.0.
 *
 * For:   RV64 cores with RVV 1.0 (SpacemiT X60, SiFive X280/P670, T-Head
 *        C908, ...); available when riscv_hwprobe IMA_EXT_0 (or AT_HWCAP)
 *        reports V.  Any VLEN (tested under qemu at 128, 256, 512, 1024).
 * Needs: V 1.0.  Only this file is assembled with V (`.option arch, +v`);
 *        the rest of the library stays rv64gc and runs on cores without V.
 * Never: an element-misaligned vector access: EEW 64 only when dst, src and
 *        n are all multiples of 8, else EEW 8 (SpacemiT X60 faults on
 *        element-misaligned vector accesses; scripts/rv-audit.py checks it).
 *
 * Size-class policy (VLENB = VLEN/8 bytes; strip-mined with vsetvli, ta/ma):
 *
 *   | n               | alignment                 | technique                           |
 *   |-----------------|---------------------------|-------------------------------------|
 *   | 0 .. VLENB      | any but all-8-aligned     | e8, m1: one vle8/vse8 pair          |
 *   | > VLENB         | any but all-8-aligned     | e8, m8 loop: VLEN bytes per trip    |
 *   | any             | d, s, n multiples of 8    | e64, m8 loop: VLEN bytes per trip   |
 *
 * LMUL chosen by dynamic instruction count under qemu (scripts/rv-audit.py):
 * below VLENB, m1 and m8 cost the same count but m1 occupies one register and
 * is what small copies want on hardware (rvv-bench: m1 beats m8 at 15 bytes);
 * above it m8 moves eight times as much per trip.  Scalar code never wins by count: the
 * m1 path is 10 instructions for any n <= VLENB.
 *
 * memmove: backward (strip-mining from the top) only when dst lies in
 * (src, src + n); each trip loads its whole chunk before storing it.
 */

    .text
    .option push
    .option arch, +v
    .option norelax

    .p2align 2
    .globl  fc_rv64_rvv_memcpy
    .hidden fc_rv64_rvv_memcpy
    .type   fc_rv64_rvv_memcpy, @function
fc_rv64_rvv_memcpy:
    .cfi_startproc
    mv      a3, a0
    or      t1, a0, a1
    or      t1, t1, a2
    andi    t1, t1, 7
    beqz    t1, .Lv_e64
    vsetvli t0, a2, e8, m1, ta, ma
    bne     t0, a2, 1f
    vle8.v  v8, (a1)
    vse8.v  v8, (a0)
    ret
1:  vsetvli t0, a2, e8, m8, ta, ma
    vle8.v  v8, (a1)
    sub     a2, a2, t0
    add     a1, a1, t0
    vse8.v  v8, (a3)
    add     a3, a3, t0
    bnez    a2, 1b
    ret
.Lv_e64:
    srli    a2, a2, 3               /* 8-byte elements */
2:  vsetvli t0, a2, e64, m8, ta, ma
    vle64.v v8, (a1)
    slli    t1, t0, 3
    sub     a2, a2, t0
    add     a1, a1, t1
    vse64.v v8, (a3)
    add     a3, a3, t1
    bnez    a2, 2b
    ret
    .cfi_endproc
    .size   fc_rv64_rvv_memcpy, . - fc_rv64_rvv_memcpy

    .p2align 2
    .globl  fc_rv64_rvv_memmove
    .hidden fc_rv64_rvv_memmove
    .type   fc_rv64_rvv_memmove, @function
fc_rv64_rvv_memmove:
    .cfi_startproc
    sub     t0, a0, a1
    bgeu    t0, a2, fc_rv64_rvv_memcpy  /* dst not inside (src, src + n) */
    beqz    t0, 9f
    or      t1, a0, a1
    or      t1, t1, a2
    andi    t1, t1, 7
    beqz    t1, .Lvb_e64
    vsetvli t0, a2, e8, m1, ta, ma
    bne     t0, a2, 1f
    vle8.v  v8, (a1)
    vse8.v  v8, (a0)
    ret
1:  vsetvli t0, a2, e8, m8, ta, ma
    sub     a2, a2, t0              /* the top t0 bytes of what is left */
    add     t1, a1, a2
    add     t2, a0, a2
    vle8.v  v8, (t1)
    vse8.v  v8, (t2)
    bnez    a2, 1b
9:  ret
.Lvb_e64:
    srli    a2, a2, 3
2:  vsetvli t0, a2, e64, m8, ta, ma
    sub     a2, a2, t0
    slli    t3, a2, 3
    add     t1, a1, t3
    add     t2, a0, t3
    vle64.v v8, (t1)
    vse64.v v8, (t2)
    bnez    a2, 2b
    ret
    .cfi_endproc
    .size   fc_rv64_rvv_memmove, . - fc_rv64_rvv_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
