/*
 * avx2_ladder.S - the entry points of the avx2 registry entry (fc_avx2_memcpy,
 * fc_avx2_memmove): the sizes up to 256 bytes (8 ymm vectors) here, in
 * assembly; larger ones jump to the C loops of vec_copy.h (fc_avx2_large,
 * built from avx2.c), as do memcpy's 65..256-byte copies whose dst crosses a
 * page boundary (fc_avx2_split).
 *
 * For:    x86-64 with AVX2 and an OS that saves the ymm state (the avx2
 *         probe, src/cpu/x86_detect.c); the default entry on AMD Zen 1-3 and on
 *         CPUs without AVX-512 (docs/x86-policy.md).
 * Needs:  unaligned vector loads and stores as fast as aligned ones when the
 *         address happens to be aligned; the SysV red zone (the 128 bytes
 *         below rsp, which signal handlers leave alone) as scratch.
 * Uses:   dst = rdi, src = rsi, n = rdx on every path, and each class's
 *         names for the addresses, offsets and counts it keeps in rcx, r8,
 *         r10 (the #define blocks below); rax (dst, the return value) and
 *         the registers that only carry data from a load to its store (rcx,
 *         r8-r11, xmm0-xmm7/ymm0-ymm7: numbered slots) stay raw.  All
 *         caller-saved; no stack writes above rsp, no frame.  Every path that
 *         writes a ymm register ends with vzeroupper; the classes below 65
 *         bytes touch only xmm (VEX.128, which leaves no dirty upper state).
 *
 * Why assembly: in the fixed-size loops that fcbench and glibc's own
 * benchmarks time, every instruction and every taken branch on a short path
 * shows (D18); and the compiler's block layout of vec_copy.h's ladder put
 * 17..63 bytes behind two taken branches and reshuffled the classes whenever
 * a branch hint changed.  Here every class's path is written out.  The C
 * ladder stays the one of sse2 and the AVX-512 entries, which were not
 * measured this way (docs/x86.md, "avx2's short classes"; D18).
 *
 * Size classes (memcpy and memmove alike unless said):
 *
 *   | n         | taken branches | technique                                        |
 *   |-----------|----------------|--------------------------------------------------|
 *   | 17..64    | 0              | four 16-byte moves at 0, a, n-16-a, n-16 with    |
 *   |           |                | a = 16 above 32 bytes, else 0 (three ALU         |
 *   |           |                | instructions): no branch at 32 (real size mixes  |
 *   |           |                | mispredict one); xmm only                        |
 *   | 4..16     | 1              | two 4-byte and two 8-byte moves (first, last);   |
 *   |           |                | for n < 8 two cmovs send the 8-byte pair to the  |
 *   |           |                | red zone: no branch at 8                         |
 *   | 0..3      | 2              | bytes first, middle, last                        |
 *   | 65..128   | 1              | first 64 and last 64 (4 ymm, all loads first)    |
 *   | 129..256  | 2              | first 128 and last 128 (8 ymm, all loads first)  |
 *   |  memcpy,  |                | dst crosses a page boundary: fc_avx2_split (two  |
 *   |  65..256  |                | copies that meet at the boundary; no store       |
 *   |           |                | straddles it, see vec_copy.h)                    |
 *   |  memmove, |                | overlapping buffers: two moves per class, first  |
 *   |  0..64    |                | and last 4, 8, 16 or 32 bytes (0..3: as above);  |
 *   |           |                | fewer loads that can meet the previous call's    |
 *   |           |                | stores (vec_copy.h, fc_move_lt64)                |
 *   | > 256     |                | fc_avx2_large: vec_copy.h's loops, NT stores,    |
 *   |           |                | rep movsb window, direction by overlap/aliasing  |
 *
 * Every class here loads all it moves before its first store, so memmove
 * needs the overlap test only to be fast.  No access outside [src, src + n)
 * and [dst, dst + n) (the red zone aside); no byte loop.  Not instrumented
 * by AddressSanitizer (assembly): the guard-page grids (every n up to 1024
 * at every pair of offsets mod 64, tests/test_grid.c) and the overlap suite
 * check it instead, and tests/harness.c checks the upper ymm state after
 * every call.
 */
#if defined(__x86_64__)

#include "gnu_property.h"     /* FC_ENDBR: the entries are reached through the dispatch pointer */

/* The arguments, on every path (rax = dst from the first instruction on: the
 * return value; it stays raw).  The classes' own names are defined next to
 * their macros and undefined after them. */
#define dst     %rdi
#define src     %rsi
#define n       %rdx

        .text

