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

/* The first value whose cumulative probability exceeds u. */
static size_t draw(const double *cdf, size_t n, double u)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cdf[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* PATH.align.csv beside a recorded PATH.csv (fcbench record): two lines of 64
 * probabilities, src and dst mod 64; 1 if read. */
static int load_align(const char *csv_path, double *scdf, double *dcdf)
{
    char path[4200];
    size_t len = strlen(csv_path);
    if (len < 4 || strcmp(csv_path + len - 4, ".csv") || len > 4096) return 0;
    snprintf(path, sizeof path, "%.*s.align.csv", (int)(len - 4), csv_path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = 1;
    for (int line = 0; line < 2 && ok; line++) {
        double *cdf = line ? dcdf : scdf, sum = 0, p;
        for (int i = 0; i < 64 && ok; i++) {
            ok = fscanf(f, " %lf", &p) == 1 && p >= 0;
            sum += p;
            cdf[i] = sum;
            if (ok && i < 63) ok = fgetc(f) == ',';
        }
        if (ok && sum > 0)
            for (int i = 0; i < 64; i++) cdf[i] /= sum;
        ok = ok && sum > 0;
    }
    fclose(f);
    return ok;
}

/* name: one of the shipped distributions (read from fcbench_dist_dir()), or a
 * path to a distribution file (it contains a '/'; fcbench dist --file) */
int fcbench_dist_batch(const char *name, unsigned seed_no, struct bench_batch *b)
{
    static double cdf[FCBENCH_DIST_MAXSIZE + 1], scdf[64], dcdf[64];
    char path[4200];
    if (strchr(name, '/'))
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s.csv", fcbench_dist_dir(), name);
    size_t sizes = load_cdf(path, cdf);
    if (!sizes) {
        fprintf(stderr, "fcbench: cannot read %s (set FCBENCH_DIST_DIR)\n", path);
        return 0;
    }
    /* offsets: uniform over 0..63, or a recording's own mix */
    int aligned = strchr(name, '/') && load_align(path, scdf, dcdf);
    b->align_recorded = aligned;
    uint64_t seed = 0x9e3779b97f4a7c15ull + seed_no;
    b->bytes = 0;
    for (size_t i = 0; i < b->len; i++) {
        size_t n = draw(cdf, sizes, (double)(xs(&seed) >> 11) / 9007199254740992.0);
        b->n[i] = (uint32_t)n;
        if (aligned) {
            b->soff[i] = (uint8_t)draw(scdf, 64, (double)(xs(&seed) >> 11) / 9007199254740992.0);
            b->doff[i] = (uint8_t)draw(dcdf, 64, (double)(xs(&seed) >> 11) / 9007199254740992.0);
        } else {
            b->soff[i] = (uint8_t)(xs(&seed) & 63);
            b->doff[i] = (uint8_t)(xs(&seed) & 63);
        }
        b->bytes += (double)n;
    }
    return 1;
}
