/*
 * test_checked - fc_copy_checked: exact counts at every fault placement,
 * SIGBUS from a truncated shared file, concurrent faulting threads, and the
 * chaining of the dispositions that were there before.
 *
 *   test_checked exact           guard pages after and before src and dst, the
 *                                first bad byte at every position 0..n of src
 *                                and of dst (n 0..1024), then sizes across
 *                                page multiples and into the loops
 *   test_checked sigbus          a memfd mapping truncated below the copy, on
 *                                either side
 *   test_checked threads         16 threads faulting on their own guard pages
 *                                and on a shared file another thread truncates
 *                                and re-extends, on an alternate signal stack
 *   test_checked chain-siginfo   a SA_SIGINFO handler installed before: it gets
 *                                the faults that are not the copy's
 *   test_checked chain-plain     the same with a plain handler
 *   test_checked chain-after     a handler installed after the first copy that
 *                                calls fc_checked_handle_fault first
 *   test_checked chain-default   nothing installed: the start-up disposition
 *                                (SIG_DFL, or ASan's handler in that build)
 *   test_checked die-dfl SIG     SIG_DFL before: a fault outside the copy kills
 *                                the child with SIG (SEGV or BUS)
 *   test_checked die-ign         SIG_IGN before: the fault still kills it
 *   test_checked ignore-sent     SIG_IGN before: a SIGSEGV sent by kill() is ignored
 *   test_checked resethand HOW SIG   a handler installed with SA_RESETHAND before
 *                                (HOW: siginfo, plain, or sysv: ISO C signal()'s
 *                                SA_RESETHAND|SA_NODEFER) that returns: called
 *                                once, then the child dies of SIG (SEGV or BUS)
 *   test_checked refault         a handler without SA_NODEFER that faults
 *                                itself: called once, the child dies of SIGSEGV
 *   test_checked refault-nodefer the same with SA_NODEFER: it re-enters, as the
 *                                kernel would let it (depth 3, then it jumps out)
 *   test_checked sa-mask         the handler runs with its sa_mask and its own
 *                                signal blocked (with SA_NODEFER: not its own)
 *   test_checked async-dfl SIG   SIG_DFL before: the kernel's asynchronous
 *                                notices, SIGBUS BUS_MCEERR_AO or SIGSEGV
 *                                SEGV_MTEAERR, queued to the process, kill it
 *                                with SIG
 *   test_checked async-ign       SIG_IGN before: BUS_MCEERR_AO is ignored and the
 *                                copy still survives a truncated file after it
 *   test_checked blocked         SIGSEGV and SIGBUS blocked in the thread: a fault
 *                                in the copy kills the process with SIGSEGV (the
 *                                kernel's rule; docs/checked.md)
 *   test_checked blocked-idiom   sigfillset minus SIGSEGV and SIGBUS blocked (the
 *                                documented way): the copy survives its faults
 *
 * Every count is compared with the placement's exact answer, every dst byte
 * with what the contract allows (copied, or unchanged), and sentinels around
 * dst must stay.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fastcopy.h"

#ifndef FC_HAVE_COPY_CHECKED
int main(void)
{
    puts("test_checked: fc_copy_checked is not built for this target");
    return 77;
}
#else

static long pg;
#include "fail.h"

static unsigned char pat(size_t i, unsigned salt) { return (unsigned char)(i * 131u + (i >> 8) * 7u + salt * 29u + 1u); }

/* An arena: [PROT_NONE][pages usable][PROT_NONE]; returns the first usable byte. */
static unsigned char *arena(size_t usable_pages)
{
    size_t len = (usable_pages + 2) * (size_t)pg;
    unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    if (mprotect(p, (size_t)pg, PROT_NONE) || mprotect(p + (usable_pages + 1) * (size_t)pg, (size_t)pg, PROT_NONE)) {
        perror("mprotect");
        exit(1);
    }
    return p + pg;
}

enum { SENT = 64 };

