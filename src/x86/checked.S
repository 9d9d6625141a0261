/*
 * checked.S - fc_copy_checked's copy for x86-64: a copy whose faults
 * (SIGSEGV, SIGBUS) end it with the exact number of bytes not copied, the way
 * the kernel's copy_to_user/copy_from_user end theirs: every instruction that
 * may fault lies in a range listed in fc__checked_table (end of this file),
 * and src/checked/checked.c's signal handler resumes the copy at that
 * range's fixup instead of letting the fault kill the process.  No setjmp,
 * no system call per call.
 *
 * For:    x86-64 (SysV ABI).  fc__checked_avx2 needs AVX2 and an OS that saves
 *         the ymm state; fc__checked_sse2 runs on every x86-64.
 * Needs:  precise faults (the faulting instruction's address in the signal
 *         context) and no partial stores: an x86 store that faults writes none
 *         of its bytes.
 *
 * Registers (both entries): rdi = dst, rsi = src, rdx = n; r8 = done: [0,
 * done) of dst holds src.  Returns rax = bytes not copied (0: all).  The loop
 * streams its stores from fc__x86_tune.nt_threshold (fc_memcpy's threshold,
 * read at offset 0 of that struct: src/checked/checked.c asserts it).
 *
 * How a fault ends with the exact count: every access in the "bulk" ranges
 * touches bytes at or above done, and done only grows past bytes already
 * copied.  A fault there resumes at the range's fixup, which copies [done, n)
 * byte by byte (.Lbytes).  That loop faults, if at all, at the first byte
 * that cannot be read from src or written to dst: its own fixup returns
 * n - done.  Bytes that the vector moves had stored above done before the
 * fault hold their src bytes; nothing outside dst[0, n) is ever written.
 * The byte loop redoes at most one block (4W bytes) in the loop and at most
 * n <= 8W bytes in the short classes.  Below 8 bytes the 4..16 class moves 8
 * bytes through the red zone (scratch, never src or dst): a fault there is
 * impossible, and its stores are not dst's.
 *
 * Size classes (W = 32 for avx2, 16 for sse2):
 *
 *   | n          | technique                                                 |
 *   |------------|-----------------------------------------------------------|
 *   | 0..3       | bytes first, middle, last                                 |
 *   | 4..16      | two 4-byte and two 8-byte moves, no branch at 8 (red zone)|
 *   | 17..2W-1   | four 16-byte moves at 0, a, n-16-a, n-16, a = 11(n-16)/32 |
 *   | 2W         | 2 W moves                                                 |
 *   | 2W+1..4W   | 4 W moves: first 2, last 2, loads before stores (the      |
 *   |            | fall-through: no taken branch)                            |
 *   | 4W+1..8W   | 8 W moves: first 4, last 4, loads before stores           |
 *   | > 8W       | first W unaligned; then forward blocks of 4 unaligned     |
 *   |            | loads + 4 aligned stores (done = block start); the last   |
 *   |            | 4W bytes unaligned after the loop                         |
 *   | >= NT      | the same loop with non-temporal stores, sfence after it   |
 *
 * Forward only: done must only grow (the memcpy routines' backward loops for
 * 4K-aliased buffers are not used here).  Overlapping buffers: as memcpy,
 * undefined.
 */
#if defined(__x86_64__) && defined(__linux__)
#include "gnu_property.h"

        .text

/* ---- the sse2 range: the short classes (shared) and the sse2 entry ------ */
        .p2align 6
        .globl  fc__checked_sse_begin
        .hidden fc__checked_sse_begin
fc__checked_sse_begin:

/* n < 2W, both entries (r8 = 0), as fc_memcpy's short classes
 * (src/x86/vec_copy.h): 0..3 bytes first, middle, last; 4..16 two 4-byte and
 * two 8-byte moves with no branch at 8 (below 8 the 8-byte moves go to a
 * scratch block in the red zone below the stack pointer, which a leaf
 * function owns and signal delivery skips: loads from rsp-28..rsp-17, stores
 * to rsp-16..rsp-5); 17..2W-1 four 16-byte moves at 0, a, n-16-a, n-16 with
 * a = 11(n-16)/32, which overlap or touch for every n in 16..64: no branch
 * at 32. */
        .p2align 6
