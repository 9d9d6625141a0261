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
 * Uses:   rax, rcx, r8-r11, xmm0-xmm7/ymm0-ymm7 (caller-saved); no stack
 *         writes above rsp, no frame.  Every path that writes a ymm register
 *         ends with vzeroupper; the classes below 65 bytes touch only xmm
 *         (VEX.128, which leaves no dirty upper state).
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

        .text

/* 17..64: rdi = dst, rsi = src, rdx = n; returns (rax already holds dst).
 * a = ((n - 1) / 2) & 16: 16 above 32 bytes (moves at 0, 16, n-32, n-16),
 * 0 up to 32 (the middle moves repeat the first and the last). */
.macro FC_COPY_17_64
        lea     -16(%rdx), %rcx         /* n - 16 */
        vmovdqu (%rsi), %xmm0
        vmovdqu -16(%rsi,%rdx), %xmm3
        lea     -1(%rdx), %r8d
        shr     %r8d
        and     $16, %r8d               /* a */
        sub     %r8, %rcx               /* n - 16 - a */
        vmovdqu (%rsi,%r8), %xmm1
        vmovdqu (%rsi,%rcx), %xmm2
        vmovdqu %xmm0, (%rdi)
        vmovdqu %xmm1, (%rdi,%r8)
        vmovdqu %xmm2, (%rdi,%rcx)
        vmovdqu %xmm3, -16(%rdi,%rdx)   /* last: an 8-byte read of dst's end forwards from it */
        ret
.endm

/* 0..16; \p names the copy's labels.  For 4..7 the 8-byte pair reads
 * rsp-28..rsp-17 and writes rsp-16..rsp-5 (never src or dst, and never a
 * load of this call after a store of it to the same bytes). */
.macro FC_COPY_0_16 p
        cmp     $3, %rdx
        jbe     .L\p\()lt4
        lea     -24(%rsp), %rcx
        lea     -12(%rsp), %r10
        cmp     $8, %rdx
        cmovae  %rsi, %rcx              /* n >= 8: the 8-byte pair from src to dst, else in the red zone */
        cmovae  %rdi, %r10
        mov     (%rsi), %r8d
        mov     -4(%rsi,%rdx), %r9d
        mov     (%rcx), %r11
        mov     -8(%rcx,%rdx), %rcx
        mov     %r8d, (%rdi)
        mov     %r9d, -4(%rdi,%rdx)
        mov     %r11, (%r10)
        mov     %rcx, -8(%r10,%rdx)     /* the 8-byte stores last: a read of either end forwards */
        ret
        .p2align 6
.L\p\()lt4:
        test    %rdx, %rdx
        je      .L\p\()ret
        mov     %rdx, %r8
        shr     %r8
        movzbl  (%rsi), %ecx
        movzbl  (%rsi,%r8), %r9d
        movzbl  -1(%rsi,%rdx), %r10d
        mov     %cl, (%rdi)
        mov     %r9b, (%rdi,%r8)
        mov     %r10b, -1(%rdi,%rdx)
.L\p\()ret:
        ret
.endm

/* memcpy, 65..256: a dst that crosses a page boundary (its first and last
 * bytes differ above bit 11) goes to the split copy */
.macro FC_SPLIT_AT_PAGE
        lea     -1(%rdi,%rdx), %rcx
        xor     %rdi, %rcx
        cmp     $4095, %rcx
        ja      fc_avx2_split
.endm

/* 65..128 and 129..256: the first and the last 2 or 4 vectors */
.macro FC_COPY_65_128
        vmovdqu (%rsi), %ymm0
        vmovdqu 32(%rsi), %ymm1
        vmovdqu -64(%rsi,%rdx), %ymm2
        vmovdqu -32(%rsi,%rdx), %ymm3
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, 32(%rdi)
        vmovdqu %ymm2, -64(%rdi,%rdx)
        vmovdqu %ymm3, -32(%rdi,%rdx)
        vzeroupper
        ret
.endm