/* One placement: the bad region starts k bytes into src (side 0) or dst
 * (side 1), k = n meaning right after the buffer; the other buffer is fully
 * usable.  s_area/d_area: arenas of `pages` usable pages each. */
static void one(unsigned char *s_area, unsigned char *d_area, size_t pages, size_t n, size_t k, int side,
                unsigned salt)
{
    size_t span = pages * (size_t)pg;
    unsigned char *src, *dst;
    if (side == 0) {
        src = s_area + span - k;                        /* src + k: the guard page after s_area */
        dst = d_area + SENT + ((k * 7 + n) % 61);      /* fully usable, some offset */
    } else {
        dst = d_area + span - k;
        src = s_area + ((k * 5 + n) % 67);
    }
    size_t good_s = side == 0 ? k : n;
    for (size_t i = 0; i < good_s && i < n; i++) src[i] = pat(i, salt);
    /* sentinels: SENT bytes below dst (inside the arena) and, above, what fits before the guard */
    unsigned char *lo = dst - (dst - d_area < SENT ? (size_t)(dst - d_area) : SENT);
    size_t room_hi = (size_t)(d_area + span - dst); /* bytes from dst to the guard */
    size_t hi_end = room_hi < n + SENT ? room_hi : n + SENT;
    for (unsigned char *p = lo; p < dst + hi_end; p++) *p = (unsigned char)(0xA5 ^ (uintptr_t)p);
    size_t expect = k < n ? n - k : 0;
    size_t r = fc_copy_checked(dst, src, n);
    if (r != expect) {
        FAIL("n %zu, bad byte at %zu of %s: returned %zu, want %zu", n, k, side ? "dst" : "src", r, expect);
        return;
    }
    for (size_t i = 0; i < n - r; i++)
        if (dst[i] != pat(i, salt)) {
            FAIL("n %zu, bad at %zu of %s: dst[%zu] not copied", n, k, side ? "dst" : "src", i);
            return;
        }
    for (size_t i = n - r; i < n && i < room_hi; i++) {
        unsigned char was = (unsigned char)(0xA5 ^ (uintptr_t)(dst + i));
        /* past the bad byte: unchanged, or its src byte where src is readable */
        if (dst[i] != was && !(side == 1 && dst[i] == pat(i, salt))) {
            FAIL("n %zu, bad at %zu of %s: dst[%zu] = %02x, neither unchanged nor src's", n, k, side ? "dst" : "src",
                 i, dst[i]);
            return;
        }
    }
    for (unsigned char *p = lo; p < dst; p++)
        if (*p != (unsigned char)(0xA5 ^ (uintptr_t)p)) {
            FAIL("n %zu, bad at %zu: byte %td below dst written", n, k, dst - p);
            return;
        }
    for (unsigned char *p = dst + n; p < dst + hi_end; p++)
        if (*p != (unsigned char)(0xA5 ^ (uintptr_t)p)) {
            FAIL("n %zu, bad at %zu: byte %td above dst's end written", n, k, p - (dst + n));
            return;
        }
}

static unsigned long placements;

