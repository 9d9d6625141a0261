/* Times three builds of fc_memcpy_inline side by side in one process: old,
 * new, and old2 (old compiled again: the A/A pair).  Per size, 15 rounds of
 * 2,000,000 calls each, the three interleaved in every round; prints old's
 * median ns per call, and the medians of new/old and old2/old.  dst = BUF +
 * DOFF + (i & DM), src = BUF + (i & SM): env DOFF, DM, SM (defaults 17728,
 * 63, 127).  "1..256 rnd": the variable-n function on sizes 1..256 drawn with
 * rand() (seed 1).  fc_memcpy is a stub: no size above 256 is timed. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <time.h>
void *fc_memcpy(void *d, const void *s, size_t n) { (void)s; (void)n; return d; }
#define DECL(V) void V##_var(unsigned char *, const unsigned char *, size_t); \
  void V##_c8(unsigned char *, const unsigned char *); void V##_c16(unsigned char *, const unsigned char *); \
  void V##_c24(unsigned char *, const unsigned char *); void V##_c33(unsigned char *, const unsigned char *); \
  void V##_c40(unsigned char *, const unsigned char *); void V##_c48(unsigned char *, const unsigned char *); \
  void V##_c64(unsigned char *, const unsigned char *); void V##_c100(unsigned char *, const unsigned char *); \
  void V##_c128(unsigned char *, const unsigned char *); void V##_c200(unsigned char *, const unsigned char *); \
  void V##_c256(unsigned char *, const unsigned char *);
DECL(old) DECL(new) DECL(old2)
typedef void (*cfn)(unsigned char *, const unsigned char *);
typedef void (*vfn)(unsigned char *, const unsigned char *, size_t);
static unsigned char BUF[65536] __attribute__((aligned(4096))); static unsigned char *S = BUF, *D; static size_t DOFF, DM = 63, SM = 127;
static size_t sizes[4096];
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
#define ITER 2000000
static double tc(cfn f) { double t = now(); for (int i = 0; i < ITER; i++) f(D + (i & DM), S + (i & SM)); return (now() - t) / ITER; }
static double tv(vfn f) { double t = now(); for (int i = 0; i < ITER; i++) f(D + (i & DM), S + (i & SM), sizes[i & 4095]); return (now() - t) / ITER; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double med(double *v, int n) { qsort(v, n, sizeof *v, cmpd); return v[n / 2]; }
int main(void)
{
    DOFF = getenv("DOFF") ? strtoul(getenv("DOFF"), 0, 0) : 16384 + 1344; D = BUF + DOFF; if (getenv("DM")) DM = strtoul(getenv("DM"), 0, 0); if (getenv("SM")) SM = strtoul(getenv("SM"), 0, 0); srand(1);
    for (int i = 0; i < 4096; i++) sizes[i] = 1 + (size_t)(rand() % 256);
    cfn o[] = {old_c8, old_c16, old_c24, old_c33, old_c40, old_c48, old_c64, old_c100, old_c128, old_c200, old_c256};
    cfn o2[] = {old2_c8, old2_c16, old2_c24, old2_c33, old2_c40, old2_c48, old2_c64, old2_c100, old2_c128, old2_c200, old2_c256};
    cfn w[] = {new_c8, new_c16, new_c24, new_c33, new_c40, new_c48, new_c64, new_c100, new_c128, new_c200, new_c256};
    int ns[] = {8, 16, 24, 33, 40, 48, 64, 100, 128, 200, 256};
    enum { R = 15 };
    printf("%-10s %8s %8s %8s   %s\n", "n", "old ns", "new/old", "old2/old", "(medians of 15 rounds, A/A = old2)");
    for (int k = 0; k < 12; k++) {
        double a[R], b[R], c[R], ra[R], rc[R];
        for (int r = 0; r < R; r++) {
            if (k < 11) { a[r] = tc(o[k]); b[r] = tc(w[k]); c[r] = tc(o2[k]); }
            else { a[r] = tv(old_var); b[r] = tv(new_var); c[r] = tv(old2_var); }
            ra[r] = b[r] / a[r]; rc[r] = c[r] / a[r];
        }
        char name[16];
        if (k < 11) snprintf(name, sizeof name, "%d", ns[k]); else snprintf(name, sizeof name, "1..256 rnd");
        printf("%-10s %8.2f %8.3f %8.3f\n", name, med(a, R), med(ra, R), med(rc, R));
    }
    return 0;
}
