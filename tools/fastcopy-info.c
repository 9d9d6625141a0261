/*
 * fastcopy-info: prints the registry (what is compiled in, what runs here,
 * what fc_memcpy uses) and runs a short self-check of every available entry.
 * The benchmark (fcbench) replaces this as the main job.
 */
#include <stdio.h>
#include <string.h>

#include "fastcopy.h"

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

int main(void)
{
    int ok = 1;
    printf("fastcopy %s - fc_memcpy/fc_memmove use: %s\n\n", fc_version(), fc_active());
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
