/*
 * fastcopy-info: prints the registry (what is compiled in, what runs here,
 * what fc_memcpy uses), the CPU facts and thresholds dispatch decided on (x86-64),
 * with where each came from (default, exception, profile, environment) and
 * every profile tried, and runs a short self-check of every available entry.
 * --signature: the cpu line of a profile for this machine; --decisions: the
 * decisions only, no self-check.  make bench prints it
 * before fcbench.  Linked statically: it reads the library's internal CPU layer.
 */
#include <stdio.h>
#include <string.h>

#include "fastcopy.h"
#include "internal.h"
#if defined(__aarch64__) && defined(__linux__)
#include <sys/prctl.h>

#include "cpu/aarch64.h"
#endif
#if defined(__x86_64__)
#include "cpu/x86.h"

/* A path from the environment (FASTCOPY_PROFILE, HOME, XDG_CONFIG_HOME), or a
 * note that holds one, escaped as the library's warnings are (fc__warn): a
 * byte that is not printable ASCII goes out as \xHH and the backslash as \\,
 * so that the variables cannot put terminal escape sequences or line breaks
 * into the output. */
static void print_escaped(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\') fputs("\\\\", stdout);
        else if (c >= 0x20 && c < 0x7f) putchar(c);
        else printf("\\x%02x", c);
    }
}

static void print_bytes(size_t v)
{
    if (v && v % (1u << 20) == 0) printf("%zu MiB", v >> 20);
    else if (v && v % 1024 == 0) printf("%zu KiB", v >> 10);
    else printf("%zu B", v);
}
#endif

static int self_check(const struct fc_impl *im)
{
    static unsigned char src[4096 + 64], dst[4096 + 128], ref[4096 + 128];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 167 + 13);
    for (size_t n = 0; n <= 4096; n = n < 64 ? n + 1 : n * 2 - 1)
        for (size_t so = 0; so < 8; so++)
            for (size_t dof = 0; dof < 8; dof++) {
                memset(dst, 0xEE, sizeof dst);
                memset(ref, 0xEE, sizeof ref);
                memcpy(ref + 32 + dof, src + so, n);
                if (im->memcpy(dst + 32 + dof, src + so, n) != dst + 32 + dof || memcmp(dst, ref, sizeof dst))
                    return 0;
                memmove(ref + 32 + dof + 3, ref + 32 + dof, n);
                if (im->memmove(dst + 32 + dof + 3, dst + 32 + dof, n) != dst + 35 + dof ||
                    memcmp(dst, ref, sizeof dst))
                    return 0;
            }
    return 1;
}

