/*
 * record_target - a program with a known set of copy calls, run under
 * `fcbench record` by tests/record_test.sh, which checks the counts:
 *
 *   main thread   1000 memcpy of 17 B, src % 64 = 3, dst % 64 = 5
 *                 10 memmove of 5000 B with dst = src + 1 (overlap)
 *                 3 __memcpy_chk of 8 B
 *   2 threads     500 mempcpy of 100 B each
 *   forked child  7 bcopy of 33 B, then exit(0): a second process
 *
 * It exits with status 3, which fcbench record must pass on.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);

static _Alignas(64) unsigned char a[16384], b[16384];
static volatile size_t vn;

static void *worker(void *arg)
{
    unsigned char *buf = malloc(256), *src = malloc(256);
    for (int i = 0; i < 500; i++) {
        vn = 100;
        mempcpy(buf, src, vn);
    }
    free(buf);
    free(src);
    return arg;
}

int main(void)
{
    for (int i = 0; i < 1000; i++) {
        vn = 17;
        memcpy(a + 5, b + 3, vn);
    }
    for (int i = 0; i < 10; i++) {
        vn = 5000;
        memmove(a + 1001, a + 1000, vn);
    }
    for (int i = 0; i < 3; i++) {
        vn = 8;
        __memcpy_chk(a, b, vn, sizeof a);
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 7; i++) {
            vn = 33;
            bcopy(b, a, vn);
        }
        exit(0);
    }
    waitpid(pid, NULL, 0);
    return 3;
}
