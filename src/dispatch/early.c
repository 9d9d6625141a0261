/*
 * What dispatch needs before libc is usable.
 *
 * An ifunc resolver runs while relocations are applied: in a BIND_NOW
 * program libc's `environ` is still NULL, and in a static program libc's own
 * IRELATIVE relocations (strcmp, ...) and TLS (errno) may not be set up yet.
 * So this file calls no libc function: the environment comes from `environ`
 * when it is already set, otherwise from /proc/self/environ through raw system
 * calls, and warnings go to fd 2 the same way.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC in the libc fallback (strict C11 hides it) */
#include <stddef.h>
#include <stdint.h>

#include "dispatch/raw_syscalls.h"
#include "internal.h"

#if FC_RAW_SYSCALLS

#if defined(__x86_64__)
enum { NR_read = 0, NR_write = 1, NR_close = 3, NR_openat = 257 };
static long fc_sys4(long nr, long a, long b, long c, long d)
{
    register long r10 __asm__("r10") = d;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return ret;
}
#elif defined(__aarch64__)
enum { NR_openat = 56, NR_close = 57, NR_read = 63, NR_write = 64 };
static long fc_sys4(long nr, long a, long b, long c, long d)
{
    register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c, x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
}
#elif defined(__riscv)
enum { NR_openat = 56, NR_close = 57, NR_read = 63, NR_write = 64 };
static long fc_sys4(long nr, long a, long b, long c, long d)
{
    register long a7 __asm__("a7") = nr, a0 __asm__("a0") = a, a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c, a3 __asm__("a3") = d;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3) : "memory");
    return a0;
}
#elif defined(__s390x__)
enum { NR_read = 3, NR_write = 4, NR_close = 6, NR_openat = 288 };
static long fc_sys4(long nr, long a, long b, long c, long d)
{
    register long r1 __asm__("r1") = nr, r2 __asm__("r2") = a, r3 __asm__("r3") = b;
    register long r4 __asm__("r4") = c, r5 __asm__("r5") = d;
    __asm__ volatile("svc 0" : "+r"(r2) : "r"(r1), "r"(r3), "r"(r4), "r"(r5) : "memory");
    return r2;
}
#endif

#define AT_FDCWD_ (-100)
#define O_RDONLY_CLOEXEC_ 02000000 /* O_RDONLY | O_CLOEXEC: same value on these four */

static long fc_open_ro(const char *path) { return fc_sys4(NR_openat, AT_FDCWD_, (long)path, O_RDONLY_CLOEXEC_, 0); }
static long fc_read(long fd, void *buf, size_t n) { return fc_sys4(NR_read, fd, (long)buf, (long)n, 0); }
static void fc_close(long fd) { (void)fc_sys4(NR_close, fd, 0, 0, 0); }
static void fc_write2(const char *p, size_t n) { (void)fc_sys4(NR_write, 2, (long)p, (long)n, 0); }

#else /* other targets: libc wrappers (dispatch there runs from a constructor) */
#if FC_DISPATCH_IFUNC
#error "ifunc dispatch needs early.c's own system calls (src/dispatch/raw_syscalls.h): use FASTCOPY_DISPATCH=pointer"
#endif
#include <fcntl.h>
#include <unistd.h>
static long fc_open_ro(const char *path) { return open(path, O_RDONLY | O_CLOEXEC); }
static long fc_read(long fd, void *buf, size_t n) { return (long)read((int)fd, buf, n); }
static void fc_close(long fd) { (void)close((int)fd); }
static void fc_write2(const char *p, size_t n) { (void)!write(2, p, n); }
#endif

/* Weak, so that `&environ` is a real test: in position-independent code the
 * address comes from a GOT slot, and a resolver that runs while its own shared
 * object is being relocated (libfastcopy.a built into a consumer's .so, bound
 * at load: BIND_NOW, or a data pointer to fc_memcpy) can find that slot not
 * yet filled in - it holds 0 until the dynamic linker writes it.  Then the
 * environment is read from /proc/self/environ, not from address 0. */
extern char **environ __attribute__((weak));

static size_t fc_strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

/* Matches "name=" at the start of entry e; returns the value or NULL. */
static const char *fc_match(const char *e, const char *name)
{
    for (; *name; name++, e++)
        if (*e != *name) return NULL;
    return *e == '=' ? e + 1 : NULL;
}

/* 1, or 2 if the value did not fit (buf then holds its first size - 1 bytes). */
static int fc_copy_value(const char *v, char *buf, size_t size)
{
    size_t i = 0;
    for (; v[i] && i + 1 < size; i++) buf[i] = v[i];
    buf[i] = 0;
    return v[i] ? 2 : 1;
}

int fc__early_getenv(const char *name, char *buf, size_t size)
{
    if (!size) return 0;
    buf[0] = 0;
    char **env = &environ ? environ : NULL;
    if (env) {
        for (; *env; env++) {
            const char *v = fc_match(*env, name);
            if (v) return fc_copy_value(v, buf, size);
        }
        return 0;
    }
    /* Streaming scan of NUL-separated entries: match "name=" at each entry start. */
    long fd = fc_open_ro("/proc/self/environ");
    if (fd < 0) return 0;
    char chunk[512];
    size_t nlen = fc_strlen(name), pos = 0, out = 0; /* pos: chars matched in this entry */
    int state = 0; /* 0 matching name, 1 skipping to NUL, 2 copying value */
    int cut = 0;   /* the value did not fit */
    long got;
    while ((got = fc_read(fd, chunk, sizeof chunk)) > 0) {
        for (long i = 0; i < got; i++) {
            char c = chunk[i];
            if (state == 2) {
                if (!c) goto done;
                if (out + 1 < size) buf[out++] = c;
                else cut = 1;
            } else if (!c) {
                state = 0;
                pos = 0;
            } else if (state == 0) {
                if (pos < nlen && c == name[pos]) pos++;
                else if (pos == nlen && c == '=') state = 2;
                else state = 1;
            }
        }
    }
done:
    fc_close(fd);
    buf[out] = 0;
    return state != 2 ? 0 : cut ? 2 : 1;
}

/* One line on stderr.  The parts come from the environment too (the value of
 * a bad FASTCOPY_IMPL or FASTCOPY_TUNE), written before main: any byte that
 * is not printable ASCII, and the backslash, goes out as \xHH or \\, so a
 * value cannot carry terminal escape sequences or line breaks into it. */
void fc__warn(const char *a, const char *b, const char *c, const char *d)
{
    static const char hex[] = "0123456789abcdef";
    char line[1024];
    size_t n = 0;
    const char *parts[4] = {a, b, c, d};
    for (int p = 0; p < 4; p++)
        for (const char *s = parts[p]; s && *s && n < sizeof line - 5; s++) {
            unsigned char ch = (unsigned char)*s;
            if (ch >= 0x20 && ch < 0x7f && ch != '\\') {
                line[n++] = (char)ch;
            } else if (ch == '\\') {
                line[n++] = '\\';
                line[n++] = '\\';
            } else {
                line[n++] = '\\';
                line[n++] = 'x';
                line[n++] = hex[ch >> 4];
                line[n++] = hex[ch & 15];
            }
        }
    line[n++] = '\n';
    fc_write2(line, n);
}
