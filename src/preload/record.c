/*
 * record.c - libfastcopy-record.so's counters and their dump (the hot path
 * is record.h; the copy functions are preload.c built with FC_RECORD).
 * `fcbench record -- CMD` preloads the object into CMD with
 * FASTCOPY_RECORD_DIR set; every process that exits normally (exit, return
 * from main) writes DIR/rec.<pid>.<n>, n the first number whose name is free
 * (processes in other PID namespaces, or an earlier one with the same pid,
 * may have the same pid): written to DIR/.rec-tmp.<pid>.XXXXXX, then renamed
 * to its name without replacing a file there; a write that fails (a full
 * disk) removes the temporary and says so on stderr.  The file:
 *
 *   fastcopy-record 2
 *   pid P / ppid P / comm NAME / seconds S   (its constructor or fork to its exit)
 *   calls C / bytes B / big_bytes B / overlap C
 *   fn    7 counts: memcpy memmove mempcpy bcopy __memcpy_chk __memmove_chk __mempcpy_chk
 *   size  4097 counts, sizes 0..4096
 *   big   64 counts, calls above 4096 by floor(log2 n)
 *   salign, dalign   64 counts each: src, dst mod 64
 *   dist  64 counts: (dst - src) mod 4096 in 64-byte buckets
 *   end                                      (the record is complete)
 *
 * A forked child counts its own copies only.  A fork through fork() runs the
 * atfork handler (fc_rec_child), which clears the blocks.  A child made
 * without it (_Fork, syscall(SYS_fork), clone without CLONE_VM) inherits the
 * parent's blocks with its memory: a mapped block's counts are in pages
 * marked MADV_WIPEONFORK, which such a child gets zeroed, so the blocks it
 * copies into (its thread's, reused ones) hold its own calls only; every
 * block is tagged with the pid that made it, and a block that was not wiped
 * (the static early block, any block where madvise failed) but made by
 * another pid is the parent's and is not summed.  What a process copied
 * before an exec, or before dying of a signal or _exit, is not written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "preload/record.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

/* a block's list entry: after its counts, in a page of its own (the counts'
 * pages are wiped in a child made without the atfork handler, this one is
 * kept) */
struct fc_rec_hdr {
    struct fc_rec *counts;
    struct fc_rec_hdr *next; /* every block of the process, newest first */
    pid_t owner;             /* the process that made it (or cleared it at a fork) */
    int in_use;              /* a thread counts into it (atomic) */
    int reusable;            /* 0: the static early block, the shared one */
    int wiped;               /* its counts' pages are MADV_WIPEONFORK */
};

__thread struct fc_rec *fc__rec_tls __attribute__((tls_model("initial-exec")));
/* set by fc_rec_release: this thread is exiting and has given its block back */
static __thread int fc_rec_exiting __attribute__((tls_model("initial-exec")));
static struct fc_rec_hdr *fc_rec_all;
static unsigned fc_rec_free; /* blocks given back and not taken again (atomic) */
static double fc_rec_start;
static pid_t fc_rec_start_pid; /* the process fc_rec_start is of */
static size_t fc_rec_counts_len, fc_rec_map_len;
static pthread_key_t fc_rec_key;
static int fc_rec_key_ok;
/* counted into with atomic adds: copies of an exiting thread after it gave
 * its block back, and those of a thread that could not get one */
static struct fc_rec_hdr *fc_rec_shared;

