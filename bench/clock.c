/* The clock every measurement reads, and its resolution (fcbench's engine:
 * used by measure.c, machine.c and the scenarios alike). */
#include "bench.h"

#include <time.h>

double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

double timer_resolution_ns(void)
{
    /* Measured once, not the advertised clock_getres: the smallest nonzero step. */
    static double best;
    if (best > 0) return best;
    best = 1e9;
    for (int i = 0; i < 1000; i++) {
        double a = now_ns(), b;
        while ((b = now_ns()) == a) {
        }
        if (b - a < best) best = b - a;
    }
    return best;
}