.Llt2w:
        cmp     $16, %rdx
        ja      .L17
        cmp     $4, %rdx
        jb      .Llt4
        mov     %rsi, %rax                      /* s8 */
        mov     %rdi, %rcx                      /* d8 */
        lea     -24(%rsp), %r9
        lea     -12(%rsp), %r10
        cmp     $8, %rdx
        cmovb   %r9, %rax
        cmovb   %r10, %rcx
        movl    (%rsi), %r9d
        movl    -4(%rsi,%rdx), %r10d
        movq    (%rax), %r11
        movq    -8(%rax,%rdx), %rax
        movl    %r9d, (%rdi)
        movl    %r10d, -4(%rdi,%rdx)
        movq    %r11, (%rcx)
        movq    %rax, -8(%rcx,%rdx)
        xorl    %eax, %eax
        ret
        .p2align 6
.L17:
        lea     -16(%rdx), %rcx                 /* m = n - 16 */
        lea     (%rcx,%rcx,4), %rax
        lea     (%rcx,%rax,2), %rax             /* 11 m */
        shr     $5, %rax                        /* a */
        sub     %rax, %rcx                      /* m - a */
        movdqu  (%rsi), %xmm0
        movdqu  (%rsi,%rax), %xmm1
        movdqu  (%rsi,%rcx), %xmm2
        movdqu  -16(%rsi,%rdx), %xmm3
        movdqu  %xmm0, (%rdi)
        movdqu  %xmm1, (%rdi,%rax)
        movdqu  %xmm2, (%rdi,%rcx)
        movdqu  %xmm3, -16(%rdi,%rdx)
        xorl    %eax, %eax
        ret
        .p2align 6
.Llt4:
        test    %rdx, %rdx
        jz      1f
        mov     %rdx, %rcx
        shr     %rcx                            /* n / 2 */
        movzbl  (%rsi), %eax
        movzbl  (%rsi,%rcx), %r9d
        movzbl  -1(%rsi,%rdx), %r10d
        movb    %al, (%rdi)
        movb    %r9b, (%rdi,%rcx)
        movb    %r10b, -1(%rdi,%rdx)
1:      xorl    %eax, %eax
        ret

/* The loop: 4 loads at done, 4 aligned stores (STORE: ordinary or
 * non-temporal) at done, done += 4W, again while done <= r9 = n - 4W.  done
 * is the block's start at every load and store of it. */
.macro CHECKED_LOOP W, LD, STORE, R0, R1, R2, R3
        .p2align 4
4:      \LD     (%rsi,%r8), %\R0
        \LD     \W(%rsi,%r8), %\R1
        \LD     (2*\W)(%rsi,%r8), %\R2
        \LD     (3*\W)(%rsi,%r8), %\R3
        \STORE  %\R0, (%rdi,%r8)
        \STORE  %\R1, \W(%rdi,%r8)
        \STORE  %\R2, (2*\W)(%rdi,%r8)
        \STORE  %\R3, (3*\W)(%rdi,%r8)
        add     $(4*\W), %r8
        cmp     %r9, %r8
        jbe     4b
.endm

/* Every jump target starts a 64-byte line (as -falign-jumps=64 does for the
 * C routines, CMakeLists.txt): the padding before it is never executed.
 * The ladder and the loop for one width.  LD/ST/STA/STNT: unaligned load,
 * unaligned store, aligned store, non-temporal store; R0..R7 the registers. */