static void exact(int quick)
{
    /* small: every n 0..1024 (quick: 0..600, still past every class into the
     * loops of both copies), every first-bad position 0..n, each side */
    unsigned char *s1 = arena(1), *d1 = arena(1);
    for (size_t n = 0; n <= (quick ? 600u : 1024u); n++)
        for (size_t k = 0; k <= n; k++)
            for (int side = 0; side < 2; side++) {
                one(s1, d1, 1, n, k, side, (unsigned)(n + k));
                placements++;
            }
    /* no fault, src and dst at the start of a page right after a PROT_NONE
     * page (a read below src or a write below dst would fault: a wrong count) */
    for (size_t n = 0; n <= 4096; n += (n < 600 ? 1 : 37)) {
        for (size_t i = 0; i < n; i++) s1[i] = pat(i, 3);
        size_t r = fc_copy_checked(d1, s1, n);
        if (r != 0 || memcmp(d1, s1, n) != 0) FAIL("n %zu at page starts: returned %zu", n, r);
        placements++;
    }
    /* sizes across page multiples and into the loops (and the NT loop when
     * FASTCOPY_TUNE lowers its threshold): bad byte at the edges and inside */
    static const size_t ns[] = {1025, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 8193, 12288, 65536 + 3,
                                (1u << 20) + 5};
    size_t maxp = ((1u << 20) + 5) / (size_t)pg + 2;
    unsigned char *s2 = arena(maxp), *d2 = arena(maxp);
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        size_t n = ns[j];
        if (quick && j % 3) continue;
        size_t pages = n / (size_t)pg + 2;
        /* every k near the ends, a few around each page boundary, ~200 more */
        size_t far = n < 16384 ? 300 : 40;
        for (size_t k = 0; k <= n;
             k += (k < far || n - k < far ? 1 : (k % 4096 < 3 || k % 4096 > 4093 ? 1 : (n / 200) | 1))) {
            for (int side = 0; side < 2; side++) {
                /* the arena's last `pages` pages, so the guard after them is the bad region */
                unsigned char *sa = s2 + (maxp - pages) * (size_t)pg, *da = d2 + (maxp - pages) * (size_t)pg;
                one(sa, da, pages, n, k, side, (unsigned)(k * 3 + j));
                placements++;
            }
        }
    }
}

/* ---- SIGBUS: a memfd mapped beyond its size -------------------------------- */
static void sigbus(void)
{
    int fd = memfd_create("fc-checked", 0);
    if (fd < 0) {
        perror("memfd_create");
        exit(1);
    }
    size_t pages = 8, len = pages * (size_t)pg;
    unsigned char *d = arena(pages + 1), *s = arena(pages + 1);
    for (size_t filepages = 1; filepages < pages; filepages += 3) {
        if (ftruncate(fd, (off_t)len) || ftruncate(fd, (off_t)(filepages * (size_t)pg))) {
            perror("ftruncate");
            exit(1);
        }
        unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            perror("mmap");
            exit(1);
        }
        size_t end = filepages * (size_t)pg; /* first byte past the file: SIGBUS */
        for (size_t i = 0; i < end; i++) m[i] = pat(i, 9);
        static const size_t ns[] = {1, 7, 31, 64, 200, 257, 1000, 4096, 5000, 9000};
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
            for (size_t k = 0; k <= ns[j]; k += ns[j] < 300 ? 1 : 13) {
                size_t n = ns[j];
                if (k > end) break;
                if (end - k + n > len) continue; /* [p, p + n) inside the mapping */
                /* src side: the file from end - k */
                unsigned char *src = m + end - k;
                size_t r = fc_copy_checked(d, src, n);
                size_t want = k < n ? n - k : 0;
                if (r != want) FAIL("sigbus src: n %zu, %zu bytes before EOF: returned %zu, want %zu", n, k, r, want);
                else if (memcmp(d, src, n - r)) FAIL("sigbus src: n %zu, k %zu: bytes differ", n, k);
                /* dst side: into the file at end - k */
                for (size_t i = 0; i < n; i++) s[i] = pat(i, (unsigned)k);
                unsigned char *dst = m + end - k;
                r = fc_copy_checked(dst, s, n);
                if (r != want) FAIL("sigbus dst: n %zu, %zu bytes before EOF: returned %zu, want %zu", n, k, r, want);
                else if (memcmp(dst, s, n - r)) FAIL("sigbus dst: n %zu, k %zu: bytes differ", n, k);
                placements += 2;
            }
        munmap(m, len);
    }
    close(fd);
}

/* ---- threads -------------------------------------------------------------- */
enum { THREADS = 16, ROUNDS = 3000 };
static int shared_fd;
static unsigned char *shared_map;
static const size_t shared_sizes[2] = {3, 6}; /* pages: the file toggles between these */
static volatile int stop_truncating;

