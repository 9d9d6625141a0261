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

#include "dispatch/early.h"
#include "dispatch/raw_syscalls.h"
#include "internal.h"

/* What fc__read_file looks at before it reads (fc_stat). */
struct fc_file_facts {
    unsigned mode, uid;
    uint64_t size;
    unsigned long fs_type; /* statfs f_type; 0 where unknown */
};

#if FC_RAW_SYSCALLS

#if defined(__x86_64__)
enum { NR_read = 0, NR_write = 1, NR_close = 3, NR_getuid = 102, NR_getgid = 104, NR_geteuid = 107,
       NR_getegid = 108, NR_statfs = 137, NR_fstatfs = 138, NR_prctl = 157, NR_openat = 257, NR_statx = 332 };
static long fc_sys5(long nr, long a, long b, long c, long d, long e)
{
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}
#elif defined(__aarch64__) || defined(__riscv)
/* the generic (asm-generic/unistd.h) numbers */
enum { NR_statfs = 43, NR_fstatfs = 44, NR_openat = 56, NR_close = 57, NR_read = 63, NR_write = 64,
       NR_prctl = 167, NR_getuid = 174, NR_geteuid = 175, NR_getgid = 176, NR_getegid = 177, NR_statx = 291 };
#if defined(__aarch64__)
static long fc_sys5(long nr, long a, long b, long c, long d, long e)
{
    register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
    return x0;
}
#else
static long fc_sys5(long nr, long a, long b, long c, long d, long e)
{
    register long a7 __asm__("a7") = nr, a0 __asm__("a0") = a, a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c, a3 __asm__("a3") = d, a4 __asm__("a4") = e;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4) : "memory");
    return a0;
}
#endif
#elif defined(__s390x__)
enum { NR_read = 3, NR_write = 4, NR_close = 6, NR_statfs = 99, NR_fstatfs = 100, NR_prctl = 172,
       NR_getuid = 199, NR_getgid = 200, NR_geteuid = 201, NR_getegid = 202, NR_openat = 288, NR_statx = 379 };
static long fc_sys5(long nr, long a, long b, long c, long d, long e)
{
    register long r1 __asm__("r1") = nr, r2 __asm__("r2") = a, r3 __asm__("r3") = b;
    register long r4 __asm__("r4") = c, r5 __asm__("r5") = d, r6 __asm__("r6") = e;
    __asm__ volatile("svc 0" : "+r"(r2) : "r"(r1), "r"(r3), "r"(r4), "r"(r5), "r"(r6) : "memory");
    return r2;
}
#endif
static long fc_sys4(long nr, long a, long b, long c, long d) { return fc_sys5(nr, a, b, c, d, 0); }

#define AT_FDCWD_ (-100)
#define O_RDONLY_CLOEXEC_ 02000000 /* O_RDONLY | O_CLOEXEC: same value on these four */
#define O_NONBLOCK_ 04000          /* the same on these four too */
#define AT_EMPTY_PATH_ 0x1000
#define STATX_WANT_ 0x20b          /* STATX_TYPE | STATX_MODE | STATX_UID | STATX_SIZE */

static long fc_open_ro(const char *path) { return fc_sys4(NR_openat, AT_FDCWD_, (long)path, O_RDONLY_CLOEXEC_, 0); }
static long fc_read(long fd, void *buf, size_t n) { return fc_sys4(NR_read, fd, (long)buf, (long)n, 0); }
static void fc_close(long fd) { (void)fc_sys4(NR_close, fd, 0, 0, 0); }
static void fc_write2(const char *p, size_t n) { (void)fc_sys4(NR_write, 2, (long)p, (long)n, 0); }

/* A file opened without blocking (a FIFO must not stall a resolver): the fd, or -1. */
static long fc_open_file(const char *path)
{
    long fd = fc_sys4(NR_openat, AT_FDCWD_, (long)path, O_RDONLY_CLOEXEC_ | O_NONBLOCK_, 0);
    return fd < 0 ? -1 : fd;
}