.macro CHECKED_BODY W, LD, ST, STA, STNT, R0, R1, R2, R3, R4, R5, R6, R7, VZ, P
        /* 2W+1..4W falls through (no taken branch), as in fc_memcpy */
        xorl    %r8d, %r8d
        cmp     $(4*\W), %rdx
        ja      .L\P\()gt4
        cmp     $(2*\W), %rdx
        jb      .Llt2w
        je      .L\P\()eq2
        \LD     (%rsi), %\R0
        \LD     \W(%rsi), %\R1
        \LD     -(2*\W)(%rsi,%rdx), %\R2
        \LD     -\W(%rsi,%rdx), %\R3
        \ST     %\R0, (%rdi)
        \ST     %\R1, \W(%rdi)
        \ST     %\R2, -(2*\W)(%rdi,%rdx)
        \ST     %\R3, -\W(%rdi,%rdx)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()eq2:                                    /* n = 2W: two vectors */
        \LD     (%rsi), %\R0
        \LD     \W(%rsi), %\R1
        \ST     %\R0, (%rdi)
        \ST     %\R1, \W(%rdi)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()gt4:
        cmp     $(8*\W), %rdx
        ja      .L\P\()loop
        \LD     (%rsi), %\R0
        \LD     \W(%rsi), %\R1
        \LD     (2*\W)(%rsi), %\R2
        \LD     (3*\W)(%rsi), %\R3
        \LD     -(4*\W)(%rsi,%rdx), %\R4
        \LD     -(3*\W)(%rsi,%rdx), %\R5
        \LD     -(2*\W)(%rsi,%rdx), %\R6
        \LD     -\W(%rsi,%rdx), %\R7
        \ST     %\R0, (%rdi)
        \ST     %\R1, \W(%rdi)
        \ST     %\R2, (2*\W)(%rdi)
        \ST     %\R3, (3*\W)(%rdi)
        \ST     %\R4, -(4*\W)(%rdi,%rdx)
        \ST     %\R5, -(3*\W)(%rdi,%rdx)
        \ST     %\R6, -(2*\W)(%rdi,%rdx)
        \ST     %\R7, -\W(%rdi,%rdx)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()loop:
        /* n > 8W: the first W bytes, then done = the first W-aligned dst
         * offset above 0 (1..W), blocks of 4W while done + 4W <= n */
        \LD     (%rsi), %\R0
        \ST     %\R0, (%rdi)
        movl    %edi, %r8d
        negl    %r8d
        andl    $(\W-1), %r8d
        jnz     1f
        movl    $\W, %r8d
1:      lea     -(4*\W)(%rdx), %r9
        cmp     fc__x86_tune(%rip), %rdx
        jae     .L\P\()nt
        CHECKED_LOOP \W, \LD, \STA, \R0, \R1, \R2, \R3
.L\P\()tail:
        /* [done, n) < 4W bytes left: the last 4W bytes as one block */
        \LD     -(4*\W)(%rsi,%rdx), %\R0
        \LD     -(3*\W)(%rsi,%rdx), %\R1
        \LD     -(2*\W)(%rsi,%rdx), %\R2
        \LD     -\W(%rsi,%rdx), %\R3
        \ST     %\R0, -(4*\W)(%rdi,%rdx)
        \ST     %\R1, -(3*\W)(%rdi,%rdx)
        \ST     %\R2, -(2*\W)(%rdi,%rdx)
        \ST     %\R3, -\W(%rdi,%rdx)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()nt:
        CHECKED_LOOP \W, \LD, \STNT, \R0, \R1, \R2, \R3
        sfence
        jmp     .L\P\()tail
.endm

/* size_t fc__checked_sse2(void *dst, const void *src, size_t n) */
        .p2align 6
        .globl  fc__checked_sse2
        .hidden fc__checked_sse2
        .type   fc__checked_sse2, @function
fc__checked_sse2:
        CHECKED_BODY 16, movdqu, movdqu, movdqa, movntdq, xmm0, xmm1, xmm2, xmm3, xmm4, xmm5, xmm6, xmm7, , s
        .size   fc__checked_sse2, .-fc__checked_sse2

        .globl  fc__checked_sse_end
        .hidden fc__checked_sse_end