/* 17..64: returns (rax already holds dst).  Four 16-byte moves at 0, mid_lo,
 * mid_hi and n-16: mid_lo = a = ((n - 1) / 2) & 16, mid_hi = n - 16 - a.
 * a is 16 above 32 bytes (moves at 0, 16, n-32, n-16), 0 up to 32 (the
 * middle moves repeat the first and the last). */
#define mid_lo   %r8            /* a: the second move's offset */
#define mid_lo_d %r8d
#define mid_hi   %rcx           /* n - 16 - a: the third move's offset */
.macro FC_COPY_17_64
        lea     -16(n), mid_hi          /* n - 16 */
        vmovdqu (src), %xmm0
        vmovdqu -16(src, n), %xmm3
        lea     -1(n), mid_lo_d
        shr     mid_lo_d
        and     $16, mid_lo_d           /* a */
        sub     mid_lo, mid_hi          /* n - 16 - a */
        vmovdqu (src, mid_lo), %xmm1
        vmovdqu (src, mid_hi), %xmm2
        vmovdqu %xmm0, (dst)
        vmovdqu %xmm1, (dst, mid_lo)
        vmovdqu %xmm2, (dst, mid_hi)
        vmovdqu %xmm3, -16(dst, n)      /* last: an 8-byte read of dst's end forwards from it */
        ret
.endm
#undef mid_lo
#undef mid_lo_d
#undef mid_hi

/* 0..16; \p names the copy's labels.  For 4..7 the 8-byte pair reads
 * rsp-28..rsp-17 and writes rsp-16..rsp-5 (never src or dst, and never a
 * load of this call after a store of it to the same bytes).  r8d, r9d, r11
 * and rcx (once s8 is read) carry the 4- and 8-byte data; ecx/cl, r9d/r9b
 * and r10d/r10b the three bytes of 1..3. */
#define s8      %rcx            /* 4..16: the 8-byte pair's source, src or the red zone */
#define d8      %r10            /* 4..16: its destination, dst or the red zone */
#define half    %r8             /* 1..3: n / 2, the middle byte's offset */
.macro FC_COPY_0_16 p
        cmp     $3, n
        jbe     .L\p\()lt4
        lea     -24(%rsp), s8
        lea     -12(%rsp), d8
        cmp     $8, n
        cmovae  src, s8                 /* n >= 8: the 8-byte pair from src to dst, else in the red zone */
        cmovae  dst, d8
        mov     (src), %r8d
        mov     -4(src, n), %r9d
        mov     (s8), %r11
        mov     -8(s8, n), %rcx         /* s8's last use: rcx now holds data */
        mov     %r8d, (dst)
        mov     %r9d, -4(dst, n)
        mov     %r11, (d8)
        mov     %rcx, -8(d8, n)         /* the 8-byte stores last: a read of either end forwards */
        ret
        .p2align 6
.L\p\()lt4:
        test    n, n
        je      .L\p\()ret
        mov     n, half
        shr     half
        movzbl  (src), %ecx
        movzbl  (src, half), %r9d
        movzbl  -1(src, n), %r10d
        mov     %cl, (dst)
        mov     %r9b, (dst, half)
        mov     %r10b, -1(dst, n)
.L\p\()ret:
        ret
.endm
#undef s8
#undef d8
#undef half

/* memcpy, 65..256: a dst that crosses a page boundary (its first and last
 * bytes differ above bit 11) goes to the split copy */
#define cross   %rcx            /* dst ^ (dst + n - 1) */
.macro FC_SPLIT_AT_PAGE
        lea     -1(dst, n), cross
        xor     dst, cross
        cmp     $4095, cross
        ja      fc_avx2_split
.endm
#undef cross

/* 65..128 and 129..256: the first and the last 2 or 4 vectors */
.macro FC_COPY_65_128
        vmovdqu (src), %ymm0
        vmovdqu 32(src), %ymm1
        vmovdqu -64(src, n), %ymm2
        vmovdqu -32(src, n), %ymm3
        vmovdqu %ymm0, (dst)
        vmovdqu %ymm1, 32(dst)
        vmovdqu %ymm2, -64(dst, n)
        vmovdqu %ymm3, -32(dst, n)
        vzeroupper
        ret
.endm

