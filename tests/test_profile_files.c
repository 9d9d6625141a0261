/*
 * What the profile loader's file reader (fc__read_file, src/dispatch/early.c)
 * refuses, and that it refuses it without reading a byte: procfs and sysfs
 * files (they say they are regular files; /proc/kmsg, read as root, takes the
 * kernel's log away from syslog), a cgroup file, an empty file, a file of
 * more than 4096 bytes, a FIFO, a device, a directory, a symbolic link to a
 * /proc file.  And what it takes: a small file, one of exactly 4096 bytes.
 *
 * "Nothing read" is seen twice: the buffer past its first byte keeps the
 * pattern it was filled with, and the read system calls the kernel counted
 * for this process (syscr in /proc/self/io, where the kernel keeps it) did not
 * move beyond what reading /proc/self/io itself costs.
 *
 *   test_profile_files WORKDIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define PROFILE_MAX 4096 /* FC_PROFILE_MAX (src/cpu/x86.h): the loader's buffer is one more */
#define SENTINEL 'Z'

static int failures, checks, skipped;

__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    exit(1);
}

/* The read system calls made so far (syscr in /proc/self/io), or -1 where
 * the kernel does not keep it.  Each call costs reads of its own: callers
 * compare against that cost, measured the same way. */
static long long syscr(void)
{
    char text[1024];
    int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    const char *p = strstr(text, "syscr:");
    return p ? strtoll(p + 6, NULL, 10) : -1;
}

static const char *name_of(long r)
{
    return r == FC_FILE_ABSENT ? "FC_FILE_ABSENT" : r == FC_FILE_TOO_BIG ? "FC_FILE_TOO_BIG"
         : r == FC_FILE_ERROR  ? "FC_FILE_ERROR"  : "a length";
}

/* fc__read_file(path) must return want; refused (want < 0 or an empty file):
 * nothing read.  Taken: the bytes equal expect (expect_len of them). */
static void check(const char *label, const char *path, long want, const char *expect, size_t expect_len)
{
    static char buf[PROFILE_MAX + 1];
    int trusted = -1;
    memset(buf, SENTINEL, sizeof buf);
    long long before = syscr();
    long r = fc__read_file(path, buf, sizeof buf, &trusted);
    long long after = syscr(), again = syscr();
    checks++;
    int bad = 0;
    if (r != want) {
        printf("FAIL: %s (%s): returned %ld (%s), expected %ld (%s)\n", label, path, r, name_of(r), want,
               name_of(want));
        bad = 1;
    }
    if (want <= 0) {
        size_t touched = 0;
        for (size_t i = 1; i < sizeof buf; i++) touched += buf[i] != SENTINEL;
        if (touched) {
            printf("FAIL: %s (%s): %zu bytes of the buffer written (it was read): \"%.40s\"...\n", label, path,
                   touched, buf);
            bad = 1;
        }
        if (buf[0] != 0) {
            printf("FAIL: %s (%s): the buffer does not start with a NUL\n", label, path);
            bad = 1;
        }
        if (before >= 0 && after >= 0 && again >= 0 && after - before != again - after) {
            printf("FAIL: %s (%s): %lld read system calls made on it\n", label, path,
                   (after - before) - (again - after));
            bad = 1;
        }
        if (want < 0 && trusted != 0) {
            printf("FAIL: %s (%s): *trusted is %d for a file not taken\n", label, path, trusted);
            bad = 1;
        }
    } else if ((size_t)r != expect_len || memcmp(buf, expect, expect_len) != 0 || buf[r] != 0) {
        printf("FAIL: %s (%s): the bytes read differ from the file's\n", label, path);
        bad = 1;
    }
    if (bad) failures++;
    else printf("ok: %s (%s): %s%s\n", label, path, name_of(r), want <= 0 ? ", nothing read" : "");
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) fail("cannot write %s: %s", path, strerror(errno));
}

