/*
 * test_preload - libfastcopy-preload.so in a process it was preloaded into
 * (LD_PRELOAD natively, QEMU_SET_ENV=LD_PRELOAD=... under qemu-user).
 *
 *   test_preload symbols   each of memcpy, memmove, mempcpy, bcopy,
 *                          __memcpy_chk, __memmove_chk, __mempcpy_chk resolves
 *                          (dlsym(RTLD_DEFAULT), and this program's own
 *                          reference) into libfastcopy-preload.so
 *   test_preload copies    every function through the PLT (this file is built
 *                          with -fno-builtin: no call is inlined) at 122 sizes
 *                          (0..79, then steps to 2100) and six offset pairs
 *                          against a byte-loop reference, with the bytes
 *                          around dst checked; memcpy and
 *                          mempcpy with overlapping buffers must act as memmove
 *   test_preload chk       __memcpy_chk, __memmove_chk, __mempcpy_chk with the
 *                          object one byte too small: a forked child must die of
 *                          SIGABRT after printing glibc's "buffer overflow
 *                          detected"
 *
 * Built without _FORTIFY_SOURCE so that the calls are the plain names; the
 * fortified build is test_preload_fortify.c.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
extern void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
extern void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen);

#include "fail.h"

static const char *where(const void *fn)
{
    Dl_info info;
    if (!fn || !dladdr(fn, &info) || !info.dli_fname) return "(unknown)";
    return info.dli_fname;
}

static void check_symbol(const char *name, const void *own)
{
    const void *global = dlsym(RTLD_DEFAULT, name);
    const char *g = where(global), *o = where(own);
    if (!strstr(g, "libfastcopy-preload")) FAIL("%s: dlsym finds it in %s", name, g);
    if (!strstr(o, "libfastcopy-preload")) FAIL("%s: this program's reference is bound to %s", name, o);
    printf("  %-14s -> %s\n", name, g);
}

static int symbols(void)
{
    /* volatile: the compiler must take each address as the program sees it */
    void *volatile own[] = {(void *)memcpy,       (void *)memmove,       (void *)mempcpy,      (void *)bcopy,
                            (void *)__memcpy_chk, (void *)__memmove_chk, (void *)__mempcpy_chk};
    static const char *const names[] = {"memcpy",       "memmove",       "mempcpy",      "bcopy",
                                        "__memcpy_chk", "__memmove_chk", "__mempcpy_chk"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) check_symbol(names[i], own[i]);
    return 7;
}

enum { MAXN = 2100, PAD = 64 };
static unsigned char area[2 * (MAXN + 2 * PAD) + 64], ref[sizeof area];
static volatile size_t vn; /* sizes through a volatile: no constant to fold */

static void fill(unsigned char *p, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 167u + salt * 31u + (i >> 7));
}

/* the expected result of a move of n bytes from area + s to area + d */
static void model(size_t d, size_t s, size_t n)
{
    for (size_t i = 0; i < sizeof area; i++) ref[i] = area[i];
    if (d < s)
        for (size_t i = 0; i < n; i++) ref[d + i] = area[s + i];
    else
        for (size_t i = n; i--;) ref[d + i] = area[s + i];
}

static int compare(const char *fn, size_t d, size_t s, size_t n)
{
    for (size_t i = 0; i < sizeof area; i++)
        if (area[i] != ref[i]) {
            FAIL("%s(area + %zu, area + %zu, %zu): byte %zu of the area is %u, want %u", fn, d, s, n, i, area[i],
                 ref[i]);
            return 0;
        }
    return 1;
}

/* one call of function f (0 memcpy, 1 memmove, 2 mempcpy, 3 bcopy, 4..6 the
 * _chk forms) moving n bytes from area + s to area + d; checks the return */