int main(int argc, char **argv)
{
    int ok = 1;
    if (argc == 2 && strcmp(argv[1], "--signature") == 0) { /* the cpu line a profile for this machine needs */
#if defined(__x86_64__)
        printf("%s\n", fc__x86_status()->signature);
        return 0;
#else
        fprintf(stderr, "fastcopy-info: profiles are x86-64 only so far\n");
        return 1;
#endif
    }
    printf("fastcopy %s - fc_memcpy/fc_memmove use: %s\n", fc_version(), fc_active());
#ifdef FC_INFO_DISPATCH
    printf("dispatch: %s\n", FC_INFO_DISPATCH);
#endif
    int isrc = fc__impl_source();
    printf("entry: %s  [%s%s]\n", fc_active(),
           isrc == 3 ? "FASTCOPY_IMPL" : isrc == 2 ? "profile" : "default", fc__secure() ? "; secure-execution process: the environment is ignored" : "");
#if defined(__x86_64__)
    const struct fc_x86_info *x = fc__x86_info();
    const struct fc_x86_status *st = fc__x86_status();
    static const char *const srcname[] = {"default (CPU features)", "exception for this CPU", "profile",
                                           "FASTCOPY_TUNE"};
    printf("x86-64: %s family 0x%x model 0x%x; sse2 %d avx2 %d avx512f %d (policy: zmm %s) avx512bw %d bmi2 %d "
           "avx-vnni %d erms %d fsrm %d; LLC L%u %zu KiB shared by %u\n",
           x->vendor_amd ? "AMD" : x->vendor_intel ? "Intel" : "other", x->family, x->model, x->sse2, x->avx2,
           x->avx512f,
           x->prefer_zmm == 2 ? "ladder, ymm loops" : x->prefer_zmm ? "yes" : "no", x->avx512bw, x->bmi2, x->avx_vnni, x->erms, x->fsrm, x->llc_level,
           x->llc_size >> 10, x->llc_threads);
    if (fc__x86_tune.nt_threshold == (size_t)-1) {
        printf("        non-temporal stores never");
    } else {
        printf("        non-temporal stores from ");
        print_bytes(fc__x86_tune.nt_threshold);
        printf(fc__x86_tune.nt_pages == 4 ? " (4 pages interleaved)" : " (one stream)");
    }
    if (fc__x86_tune.movsb_min < fc__x86_tune.movsb_max) {
        printf("; rep movsb window ");
        print_bytes(fc__x86_tune.movsb_min);
        printf(" .. ");
        if (fc__x86_tune.movsb_max == (size_t)-1)
            printf("any size");
        else
            print_bytes(fc__x86_tune.movsb_max);
        if (fc__x86_tune.movsb_gap)
            printf(" (not within %zu B of (dst - src) mod 4096 = 0)", fc__x86_tune.movsb_gap);
        else
            printf(" (at every distance)");
    } else if (fc__x86_tune.movsb_min && fc__x86_tune.movsb_min >= fc__x86_tune.nt_threshold) {
        printf("; rep movsb window empty (it would start at ");
        print_bytes(fc__x86_tune.movsb_min);
        printf(", at or above the NT threshold, where the window ends)");
    } else {
        printf("; rep movsb window empty");
    }
    printf("%s\n", fc__secure() ? " (FASTCOPY_TUNE is ignored in this secure-execution process)" : " (FASTCOPY_TUNE can override these)");
    printf("        sources: non-temporal threshold %s, NT streams %s, rep movsb window %s, its gap %s\n",
           srcname[st->src[FC_SET_NT]], srcname[st->src[FC_SET_PAGES]], srcname[st->src[FC_SET_MOVSB]],
           srcname[st->src[FC_SET_GAP]]);
    printf("        in-order forward path (no overlap, dst 1..4 vectors behind src mod 4096) ");
    if (fc__x86_tune.inorder_min == (size_t)-1) {
        printf("never");
    } else {
        printf("from ");
        print_bytes(fc__x86_tune.inorder_min);
    }
    printf(" (source: %s)\n", srcname[st->src[FC_SET_INORDER]]);
    printf("        exception applied: %s (docs/x86-policy.md)\n", st->exception ? st->exception : "none");
    printf("cpu signature: %s\n", st->signature);
    printf("profile: ");
    print_escaped(st->profile[0] ? st->profile : "none in use");
    printf("\n");
    for (int i = 0; i < st->nnotes; i++) {
        printf("  ");
        print_escaped(st->notes[i]);
        printf("\n");
    }
#endif
#if defined(__aarch64__) && defined(__linux__)
    {
        unsigned long hw = fc__aarch64_hwcap();
        printf("aarch64: AT_HWCAP 0x%lx: asimd %d sve %d", hw, (int)(hw >> 1 & 1), fc__aarch64_has_sve());
#ifdef PR_SVE_GET_VL
        int vl = fc__aarch64_has_sve() ? prctl(PR_SVE_GET_VL) : -1;
        if (vl >= 0) printf("; SVE vector length %d bytes (prctl PR_SVE_GET_VL)", vl & 0xffff);
#endif
        printf("\n");
    }
#endif
    /* --decisions: what was decided, without running any routine (the tests'
     * fake CPUs: FASTCOPY_TEST_CPU in a hooks build) */
    if (argc == 2 && strcmp(argv[1], "--decisions") == 0) return 0;
    printf("\n");
    printf("%-20s %-9s %-10s %s\n", "implementation", "available", "self-check", "summary");
    for (size_t i = 0; i < fc_impl_count(); i++) {
        const struct fc_impl *im = fc_impl_at(i);
        const char *chk = "-";
        if (im->available) {
            int good = self_check(im);
            ok &= good;
            chk = good ? "ok" : "FAILED";
        }
        printf("%-20s %-9s %-10s %s%s\n", im->name, im->available ? "yes" : "no", chk, im->summary,
               strcmp(im->name, fc_active()) == 0 ? "  [active]" : "");
    }
    return ok ? 0 : 1;
}
