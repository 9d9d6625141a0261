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
 *
 * Registers: named in the #define block below (dstin a0, src a1, count a2,
 * dst a3, vl t0, ...; vbuf v8, the v8..v15 group at m8).
 */

#define dstin   a0      /* dst as passed: the return value; memmove's base */
#define src     a1      /* memcpy: source cursor; memmove: source base */
#define count   a2      /* bytes left (8-byte elements on the e64 paths) */
#define dst     a3      /* memcpy: destination cursor */
#define vl      t0      /* elements this trip (vsetvli's result) */
#define diff    t0      /* memmove: dst - src */
#define lowbits t1      /* dst | src | n: its low 3 bits pick e8 or e64 */
#define step    t1      /* memcpy e64: bytes this trip (vl * 8) */
#define srcp    t1      /* memmove: where this trip's chunk is read */
#define dstp    t2      /* memmove: where it is written */
#define below   t3      /* memmove e64: bytes below the chunk (count * 8) */
#define vbuf    v8      /* the chunk (v8 alone at m1, v8..v15 at m8) */

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
    mv      dst, dstin
    or      lowbits, dstin, src
    or      lowbits, lowbits, count
    andi    lowbits, lowbits, 7
    beqz    lowbits, .Lv_e64
    vsetvli vl, count, e8, m1, ta, ma
    bne     vl, count, 1f
    vle8.v  vbuf, (src)
    vse8.v  vbuf, (dstin)
    ret
1:  vsetvli vl, count, e8, m8, ta, ma
    vle8.v  vbuf, (src)
    sub     count, count, vl
    add     src, src, vl
    vse8.v  vbuf, (dst)
    add     dst, dst, vl
    bnez    count, 1b
    ret
.Lv_e64:
    srli    count, count, 3         /* 8-byte elements */
2:  vsetvli vl, count, e64, m8, ta, ma
    vle64.v vbuf, (src)
    slli    step, vl, 3
    sub     count, count, vl
    add     src, src, step
    vse64.v vbuf, (dst)
    add     dst, dst, step
    bnez    count, 2b
    ret
    .cfi_endproc
    .size   fc_rv64_rvv_memcpy, . - fc_rv64_rvv_memcpy

    .p2align 2
    .globl  fc_rv64_rvv_memmove
    .hidden fc_rv64_rvv_memmove
    .type   fc_rv64_rvv_memmove, @function
fc_rv64_rvv_memmove:
    .cfi_startproc
    sub     diff, dstin, src
    bgeu    diff, count, fc_rv64_rvv_memcpy  /* dst not inside (src, src + n) */
    beqz    diff, 9f
    or      lowbits, dstin, src
    or      lowbits, lowbits, count
    andi    lowbits, lowbits, 7
    beqz    lowbits, .Lvb_e64
    vsetvli vl, count, e8, m1, ta, ma
    bne     vl, count, 1f
    vle8.v  vbuf, (src)
    vse8.v  vbuf, (dstin)
    ret
1:  vsetvli vl, count, e8, m8, ta, ma
    sub     count, count, vl        /* the top vl bytes of what is left */
    add     srcp, src, count
    add     dstp, dstin, count
    vle8.v  vbuf, (srcp)
    vse8.v  vbuf, (dstp)
    bnez    count, 1b
9:  ret
.Lvb_e64:
    srli    count, count, 3
2:  vsetvli vl, count, e64, m8, ta, ma
    sub     count, count, vl
    slli    below, count, 3
    add     srcp, src, below
    add     dstp, dstin, below
    vle64.v vbuf, (srcp)
    vse64.v vbuf, (dstp)
    bnez    count, 2b
    ret
    .cfi_endproc
    .size   fc_rv64_rvv_memmove, . - fc_rv64_rvv_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