static void one(int f, size_t d, size_t s, size_t n, unsigned salt)
{
    static const char *const names[] = {"memcpy",       "memmove",       "mempcpy",      "bcopy",
                                        "__memcpy_chk", "__memmove_chk", "__mempcpy_chk"};
    fill(area, sizeof area, salt);
    model(d, s, n);
    vn = n;
    unsigned char *dst = area + d, *src = area + s, *r = dst, *want = dst;
    switch (f) {
    case 0: r = memcpy(dst, src, vn); break;
    case 1: r = memmove(dst, src, vn); break;
    case 2: r = mempcpy(dst, src, vn), want = dst + n; break;
    case 3: bcopy(src, dst, vn); break;
    case 4: r = __memcpy_chk(dst, src, vn, vn); break;
    case 5: r = __memmove_chk(dst, src, vn, vn + 1); break;
    case 6: r = __mempcpy_chk(dst, src, vn, (size_t)-1), want = dst + n; break;
    }
    if (r != want) FAIL("%s(area + %zu, area + %zu, %zu) returned area + %td", names[f], d, s, n, r - area);
    compare(names[f], d, s, n);
}

static unsigned long copies(void)
{
    unsigned long cases = 0;
    size_t sizes[200], ns = 0;
    for (size_t n = 0; n <= 300; n += n < 80 ? 1 : 7) sizes[ns++] = n;
    for (size_t n = 301; n < MAXN && ns < 199; n = n * 5 / 4 + 1) sizes[ns++] = n;
    sizes[ns++] = MAXN;
    size_t far = MAXN + 2 * PAD; /* dst in the other half: no overlap */
    for (int f = 0; f < 7; f++)
        for (size_t k = 0; k < ns; k++)
            for (size_t off = 0; off < 16; off += 3) {
                size_t n = sizes[k];
                one(f, PAD + far + off, PAD + (off * 5) % 16, n, (unsigned)(k + off));
                cases++;
            }
    /* overlapping buffers, every function (memcpy and mempcpy must act as
     * memmove, as glibc's x86-64 memcpy does) */
    for (int f = 0; f < 7; f++)
        for (size_t k = 0; k < ns; k++) {
            size_t n = sizes[k];
            long shifts[] = {1, -1, 7, -7, 32, -32, (long)(n / 2), -(long)(n / 2)};
            for (size_t j = 0; j < sizeof shifts / sizeof shifts[0]; j++) {
                size_t s = PAD + MAXN / 2;
                one(f, (size_t)((long)s + shifts[j]), s, n, (unsigned)(k + j));
                cases++;
            }
        }
    return cases;
}

/* The _chk forms with an object one byte too small: glibc's message, SIGABRT. */
static int chk(void)
{
    static const char *const names[] = {"__memcpy_chk", "__memmove_chk", "__mempcpy_chk"};
    for (int f = 0; f < 3; f++) {
        int fds[2];
        if (pipe(fds)) return perror("pipe"), 0;
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 2);
            close(fds[0]);
            static unsigned char a[64], b[64];
            vn = 40;
            if (f == 0) __memcpy_chk(a, b, vn, vn - 1);
            if (f == 1) __memmove_chk(a, b, vn, vn - 1);
            if (f == 2) __mempcpy_chk(a, b, vn, vn - 1);
            _exit(0); /* not reached when the check works */
        }
        close(fds[1]);
        char out[512];
        size_t got = 0;
        ssize_t k;
        while (got < sizeof out - 1 && (k = read(fds[0], out + got, sizeof out - 1 - got)) > 0) got += (size_t)k;
        out[got] = 0;
        close(fds[0]);
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT)
            FAIL("%s with destlen n - 1: the child %s %d, want death by SIGABRT", names[f],
                 WIFSIGNALED(st) ? "died of signal" : "exited with", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        else if (!strstr(out, "buffer overflow detected"))
            FAIL("%s with destlen n - 1: SIGABRT, but stderr was \"%s\"", names[f], out);
        else
            printf("  %-14s destlen n - 1: SIGABRT, stderr \"%.*s\"\n", names[f], (int)strcspn(out, "\n"), out);
    }
    return 3;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    unsigned long cases;
    if (!strcmp(mode, "symbols"))
        cases = (unsigned long)symbols();
    else if (!strcmp(mode, "copies"))
        cases = copies();
    else if (!strcmp(mode, "chk"))
        cases = (unsigned long)chk();
    else {
        fprintf(stderr, "usage: test_preload symbols|copies|chk (with libfastcopy-preload.so preloaded)\n");
        return 2;
    }
    printf("test_preload %s: %lu cases, %lu failures\n", mode, cases, failures);
    return failures ? 1 : 0;
}
