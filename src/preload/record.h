/*
 * record.h - what libfastcopy-record.so counts for each copy call (preload.c
 * built with FC_RECORD; the rest is in record.c).
 *
 * Per thread, one block of counters, reached through an initial-exec
 * thread-local pointer: no lock and no shared cache line on the hot path.
 * A thread's first copy takes a free block of the process or maps a new one
 * (mmap, not malloc: malloc may copy) and lists it on a process-wide list
 * with one compare-and-swap; when the thread exits (a pthread key's
 * destructor) its block goes back, counts kept, for the next thread: the
 * blocks are as many as the most threads that were alive at once, and every
 * count is summed at exit.  The dump (record.c) runs when the process exits
 * normally.
 * Copies made before the object's constructor has run (ifunc resolvers of
 * other libraries, their constructors) are counted into one static block with
 * atomic adds (fc__rec_early), which the constructor then lists.
 * Six counters per call, the overlap one behind a branch (the byte total is
 * derived from the size histogram at the dump): fewer instructions per call
 * than a byte counter and a branch-free overlap count (D22).
 */
#ifndef FC_PRELOAD_RECORD_H
#define FC_PRELOAD_RECORD_H

#include <stddef.h>
#include <stdint.h>

enum { FC_REC_SMALL = 4096, FC_REC_FNS = 7 };

/* the counts only: a mapped block's list link and owner are in a page of
 * their own after these (record.c), which a fork does not wipe */
struct fc_rec {
    uint64_t size[FC_REC_SMALL + 1]; /* calls by exact size 0..4096 */
    uint64_t big[64];                /* calls above 4096 by floor(log2 n) */
    uint64_t big_bytes;              /* bytes moved by those (the rest: from size[]) */
    uint64_t salign[64], dalign[64]; /* src, dst mod 64 */
    uint64_t dist[64];               /* (dst - src) mod 4096, 64-byte buckets */
    uint64_t overlap;                /* calls whose buffers overlap */
    uint64_t fn[FC_REC_FNS];         /* memcpy memmove mempcpy bcopy __memcpy_chk __memmove_chk __mempcpy_chk */
};

#define FC_REC_HIDDEN __attribute__((visibility("hidden")))
extern __thread struct fc_rec *fc__rec_tls __attribute__((tls_model("initial-exec")));
/* a thread's first copy (and each copy of a thread past its block's
 * release, at its exit): takes a block and counts the call */
FC_REC_HIDDEN void fc__rec_first(int fn, const void *dst, const void *src, size_t n);
/* 0 until the object's constructor has run: before it, this object may not be
 * relocated yet (its thread-local pointer's GOT entry, mmap's PLT slot) and the
 * thread-local storage may not be initialised (the dynamic linker zeroes it
 * after relocating every object); copies then are counted by fc__rec_early */
extern FC_REC_HIDDEN int fc__rec_live;
FC_REC_HIDDEN void fc__rec_early(int fn, const void *dst, const void *src, size_t n);

/* one call's counts into r; ADD(counter, value) adds */
#define FC_REC_COUNT(r, fn, dst, src, n, ADD)                                                           \
    do {                                                                                               \
        if ((n) <= FC_REC_SMALL) {                                                                     \
            ADD((r)->size[n], 1);                                                                      \
        } else {                                                                                       \
            ADD((r)->big[63 - __builtin_clzll((unsigned long long)(n))], 1);                           \
            ADD((r)->big_bytes, (n));                                                                  \
        }                                                                                              \
        ADD((r)->salign[(uintptr_t)(src) & 63], 1);                                                    \
        ADD((r)->dalign[(uintptr_t)(dst) & 63], 1);                                                    \
        ADD((r)->dist[(((uintptr_t)(dst) - (uintptr_t)(src)) & 4095) >> 6], 1);                        \
        if (__builtin_expect((uintptr_t)(dst) - (uintptr_t)(src) + (n) < 2 * (n), 0)) ADD((r)->overlap, 1); \
        ADD((r)->fn[fn], 1);                                                                           \
    } while (0)
#define FC_REC_ADD_PLAIN(c, v) ((c) += (v))

static inline __attribute__((always_inline)) void fc_rec_note(int fn, const void *dst, const void *src, size_t n)
{
    if (__builtin_expect(!__atomic_load_n(&fc__rec_live, __ATOMIC_RELAXED), 0)) {
        fc__rec_early(fn, dst, src, n);
        return;
    }
    struct fc_rec *r = fc__rec_tls;
    if (__builtin_expect(!r, 0)) {
        fc__rec_first(fn, dst, src, n);
        return;
    }
    FC_REC_COUNT(r, fn, dst, src, n, FC_REC_ADD_PLAIN);
}

#endif
