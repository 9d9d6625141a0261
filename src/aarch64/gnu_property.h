/*
 * gnu_property.h - for the AArch64 assembly files.  FC_BTI_C: the landing pad
 * an entry point reached by an indirect call (a pointer, a PLT slot) needs
 * when the build asks for branch protection (-mbranch-protection=bti or
 * =standard: __ARM_FEATURE_BTI_DEFAULT); nothing otherwise.  FC_GNU_PROPERTY:
 * the .note.gnu.property that marks the object BTI- and PAC-compatible, so
 * that linking it keeps the library's marking (the linker ANDs the objects'
 * notes) and the dynamic loader maps the library's code with PROT_BTI.  The
 * routines are leaf functions that never spill the link register: PAC needs
 * no instruction in them.
 */
#ifndef FC_AARCH64_GNU_PROPERTY_H
#define FC_AARCH64_GNU_PROPERTY_H

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define FC_BTI_C bti c
#define FC_PROP_BTI 1
#else
#define FC_BTI_C
#define FC_PROP_BTI 0
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT
#define FC_PROP_PAC 2
#else
#define FC_PROP_PAC 0
#endif

#if FC_PROP_BTI || FC_PROP_PAC
#define FC_GNU_PROPERTY                                                                            \
        .pushsection .note.gnu.property, "a";                                                      \
        .p2align 3;                                                                                \
        .long   4;                      /* name size */                                             \
        .long   16;                     /* descriptor size */                                       \
        .long   5;                      /* NT_GNU_PROPERTY_TYPE_0 */                                \
        .asciz  "GNU";                                                                             \
        .long   0xc0000000;             /* GNU_PROPERTY_AARCH64_FEATURE_1_AND */                    \
        .long   4;                                                                                 \
        .long   (FC_PROP_BTI | FC_PROP_PAC);                                                       \
        .long   0;                                                                                 \
        .popsection
#else
#define FC_GNU_PROPERTY
#endif

#endif