.macro FC_COPY_129_256
        vmovdqu (src), %ymm0
        vmovdqu 32(src), %ymm1
        vmovdqu 64(src), %ymm2
        vmovdqu 96(src), %ymm3
        vmovdqu -128(src, n), %ymm4
        vmovdqu -96(src, n), %ymm5
        vmovdqu -64(src, n), %ymm6
        vmovdqu -32(src, n), %ymm7
        vmovdqu %ymm0, (dst)
        vmovdqu %ymm1, 32(dst)
        vmovdqu %ymm2, 64(dst)
        vmovdqu %ymm3, 96(dst)
        vmovdqu %ymm4, -128(dst, n)
        vmovdqu %ymm5, -96(dst, n)
        vmovdqu %ymm6, -64(dst, n)
        vmovdqu %ymm7, -32(dst, n)
        vzeroupper
        ret
.endm

/* Every jump target starts a 64-byte line (the padding follows a ret or a
 * jmp and is never executed), as the C routines' -falign-jumps=64 does. */

/* void *fc_avx2_memcpy(void *restrict dst, const void *restrict src, size_t n) */
        .p2align 6
        .globl  fc_avx2_memcpy
        .hidden fc_avx2_memcpy
        .type   fc_avx2_memcpy, @function
fc_avx2_memcpy:
        .cfi_startproc
        FC_ENDBR
        mov     dst, %rax
        cmp     $64, n
        ja      .Lc_gt64
        cmp     $16, n
        jbe     .Lc_le16
        FC_COPY_17_64
        .p2align 6
.Lc_le16:
        FC_COPY_0_16 c
        .p2align 6
.Lc_gt64:
        cmp     $256, n
        ja      fc_avx2_large
        FC_SPLIT_AT_PAGE
        cmp     $128, n
        ja      .Lc_gt128
        FC_COPY_65_128
        .p2align 6
.Lc_gt128:
        FC_COPY_129_256
        .cfi_endproc
        .size   fc_avx2_memcpy, .-fc_avx2_memcpy

/* void *fc_avx2_memmove(void *dst, const void *src, size_t n) */
#define dist    %rcx            /* dst - src + n */
#define n2      %r8             /* 2n */
        .p2align 6
        .globl  fc_avx2_memmove
        .hidden fc_avx2_memmove
        .type   fc_avx2_memmove, @function
fc_avx2_memmove:
        .cfi_startproc
        FC_ENDBR
        mov     dst, %rax
        cmp     $64, n
        ja      .Lm_gt64
        mov     dst, dist               /* overlap: dst - src + n < 2n (unsigned) */
        sub     src, dist
        add     n, dist
        lea     (n, n), n2
        cmp     n2, dist
        jb      .Lm_overlap
        cmp     $16, n
        jbe     .Lm_le16
        FC_COPY_17_64
        .p2align 6
.Lm_le16:
        FC_COPY_0_16 m
        .p2align 6
.Lm_gt64:
        cmp     $256, n
        ja      fc_avx2_large
        cmp     $128, n
        ja      .Lm_gt128
        FC_COPY_65_128
        .p2align 6
.Lm_gt128:
        FC_COPY_129_256
        .p2align 6
.Lm_overlap:                            /* 0..64, the buffers overlap */
        cmp     $16, n
        jb      .Lm_ov_lt16
        cmp     $32, n
        jbe     .Lm_ov16
        vmovdqu (src), %ymm0            /* 33..64: first and last 32 */
        vmovdqu -32(src, n), %ymm1
        vmovdqu %ymm0, (dst)
        vmovdqu %ymm1, -32(dst, n)
        vzeroupper
        ret
        .p2align 4
.Lm_ov16:                               /* 16..32: first and last 16 */
        vmovdqu (src), %xmm0
        vmovdqu -16(src, n), %xmm1
        vmovdqu %xmm0, (dst)
        vmovdqu %xmm1, -16(dst, n)
        ret
        .p2align 4
.Lm_ov_lt16:
        cmp     $8, n
        jb      .Lm_ov_lt8
        mov     (src), %rcx             /* 8..15: first and last 8 (rcx, r8: data) */
        mov     -8(src, n), %r8
        mov     %rcx, (dst)
        mov     %r8, -8(dst, n)
        ret
        .p2align 4
.Lm_ov_lt8:
        cmp     $4, n
        jb      .Lm_le16                /* 0..3: bytes, all loaded first */
        mov     (src), %ecx             /* 4..7: first and last 4 */
        mov     -4(src, n), %r8d
        mov     %ecx, (dst)
        mov     %r8d, -4(dst, n)
        ret
        .cfi_endproc
        .size   fc_avx2_memmove, .-fc_avx2_memmove
#undef dist
#undef n2

FC_GNU_PROPERTY
#endif

        .section .note.GNU-stack, "", @progbits