/* Type, mode, owner and size from statx (the same struct on every
 * architecture, unlike stat's), and the file system's magic number from
 * statfs (f_type: a long first in struct statfs, but an int on s390x), of
 * path (fd < 0; symbolic links followed) or of the open fd: 0, or -1. */
static int fc_stat(long fd, const char *path, struct fc_file_facts *f)
{
    struct { /* struct statx (linux/stat.h), 256 bytes */
        uint32_t mask, blksize;
        uint64_t attributes;
        uint32_t nlink, uid, gid;
        uint16_t mode, spare0;
        uint64_t ino, size;
        uint64_t rest[26];
    } stx;
    union {
        long word;
        unsigned int u32;
        unsigned long raw[32]; /* struct statfs: 120 bytes here, 88 on s390x */
    } sfs;
    stx.mask = 0;
    sfs.word = 0;
    long r = fd < 0 ? fc_sys5(NR_statx, AT_FDCWD_, (long)path, 0, STATX_WANT_, (long)&stx)
                    : fc_sys5(NR_statx, fd, (long)"", AT_EMPTY_PATH_, STATX_WANT_, (long)&stx);
    if (r != 0 || (stx.mask & STATX_WANT_) != STATX_WANT_) return -1;
    r = fd < 0 ? fc_sys4(NR_statfs, (long)path, (long)&sfs, 0, 0) : fc_sys4(NR_fstatfs, fd, (long)&sfs, 0, 0);
    if (r != 0) return -1;
    f->mode = stx.mode;
    f->uid = stx.uid;
    f->size = stx.size;
#if defined(__s390x__)
    f->fs_type = sfs.u32;
#else
    f->fs_type = (unsigned long)sfs.word;
#endif
    return 0;
}

/* Real and effective ids differ: a set-user-ID or set-group-ID process. */
static int fc_ids_differ(void)
{
    return fc_sys4(NR_getuid, 0, 0, 0, 0) != fc_sys4(NR_geteuid, 0, 0, 0, 0) ||
           fc_sys4(NR_getgid, 0, 0, 0, 0) != fc_sys4(NR_getegid, 0, 0, 0, 0);
}

/* prctl(PR_GET_DUMPABLE): 1 for an ordinary process, 0 or 2 (or an error)
 * where the kernel marked it when its credentials changed. */
static long fc_dumpable(void) { return fc_sys4(NR_prctl, 3 /* PR_GET_DUMPABLE */, 0, 0, 0); }

#else /* other targets: libc wrappers (dispatch there runs from a constructor) */
#if FC_DISPATCH_IFUNC
#error "ifunc dispatch needs early.c's own system calls (src/dispatch/raw_syscalls.h): use FASTCOPY_DISPATCH=pointer"
#endif
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
static long fc_open_ro(const char *path) { return open(path, O_RDONLY | O_CLOEXEC); }
static long fc_read(long fd, void *buf, size_t n) { return (long)read((int)fd, buf, n); }
static void fc_close(long fd) { (void)close((int)fd); }
static void fc_write2(const char *p, size_t n) { (void)!write(2, p, n); }
static long fc_open_file(const char *path) { return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); }
#if defined(__linux__)
#include <sys/statfs.h>
#endif
static int fc_stat(long fd, const char *path, struct fc_file_facts *f)
{
    struct stat st;
    if (fd < 0 ? stat(path, &st) != 0 : fstat((int)fd, &st) != 0) return -1;
    f->mode = (unsigned)st.st_mode;
    f->uid = (unsigned)st.st_uid;
    f->size = st.st_size < 0 ? 0 : (uint64_t)st.st_size;
    f->fs_type = 0;
#if defined(__linux__)
    struct statfs sfs;
    if (fd < 0 ? statfs(path, &sfs) != 0 : fstatfs((int)fd, &sfs) != 0) return -1;
    f->fs_type = (unsigned long)sfs.f_type;
#endif
    return 0;
}
static int fc_ids_differ(void) { return getuid() != geteuid() || getgid() != getegid(); }
#include <sys/prctl.h>
static long fc_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }
#endif

