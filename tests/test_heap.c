/*
 * Exact-size heap buffers: src and dst are malloc'ed with exactly the bytes
 * the copy may touch (offset + n), for every function under test, n = 0..300
 * and a few larger sizes, src and dst offsets 0..15 (every mutual alignment
 * of words up to 16 bytes), memcpy between two blocks and memmove inside one.
 * The grids use guard-paged mmap arenas, which no sanitizer tags or poisons
 * byte by byte: here AddressSanitizer (the sanitize target) reports any
 * access outside a block in the instrumented routines, and HWASan (the
 * aarch64-hwasan target) any access into a neighbouring granule of another
 * tag - where generic's shifted copy reads whole aligned words by design and
 * must be exempt.  Without a sanitizer it is one more exact-contents check.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 64

static const size_t big[] = {511, 512, 1000, 1024, 2047, 4095, 4096, 4097, 8191, 65543};

int main(int argc, char **argv)
{
    install_crash_handler();
    struct fn_under_test fns[MAXF];
    size_t nf = collect_functions(argc, argv, fns, MAXF);
    cur.suite = "heap";
    unsigned long long total = 0;
    size_t nsizes = 301 + sizeof big / sizeof big[0];
    unsigned char *want = malloc(65543 + 64);
    if (!want) fail("malloc");
    for (size_t f = 0; f < nf; f++) {
        cur.fn = fns[f].label;
        unsigned long long cases = 0;
        for (size_t k = 0; k < nsizes; k++) {
            size_t n = k < 301 ? k : big[k - 301];
            cur.n = (long long)n;
            for (size_t so = 0; so < 16; so++)
                for (size_t dof = 0; dof < 16; dof++) {
                    if (n > 300 && (so * 16 + dof) % 7) continue; /* 37 of 256 offset pairs above 300 */
                    cur.src_off = (long long)so;
                    cur.dst_off = (long long)dof;
                    if (!fns[f].is_memmove) {
                        cur.placement = "two exact blocks";
                        /* one block each, of so + n and dof + n bytes (1 for 0) */
                        unsigned char *s = malloc(so + n ? so + n : 1), *d = malloc(dof + n ? dof + n : 1);
                        if (!s || !d) fail("malloc");
                        for (size_t i = 0; i < so + n; i++) s[i] = (unsigned char)(i * 7 + n);
                        for (size_t i = 0; i < dof + n; i++) d[i] = 0xA5;
                        if (call_under_test(&fns[f], d + dof, s + so, n) != d + dof)
                            fail("%s returned a wrong pointer", fns[f].label);
                        for (size_t i = 0; i < dof + n; i++)
                            if (d[i] != (i < dof ? 0xA5 : s[so + i - dof]))
                                fail("%s: byte %zu of the destination block is wrong", fns[f].label, i);
                        free(s);
                        free(d);
                    } else {
                        cur.placement = "one exact block";
                        /* move n bytes from offset so to offset dof of one block of max + n bytes */
                        size_t len = (so > dof ? so : dof) + n;
                        unsigned char *b = malloc(len ? len : 1);
                        if (!b) fail("malloc");
                        for (size_t i = 0; i < len; i++) b[i] = want[i] = (unsigned char)(i * 13 + so);
                        memmove(want + dof, want + so, n);
                        if (call_under_test(&fns[f], b + dof, b + so, n) != b + dof)
                            fail("%s returned a wrong pointer", fns[f].label);
                        if (len && memcmp(b, want, len) != 0)
                            fail("%s: byte %zu of the block is wrong", fns[f].label, first_diff(b, want, len));
                        free(b);
                    }
                    cases++;
                }
        }
        print_count(cur.suite, fns[f].label, cases);
        total += cases;
    }
    print_count(cur.suite, "TOTAL", total);
    free(want);
    return 0;
}
