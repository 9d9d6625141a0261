/* Entry points of the portable C implementations (registered in src/registry.c). */
#ifndef FC_PORTABLE_H
#define FC_PORTABLE_H

#include <stddef.h>

#define FC_DECLARE_IMPL(id)                                                                        \
    void *fc_##id##_memcpy(void *restrict dst, const void *restrict src, size_t n);               \
    void *fc_##id##_memmove(void *dst, const void *src, size_t n)

FC_DECLARE_IMPL(byte);
FC_DECLARE_IMPL(word_coaligned);
FC_DECLARE_IMPL(generic);

#endif