/* Weak, so that `&environ` is a real test: in position-independent code the
 * address comes from a GOT slot, and a resolver that runs while its own shared
 * object is being relocated (libfastcopy.a built into a consumer's .so, bound
 * at load: BIND_NOW, or a data pointer to fc_memcpy) can find that slot not
 * yet filled in - it holds 0 until the dynamic linker writes it.  Then the
 * environment is read from /proc/self/environ, not from address 0. */
extern char **environ __attribute__((weak));

/* ---- strings and numbers (dispatch/early.h) -------------------------------- */

size_t fc__str_len(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

int fc__str_eq(const char *a, const char *b)
{
    for (; *a && *a == *b; a++, b++) {
    }
    return *a == *b;
}

const char *fc__str_after(const char *s, const char *prefix)
{
    for (; *prefix; prefix++, s++)
        if (*s != *prefix) return NULL;
    return s;
}

void fc__str_put(char *buf, size_t size, size_t *n, const char *s)
{
    for (; *s && *n + 1 < size; s++) buf[(*n)++] = *s;
    buf[*n] = 0;
}

void fc__str_put_num(char *buf, size_t size, size_t *n, uint64_t v, int hex)
{
    char t[24];
    int i = (int)sizeof t;
    t[--i] = 0;
    do {
        unsigned d = (unsigned)(v % (hex ? 16 : 10));
        t[--i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= hex ? 16 : 10;
    } while (v && i > 2);
    if (hex) {
        t[--i] = 'x';
        t[--i] = '0';
    }
    fc__str_put(buf, size, n, t + i);
}

/* Struct clears by hand (copies: fc__copy_bytes below): the compiler turns
 * the clearing or assignment of a struct this large into a call to libc's
 * memset or memcpy (clang does), which a resolver cannot make. */
void fc__clear_bytes(void *d, size_t n)
{
    unsigned char *dp = d;
    for (size_t i = 0; i < n; i++) {
        __asm__("" : "+r"(dp)); /* keeps the loop a loop, not a memset call */
        dp[i] = 0;
    }
}

/* The value of one digit c in base 10 or 16, or 16 if it is none. */
static unsigned fc_digit(char c, unsigned base)
{
    if (c >= '0' && c <= '9') return (unsigned)(c - '0');
    if (base == 16 && c >= 'a' && c <= 'f') return (unsigned)(c - 'a' + 10);
    if (base == 16 && c >= 'A' && c <= 'F') return (unsigned)(c - 'A' + 10);
    return 16;
}

const char *fc__parse_num(const char *p, unsigned how, uint64_t *out)
{
    unsigned kind = how & (FC_NUM_HEX | FC_NUM_AUTO), base = kind == FC_NUM_HEX ? 16 : 10;
    if (kind != FC_NUM_DEC && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2, base = 16;
    if (fc_digit(*p, base) >= base) return NULL;
    uint64_t v = 0;
    for (unsigned d; (d = fc_digit(*p, base)) < base; p++) {
        if (v > (UINT64_MAX - d) / base) return NULL; /* v * base + d would wrap */
        v = v * base + d;
    }
    unsigned shift = 0;
    if (how & FC_NUM_KMG) {
        if (*p == 'k' || *p == 'K') shift = 10;
        else if (*p == 'm' || *p == 'M') shift = 20;
        else if (*p == 'g' || *p == 'G') shift = 30;
    }
    if (shift) {
        if (v > (UINT64_MAX >> shift)) return NULL;
        v <<= shift;
        p++;
    }
    *out = v;
    return p;
}

/* ---- the environment, warnings ------------------------------------------------ */

/* Matches "name=" at the start of entry e; returns the value or NULL. */
static const char *fc_match(const char *e, const char *name)
{
    const char *v = fc__str_after(e, name);
    return v && *v == '=' ? v + 1 : NULL;
}

/* 1, or 2 if the value did not fit (buf then holds its first size - 1 bytes). */
static int fc_copy_value(const char *v, char *buf, size_t size)
{
    size_t i = 0;
    for (; v[i] && i + 1 < size; i++) buf[i] = v[i];
    buf[i] = 0;
    return v[i] ? 2 : 1;
}

void fc__copy_bytes(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    for (size_t k = 0; k < n; k++) {
        __asm__("" : "+r"(dp)); /* keeps the loop a loop, not a memcpy call */
        dp[k] = sp[k];
    }
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
    size_t nlen = fc__str_len(name), pos = 0, out = 0; /* pos: chars matched in this entry */
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

/* ---- small files, the auxiliary vector, secure execution ------------------ */

/* File systems whose "regular files" are not files: the kernel makes their
 * contents when they are read, and a read can have effects (/proc/kmsg takes
 * the kernel's log messages away from syslog; rpc_pipefs hands over upcalls;
 * xenfs' xenbus blocks).  procfs and most of these report a size of 0, but
 * sysfs and configfs report 4096 and mqueue 80 for any attribute, whatever it
 * holds: the size alone does not tell them.  linux/magic.h, or the file
 * system's own source where that lacks one. */
static const uint32_t fc_pseudo_fs[] = {
    0x9fa0,     /* proc */
    0x62656572, /* sysfs */
    0x64626720, /* debugfs */
    0x74726163, /* tracefs */
    0x62656570, /* configfs */
    0x73636673, /* securityfs */
    0x27e0eb,   /* cgroup */
    0x63677270, /* cgroup2 */
    0x7655821,  /* resctrl */
    0xcafe4a11, /* bpf */
    0xde5e81e4, /* efivarfs */
    0x6165676c, /* pstore */
    0xf97cff8c, /* selinuxfs */
    0x43415d53, /* smackfs */
    0x5a3c69f0, /* apparmorfs */
    0x42494e4d, /* binfmt_misc */
    0x65735543, /* fusectl */
    0x6e736673, /* nsfs */
    0x09041934, /* anon_inodefs */
    0x50494446, /* pidfs */
    0x19800202, /* mqueue */
    0x67596969, /* rpc_pipefs */
    0x6e667364, /* nfsd */
    0xabba1974, /* xenfs */
    0x9fa1,     /* openpromfs */
    0x9fa2,     /* usbdevfs */
    0x0a647361, /* functionfs */
    0xaee71ee7, /* gadgetfs */
    0x76a9f425, /* ocfs2_dlmfs */
};

/* A file fc__read_file may read: a regular file on a file system that keeps
 * its files' contents. */
static int fc_plain_file(const struct fc_file_facts *f)
{
    if ((f->mode & 0170000) != 0100000) return 0; /* a FIFO, a device, a directory, a socket */
    for (size_t i = 0; i < sizeof fc_pseudo_fs / sizeof fc_pseudo_fs[0]; i++)
        if (f->fs_type == fc_pseudo_fs[i]) return 0;
    return 1;
}

/* The file is looked at twice: by its path before it is opened (opening a
 * device can itself act: a watchdog starts, a tape rewinds), and through the
 * descriptor, which is what is read (the path may have changed in between).
 * Its size decides before anything is read: more than size - 1 bytes is too
 * big, and a file of 0 bytes is empty - read as such, not read at all, so
 * that a special file which reports 0 on a file system not listed above
 * gives nothing either. */
long fc__read_file(const char *path, char *buf, size_t size, int *trusted)
{
    struct fc_file_facts f;
    *trusted = 0;
    if (!size) return FC_FILE_ERROR;
    buf[0] = 0;
    if (fc_stat(-1, path, &f) != 0) return FC_FILE_ABSENT;
    if (!fc_plain_file(&f)) return FC_FILE_ERROR;
    long fd = fc_open_file(path);
    if (fd < 0) return FC_FILE_ABSENT;
    if (fc_stat(fd, "", &f) != 0 || !fc_plain_file(&f)) {
        fc_close(fd);
        return FC_FILE_ERROR;
    }
    if (f.size >= size) {
        fc_close(fd);
        return FC_FILE_TOO_BIG;
    }
    size_t have = 0;
    long got = 0;
    /* to EOF, or until the buffer is full: a file that grew since fstat is read as it is now */
    while (f.size && (got = fc_read(fd, buf + have, size - have)) > 0) {
        have += (size_t)got;
        if (have == size) break;
    }
    fc_close(fd);
    if (got < 0) return FC_FILE_ERROR;
    if (have == size) return FC_FILE_TOO_BIG; /* size - 1 bytes at most, so one more means too big */
    buf[have] = 0;
    *trusted = f.uid == 0 && !(f.mode & 022);
    return (long)have;
}

/* /proc/self/auxv (getauxval is libc's).  Test builds (FC_TEST_HOOKS) read
 * the image named by FASTCOPY_TEST_AUXV instead, through the same parser. */
unsigned long fc__auxv(unsigned long type, int *found)
{
    const char *path = "/proc/self/auxv";
#ifdef FC_TEST_HOOKS
    char hook[256];
    if (fc__early_getenv("FASTCOPY_TEST_AUXV", hook, sizeof hook) == 1 && hook[0]) path = hook;
#endif
    *found = 0;
    long fd = fc_open_ro(path);
    if (fd < 0) return 0;
    unsigned long buf[64], val = 0; /* (type, value) pairs */
    size_t have = 0;                /* bytes in buf */
    int done = 0;
    long got;
    while (!done && (got = fc_read(fd, (char *)buf + have, sizeof buf - have)) > 0) {
        have += (size_t)got;
        size_t whole = have / (2 * sizeof(unsigned long));
        for (size_t i = 0; i < whole && !done; i++) {
            if (buf[2 * i] == type) {
                val = buf[2 * i + 1];
                *found = 1;
                done = 1;
            } else if (buf[2 * i] == 0) { /* AT_NULL */
                done = 1;
            }
        }
        /* keep a partial pair, if any, at the start of buf */
        size_t used = whole * 2 * sizeof(unsigned long), j = 0;
        for (; used + j < have; j++) ((char *)buf)[j] = ((char *)buf)[used + j];
        have = j;
    }
    fc_close(fd);
    return val;
}

#define FC_AT_SECURE 23
static int fc_secure_state; /* 0 not known yet, 1 no, 2 yes */

/* AT_SECURE where the auxv can be read.  Where it cannot, the process is
 * taken as secure when its ids differ or it is not dumpable: the kernel
 * clears dumpable when an exec raises the credentials (set-user/group-ID,
 * file capabilities; fs.suid_dumpable 0 or 2), and that is also what makes
 * /proc/self/auxv unreadable to a process that is not root - a process with
 * file capabilities keeps real and effective ids equal, so the ids alone
 * would let it through (found by an adversarial review).  A
 * process that made itself non-dumpable before the library was loaded is
 * taken as secure too: the safe side.  Test builds (FC_TEST_HOOKS): the
 * FASTCOPY_TEST_AUXV image stands in for the auxv, a missing one for an
 * unreadable auxv; fc__secure_reset() forgets the cached answer. */
int fc__secure(void)
{
    int st = __atomic_load_n(&fc_secure_state, __ATOMIC_RELAXED);
    if (!st) {
        int found;
        unsigned long v = fc__auxv(FC_AT_SECURE, &found);
        st = (found ? v != 0 : fc_ids_differ() || fc_dumpable() != 1) ? 2 : 1;
        __atomic_store_n(&fc_secure_state, st, __ATOMIC_RELAXED);
    }
    return st == 2;
}

#ifdef FC_TEST_HOOKS
void fc__secure_reset(void) { __atomic_store_n(&fc_secure_state, 0, __ATOMIC_RELAXED); }
#endif
