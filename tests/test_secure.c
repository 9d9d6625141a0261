/*
 * test_secure.c - the library's secure-execution test (fc__secure,
 * src/dispatch/early.c) where it cannot read the auxiliary vector, through a
 * hooks build: FASTCOPY_TEST_AUXV names the image fc__auxv reads instead of
 * /proc/self/auxv (a missing file: the auxv cannot be read, as in a process
 * with raised credentials that is not root), fc__secure_reset() forgets the
 * cached answer, and prctl(PR_SET_DUMPABLE) stands in for what the kernel
 * does at such an exec.  The real case (a file-capability binary run by an
 * ordinary user) is tests/check_filecaps.sh.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "internal.h"

static int failures;

static void expect(const char *what, int want)
{
    fc__secure_reset();
    int got = fc__secure() != 0;
    printf("%s: %s (secure %d)\n", got == want ? "ok" : "FAIL", what, got);
    if (got != want) failures++;
}

int main(int argc, char **argv)
{
    (void)argc;
    if (getuid() != geteuid() || getgid() != getegid()) {
        printf("skipped: run with real and effective ids equal\n");
        return 77;
    }
    char img[4096];
    snprintf(img, sizeof img, "%s.auxv", argv[0]);
    unlink(img);
    setenv("FASTCOPY_TEST_AUXV", img, 1); /* missing: the auxv cannot be read */
    expect("no auxv, ids equal, dumpable", 0);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return perror("prctl"), 1;
    expect("no auxv, not dumpable (raised credentials)", 1);
    /* an auxv that says AT_SECURE 0 is believed over dumpable */
    unsigned long v[2][2] = {{23 /* AT_SECURE */, 0}, {0 /* AT_NULL */, 0}};
    FILE *f = fopen(img, "wb");
    if (!f || fwrite(v, sizeof v, 1, f) != 1 || fclose(f) != 0) return perror(img), 1;
    expect("auxv AT_SECURE 0, not dumpable", 0);
    v[0][1] = 1;
    f = fopen(img, "wb");
    if (!f || fwrite(v, sizeof v, 1, f) != 1 || fclose(f) != 0) return perror(img), 1;
    expect("auxv AT_SECURE 1", 1);
    unlink(img);
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return perror("prctl"), 1;
    expect("no auxv, dumpable again", 0);
    return failures ? 1 : 0;
}
