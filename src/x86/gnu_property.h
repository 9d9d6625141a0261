/*
 * gnu_property.h - for the x86-64 assembly files.  With -fcf-protection
 * (__CET__): FC_ENDBR, the landing pad an entry point reached through a
 * pointer or a PLT slot needs under IBT, and FC_GNU_PROPERTY, the
 * .note.gnu.property that marks the object IBT/SHSTK-compatible (as __CET__
 * asks), so that linking it keeps the library's marking (the linker ANDs the
 * objects' notes).  Nothing without -fcf-protection.
 */
#ifndef FC_X86_GNU_PROPERTY_H
#define FC_X86_GNU_PROPERTY_H

#ifdef __CET__
#define FC_ENDBR endbr64
#define FC_GNU_PROPERTY                                                                            \
        .pushsection .note.gnu.property, "a";                                                      \
        .p2align 3;                                                                                \
        .long   4;                      /* name size */                                             \
        .long   16;                     /* descriptor size */                                       \
        .long   5;                      /* NT_GNU_PROPERTY_TYPE_0 */                                \
        .asciz  "GNU";                                                                             \
        .long   0xc0000002;             /* GNU_PROPERTY_X86_FEATURE_1_AND */                        \
        .long   4;                                                                                 \
        .long   (__CET__ & 3);          /* IBT = 1, SHSTK = 2 */                                    \
        .p2align 3;                                                                                \
        .popsection
#else
#define FC_ENDBR
#define FC_GNU_PROPERTY
#endif

#endif
