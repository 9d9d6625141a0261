/*
 * fail.h - the standalone tests' failure report (test_checked, test_preload):
 * "FAIL: ..." on stderr (the first 20; prove-rig greps for the prefix), and a
 * count the test's exit status comes from.
 */
#ifndef FC_TESTS_FAIL_H
#define FC_TESTS_FAIL_H
#include <stdio.h>

static unsigned long failures;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20) {                                                                                         \
            fprintf(stderr, "FAIL: ");                                                                                 \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

#endif
