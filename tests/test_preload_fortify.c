/*
 * test_preload_fortify - a _FORTIFY_SOURCE=3 program under
 * libfastcopy-preload.so: its copies into objects whose size the compiler
 * knows go through __memcpy_chk, __memmove_chk and __mempcpy_chk, which must
 * copy right and, for a size past the object, abort with glibc's message.
 *
 *   test_preload_fortify ok             copies of 0..64 bytes into a 64-byte
 *                                       object through each form: bytes and
 *                                       return values checked
 *   test_preload_fortify overflow F     F = memcpy, memmove or mempcpy: 65 bytes
 *                                       into a 64-byte array in a forked child,
 *                                       which must die of SIGABRT after printing
 *                                       glibc's "buffer overflow detected"
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(__USE_FORTIFY_LEVEL) || __USE_FORTIFY_LEVEL < 1
#error "build this file with -O2 -D_FORTIFY_SOURCE=3 (or 2): it tests the _chk forms"
#endif

static volatile size_t vn; /* a size the compiler cannot see: the _chk form, not a folded copy */
static unsigned char src[256];

struct obj {
    unsigned char before[16], buf[64], after[16];
};

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    static struct obj o;
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 13 + 5);
    if (!strcmp(mode, "overflow") && argc > 2) {
#if defined(__clang__) && __clang_major__ <= 14
        /* clang 14 lowers glibc's fortified mempcpy (__builtin___mempcpy_chk)
         * to a plain memcpy call with no size check: nothing to test here */
        if (!strcmp(argv[2], "mempcpy")) {
            puts("test_preload_fortify overflow mempcpy: skipped, this clang calls memcpy without a check");
            return 77;
        }
#endif
        /* in a child, stderr into a pipe: it must die of SIGABRT with glibc's message */
        int fds[2];
        if (pipe(fds)) return perror("pipe"), 1;
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 2);
            close(fds[0]);
            static unsigned char lone[64]; /* an object of its own: its size is all the check knows */
            vn = sizeof lone + 1;
            unsigned char *buf = lone;
            if (!strcmp(argv[2], "memcpy")) memcpy(buf, src, vn);
            if (!strcmp(argv[2], "memmove")) memmove(buf, src, vn);
            if (!strcmp(argv[2], "mempcpy")) mempcpy(buf, src, vn);
            _exit(0);
        }
        close(fds[1]);
        char out[512];
        size_t got = 0;
        ssize_t k;
        while (got < sizeof out - 1 && (k = read(fds[0], out + got, sizeof out - 1 - got)) > 0) got += (size_t)k;
        out[got] = 0;
        int st = 0;
        waitpid(pid, &st, 0);
        int ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(out, "buffer overflow detected");
        printf("test_preload_fortify overflow %s: %s %d, stderr \"%.*s\"%s\n", argv[2],
               WIFSIGNALED(st) ? "child died of signal" : "child exited with",
               WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), (int)strcspn(out, "\n"), out,
               ok ? "" : " - FAIL: want SIGABRT and glibc's \"buffer overflow detected\"");
        return ok ? 0 : 1;
    }
    if (strcmp(mode, "ok")) {
        fprintf(stderr, "usage: test_preload_fortify ok | overflow memcpy|memmove|mempcpy\n");
        return 2;
    }
    unsigned long failures = 0, cases = 0;
    /* the forms this program calls are the preloaded object's */
    static const char *const forms[] = {"__memcpy_chk", "__memmove_chk", "__mempcpy_chk"};
    for (int f = 0; f < 3; f++) {
        Dl_info info;
        void *p = dlsym(RTLD_DEFAULT, forms[f]);
        if (!p || !dladdr(p, &info) || !info.dli_fname || !strstr(info.dli_fname, "libfastcopy-preload")) {
            fprintf(stderr, "FAIL: %s is not libfastcopy-preload.so's (%s)\n", forms[f],
                    p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : "not found");
            failures++;
        }
    }
    for (int f = 0; f < 3; f++)
        for (size_t n = 0; n <= sizeof o.buf; n++) {
            memset(&o, 0xA5, sizeof o);
            vn = n;
            void *r = f == 0 ? memcpy(o.buf, src + n, vn) : f == 1 ? memmove(o.buf, src + n, vn)
                                                                    : mempcpy(o.buf, src + n, vn);
            void *want = f == 2 ? o.buf + n : o.buf;
            int bad = r != want;
            for (size_t i = 0; i < sizeof o; i++) {
                unsigned char *p = (unsigned char *)&o + i;
                size_t k = (size_t)(p - o.buf);
                unsigned char exp = p >= o.buf && k < n ? src[n + k] : 0xA5;
                if (*p != exp) bad = 1;
            }
            if (bad && failures++ < 10) fprintf(stderr, "FAIL: form %d, n %zu: wrong bytes or return\n", f, n);
            cases++;
        }
    printf("test_preload_fortify ok: %lu cases (fortify level %d), %lu failures\n", cases, __USE_FORTIFY_LEVEL,
           failures);
    return failures ? 1 : 0;
}
