/*
 * A static program whose own ifunc resolver calls every available fastcopy
 * entry (memcpy and memmove, 0..64 bytes, every src/dst offset 0..7) - as
 * libc start-up code or another library's resolver may copy memory before
 * thread-local storage exists (glibc applies a static program's IRELATIVE
 * relocations before it sets up TLS).  The resolver can use no libc at all:
 * its checks are plain loops, and this file is built without the stack
 * protector (whose canary lives in TLS) and without builtins.  main() reports.
 */
#include <stddef.h>
#include <stdio.h>

#include "fastcopy.h"

static unsigned char src[128], dst[160];
static unsigned long long early_cases;
static int early_bad, early_ran;
static const char *early_bad_name;
static size_t early_bad_n;

static void early_fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 29 + seed);
}

/* dst[0..160) after copying n bytes from src + so to dst + 16 + dof (memcpy)
 * or within dst (memmove by +-3), against the expected bytes */
static int early_one(const struct fc_impl *im, int move, size_t n, size_t so, size_t dof)
{
    unsigned char want[160];
    early_fill(dst, sizeof dst, 3);
    early_fill(want, sizeof want, 3);
    if (!move) {
        early_fill(src, sizeof src, 11);
        for (size_t i = 0; i < n; i++) want[16 + dof + i] = src[so + i];
        if (im->memcpy(dst + 16 + dof, src + so, n) != dst + 16 + dof) return 1;
    } else {
        size_t from = 16 + so, to = 16 + dof + (so & 1 ? 3 : 0);
        unsigned char tmp[64];
        for (size_t i = 0; i < n; i++) tmp[i] = want[from + i];
        for (size_t i = 0; i < n; i++) want[to + i] = tmp[i];
        if (im->memmove(dst + to, dst + from, n) != dst + to) return 1;
    }
    for (size_t i = 0; i < sizeof dst; i++)
        if (dst[i] != want[i]) return 1;
    return 0;
}

static void early_target(void) {}

__attribute__((used)) static void (*early_resolve(void))(void)
{
    early_ran = 1;
    for (size_t k = 0; k < fc_impl_count(); k++) {
        const struct fc_impl *im = fc_impl_at(k);
        if (!im->available) continue;
        for (size_t n = 0; n <= 64; n++)
            for (size_t so = 0; so < 8; so++)
                for (size_t dof = 0; dof < 8; dof++)
                    for (int move = 0; move < 2; move++) {
                        early_cases++;
                        if (early_one(im, move, n, so, dof) && !early_bad++) {
                            early_bad_name = im->name;
                            early_bad_n = n;
                        }
                    }
    }
    return early_target;
}

void early_probe(void) __attribute__((ifunc("early_resolve")));

int main(void)
{
    early_probe();
    if (!early_ran) {
        printf("FAIL: the ifunc resolver did not run\n");
        return 1;
    }
    if (early_bad) {
        printf("FAIL: %d wrong copies in the resolver (first: %s, n = %zu)\n", early_bad, early_bad_name, early_bad_n);
        return 1;
    }
    printf("ifunc-early: %llu copies by every available entry inside an ifunc resolver, all right\n", early_cases);
    return 0;
}
