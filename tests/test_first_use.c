/*
 * test_first_use - the first fc_copy_checked (which installs the signal
 * handlers) and the first x86-64 CPU/profile decision must never wait for
 * another caller: not for a signal handler that interrupts them in their own
 * thread and copies, nor in a child forked while another thread is inside
 * them.  Built against the test-hook library (FC_TEST_HOOKS), whose hooks run
 * in the middle of each, so every case below hits the window every time; the
 * -stress cases hit it by chance, without hooks, as a program would.
 *
 *   test_first_use checked-signal   SIGUSR1 raised inside the installation; its
 *                                   handler makes a faulting checked copy; then
 *                                   a fault outside a copy must meet SIG_DFL
 *   test_first_use checked-fork     another thread inside the installation
 *                                   while this one forks; the child copies
 *                                   (faulting), then faults outside a copy
 *                                   and must die of SIGSEGV (chaining intact)
 *   test_first_use x86-signal       the same two for the x86-64 decision
 *   test_first_use x86-fork         (fc__x86_status): 77 elsewhere
 *   test_first_use checked-signal-stress N   N processes: SIGUSR1 sent in a
 *                                   loop during the first copy, whose handler
 *                                   copies too
 *   test_first_use checked-fork-stress N     N processes: a fork while another
 *                                   thread makes the first copy
 * A case that hangs is killed by alarm(): the parent counts it as a failure.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"
#if defined(__x86_64__)
#include "cpu/x86.h"
#endif

#ifndef FC_HAVE_COPY_CHECKED
int main(void)
{
    puts("test_first_use: fc_copy_checked is not built for this target");
    return 77;
}
#else

#include "fail.h"


extern void (*fc__checked_test_hook)(void); /* src/checked/checked.c, FC_TEST_HOOKS */

static long pg;
static unsigned char *src_end; /* the last 100 bytes before a PROT_NONE page */
static unsigned char dst[4096];

static void setup(void)
{
    pg = sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + pg, (size_t)pg, PROT_NONE)) abort();
    for (long i = 0; i < pg; i++) m[i] = (unsigned char)(i * 7 + 1);
    src_end = m + pg - 100;
}

/* a copy that faults after 100 bytes: 1 if exact (async-signal-safe) */
static int faulting_copy_ok(void)
{
    size_t r = fc_copy_checked(dst, src_end, 300);
    if (r != 200) return 0;
    for (int i = 0; i < 100; i++)
        if (dst[i] != src_end[i]) return 0;
    return 1;
}

/* ---- a signal handler inside the first use, in the same thread ---------- */
static volatile sig_atomic_t handler_ran, handler_ok;
static void usr1(int sig)
{
    (void)sig;
    handler_ran++;
    if (faulting_copy_ok()) handler_ok++;
#if defined(__x86_64__)
    if (!fc__x86_status()->signature[0]) handler_ok = -1000;
#endif
}
static volatile int hook_raised;
static void raise_once(void)
{
    if (!hook_raised++) raise(SIGUSR1);
}

static void expect_handler(const char *what)
{
    if (handler_ran != 1 || handler_ok != 1)
        FAIL("%s: the handler ran %d time(s), %d exact copies; want 1 and 1", what, (int)handler_ran, (int)handler_ok);
}

/* a fault outside any copy, in a child: the disposition before the first
 * copy (SIG_DFL) must kill it with SIGSEGV (ASan's: report, exit 1) */
static void chaining_intact(const char *what)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL);
        alarm(5);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        (void)*(volatile unsigned char *)(src_end + 100);
        _exit(2);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
#ifdef FC_ASAN
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 1;
#else
    int ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
#endif
    if (!ok) FAIL("%s: a fault outside the copy: status %#x, want the disposition from before", what, st);
}

static void checked_signal(void)
{
    signal(SIGUSR1, usr1);
    fc__checked_test_hook = raise_once;
    if (!faulting_copy_ok()) FAIL("checked-signal: the first copy was not exact");
    if (!hook_raised) FAIL("checked-signal: the hook did not run (no installation?)");
    expect_handler("checked-signal");
    chaining_intact("checked-signal");
}

#if defined(__x86_64__)
static void x86_signal(void)
{
    signal(SIGUSR1, usr1);
    fc__x86_test_reset();
    fc__x86_test_hook = raise_once;
    const struct fc_x86_status *st = fc__x86_status();
    if (!hook_raised) FAIL("x86-signal: the hook did not run");
    if (!st->signature[0]) FAIL("x86-signal: no decision published");
    expect_handler("x86-signal");
}
#endif

/* ---- a fork while another thread is inside the first use ----------------- */
static int to_main[2], to_thread[2];
static void wait_for_fork(void)
{
    char c = 'i';
    if (write(to_main[1], &c, 1) != 1 || read(to_thread[0], &c, 1) != 1) abort();
}
static void *first_checked(void *arg)
{
    (void)arg;
    if (!faulting_copy_ok()) FAIL("the other thread's first copy was not exact");
    return NULL;
}
#if defined(__x86_64__)
static void *first_decision(void *arg)
{
    (void)arg;
    if (!fc__x86_status()->signature[0]) FAIL("the other thread's decision is empty");
    return NULL;
}
#endif

