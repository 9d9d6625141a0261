/*
 * fcbench uaccess: the running kernel's copy_to_user / copy_from_user, timed
 * from user space - the benchmark the riscv uaccess review asked for.
 *
 * test 1 (read):  pread(fd, user + off, n, 0)  -> the kernel's copy_to_user
 * test 2 (write): pwrite(fd, user + off, n, 0) -> the kernel's copy_from_user
 * on a memfd (copier 1) and on a file in /dev/shm, tmpfs (copier 2); `user`
 * is page-aligned and off runs 0..63, the size is 8/16/32 KiB minus the
 * offset, as in the thread's table.  The file offset stays 0, so the kernel
 * copies between page-aligned page-cache pages and user + off: for reads
 * (dst - src) mod 4096 = off, for writes 4096 - off.  (Where the user buffer
 * sits within its page matters: on AMD Zen 3 the kernel's rep movsb collapses
 * for forward distances 1..31 - the same erratum as glibc's memcpy cliff -
 * while a buffer at page offset 64 + off would hide it.)  Each syscall is one
 * "call" of the measurement engine; samples are spread over the whole test;
 * a syscall's fixed cost is included, as it is for the kernel's users.
 */
#include "harness.h"
#include "scenarios.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#define TMPFS_MAGIC_ 0x01021994

static int fds[2] = {-1, -1};

#define WRAP(i)                                                                                    \
    static void *kread##i(void *d, const void *s, size_t n)                                       \
    {                                                                                              \
        (void)s;                                                                                   \
        return pread(fds[i], d, n, 0) == (ssize_t)n ? d : NULL;                                    \
    }                                                                                              \
    static void *kwrite##i(void *d, const void *s, size_t n)                                      \
    {                                                                                              \
        return pwrite(fds[i], s, n, 0) == (ssize_t)n ? d : NULL;                                   \
    }
WRAP(0)
WRAP(1)

static int open_files(char *tmpfs_desc, size_t size)
{
    fds[0] = memfd_create("fcbench-uaccess", MFD_CLOEXEC);
    char path[] = "/dev/shm/fcbench-uaccess-XXXXXX";
    fds[1] = mkstemp(path);
    if (fds[1] >= 0) {
        unlink(path);
        struct statfs sf;
        int tmpfs = fstatfs(fds[1], &sf) == 0 && (unsigned long)sf.f_type == TMPFS_MAGIC_;
        snprintf(tmpfs_desc, size, "/dev/shm file%s", tmpfs ? " (tmpfs)" : " (NOT tmpfs)");
    } else
        snprintf(tmpfs_desc, size, "/dev/shm unavailable: skipped");
    return fds[0] >= 0;
}

/* Read: the file holds src's bytes, pread must deliver them.  Write: pwrite
 * then read back.  Returns 0 (and says so) if the kernel path misbehaves. */
static int check(int fd, unsigned char *user, const unsigned char *pattern, size_t n, int write)
{
    unsigned char *back = malloc(n);
    int ok = back != NULL;
    if (ok && write)
        ok = pwrite(fd, user, n, 0) == (ssize_t)n && pread(fd, back, n, 0) == (ssize_t)n && !memcmp(back, user, n);
    else if (ok)
        ok = pwrite(fd, pattern, n, 0) == (ssize_t)n && pread(fd, user, n, 0) == (ssize_t)n &&
             !memcmp(user, pattern, n);
    free(back);
    if (!ok) fprintf(stderr, "fcbench uaccess: %s of %zu bytes failed its check\n", write ? "pwrite" : "pread", n);
    return ok;
}

static void progress_read(size_t done, size_t total) { progress("uaccess copy_to_user", done, total); }
static void progress_write(size_t done, size_t total) { progress("uaccess copy_from_user", done, total); }

