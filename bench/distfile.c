/*
 * Real memcpy size distributions (llvm-libc format: one line of
 * comma-separated probabilities, value i = P(size == i), i = 0..4096) made
 * into batches of calls: fcbench dist and fastcopy-tune.  Six Google fleet
 * distributions ship in bench/distributions (license note there);
 * FCBENCH_DIST_DIR points elsewhere.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const fcbench_dists[FCBENCH_NDISTS] = {"MemcpyGoogleA", "MemcpyGoogleB", "MemcpyGoogleD",
                                                   "MemcpyGoogleL", "MemcpyGoogleM", "MemcpyGoogleW"};

/* Reads a distribution into a cumulative table; returns the number of sizes, 0 on error. */
static size_t load_cdf(const char *path, double *cdf)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t k = 0;
    double sum = 0, p;
    while (k <= FCBENCH_DIST_MAXSIZE && fscanf(f, "%lf", &p) == 1) {
        sum += p;
        cdf[k++] = sum;
        int c = fgetc(f);
        if (c != ',') break;
    }
    fclose(f);
    if (!k || sum <= 0) return 0;
    for (size_t i = 0; i < k; i++) cdf[i] /= sum;
    return k;
}

static uint64_t xs(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* FCBENCH_DIST_DIR, else the source tree's copy, else the installed one. */
const char *fcbench_dist_dir(void)
{
    const char *e = getenv("FCBENCH_DIST_DIR");
    if (e && *e) return e;
    return access(FCBENCH_DIST_SRC "/MemcpyGoogleA.csv", R_OK) == 0 ? FCBENCH_DIST_SRC : FCBENCH_DIST_INSTALLED;
}

int fcbench_dist_batch(const char *name, unsigned seed_no, struct bench_batch *b)
{
    static double cdf[FCBENCH_DIST_MAXSIZE + 1];
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", fcbench_dist_dir(), name);
    size_t sizes = load_cdf(path, cdf);
    if (!sizes) {
        fprintf(stderr, "fcbench: cannot read %s (set FCBENCH_DIST_DIR)\n", path);
        return 0;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull + seed_no;
    b->bytes = 0;
    for (size_t i = 0; i < b->len; i++) {
        double u = (double)(xs(&seed) >> 11) / 9007199254740992.0;
        size_t lo = 0, hi = sizes - 1; /* first size whose cumulative probability exceeds u */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cdf[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        b->n[i] = (uint32_t)lo;
        b->soff[i] = (uint8_t)(xs(&seed) & 63);
        b->doff[i] = (uint8_t)(xs(&seed) & 63);
        b->bytes += (double)lo;
    }
    return 1;
}