/* the child: a faulting copy, then (checked) a fault outside any copy, which
 * the disposition before (SIG_DFL) must turn into death by SIGSEGV (under
 * ASan: its report and exit 1) */
static int forked_while(void *(*fn)(void *), void (**hook)(void), const char *what, int checked)
{
    if (pipe(to_main) || pipe(to_thread)) abort();
    *hook = wait_for_fork;
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL)) abort();
    char c;
    if (read(to_main[0], &c, 1) != 1) abort(); /* the thread is inside now */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL); /* a hang dies of SIGALRM */
        alarm(5);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        *hook = NULL;
#if defined(__x86_64__)
        if (!checked && !fc__x86_status()->signature[0]) _exit(4);
#endif
        if (!faulting_copy_ok()) _exit(3);
        if (!checked) _exit(0);
        (void)*(volatile unsigned char *)(src_end + 100);
        _exit(2);
    }
    if (write(to_thread[1], "g", 1) != 1) abort();
    pthread_join(t, NULL);
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
    int want_sig = checked ? SIGSEGV : 0, want_exit = 0;
#ifdef FC_ASAN
    if (checked) want_sig = 0, want_exit = 1;
#endif
    if (want_sig ? !WIFSIGNALED(st) || WTERMSIG(st) != want_sig : !WIFEXITED(st) || WEXITSTATUS(st) != want_exit) {
        FAIL("%s: the child %s %d; want %s", what, WIFSIGNALED(st) ? "was killed by signal" : "exited with",
             WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
             checked ? "an exact copy, then death by SIGSEGV" : "exit 0 (SIGALRM 14: it hung)");
        return 1;
    }
    return 0;
}

/* ---- by chance, without hooks ---------------------------------------------- */
static void spin(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++) {
    }
}

static volatile int stop_sending;
static pthread_t main_thread;
static void *sender(void *arg)
{
    (void)arg;
    while (!stop_sending) pthread_kill(main_thread, SIGUSR1);
    return NULL;
}

/* one process per trial: it must finish (not hang) with exact copies */
static int trial_signal(unsigned seed)
{
    signal(SIGUSR1, usr1);
    main_thread = pthread_self();
    pthread_t t;
    if (pthread_create(&t, NULL, sender, NULL)) abort();
    spin(seed % 20000);
    int ok = faulting_copy_ok();
    stop_sending = 1;
    pthread_join(t, NULL);
    return ok && handler_ok == handler_ran ? 0 : 3;
}

static int trial_fork(unsigned seed)
{
    pthread_t t;
    if (pthread_create(&t, NULL, first_checked, NULL)) abort();
    spin(seed % 20000);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL); /* a hang dies of SIGALRM */
        alarm(5);
        _exit(faulting_copy_ok() ? 0 : 3);
    }
    pthread_join(t, NULL);
    int st;
    if (waitpid(pid, &st, 0) != pid) abort();
    return WIFEXITED(st) ? WEXITSTATUS(st) : 10 + WTERMSIG(st);
}

static void stress(const char *what, int (*trial)(unsigned), unsigned n)
{
    unsigned hung = 0, bad = 0;
    for (unsigned i = 0; i < n; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGALRM, SIG_DFL); /* a hang dies of SIGALRM */
        alarm(5);
            _exit(trial(i * 2654435761u));
        }
        int st;
        if (waitpid(pid, &st, 0) != pid) abort();
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) hung++;
        else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
            if (bad < 3) printf("  trial %u: status %#x\n", i, st);
            bad++;
        }
        /* a trial whose forked child hung reports 10 + SIGALRM */
        if (WIFEXITED(st) && WEXITSTATUS(st) == 10 + SIGALRM) hung++, bad--;
    }
    printf("%s: %u trials, %u hung, %u wrong\n", what, n, hung, bad);
    if (hung || bad) FAIL("%s: %u of %u trials hung, %u went wrong", what, hung, n, bad);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200;
    setup();
    fc_fail_after(strstr(what, "stress") ? 600 : 20, "a first use waiting for itself");
    if (!strcmp(what, "checked-signal")) {
        checked_signal();
    } else if (!strcmp(what, "checked-fork")) {
        forked_while(first_checked, &fc__checked_test_hook, what, 1);
    } else if (!strcmp(what, "x86-signal") || !strcmp(what, "x86-fork")) {
#if defined(__x86_64__)
        if (!strcmp(what, "x86-signal")) {
            x86_signal();
        } else {
            fc__x86_test_reset();
            forked_while(first_decision, &fc__x86_test_hook, what, 0);
        }
#else
        puts("test_first_use: the x86-64 decision only");
        return 77;
#endif
    } else if (!strcmp(what, "checked-signal-stress")) {
        stress(what, trial_signal, n);
    } else if (!strcmp(what, "checked-fork-stress")) {
        stress(what, trial_fork, n);
    } else {
        fprintf(stderr, "test_first_use: unknown case %s\n", what);
        return 2;
    }
    printf("test_first_use %s: %lu failures\n", what, failures);
    return failures ? 1 : 0;
}
#endif