static void *truncator(void *arg)
{
    (void)arg;
    for (unsigned i = 0; !stop_truncating; i++) {
        if (ftruncate(shared_fd, (off_t)(shared_sizes[i & 1] * (size_t)pg))) abort();
        usleep(50);
    }
    return NULL;
}

static void *copier(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    /* an alternate signal stack for half of them: the handler runs there (SA_ONSTACK) */
    stack_t ss = {.ss_sp = NULL, .ss_size = 64 * 1024, .ss_flags = 0};
    if (id & 1) {
        ss.ss_sp = malloc(ss.ss_size);
        if (!ss.ss_sp || sigaltstack(&ss, NULL)) abort();
    }
    unsigned char *s = arena(2), *d = arena(2);
    unsigned char *buf = malloc(8 * (size_t)pg);
    unsigned x = id * 2654435761u + 1;
    for (unsigned round = 0; round < ROUNDS; round++) {
        x = x * 1103515245u + 12345u;
        size_t n = 1 + (x >> 8) % 3000, k = (x >> 3) % (n + 1);
        if (round & 1) {
            /* own guard page */
            unsigned char *src = s + 2 * (size_t)pg - k;
            for (size_t i = 0; i < k; i++) src[i] = pat(i, id);
            size_t r = fc_copy_checked(d, src, n < 2 * (size_t)pg ? n : 2 * (size_t)pg);
            size_t nn = n < 2 * (size_t)pg ? n : 2 * (size_t)pg;
            if (r != (k < nn ? nn - k : 0)) FAIL("thread %u: guard, n %zu k %zu: returned %zu", id, nn, k, r);
        } else {
            /* the shared file, whose size changes under the copy: the count
             * must match one of its two sizes, and the bytes the pattern */
            size_t off = (x >> 5) % (7 * (size_t)pg - n);
            size_t r = fc_copy_checked(buf, shared_map + off, n);
            /* below the smaller size every byte is always there; from the larger
             * one none is; between, the count depends on when the file shrank
             * (a byte that was gone when the copy reached it) */
            size_t lo = shared_sizes[0] * (size_t)pg, hi = shared_sizes[1] * (size_t)pg;
            size_t min_copied = off >= lo ? 0 : (lo - off < n ? lo - off : n);
            size_t max_copied = off >= hi ? 0 : (hi - off < n ? hi - off : n);
            if (r > n || n - r < min_copied || n - r > max_copied)
                FAIL("thread %u: shared file, off %zu n %zu: returned %zu (copied %zu..%zu allowed)", id, off, n, r,
                     min_copied, max_copied);
            /* re-extension brings zero pages back above the smaller size */
            for (size_t i = 0; i < n - r && r <= n; i++)
                if (buf[i] != pat(off + i, 77) && !(off + i >= lo && buf[i] == 0)) {
                    FAIL("thread %u: shared file, byte %zu differs", id, i);
                    break;
                }
        }
        __atomic_add_fetch(&placements, 1, __ATOMIC_RELAXED);
    }
    if (id & 1) {
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, NULL);
        free(ss.ss_sp);
    }
    free(buf);
    return NULL;
}

static void threads(void)
{
    shared_fd = memfd_create("fc-checked-shared", 0);
    size_t maxlen = 8 * (size_t)pg;
    if (shared_fd < 0 || ftruncate(shared_fd, (off_t)maxlen)) abort();
    shared_map = mmap(NULL, maxlen, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd, 0);
    if (shared_map == MAP_FAILED) abort();
    for (size_t i = 0; i < maxlen; i++) shared_map[i] = pat(i, 77);
    if (ftruncate(shared_fd, (off_t)(shared_sizes[1] * (size_t)pg))) abort();
    /* the pattern past the smaller size is rewritten on re-extension as zeros:
     * keep the copies' expectations simple by restoring it while the file is long */
    pthread_t tt, t[THREADS];
    if (pthread_create(&tt, NULL, truncator, NULL)) abort();
    for (unsigned i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, copier, (void *)(uintptr_t)i)) abort();
    for (unsigned i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    stop_truncating = 1;
    pthread_join(tt, NULL);
}