/* The first of the candidates that exists and is readable, or NULL. */
static const char *first_readable(const char *const *paths)
{
    for (; *paths; paths++)
        if (access(*paths, R_OK) == 0) return *paths;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_profile_files WORKDIR\n");
        return 2;
    }
    const char *work = argv[1];
    if (mkdir(work, 0755) != 0 && errno != EEXIST) fail("mkdir %s: %s", work, strerror(errno));
    char path[4096];
    if (syscr() < 0) printf("note: /proc/self/io has no syscr here: the read count is not checked\n");

    /* procfs: regular files to stat, of size 0, made when read */
    check("procfs", "/proc/self/status", FC_FILE_ERROR, NULL, 0);
    check("procfs-environ", "/proc/self/environ", FC_FILE_ERROR, NULL, 0);
    snprintf(path, sizeof path, "%s/link-to-proc", work);
    unlink(path);
    if (symlink("/proc/self/status", path) != 0) fail("symlink %s: %s", path, strerror(errno));
    check("symlink-to-procfs", path, FC_FILE_ERROR, NULL, 0);

    /* sysfs: size 4096 whatever the attribute holds; cgroup, v2 or v1 (kernfs too): size 0 */
    static const char *const sysfs[] = {"/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/kexec_loaded",
                                        "/sys/devices/system/cpu/online", "/sys/power/state", NULL};
    const char *s = first_readable(sysfs);
    if (s) check("sysfs", s, FC_FILE_ERROR, NULL, 0);
    else printf("skip: sysfs (none of its usual files is readable here)\n"), skipped++;
    static const char *const cgroup[] = {"/sys/fs/cgroup/cgroup.controllers", "/sys/fs/cgroup/cpu/cgroup.procs",
                                         "/sys/fs/cgroup/memory/cgroup.procs", NULL};
    const char *c = first_readable(cgroup);
    if (c) check("cgroup", c, FC_FILE_ERROR, NULL, 0);
    else printf("skip: cgroup (no cgroup file readable here)\n"), skipped++;

    /* an empty regular file: taken as empty (the parser then refuses it), not read */
    snprintf(path, sizeof path, "%s/empty", work);
    write_file(path, "", 0);
    check("empty", path, 0, NULL, 0);

    /* sizes: PROFILE_MAX bytes taken, one more refused unread */
    static char big[PROFILE_MAX + 2];
    memset(big, '#', sizeof big);
    for (size_t i = 63; i < sizeof big; i += 64) big[i] = '\n';
    snprintf(path, sizeof path, "%s/size-4096", work);
    write_file(path, big, PROFILE_MAX);
    check("size-4096", path, PROFILE_MAX, big, PROFILE_MAX);
    snprintf(path, sizeof path, "%s/size-4097", work);
    write_file(path, big, PROFILE_MAX + 1);
    check("size-4097", path, FC_FILE_TOO_BIG, NULL, 0);
    snprintf(path, sizeof path, "%s/size-small", work);
    write_file(path, "fastcopy-profile 2\nend\n", 23);
    check("size-small", path, 23, "fastcopy-profile 2\nend\n", 23);

    /* not regular files: a FIFO (must not block), a device, a directory; absent */
    snprintf(path, sizeof path, "%s/fifo", work);
    unlink(path);
    if (mkfifo(path, 0644) == 0) check("fifo", path, FC_FILE_ERROR, NULL, 0);
    else printf("skip: fifo (%s)\n", strerror(errno)), skipped++;
    check("device", "/dev/null", FC_FILE_ERROR, NULL, 0);
    check("directory", work, FC_FILE_ERROR, NULL, 0);
    snprintf(path, sizeof path, "%s/no/such/file", work);
    check("absent", path, FC_FILE_ABSENT, NULL, 0);

    printf("profile-files: %d checks, %d failed, %d skipped\n", checks, failures, skipped);
    return failures ? 1 : 0;
}
