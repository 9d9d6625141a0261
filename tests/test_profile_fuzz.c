/*
 * The profile parser under mutation (x86-64): valid profiles for this CPU
 * (and one for another), mutated at random - bytes flipped, inserted,
 * deleted, lines duplicated, swapped and cut, NUL and control bytes, long
 * lines, oversized texts - then parsed.  Checked: nothing crashes or reads
 * outside the text (the sanitize target runs it under ASan and UBSan); a
 * text the parser accepts yields settings that hold together (a window with
 * min <= max, gap < 2048, 1 or 4 NT streams, an entry of the registry), and
 * a text it refuses comes with a reason.  Also the fixed cases every mutation
 * run must keep right: the unmutated profile is accepted, the other CPU's
 * refused.  The seed is printed (--seed S replays, --cases N).
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/x86.h"

#define MAXT 6000

static char text[MAXT + 64];

static int parse(size_t len, char *why, size_t wl, struct fc_x86_tune *t, const char **impl)
{
    /* a copy of exactly len bytes on the heap: ASan sees any read past it */
    char *c = malloc(len ? len : 1);
    if (!c) fail("malloc");
    memcpy(c, text, len);
    int ok = fc__x86_parse_profile(c, (long)len, why, wl, t, impl);
    free(c);
    return ok;
}