/* ---- chaining ------------------------------------------------------------- */
static volatile unsigned char *bad_page;
static sigjmp_buf jb;
static volatile int prev_calls, prev_siginfo_ok;

static void prev_siginfo(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    prev_calls++;
    prev_siginfo_ok = sig == SIGSEGV && si && si->si_addr == (void *)bad_page;
    siglongjmp(jb, 1);
}
static void prev_plain(int sig)
{
    prev_calls++;
    prev_siginfo_ok = sig == SIGSEGV;
    siglongjmp(jb, 1);
}
static void after_handler(int sig, siginfo_t *si, void *uc)
{
    if (fc_checked_handle_fault(sig, si, uc)) return;
    prev_calls++;
    prev_siginfo_ok = sig == SIGSEGV && si->si_addr == (void *)bad_page;
    siglongjmp(jb, 1);
}

/* a few exact checked copies: the copy's own faults never reach the program's handler */
static void some_checked_copies(void)
{
    unsigned char *s = arena(1), *d = arena(1);
    for (size_t n = 1; n < 600; n += 37) one(s, d, 1, n, n / 3, 0, 5), one(s, d, 1, n, n / 2, 1, 6), placements += 2;
}

static void touch_bad(void)
{
    if (!sigsetjmp(jb, 1)) {
        (void)*bad_page; /* a fault outside any checked copy */
        FAIL("reading a PROT_NONE page did not fault");
    }
}

static void chain(const char *how)
{
    bad_page = arena(1) - pg; /* the guard page below it */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    if (!strcmp(how, "siginfo")) {
        sa.sa_sigaction = prev_siginfo;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
    } else if (!strcmp(how, "plain")) {
        sa.sa_handler = prev_plain;
        sigaction(SIGSEGV, &sa, NULL);
    }
    some_checked_copies(); /* installs fastcopy's handler over the program's */
    if (!strcmp(how, "after")) {
        sa.sa_sigaction = after_handler;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
    }
    int before = prev_calls;
    touch_bad();
    if (prev_calls != before + 1 || !prev_siginfo_ok) FAIL("chain-%s: the program's handler was not reached as it should (%d calls)", how, prev_calls - before);
    some_checked_copies();
    if (prev_calls != before + 1) FAIL("chain-%s: the program's handler saw a checked copy's fault", how);
    touch_bad();
    if (prev_calls != before + 2) FAIL("chain-%s: second fault not passed on", how);
}

/* In a child: the disposition `how` before the first checked copy, then a fault outside it. */
static int die(const char *how, int sig)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5); /* alarms are not inherited: the child's own, should it loop */
        struct rlimit no_core = {0, 0}; /* no core files from the children */
        setrlimit(RLIMIT_CORE, &no_core);
        signal(sig, !strcmp(how, "ign") ? SIG_IGN : SIG_DFL);
        some_checked_copies();
        if (failures) _exit(3);
        if (sig == SIGBUS) {
            int fd = memfd_create("fc-die", 0);
            volatile unsigned char *m = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
            (void)m[0]; /* the file is empty: SIGBUS */
        } else {
            (void)*(volatile unsigned char *)(arena(1) - pg);
        }
        _exit(2); /* survived: wrong */
    }
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
    if (!WIFSIGNALED(st) || WTERMSIG(st) != sig) {
        FAIL("die-%s: the child %s %d, want killed by signal %d", how, WIFSIGNALED(st) ? "was killed by signal" : "exited with",
             WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), sig);
        return 1;
    }
    return 0;
}

/* ---- chaining as the kernel would deliver: SA_RESETHAND, SA_NODEFER,
 * sa_mask, asynchronous signals, blocked signals.  Each case runs in a forked
 * child whose handlers report through a pipe; the parent checks the report
 * and how the child ended. */
static int report_fd = -1;
static volatile int depth;

static void report(char c)
{
    if (write(report_fd, &c, 1) != 1) _exit(5);
}