.macro FC_COPY_129_256
        vmovdqu (%rsi), %ymm0
        vmovdqu 32(%rsi), %ymm1
        vmovdqu 64(%rsi), %ymm2
        vmovdqu 96(%rsi), %ymm3
        vmovdqu -128(%rsi,%rdx), %ymm4
        vmovdqu -96(%rsi,%rdx), %ymm5
        vmovdqu -64(%rsi,%rdx), %ymm6
        vmovdqu -32(%rsi,%rdx), %ymm7
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, 32(%rdi)
        vmovdqu %ymm2, 64(%rdi)
        vmovdqu %ymm3, 96(%rdi)
        vmovdqu %ymm4, -128(%rdi,%rdx)
        vmovdqu %ymm5, -96(%rdi,%rdx)
        vmovdqu %ymm6, -64(%rdi,%rdx)
        vmovdqu %ymm7, -32(%rdi,%rdx)
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
        mov     %rdi, %rax
        cmp     $64, %rdx
        ja      .Lc_gt64
        cmp     $16, %rdx
        jbe     .Lc_le16
        FC_COPY_17_64
        .p2align 6
.Lc_le16:
        FC_COPY_0_16 c
        .p2align 6
.Lc_gt64:
        cmp     $256, %rdx
        ja      fc_avx2_large
        FC_SPLIT_AT_PAGE
        cmp     $128, %rdx
        ja      .Lc_gt128
        FC_COPY_65_128
        .p2align 6
.Lc_gt128:
        FC_COPY_129_256
        .cfi_endproc
        .size   fc_avx2_memcpy, .-fc_avx2_memcpy

/* void *fc_avx2_memmove(void *dst, const void *src, size_t n) */
        .p2align 6
        .globl  fc_avx2_memmove
        .hidden fc_avx2_memmove
        .type   fc_avx2_memmove, @function
fc_avx2_memmove:
        .cfi_startproc
        FC_ENDBR
        mov     %rdi, %rax
        cmp     $64, %rdx
        ja      .Lm_gt64
        mov     %rdi, %rcx              /* overlap: dst - src + n < 2n (unsigned) */
        sub     %rsi, %rcx
        add     %rdx, %rcx
        lea     (%rdx,%rdx), %r8
        cmp     %r8, %rcx
        jb      .Lm_overlap
        cmp     $16, %rdx
        jbe     .Lm_le16
        FC_COPY_17_64
        .p2align 6
.Lm_le16:
        FC_COPY_0_16 m
        .p2align 6
.Lm_gt64:
        cmp     $256, %rdx
        ja      fc_avx2_large
        cmp     $128, %rdx
        ja      .Lm_gt128
        FC_COPY_65_128
        .p2align 6
.Lm_gt128:
        FC_COPY_129_256
        .p2align 6
.Lm_overlap:                            /* 0..64, the buffers overlap */
        cmp     $16, %rdx
        jb      .Lm_ov_lt16
        cmp     $32, %rdx
        jbe     .Lm_ov16
        vmovdqu (%rsi), %ymm0           /* 33..64: first and last 32 */
        vmovdqu -32(%rsi,%rdx), %ymm1
        vmovdqu %ymm0, (%rdi)
        vmovdqu %ymm1, -32(%rdi,%rdx)
        vzeroupper
        ret
        .p2align 4
.Lm_ov16:                               /* 16..32: first and last 16 */
        vmovdqu (%rsi), %xmm0
        vmovdqu -16(%rsi,%rdx), %xmm1
        vmovdqu %xmm0, (%rdi)
        vmovdqu %xmm1, -16(%rdi,%rdx)
        ret
        .p2align 4
.Lm_ov_lt16:
        cmp     $8, %rdx
        jb      .Lm_ov_lt8
        mov     (%rsi), %rcx            /* 8..15: first and last 8 */
        mov     -8(%rsi,%rdx), %r8
        mov     %rcx, (%rdi)
        mov     %r8, -8(%rdi,%rdx)
        ret
        .p2align 4
.Lm_ov_lt8:
        cmp     $4, %rdx
        jb      .Lm_le16                /* 0..3: bytes, all loaded first */
        mov     (%rsi), %ecx            /* 4..7: first and last 4 */
        mov     -4(%rsi,%rdx), %r8d
        mov     %ecx, (%rdi)
        mov     %r8d, -4(%rdi,%rdx)
        ret
        .cfi_endproc
        .size   fc_avx2_memmove, .-fc_avx2_memmove

FC_GNU_PROPERTY
#endif

        .section .note.GNU-stack, "", @progbits
