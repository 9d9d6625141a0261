/*
 * record_cases - programs with known copies for the recorder's hardening
 * tests (tests/record_cases_test.sh runs them with libfastcopy-record.so):
 *
 *   copies N SIZE     N memcpy of SIZE bytes, exit 0
 *   squat N           first makes DIR/rec.<pid> and DIR/rec.<pid>.0 .. .3
 *                     (DIR = $FASTCOPY_RECORD_DIR), each holding "planted",
 *                     as a process of the same pid (another PID namespace, a
 *                     reused pid) would have; then N memcpy of 17 B
 *   plant FILE N      copies FILE into DIR/rec.planted (a record made by the
 *                     test), then N memcpy of 17 B
 *   fork KIND N M     N memcpy of 17 B; a child made by KIND (sysfork:
 *                     syscall(SYS_fork), _Fork, clone: clone(2) without
 *                     CLONE_VM, vfork) makes M bcopy of 33 B and leaves by
 *                     exit(0) (vfork: _exit(0)); the parent waits and makes
 *                     one memmove of 5 B.  No atfork handler runs in any.
 *   threads T K       T short-lived threads, at most 4 at a time, each K
 *                     memcpy of 77 B and, from a destructor of a pthread key
 *                     made after the recorder's (runs after its one), 2
 *                     memcpy of 91 B; then prints the growth of VmRSS and
 *                     VmSize (kB) from before the first thread to the end:
 *                     "growth rss R vmsize V"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static _Alignas(64) unsigned char a[8192], b[8192];
static _Thread_local volatile size_t vn; /* per thread: threads copy different sizes at once */

static void copies(int n, size_t size)
{
    for (int i = 0; i < n; i++) {
        vn = size;
        memcpy(a, b, vn);
    }
}

static int child_m;
static void child_work(void)
{
    for (int i = 0; i < child_m; i++) {
        vn = 33;
        bcopy(b, a + 100, vn);
    }
}

static int clone_fn(void *arg)
{
    (void)arg;
    child_work();
    exit(0);
}

static pthread_key_t key;
static void key_dtor(void *p)
{
    (void)p;
    for (int i = 0; i < 2; i++) {
        vn = 91;
        memcpy(a + 200, b, vn);
    }
}

static int thread_k;
static void *worker(void *arg)
{
    pthread_setspecific(key, &key);
    for (int i = 0; i < thread_k; i++) {
        vn = 77;
        memcpy(a + 300, b, vn);
    }
    return arg;
}

/* kB of "NAME:" in /proc/self/status */
static long status_kb(const char *name)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0) return -1;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[k > 0 ? k : 0] = 0;
    const char *p = strstr(buf, name);
    return p ? atol(p + strlen(name) + 1) : -1;
}

static int put_file(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len) return perror(path), 1;
    return close(fd);
}

int main(int argc, char **argv)
{
    const char *dir = getenv("FASTCOPY_RECORD_DIR");
    char path[4200];
    if (argc == 4 && !strcmp(argv[1], "copies")) {
        copies(atoi(argv[2]), (size_t)atol(argv[3]));
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "squat") && dir) {
        snprintf(path, sizeof path, "%s/rec.%d", dir, (int)getpid());
        if (put_file(path, "planted\n", 8)) return 1;
        for (int i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/rec.%d.%d", dir, (int)getpid(), i);
            if (put_file(path, "planted\n", 8)) return 1;
        }
        copies(atoi(argv[2]), 17);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "plant") && dir) {
        static char text[1 << 20];
        int fd = open(argv[2], O_RDONLY);
        ssize_t k = fd < 0 ? -1 : read(fd, text, sizeof text);
        if (k < 0) return perror(argv[2]), 1;
        close(fd);
        snprintf(path, sizeof path, "%s/rec.planted", dir);
        if (put_file(path, text, (size_t)k)) return 1;
        copies(atoi(argv[3]), 17);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "fork")) {
        const char *kind = argv[2];
        child_m = atoi(argv[4]);
        copies(atoi(argv[3]), 17);
        pid_t pid;
        if (!strcmp(kind, "sysfork")) {
            pid = (pid_t)syscall(SYS_fork);
            if (pid == 0) child_work(), exit(0);
        } else if (!strcmp(kind, "_Fork")) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
            pid = _Fork();
            if (pid == 0) child_work(), exit(0);
#else
            return 77;
#endif
        } else if (!strcmp(kind, "clone")) {
            static _Alignas(64) char stack[1 << 16];
            pid = clone(clone_fn, stack + sizeof stack, SIGCHLD, NULL);
        } else if (!strcmp(kind, "vfork")) {
            pid = vfork();
            if (pid == 0) child_work(), _exit(0);
        } else {
            return 2;
        }
        if (pid < 0) return perror(kind), 1;
        int st;
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) return 1;
        vn = 5;
        memmove(a + 1, a, vn);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "threads")) {
        int t = atoi(argv[2]);
        thread_k = atoi(argv[3]);
        if (pthread_key_create(&key, key_dtor)) return 1;
        long rss0 = status_kb("VmRSS"), vm0 = status_kb("VmSize");
        pthread_t th[4];
        for (int i = 0; i < t; i += 4) {
            int m = t - i < 4 ? t - i : 4;
            for (int j = 0; j < m; j++)
                if (pthread_create(&th[j], NULL, worker, NULL)) return perror("pthread_create"), 1;
            for (int j = 0; j < m; j++) pthread_join(th[j], NULL);
        }
        printf("growth rss %ld vmsize %ld\n", status_kb("VmRSS") - rss0, status_kb("VmSize") - vm0);
        return 0;
    }
    fputs("usage: record_cases copies N SIZE | squat N | plant FILE N | fork KIND N M | threads T K\n", stderr);
    return 2;
}