static void count_and_return_si(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    report('h');
}
static void count_and_return(int sig)
{
    (void)sig;
    report('h');
}
/* faults itself: depth 1 without SA_NODEFER (the kernel kills), up to 3 with it */
static void refault(int sig)
{
    (void)sig;
    report('h');
    if (++depth >= 3) siglongjmp(jb, 1);
    (void)*bad_page;
}
/* what is blocked inside the handler: 'u' SIGUSR1, 's' SIGSEGV, '-' neither */
static void show_mask(int sig)
{
    (void)sig;
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    report('h');
    if (sigismember(&cur, SIGUSR1)) report('u');
    if (sigismember(&cur, SIGSEGV)) report('s');
    report('.');
    siglongjmp(jb, 1);
}

/* a child running fn; returns its status and what its handlers reported */
static int in_child(void (*fn)(const char *, int), const char *how, int sig, char *out, size_t size)
{
    int fds[2];
    if (pipe(fds)) abort();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        report_fd = fds[1];
        alarm(5); /* a child that loops is killed by SIGALRM: a failure */
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        bad_page = arena(1) - pg;
        fn(how, sig);
        _exit(failures ? 3 : 0);
    }
    close(fds[1]);
    size_t got = 0;
    for (ssize_t k; got < size - 1 && (k = read(fds[0], out + got, size - 1 - got)) > 0;) got += (size_t)k;
    out[got] = 0;
    close(fds[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
    return st;
}

static const char *status_text(int st)
{
    static char b[64];
    if (WIFSIGNALED(st)) snprintf(b, sizeof b, "killed by signal %d", WTERMSIG(st));
    else snprintf(b, sizeof b, "exit %d", WEXITSTATUS(st));
    return b;
}

static void fault_with(int sig)
{
    if (sig == SIGBUS) {
        int fd = memfd_create("fc-bus", 0);
        volatile unsigned char *m = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
        (void)m[0]; /* the file is empty: SIGBUS */
    } else {
        (void)*bad_page;
    }
}

static void resethand_child(const char *how, int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    if (!strcmp(how, "sysv")) {
        sysv_signal(sig, count_and_return); /* ISO C signal(): SA_RESETHAND | SA_NODEFER */
    } else {
        if (!strcmp(how, "siginfo")) sa.sa_sigaction = count_and_return_si, sa.sa_flags = SA_SIGINFO;
        else sa.sa_handler = count_and_return;
        sa.sa_flags |= SA_RESETHAND;
        sigaction(sig, &sa, NULL);
    }
    some_checked_copies();
    fault_with(sig); /* the handler returns: the fault re-runs into SIG_DFL */
    report('!');     /* survived */
}

static void resethand(const char *how, int sig)
{
    char out[64];
    int st = in_child(resethand_child, how, sig, out, sizeof out);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != sig || strcmp(out, "h"))
        FAIL("resethand %s: handler calls \"%.20s%s\" (%zu), child %s; want one call, then killed by signal %d", how, out,
             strlen(out) > 20 ? "..." : "", strlen(out), status_text(st), sig);
}

static void refault_child(const char *how, int sig)
{
    (void)sig;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = refault;
    sa.sa_flags = !strcmp(how, "nodefer") ? SA_NODEFER : 0;
    sigaction(SIGSEGV, &sa, NULL);
    some_checked_copies();
    if (!sigsetjmp(jb, 1)) (void)*bad_page;
    report('j'); /* jumped out at depth 3 */
}

static void refault_case(const char *how)
{
    char out[64];
    int st = in_child(refault_child, how, SIGSEGV, out, sizeof out);
    if (!strcmp(how, "nodefer")) {
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strcmp(out, "hhhj"))
            FAIL("refault-nodefer: reports \"%.20s\", child %s; want 3 nested calls and exit 0", out, status_text(st));
    } else if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV || strcmp(out, "h")) {
        FAIL("refault: handler calls \"%.20s%s\" (%zu), child %s; want one call, then killed by SIGSEGV", out,
             strlen(out) > 20 ? "..." : "", strlen(out), status_text(st));
    }
}

