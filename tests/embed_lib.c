/*
 * A consumer's shared library with libfastcopy.a linked into it, as users
 * build plugins.  tests/CMakeLists.txt builds it with -z now, with -z lazy
 * (run under LD_BIND_NOW=1), with pointers to fc_memcpy/fc_memmove in data
 * (EMBED_DATA_PTR: bound at load even under lazy binding), as two plugins
 * loaded into one process, and once not linked to fastcopy at all (a
 * mislinked library that gets fc_memcpy from libfastcopy.so at run time).
 * It exports its three embed_* functions and nothing else (checked by the
 * no-libc-calls test with nm -D).
 */
#include <stddef.h>
#include <stdint.h>

#include "fastcopy.h"

#define EMBED_API __attribute__((visibility("default")))
EMBED_API int embed_check(void);
EMBED_API const char *embed_active(void);
EMBED_API const void *embed_registry(void);

#ifdef EMBED_DATA_PTR
static void *(*const volatile embed_cpy)(void *, const void *, size_t) = fc_memcpy;
static void *(*const volatile embed_mov)(void *, const void *, size_t) = fc_memmove;
#define CPY embed_cpy
#define MOV embed_mov
#else
#define CPY fc_memcpy
#define MOV fc_memmove
#endif

#define BUF 70000
static unsigned char src[BUF + 64], dst[BUF + 128], ref[BUF + 128];

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((i * 131 + seed * 7 + (i >> 8)) ^ 0x5a);
}

static size_t diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return 1;
    return 0;
}

/* Copies and moves of sizes 0..300 and a few large ones at 8 x 8 offsets
 * (memcpy), and overlapping moves by -37..+37; returns the number of wrong
 * results (0: all bytes right, nothing outside dst touched). */
EMBED_API int embed_check(void)
{
    static const size_t big[] = {511, 4096, 4097, 65536, BUF};
    int bad = 0;
    fill(src, sizeof src, 1);
    for (size_t k = 0; k < 301 + sizeof big / sizeof big[0]; k++) {
        size_t n = k < 301 ? k : big[k - 301];
        for (size_t so = 0; so < 8; so++)
            for (size_t dof = 0; dof < 8; dof++) {
                if (n > 1000 && (so + dof) % 5) continue;
                fill(dst, n + 64 + dof, 2);
                fill(ref, n + 64 + dof, 2);
                for (size_t i = 0; i < n; i++) ref[32 + dof + i] = src[so + i];
                if (CPY(dst + 32 + dof, src + so, n) != dst + 32 + dof) bad++;
                bad += (int)diff(dst, ref, n + 64 + dof);
            }
        for (int shift = -37; shift <= 37; shift += n > 1000 ? 37 : 1) {
            fill(dst, n + 80, 3);
            fill(ref, n + 80, 3);
            size_t from = 40, to = (size_t)(40 + shift);
            if (to < from)
                for (size_t i = 0; i < n; i++) ref[to + i] = ref[from + i];
            else
                for (size_t i = n; i-- > 0;) ref[to + i] = ref[from + i];
            if (MOV(dst + to, dst + from, n) != dst + to) bad++;
            bad += (int)diff(dst, ref, n + 80);
        }
    }
    return bad;
}

EMBED_API const char *embed_active(void) { return fc_active(); }

/* The registry this object's fastcopy calls see: its own, whatever else is loaded. */
EMBED_API const void *embed_registry(void) { return fc_impl_at(0); }