static double fc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fc_rec_push(struct fc_rec_hdr *h)
{
    h->next = __atomic_load_n(&fc_rec_all, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&fc_rec_all, &h->next, h, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
}

/* a new block, in use */
static struct fc_rec_hdr *fc_rec_map(int reusable)
{
    void *m = mmap(NULL, fc_rec_map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    struct fc_rec_hdr *h = (struct fc_rec_hdr *)((char *)m + fc_rec_counts_len);
    h->counts = m;
    h->owner = getpid();
    h->in_use = 1;
    h->reusable = reusable;
#ifdef MADV_WIPEONFORK
    h->wiped = madvise(m, fc_rec_counts_len, MADV_WIPEONFORK) == 0;
#endif
    fc_rec_push(h);
    return h;
}

/* a free block this process may count into (one wiped at the fork, or its
 * own), else a new one */
static struct fc_rec_hdr *fc_rec_take(void)
{
    pid_t me = getpid();
    /* the walk only when some block is free: a program whose threads live
     * long does not read every header at each thread's start */
    for (struct fc_rec_hdr *h = __atomic_load_n(&fc_rec_free, __ATOMIC_RELAXED)
                                    ? __atomic_load_n(&fc_rec_all, __ATOMIC_ACQUIRE)
                                    : NULL;
         h; h = h->next) {
        int zero = 0;
        if (h->reusable && (h->wiped || h->owner == me) && !__atomic_load_n(&h->in_use, __ATOMIC_RELAXED) &&
            __atomic_compare_exchange_n(&h->in_use, &zero, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            __atomic_fetch_sub(&fc_rec_free, 1, __ATOMIC_RELAXED);
            return h;
        }
    }
    return fc_rec_map(1);
}

#define FC_REC_ADD_ATOMIC(c, v) __atomic_fetch_add(&(c), (v), __ATOMIC_RELAXED)

void fc__rec_first(int fn, const void *dst, const void *src, size_t n)
{
    struct fc_rec_hdr *h = fc_rec_exiting ? NULL : fc_rec_take();
    if (!h) {
        if (fc_rec_shared) FC_REC_COUNT(fc_rec_shared->counts, fn, dst, src, n, FC_REC_ADD_ATOMIC);
        return;
    }
    fc__rec_tls = h->counts; /* first: pthread_setspecific may allocate, and copy */
    if (fc_rec_key_ok) pthread_setspecific(fc_rec_key, h);
    FC_REC_COUNT(h->counts, fn, dst, src, n, FC_REC_ADD_PLAIN);
}

/* the thread is exiting: its block, counts kept, to the next thread */
static void fc_rec_release(void *p)
{
    struct fc_rec_hdr *h = p;
    fc__rec_tls = NULL;
    fc_rec_exiting = 1;
    __atomic_fetch_add(&fc_rec_free, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&h->in_use, 0, __ATOMIC_RELEASE);
}

/* a child of fork(): counts its own copies only, in the forking thread's
 * block and in the others, now free */
static void fc_rec_child(void)
{
    pid_t me = getpid();
    for (struct fc_rec_hdr *h = fc_rec_all; h; h = h->next) {
        if (!h->wiped) memset(h->counts, 0, sizeof *h->counts);
        h->owner = me;
        if (h->reusable && h->counts != fc__rec_tls && h->in_use) h->in_use = 0, fc_rec_free++;
    }
    fc_rec_start = fc_now();
    fc_rec_start_pid = me;
}

/* Before the constructor: no thread-local storage, no PLT (record.h).  Reached
 * by direct PC-relative calls and addressing only. */
int fc__rec_live;
static struct fc_rec fc_rec_early_block;
static struct fc_rec_hdr fc_rec_early_hdr;
void fc__rec_early(int fn, const void *dst, const void *src, size_t n)
{
    FC_REC_COUNT(&fc_rec_early_block, fn, dst, src, n, FC_REC_ADD_ATOMIC);
}

__attribute__((constructor)) static void fc_rec_init(void)
{
    fc_rec_start = fc_now();
    fc_rec_start_pid = getpid();
    long page = sysconf(_SC_PAGESIZE);
    size_t pg = page > 0 ? (size_t)page : 4096;
    fc_rec_counts_len = (sizeof(struct fc_rec) + pg - 1) / pg * pg;
    fc_rec_map_len = fc_rec_counts_len + (sizeof(struct fc_rec_hdr) + pg - 1) / pg * pg;
    fc_rec_early_hdr.counts = &fc_rec_early_block;
    fc_rec_early_hdr.owner = fc_rec_start_pid;
    fc_rec_early_hdr.in_use = 1;
    fc_rec_push(&fc_rec_early_hdr);
    fc_rec_shared = fc_rec_map(0);
    fc_rec_key_ok = pthread_key_create(&fc_rec_key, fc_rec_release) == 0;
    pthread_atfork(NULL, NULL, fc_rec_child);
    __atomic_store_n(&fc__rec_live, 1, __ATOMIC_RELEASE);
}

/* seconds since this process started (/proc/self/stat), for a child made
 * without the atfork handler; -1 if unknown */
static double fc_proc_age(void)
{
    char buf[1024];
    int fd = open("/proc/self/stat", O_RDONLY);
    if (fd < 0) return -1;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) return -1;
    buf[k] = 0;
    char *p = strrchr(buf, ')');
    long tck = sysconf(_SC_CLK_TCK);
    struct timespec t;
    if (!p || tck <= 0 || clock_gettime(CLOCK_BOOTTIME, &t)) return -1;
    /* after the comm: state (field 3) ... starttime (field 22) */
    for (int field = 2; field < 22 && p; field++) p = strchr(p + 1, ' ');
    if (!p) return -1;
    double age = (double)t.tv_sec + (double)t.tv_nsec * 1e-9 - (double)strtoull(p + 1, NULL, 10) / (double)tck;
    return age >= 0 ? age : 0;
}

static void put(FILE *f, const char *key, const uint64_t *v, size_t n)
{
    fputs(key, f);
    for (size_t i = 0; i < n; i++) fprintf(f, " %llu", (unsigned long long)v[i]);
    fputc('\n', f);
}

/* tmp to path, unless path exists: 0, or -1 and errno */
static int fc_rename_new(const char *tmp, const char *path)
{
#ifdef SYS_renameat2
    if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
    /* a file system without renameat2's flag: a hard link, else a name
     * claimed with O_EXCL, then replaced */
    if (link(tmp, path) == 0) return unlink(tmp), 0;
    if (errno == EEXIST) return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return -1;
    close(fd);
    if (rename(tmp, path) == 0) return 0;
    int e = errno;
    unlink(path);
    errno = e;
    return -1;
}

#define FC_REC_NAME_ROOM 48 /* "/.rec-tmp.<pid>.XXXXXX", "/rec.<pid>.<n>" and the NUL */

__attribute__((destructor)) static void fc_rec_dump(void)
{
    const char *dir = getenv("FASTCOPY_RECORD_DIR");
    if (!dir || !*dir) return;
    pid_t me = getpid();
    size_t dir_len = strlen(dir);
    if (dir_len > PATH_MAX - FC_REC_NAME_ROOM) {
        fprintf(stderr,
                "fastcopy-record: FASTCOPY_RECORD_DIR is %zu bytes long, more than the %d a record's path leaves "
                "room for: the record of pid %d is not written\n",
                dir_len, PATH_MAX - FC_REC_NAME_ROOM, (int)me);
        return;
    }
    static struct fc_rec sum; /* summed first: the dump's own copies are not in it */
    for (struct fc_rec_hdr *h = __atomic_load_n(&fc_rec_all, __ATOMIC_ACQUIRE); h; h = h->next) {
        if (!h->wiped && h->owner != me) continue; /* a parent's, inherited without the atfork handler */
        const struct fc_rec *r = h->counts;
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
    double seconds = fc_rec_start_pid == me ? fc_now() - fc_rec_start : fc_proc_age();
    uint64_t calls = 0;
    for (size_t i = 0; i < FC_REC_FNS; i++) calls += sum.fn[i];
    char tmp[PATH_MAX], path[PATH_MAX], comm[64] = "?";
    int fd = open("/proc/self/comm", O_RDONLY);
    if (fd >= 0) {
        ssize_t k = read(fd, comm, sizeof comm - 1);
        comm[k > 0 ? k : 0] = 0;
        comm[strcspn(comm, "\n")] = 0;
        close(fd);
    }
    snprintf(tmp, sizeof tmp, "%s/.rec-tmp.%d.XXXXXX", dir, (int)me);
    const char *what = "cannot create a file";
    int e = 0;
    fd = mkstemp(tmp);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        e = errno;
        if (fd >= 0) close(fd), unlink(tmp);
        goto fail;
    }
    fchmod(fd, 0644);
    fprintf(f, "fastcopy-record 2\npid %d\nppid %d\ncomm %s\nseconds %.6f\ncalls %llu\nbytes %llu\nbig_bytes %llu\n"
               "overlap %llu\n",
            (int)me, (int)getppid(), comm, seconds, (unsigned long long)calls, (unsigned long long)bytes,
            (unsigned long long)sum.big_bytes, (unsigned long long)sum.overlap);
    put(f, "fn", sum.fn, FC_REC_FNS);
    put(f, "size", sum.size, FC_REC_SMALL + 1);
    put(f, "big", sum.big, 64);
    put(f, "salign", sum.salign, 64);
    put(f, "dalign", sum.dalign, 64);
    put(f, "dist", sum.dist, 64);
    fputs("end\n", f);
    /* the stream's error flag holds any failed fprintf, fputs or fputc */
    int ok = fflush(f) == 0 && !ferror(f);
    e = errno;
    if (fclose(f) != 0 && ok) ok = 0, e = errno;
    what = "cannot write the record";
    if (!ok) goto fail_tmp;
    what = "cannot name the record";
    for (unsigned n = 0; n < 1000000; n++) {
        snprintf(path, sizeof path, "%s/rec.%d.%u", dir, (int)me, n);
        if (fc_rename_new(tmp, path) == 0) return;
        if (errno != EEXIST) break;
    }
    e = errno;
fail_tmp:
    unlink(tmp);
fail:
    fprintf(stderr, "fastcopy-record: %s in %s: %s: the record of pid %d (%s, %llu calls) is not written\n", what,
            dir, strerror(e ? e : EIO), (int)me, comm, (unsigned long long)calls);
}