fc__checked_sse_end:

/* ---- size_t fc_copy_checked(void *dst, const void *src, size_t n) -------
 * The API's entry: falls into the avx2 copy once installed with it (mode 1,
 * no taken branch); the sse2 copy for mode 2; the first call (mode 0) goes to
 * checked.c, which installs the handlers and sets the mode. */
        .p2align 6
        .globl  fc_copy_checked
#if defined(FASTCOPY_STATIC_BUILD) && FASTCOPY_STATIC_BUILD
        .hidden fc_copy_checked
#endif
        .type   fc_copy_checked, @function
fc_copy_checked:
        FC_ENDBR                /* an indirect-branch target (IBT): the API, called through pointers */
        cmpb    $1, fc__checked_mode(%rip)
        jne     .Lnot_avx2

/* ---- the avx2 range ----------------------------------------------------- */
/* size_t fc__checked_avx2(void *dst, const void *src, size_t n) */
        .globl  fc__checked_avx2_begin
        .hidden fc__checked_avx2_begin
fc__checked_avx2_begin:
        .globl  fc__checked_avx2
        .hidden fc__checked_avx2
        .type   fc__checked_avx2, @function
fc__checked_avx2:
        CHECKED_BODY 32, vmovdqu, vmovdqu, vmovdqa, vmovntdq, ymm0, ymm1, ymm2, ymm3, ymm4, ymm5, ymm6, ymm7, vzeroupper, a
        .size   fc__checked_avx2, .-fc__checked_avx2
        .globl  fc__checked_avx2_end
        .hidden fc__checked_avx2_end
fc__checked_avx2_end:
        .p2align 4
.Lnot_avx2:
        cmpb    $2, fc__checked_mode(%rip)
        je      fc__checked_sse2
        jmp     fc__checked_first
        .size   fc_copy_checked, .-fc_copy_checked

/* ---- fixups (never fault) ----------------------------------------------- */
        .p2align 4
        .globl  fc__checked_fixup_avx2
        .hidden fc__checked_fixup_avx2
fc__checked_fixup_avx2:
        vzeroupper
        .globl  fc__checked_fixup_sse
        .hidden fc__checked_fixup_sse
fc__checked_fixup_sse:
        sfence                  /* the non-temporal stores before the fault, ordered */
        jmp     .Lbytes_start

/* ---- the byte range: [done, n) one byte at a time ----------------------- */
        .p2align 4
        .globl  fc__checked_bytes_begin
        .hidden fc__checked_bytes_begin
fc__checked_bytes_begin:
.Lbytes_start:
        cmp     %rdx, %r8
        jae     2f
1:      movzbl  (%rsi,%r8), %eax
        movb    %al, (%rdi,%r8)
        inc     %r8
        cmp     %rdx, %r8
        jb      1b
2:      xorl    %eax, %eax
        ret
        .globl  fc__checked_bytes_end
        .hidden fc__checked_bytes_end
fc__checked_bytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
        .globl  fc__checked_fixup_bytes
        .hidden fc__checked_fixup_bytes
fc__checked_fixup_bytes:
        mov     %rdx, %rax
        sub     %r8, %rax
        ret

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 3
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .quad   fc__checked_sse_begin, fc__checked_sse_end, fc__checked_fixup_sse
        .quad   fc__checked_avx2_begin, fc__checked_avx2_end, fc__checked_fixup_avx2
        .quad   fc__checked_bytes_begin, fc__checked_bytes_end, fc__checked_fixup_bytes
        .quad   0, 0, 0

/* With -fcf-protection (__CET__): this object supports IBT (the one indirect
 * target above) and the shadow stack (every ret returns to its call: the
 * fixups run in the copy's own frame), so it keeps the library's marking. */
FC_GNU_PROPERTY
#endif

        .section .note.GNU-stack, "", @progbits