int main(int argc, char **argv)
{
    install_crash_handler();
    cur.suite = "profile-fuzz";
    cur.fn = "fc__x86_parse_profile";
    uint64_t seed = 0, cases = 300000;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[i + 1], NULL, 0);
        if (strcmp(argv[i], "--cases") == 0) cases = strtoull(argv[i + 1], NULL, 0);
    }
    if (!seed) seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)&seed;
    printf("profile-fuzz: seed %llu\n", (unsigned long long)seed);
    const char *sig = fc__x86_status()->signature;
    char base[3][1024];
    snprintf(base[0], sizeof base[0],
             "# fastcopy profile\nfastcopy-profile 2\ncpu %s\nimpl sse2\nnt_threshold 64k\nmovsb_min 2k\n"
             "movsb_max 512k\nmovsb_gap 64\nnt_pages 4\ninorder_min 4k\nend\n",
             sig);
    snprintf(base[1], sizeof base[1], "fastcopy-profile 2\ncpu %s\nnt_threshold 0\nmovsb_min 0\nmovsb_max 0\nend\n", sig);
    snprintf(base[2], sizeof base[2], "fastcopy-profile 2\ncpu x86-64 NotThisCPU family 0x1 model 0x0\nimpl sse2\nend\n");
    char why[512];
    struct fc_x86_tune t;
    const char *impl;
    size_t len = strlen(base[0]);
    memcpy(text, base[0], len);
    /* as the library would run it: the window (2k..512k) ends at the NT threshold (64k), and the
     * copy routines test both from the window's start (special_min) */
    if (!parse(len, why, sizeof why, &t, &impl) || !impl || strcmp(impl, "sse2") || t.nt_threshold != 65536 ||
        t.movsb_min != 2048 || t.movsb_max != 65536 || t.special_min != 2048 || t.movsb_gap != 64 || t.nt_pages != 4 ||
        t.inorder_min != 4096)
        fail("the valid profile was refused or misread (%s; window %zu..%zu, special_min %zu)", why, t.movsb_min,
             t.movsb_max, t.special_min);
    /* inorder_min 0: never (SIZE_MAX, as nt_threshold 0); a bad value refuses the whole profile */
    snprintf(text, sizeof text, "fastcopy-profile 2\ncpu %s\ninorder_min 0\nend\n", sig);
    if (!parse(strlen(text), why, sizeof why, &t, &impl) || t.inorder_min != (size_t)-1)
        fail("inorder_min 0 read as %zu (%s)", t.inorder_min, why);
    snprintf(text, sizeof text, "fastcopy-profile 2\ncpu %s\nnt_pages 4\ninorder_min 2x\nend\n", sig);
    if (parse(strlen(text), why, sizeof why, &t, &impl) || !strstr(why, "bad value for inorder_min"))
        fail("inorder_min 2x was not refused as a bad value (%s)", why);
    /* a window below the default NT threshold, no NT line: special_min must come down to it (fcbench
     * --tuned ran such profiles without their window until 2026-11-27) */
    snprintf(text, sizeof text, "fastcopy-profile 2\ncpu %s\nmovsb_min 12k\nmovsb_max 24k\nend\n", sig);
    if (!parse(strlen(text), why, sizeof why, &t, &impl) || t.movsb_min != 12288 || t.movsb_max != 24576 ||
        t.special_min != 12288)
        fail("a window below NT: special_min %zu, window %zu..%zu (%s)", t.special_min, t.movsb_min, t.movsb_max,
             why);
    len = strlen(base[2]);
    memcpy(text, base[2], len);
    if (parse(len, why, sizeof why, &t, &impl) || !strstr(why, "another CPU"))
        fail("the other CPU's profile was not refused as such (%s)", why);
    /* every cut of the valid profile short of its end line is refused as cut short (format 2's end line;
     * before it a cut at a line boundary was taken, with the keys before the cut) */
    for (size_t cut = 1, full = strlen(base[0]); cut + 4 < full; cut++) {
        memcpy(text, base[0], cut);
        if (parse(cut, why, sizeof why, &t, &impl) || (!strstr(why, "cut short") && strcmp(why, "empty")))
            fail("the valid profile cut to %zu bytes was not refused as cut short or empty (%s)", cut, why);
    }

    struct rng r;
    rng_seed(&r, seed);
    unsigned long long accepted = 0, refused = 0;
    for (uint64_t c = 0; c < cases; c++) {
        cur.index = c;
        cur.seed = seed;
        const char *b = base[rng_below(&r, 3)];
        len = strlen(b);
        memcpy(text, b, len);
        for (unsigned m = 0, nm = 1 + (unsigned)rng_below(&r, 6); m < nm; m++) {
            size_t at = len ? rng_below(&r, len) : 0;
            switch (rng_below(&r, 9)) {
            case 0: /* flip a bit */
                if (len) text[at] ^= (char)(1u << rng_below(&r, 8));
                break;
            case 1: /* insert a random byte (NUL and control bytes included) */
                if (len < MAXT) {
                    memmove(text + at + 1, text + at, len - at);
                    text[at] = (char)rng_below(&r, 256);
                    len++;
                }
                break;
            case 2: /* delete bytes */
                if (len) {
                    size_t k = 1 + rng_below(&r, 8);
                    if (k > len - at) k = len - at;
                    memmove(text + at, text + at + k, len - at - k);
                    len -= k;
                }
                break;
            case 3: /* truncate */
                len = at;
                break;
            case 4: /* duplicate a stretch (lines given twice) */
            {
                size_t k = 1 + rng_below(&r, 64);
                if (k > len - at) k = len - at;
                if (len + k <= MAXT) {
                    memmove(text + at + k, text + at, len - at);
                    len += k;
                }
                break;
            }
            case 5: /* a digit or a suffix somewhere */
                if (len) text[at] = "0123456789kmgKMG -=\n#"[rng_below(&r, 21)];
                break;
            case 6: /* a long line */
            {
                size_t k = 200 + rng_below(&r, 400);
                if (len + k <= MAXT) {
                    memmove(text + at + k, text + at, len - at);
                    memset(text + at, rng_below(&r, 2) ? 'a' : '9', k);
                    len += k;
                }
                break;
            }
            case 7: /* grow past the size limit */
                if (rng_below(&r, 20) == 0) {
                    memset(text + len, '#', MAXT - len);
                    len = MAXT;
                }
                break;
            default: /* a byte from another line */
                if (len) text[at] = text[rng_below(&r, len)];
            }
        }
        why[0] = 0;
        if (parse(len, why, sizeof why, &t, &impl)) {
            accepted++;
            /* derived as the load path does: the window ends at NT (or is empty), special_min its start */
            size_t sm = t.movsb_min < t.movsb_max && t.movsb_min < t.nt_threshold ? t.movsb_min : t.nt_threshold;
            size_t top = t.nt_threshold > t.movsb_min ? t.nt_threshold : t.movsb_min;
            if (t.movsb_min > t.movsb_max || t.movsb_max > top || t.special_min != sm || t.movsb_gap >= 2048 ||
                (t.nt_pages != 1 && t.nt_pages != 4))
                fail("accepted settings that do not hold together (window %zu..%zu, NT %zu, special_min %zu, gap %zu, "
                     "pages %zu)",
                     t.movsb_min, t.movsb_max, t.nt_threshold, t.special_min, t.movsb_gap, t.nt_pages);
            if (impl && !fc_impl_find(impl)) fail("accepted an entry the registry does not have: %s", impl);
            if (!memmem(text, len, sig, strlen(sig))) fail("accepted a profile without this CPU's signature");
            { /* its last line that is not blank or a comment is "end" */
                size_t e = len;
                for (;;) {
                    while (e && strchr("\n\r \t", text[e - 1])) e--;
                    size_t bol = e;
                    while (bol && text[bol - 1] != '\n') bol--;
                    size_t k = bol;
                    while (k < e && (text[k] == ' ' || text[k] == '\t')) k++;
                    if (k < e && text[k] == '#') {
                        e = bol;
                        continue;
                    }
                    if (e - k != 3 || memcmp(text + k, "end", 3)) fail("accepted a profile that does not end with \"end\"");
                    break;
                }
            }
        } else {
            refused++;
            if (!why[0]) fail("refused without a reason");
        }
    }
    printf("profile-fuzz: %llu mutated profiles: %llu accepted, %llu refused with a reason\n", (unsigned long long)cases,
           accepted, refused);
    return 0;
}