static void mask_child(const char *how, int sig)
{
    (void)sig;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sa.sa_handler = show_mask;
    sa.sa_flags = !strcmp(how, "nodefer") ? SA_NODEFER : 0;
    sigaction(SIGSEGV, &sa, NULL);
    some_checked_copies();
    if (!sigsetjmp(jb, 1)) (void)*bad_page;
    sigset_t cur; /* siglongjmp restored the mask sigsetjmp saved */
    sigprocmask(SIG_BLOCK, NULL, &cur);
    report(sigismember(&cur, SIGUSR1) || sigismember(&cur, SIGSEGV) ? 'B' : 'o');
}

static void sa_mask_case(void)
{
    char out[64];
    int st = in_child(mask_child, "", 0, out, sizeof out);
    if (!WIFEXITED(st) || WEXITSTATUS(st) || strcmp(out, "hus.o"))
        FAIL("sa-mask: reports \"%s\", child %s; want \"hus.o\" (SIGUSR1 and SIGSEGV blocked in the handler)", out,
             status_text(st));
    st = in_child(mask_child, "nodefer", 0, out, sizeof out);
    if (!WIFEXITED(st) || WEXITSTATUS(st) || strcmp(out, "hu.o"))
        FAIL("sa-mask with SA_NODEFER: reports \"%s\", child %s; want \"hu.o\" (SIGUSR1 blocked, SIGSEGV not)", out,
             status_text(st));
}

/* sig queued to this thread with si_code code, as the kernel's asynchronous
 * notices are (or a program's rt_tgsigqueueinfo to itself) */
static void queue_self(int sig, int code)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = sig;
    si.si_code = code;
    si.si_addr = (void *)bad_page;
    if (syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), (long)syscall(SYS_gettid), (long)sig, &si))
        FAIL("rt_tgsigqueueinfo: %s", strerror(errno));
}

/* a checked copy from a memfd mapping past the file's end: SIGBUS in the copy */
static void copy_truncated(void)
{
    int fd = memfd_create("fc-trunc", 0);
    if (fd < 0 || ftruncate(fd, pg)) abort();
    unsigned char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) abort();
    static unsigned char d[8192];
    size_t r = fc_copy_checked(d, m + pg - 100, 300);
    if (r != 200) FAIL("a copy over a file's end returned %zu, want 200", r);
}

static void async_child(const char *how, int sig)
{
    signal(sig, !strcmp(how, "ign") ? SIG_IGN : SIG_DFL);
    some_checked_copies();
    queue_self(sig, sig == SIGBUS ? BUS_MCEERR_AO : 8 /* SEGV_MTEAERR: AArch64's asynchronous tag-check fault */);
    report('s'); /* survived it */
    copy_truncated();
    report('c');
}

static void async_case(const char *how, int sig)
{
    char out[64];
    int st = in_child(async_child, how, sig, out, sizeof out);
    if (!strcmp(how, "ign")) {
        if (!WIFEXITED(st) || WEXITSTATUS(st) || strcmp(out, "sc"))
            FAIL("async-ign: reports \"%s\", child %s; want the notice ignored and the copy to survive", out,
                 status_text(st));
    } else if (!WIFSIGNALED(st) || WTERMSIG(st) != sig || out[0]) {
        FAIL("async-dfl: reports \"%s\", child %s; want killed by signal %d at once, as without fastcopy", out,
             status_text(st), sig);
    }
}

static void blocked_child(const char *how, int sig)
{
    (void)sig;
    sigset_t all;
    sigfillset(&all);
    if (!strcmp(how, "idiom")) sigdelset(&all, SIGSEGV), sigdelset(&all, SIGBUS);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    some_checked_copies();
    copy_truncated();
    report('c');
}

