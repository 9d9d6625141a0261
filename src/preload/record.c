/*
 * record.c - libfastcopy-record.so's counters and their dump (the hot path
 * is record.h; the copy functions are preload.c built with FC_RECORD).
 * `fcbench record -- CMD` preloads the object into CMD with
 * FASTCOPY_RECORD_DIR set; every process that exits normally (exit, return
 * from main) writes DIR/rec.<pid>:
 *
 *   fastcopy-record 1
 *   pid P / ppid P / comm NAME / seconds S   (its constructor to its exit)
 *   calls C / bytes B / big_bytes B / overlap C
 *   fn    7 counts: memcpy memmove mempcpy bcopy __memcpy_chk __memmove_chk __mempcpy_chk
 *   size  4097 counts, sizes 0..4096
 *   big   64 counts, calls above 4096 by floor(log2 n)
 *   salign, dalign   64 counts each: src, dst mod 64
 *   dist  64 counts: (dst - src) mod 4096 in 64-byte buckets
 *
 * A forked child starts from zero (pthread_atfork) and writes its own file;
 * what a process copied before an exec, or before dying of a signal or
 * _exit, is not written.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "preload/record.h"

__thread struct fc_rec *fc__rec_tls __attribute__((tls_model("initial-exec")));
static struct fc_rec *fc_rec_all; /* every block of the process, newest first */
static double fc_rec_start;

static double fc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fc_rec_push(struct fc_rec *r);

struct fc_rec *fc__rec_new(void)
{
    struct fc_rec *r = mmap(NULL, sizeof *r, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) return NULL;
    fc_rec_push(r);
    fc__rec_tls = r;
    return r;
}

/* a forked child counts its own copies only */
static void fc_rec_child(void)
{
    for (struct fc_rec *r = fc_rec_all; r; r = r->next) {
        struct fc_rec *next = r->next;
        memset(r, 0, sizeof *r);
        r->next = next;
    }
    fc_rec_start = fc_now();
}

static void fc_rec_push(struct fc_rec *r)
{
    r->next = __atomic_load_n(&fc_rec_all, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&fc_rec_all, &r->next, r, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
}

/* Before the constructor: no thread-local storage, no PLT (record.h).  Reached
 * by direct PC-relative calls and addressing only. */
int fc__rec_live;
static struct fc_rec fc_rec_early_block;
#define FC_REC_ADD_ATOMIC(c, v) __atomic_fetch_add(&(c), (v), __ATOMIC_RELAXED)
void fc__rec_early(int fn, const void *dst, const void *src, size_t n)
{
    FC_REC_COUNT(&fc_rec_early_block, fn, dst, src, n, FC_REC_ADD_ATOMIC);
}

__attribute__((constructor)) static void fc_rec_init(void)
{
    fc_rec_start = fc_now();
    fc_rec_push(&fc_rec_early_block);
    pthread_atfork(NULL, NULL, fc_rec_child);
    __atomic_store_n(&fc__rec_live, 1, __ATOMIC_RELEASE);
}

static void put(FILE *f, const char *key, const uint64_t *v, size_t n)
{
    fputs(key, f);
    for (size_t i = 0; i < n; i++) fprintf(f, " %llu", (unsigned long long)v[i]);
    fputc('\n', f);
}

__attribute__((destructor)) static void fc_rec_dump(void)
{
    const char *dir = getenv("FASTCOPY_RECORD_DIR");
    if (!dir || !*dir) return;
    static struct fc_rec sum; /* summed first: the dump's own copies are not in it */
    for (struct fc_rec *r = __atomic_load_n(&fc_rec_all, __ATOMIC_ACQUIRE); r; r = r->next) {
        for (size_t i = 0; i <= FC_REC_SMALL; i++) sum.size[i] += r->size[i];
        for (size_t i = 0; i < 64; i++) {
            sum.big[i] += r->big[i];
            sum.salign[i] += r->salign[i];
            sum.dalign[i] += r->dalign[i];
            sum.dist[i] += r->dist[i];
        }
        for (size_t i = 0; i < FC_REC_FNS; i++) sum.fn[i] += r->fn[i];
        sum.big_bytes += r->big_bytes;
        sum.overlap += r->overlap;
    }
    uint64_t bytes = sum.big_bytes;
    for (size_t i = 1; i <= FC_REC_SMALL; i++) bytes += sum.size[i] * i;
    double seconds = fc_now() - fc_rec_start;
    uint64_t calls = 0;
    for (size_t i = 0; i < FC_REC_FNS; i++) calls += sum.fn[i];
    char path[4096], comm[64] = "?";
    int fd = open("/proc/self/comm", O_RDONLY);
    if (fd >= 0) {
        ssize_t k = read(fd, comm, sizeof comm - 1);
        comm[k > 0 ? k : 0] = 0;
        comm[strcspn(comm, "\n")] = 0;
        close(fd);
    }
    snprintf(path, sizeof path, "%s/rec.%d", dir, (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "fastcopy-record 1\npid %d\nppid %d\ncomm %s\nseconds %.6f\ncalls %llu\nbytes %llu\nbig_bytes %llu\n"
               "overlap %llu\n",
            (int)getpid(), (int)getppid(), comm, seconds, (unsigned long long)calls, (unsigned long long)bytes,
            (unsigned long long)sum.big_bytes, (unsigned long long)sum.overlap);
    put(f, "fn", sum.fn, FC_REC_FNS);
    put(f, "size", sum.size, FC_REC_SMALL + 1);
    put(f, "big", sum.big, 64);
    put(f, "salign", sum.salign, 64);
    put(f, "dalign", sum.dalign, 64);
    put(f, "dist", sum.dist, 64);
    fclose(f);
}
