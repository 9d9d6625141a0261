/*
 * i386/checked.S - fc_copy_checked's copy for 32-bit x86 (i686, cdecl): the
 * portable method (a block loop and a byte loop whose accesses lie in ranges
 * listed in fc__checked_table; src/checked/checked.c's signal handler resumes
 * a fault there at the range's fixup), with 4-byte general-register moves
 * only (Debian's i386 baseline has no SSE2).  Correct first: no size ladder.
 *
 * For:    any i686 Linux CPU.
 * Needs:  precise faults (the faulting instruction's EIP in the signal
 *         context); an x86 store that faults writes none of its bytes.
 *
 * Registers: edi = dst, esi = src, edx = n (from the stack), ecx = done:
 * [0, done) of dst holds src.  Returns eax = bytes not copied (0: all).
 * esi and edi are the caller's: saved on entry, restored on every return
 * (the fixups run in this frame).
 *
 * How a fault ends with the exact count: every access in the block range
 * touches bytes at or above done, and done only grows past blocks already
 * stored.  A fault there resumes at .Lfix_blocks, which copies [done, n)
 * byte by byte; that loop faults, if at all, at the first byte that cannot
 * be read or written, and its fixup returns n - done.
 *
 * Size classes:
 *
 *   | n      | technique                                                     |
 *   |--------|---------------------------------------------------------------|
 *   | 0..15  | byte loop                                                     |
 *   | >= 16  | 16-byte blocks (four 4-byte moves) while done + 16 <= n, then |
 *   |        | the last 0..15 bytes by the byte loop                         |
 *
 * Forward only.  Overlapping buffers: as memcpy, undefined.
 */
#if defined(__i386__) && defined(__linux__)

        .text
        .p2align 4
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, @function
fc__checked_copy:
        pushl   %esi
        pushl   %edi
        movl    12(%esp), %edi
        movl    16(%esp), %esi
        movl    20(%esp), %edx
        xorl    %ecx, %ecx
        cmpl    $16, %edx
        jb      .Lbytes

/* ---- block range --------------------------------------------------------- */
.Lblocks_begin:
1:      movl    (%esi,%ecx), %eax
        movl    %eax, (%edi,%ecx)
        movl    4(%esi,%ecx), %eax
        movl    %eax, 4(%edi,%ecx)
        movl    8(%esi,%ecx), %eax
        movl    %eax, 8(%edi,%ecx)
        movl    12(%esi,%ecx), %eax
        movl    %eax, 12(%edi,%ecx)
        addl    $16, %ecx
        leal    16(%ecx), %eax
        cmpl    %edx, %eax
        jbe     1b
.Lblocks_end:

/* ---- byte range: [done, n) one byte at a time ------------------------------ */
.Lfix_blocks:
.Lbytes:
.Lbytes_begin:
        cmpl    %edx, %ecx
        jae     3f
2:      movzbl  (%esi,%ecx), %eax
        movb    %al, (%edi,%ecx)
        incl    %ecx
        cmpl    %edx, %ecx
        jb      2b
3:      xorl    %eax, %eax
        popl    %edi
        popl    %esi
        ret
.Lbytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        movl    %edx, %eax
        subl    %ecx, %eax
        popl    %edi
        popl    %esi
        ret
        .size   fc__checked_copy, .-fc__checked_copy

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 2
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .long   .Lblocks_begin, .Lblocks_end, .Lfix_blocks
        .long   .Lbytes_begin, .Lbytes_end, .Lfix_bytes
        .long   0, 0, 0
#endif

        .section .note.GNU-stack, "", @progbits