static void blocked_case(const char *how)
{
    char out[64];
    int st = in_child(blocked_child, how, 0, out, sizeof out);
    if (!strcmp(how, "idiom")) {
        if (!WIFEXITED(st) || WEXITSTATUS(st) || strcmp(out, "c"))
            FAIL("blocked-idiom: reports \"%s\", child %s; want every copy to survive", out, status_text(st));
    } else if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV || out[0]) {
        FAIL("blocked: reports \"%s\", child %s; want killed by SIGSEGV in its first faulting copy (the kernel's "
             "rule for a blocked fault signal, as documented)",
             out, status_text(st));
    }
}


/* Nothing installed by the program: a fault outside the copy meets the
 * disposition the process started with - the default action, or under
 * AddressSanitizer ASan's own handler, which reports it and exits 1. */
static void chain_default(void)
{
    int fds[2];
    if (pipe(fds)) abort();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(5);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fds[1], 2);
        some_checked_copies();
        if (failures) _exit(3);
        (void)*(volatile unsigned char *)(arena(1) - pg);
        _exit(2);
    }
    close(fds[1]);
    char buf[8192];
    size_t got = 0;
    for (ssize_t k; got < sizeof buf - 1 && (k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0;) got += (size_t)k;
    buf[got] = 0;
    close(fds[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
#ifdef FC_ASAN
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || !strstr(buf, "AddressSanitizer: SEGV"))
        FAIL("chain-default under ASan: status %#x, want exit 1 with ASan's SEGV report; stderr: %.300s", st, buf);
#else
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
        FAIL("chain-default: status %#x, want killed by SIGSEGV; stderr: %.300s", st, buf);
#endif
}

static void ignore_sent(void)
{
    signal(SIGSEGV, SIG_IGN);
    some_checked_copies();
    kill(getpid(), SIGSEGV); /* sent, not a fault: stays ignored */
    some_checked_copies();
}

int main(int argc, char **argv)
{
    pg = sysconf(_SC_PAGESIZE);
    const char *what = argc > 1 ? argv[1] : "exact";
    /* a healthy run: exact ~10 s (minutes under sanitizers), threads ~1 s, the rest < 0.1 s */
    fc_fail_after(!strcmp(what, "exact") ? 600 : !strcmp(what, "threads") ? 60 : 10,
                  "a fault that nobody resolves re-runs forever");
    if (!strcmp(what, "exact"))
        exact(argc > 2 && !strcmp(argv[2], "quick"));
    else if (!strcmp(what, "sigbus"))
        sigbus();
    else if (!strcmp(what, "threads"))
        threads();
    else if (!strcmp(what, "chain-default"))
        chain_default();
    else if (!strncmp(what, "chain-", 6))
        chain(what + 6);
    else if (!strcmp(what, "die-dfl"))
        die("dfl", argc > 2 && !strcmp(argv[2], "BUS") ? SIGBUS : SIGSEGV);
    else if (!strcmp(what, "die-ign"))
        die("ign", SIGSEGV);
    else if (!strcmp(what, "ignore-sent"))
        ignore_sent();
    else if (!strcmp(what, "resethand") && argc > 3)
        resethand(argv[2], !strcmp(argv[3], "BUS") ? SIGBUS : SIGSEGV);
    else if (!strcmp(what, "refault"))
        refault_case("");
    else if (!strcmp(what, "refault-nodefer"))
        refault_case("nodefer");
    else if (!strcmp(what, "sa-mask"))
        sa_mask_case();
    else if (!strcmp(what, "async-dfl"))
        async_case("dfl", argc > 2 && !strcmp(argv[2], "BUS") ? SIGBUS : SIGSEGV);
    else if (!strcmp(what, "async-ign"))
        async_case("ign", SIGBUS);
    else if (!strcmp(what, "blocked"))
        blocked_case("");
    else if (!strcmp(what, "blocked-idiom"))
        blocked_case("idiom");
    else {
        fprintf(stderr, "test_checked: unknown mode %s\n", what);
        return 2;
    }
    printf("test_checked %s: %lu placements, %lu failures (fc_active %s)\n", what, placements, failures, fc_active());
    return failures ? 1 : 0;
}
#endif