void scenario_uaccess(struct bench_ctx *ctx)
{
    static const size_t base[] = {8192, 16384, 32768};
    char tmpfs_desc[64];
    if (!open_files(tmpfs_desc, sizeof tmpfs_desc)) {
        perror("fcbench uaccess: memfd_create");
        return;
    }
    size_t span = 32768 + 4096 + 128;
    unsigned char *user = bench_alloc(span), *pattern = bench_alloc(span);
    for (size_t i = 0; i < span; i++) pattern[i] = (unsigned char)(i * 131 + 7);
    if (ftruncate(fds[0], 65536) || (fds[1] >= 0 && ftruncate(fds[1], 65536))) perror("ftruncate");

    struct contender k[2];
    memset(k, 0, sizeof k);
    size_t nk = fds[1] >= 0 ? 2 : 1;
    printf("\n== uaccess: the kernel's copy_to_user (test 1: pread into a user buffer at offset) and\n"
           "   copy_from_user (test 2: pwrite from it); copier 1: memfd, copier 2: %s\n"
           "   took = time of 10000 syscalls at the median rate; MiB/sec = size / median time per syscall\n",
           tmpfs_desc);
    double aligned[2][3][2] = {{{0}}}, worst[2][3][2], mean17[2][3][2] = {{{0}}};
    size_t worst_off[2][3][2];
    enum { NC = 3 * 64 };
    struct bench_case bc[NC];
    struct stats st[NC * 2];
    unsigned char valid[NC * 2];
    for (int test = 1; test <= 2; test++) {
        for (size_t c = 0; c < nk; c++) {
            snprintf(k[c].name, sizeof k[c].name, "kernel-%s", c ? "tmpfs" : "memfd");
            k[c].memcpy_fn = test == 1 ? (c ? kread1 : kread0) : (c ? kwrite1 : kwrite0);
            k[c].memmove_fn = k[c].memcpy_fn;
        }
        for (size_t b = 0; b < 3; b++)
            for (size_t off = 0; off < 64; off++) {
                size_t n = base[b] - off, i = b * 64 + off;
                for (size_t c = 0; c < nk; c++) {
                    if (!check(fds[c], user + 4096 + off, pattern, n, test == 2)) return;
                    valid[i * nk + c] = 1;
                }
                /* read: dst = the user buffer; write: src = the user buffer */
                bc[i] = test == 1 ? (struct bench_case){.dst = user + 4096 + off, .src = pattern + 4096, .n = n}
                                  : (struct bench_case){.dst = pattern + 4096 + 64, .src = user + 4096 + off, .n = n};
            }
        /* samples spread over the whole test, as for the copy scenarios */
        bench_measure_many(&ctx->opts, k, nk, bc, NC, valid, st, test == 1 ? progress_read : progress_write);
        for (size_t i = 0; i < NC; i++) {
            size_t b = i / 64, off = i % 64, n = bc[i].n;
            for (size_t c = 0; c < nk; c++) {
                const struct stats *x = &st[i * nk + c];
                bench_record(ctx, test == 1 ? "uaccess-read" : "uaccess-write", &k[c], &bc[i], x);
                double mibs = (double)n / 1048576.0 / (x->med_ns / 1e9);
                printf("test %d: copier %zu: offset %zu, size %zu: took %f ms, %f MiB/sec\n", test, c + 1, off, n,
                       x->med_ns * 10000 / 1e6, mibs);
                int t = test - 1;
                if (off == 0) {
                    aligned[c][b][t] = worst[c][b][t] = mibs;
                    worst_off[c][b][t] = 0;
                } else if (mibs < worst[c][b][t]) {
                    worst[c][b][t] = mibs;
                    worst_off[c][b][t] = off;
                }
                if (off >= 1 && off <= 7) mean17[c][b][t] += mibs / 7;
            }
        }
    }
    printf("\n   summary (MiB/s): offset 0 | mean of offsets 1..7 | worst offset 1..63, ratio to offset 0\n");
    for (size_t c = 0; c < nk; c++)
        for (int t = 0; t < 2; t++)
            for (size_t b = 0; b < 3; b++)
                printf("   %-12s %-15s %5zu B: %9.0f | %9.0f | %9.0f at offset %2zu, %.2fx%s\n", k[c].name,
                       t ? "copy_from_user" : "copy_to_user", base[b], aligned[c][b][t], mean17[c][b][t],
                       worst[c][b][t], worst_off[c][b][t], worst[c][b][t] / aligned[c][b][t],
                       worst[c][b][t] / aligned[c][b][t] < 0.8 ? "  <-- CLIFF" : "");
    for (size_t c = 0; c < nk; c++) close(fds[c]);
    munmap(user, span);
    munmap(pattern, span);
}
