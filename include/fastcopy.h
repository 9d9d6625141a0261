/*
 * fastcopy - memcpy/memmove that are correct and fast for every size and alignment.
 *
 * Public API.  The names, types and struct fields below are a contract used by
 * fcbench, the tests and outside tools: they only ever grow.
 *
 *   fc_memcpy / fc_memmove   the routines chosen for this CPU, once, at load time
 *   fc_active()              which registry entry they are
 *   fc_impl_*                every implementation compiled into the library, for
 *                            tests and benchmarks (call one directly through its
 *                            function pointers; check `available` first)
 *
 * Environment: FASTCOPY_IMPL=<name> forces the choice at load time.  An unknown
 * or unavailable name prints one warning line on stderr and keeps the default.
 *
 * Language: C89 or later, and C++98 or later (fastcopy/inline.h, the inline
 * copy, needs C99; tests/check_inline.cmake compiles both at their stated
 * minimum).
 */
#ifndef FASTCOPY_H
#define FASTCOPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#define FC_RESTRICT
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define FC_RESTRICT restrict
#elif defined(__GNUC__)
#define FC_RESTRICT __restrict /* C89/C90 consumers (gcc, clang) */
#else
#define FC_RESTRICT
#endif

/* Symbol visibility.  The library is built with hidden visibility, and this
 * marks the public API: default in libfastcopy.so (and for the code that
 * calls it, whatever its own visibility settings), hidden in libfastcopy.a
 * (FASTCOPY_STATIC_BUILD, set by its build), so that a shared object which
 * links the archive in exports none of fastcopy's symbols - only what it
 * chose to export - and two such objects in one process never bind to each
 * other's copy. */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#if defined(FASTCOPY_STATIC_BUILD)
#define FC_API __attribute__((visibility("hidden")))
#else
#define FC_API __attribute__((visibility("default")))
#endif
#else
#define FC_API
#endif

#define FASTCOPY_VERSION_MAJOR 0
#define FASTCOPY_VERSION_MINOR 1
#define FASTCOPY_VERSION_PATCH 0

/* Same contract as ISO C memcpy/memmove: return dst; memcpy's buffers must not overlap. */
FC_API void *fc_memcpy(void *FC_RESTRICT dst, const void *FC_RESTRICT src, size_t n);
FC_API void *fc_memmove(void *dst, const void *src, size_t n);

/* Name of the implementation fc_memcpy/fc_memmove use (a registry name). */
FC_API const char *fc_active(void);

struct fc_impl {
    const char *name;    /* unique: "byte", "generic", "avx2", "rv64-shifted", ... */
    const char *summary; /* one line */
    int available;       /* nonzero if it runs on this CPU */
    void *(*memcpy)(void *FC_RESTRICT, const void *FC_RESTRICT, size_t);
    void *(*memmove)(void *, const void *, size_t);
};

FC_API size_t fc_impl_count(void);
FC_API const struct fc_impl *fc_impl_at(size_t i);          /* NULL past the end */
FC_API const struct fc_impl *fc_impl_find(const char *name); /* NULL if unknown */

/* "0.1.0" */
FC_API const char *fc_version(void);

#ifdef __cplusplus
}
#endif
#undef FC_RESTRICT
#undef FC_API
#endif /* FASTCOPY_H */
