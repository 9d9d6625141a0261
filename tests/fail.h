/*
 * fail.h - the standalone tests' failure report (test_checked, test_preload):
 * "FAIL: ..." on stderr (the first 20; prove-rig greps for the prefix), and a
 * count the test's exit status comes from; fc_fail_after, the alarm that
 * turns a hang into a FAIL; FC_ASAN, defined under AddressSanitizer (whose
 * SIGSEGV handler is then the disposition a program starts with).
 */
#ifndef FC_TESTS_FAIL_H
#define FC_TESTS_FAIL_H
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long failures;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20) {                                                                                         \
            fprintf(stderr, "FAIL: ");                                                                                 \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)


#if defined(__SANITIZE_ADDRESS__)
#define FC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FC_ASAN 1
#endif
#endif

/* alarm(seconds): a test still running then prints "FAIL: timed out (why)"
 * and exits 1 (forked children inherit it: set SIGALRM to SIG_DFL in one
 * whose hang the parent must see as death by SIGALRM) */
static inline const char **fc_timeout_why(void)
{
    static const char *why;
    return &why;
}
static inline void fc_timed_out(int sig)
{
    (void)sig;
    const char *why = *fc_timeout_why();
    static const char a[] = "FAIL: timed out (", b[] = ")\n";
    if (write(2, a, sizeof a - 1) < 0 || write(2, why, strlen(why)) < 0 || write(2, b, sizeof b - 1) < 0) _exit(1);
    _exit(1);
}
static inline void fc_fail_after(unsigned seconds, const char *why)
{
    *fc_timeout_why() = why;
    signal(SIGALRM, fc_timed_out);
    alarm(seconds);
}
#endif
