/*
 * instr-driver IMPL N SRC_OFF DST_OFF [REPS]: calls IMPL's memcpy REPS times
 * (default 100) inside run(), so that callgrind --toggle-collect=run counts
 * only the copies.  Used by scripts/instr-count.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fastcopy.h"

static unsigned char src[(1 << 16) + 128], dst[(1 << 16) + 128];

__attribute__((noinline)) void run(const struct fc_impl *im, size_t n, size_t so, size_t dof, long reps);
__attribute__((noinline)) void run(const struct fc_impl *im, size_t n, size_t so, size_t dof, long reps)
{
    for (long i = 0; i < reps; i++) im->memcpy(dst + 64 + dof, src + 64 + so, n);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s IMPL N SRC_OFF DST_OFF [REPS]\n", argv[0]);
        return 2;
    }
    const struct fc_impl *im = fc_impl_find(argv[1]);
    size_t n = strtoul(argv[2], NULL, 0), so = strtoul(argv[3], NULL, 0), dof = strtoul(argv[4], NULL, 0);
    if (!im || !im->available || n > (1 << 16) || so > 63 || dof > 63) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    run(im, n, so, dof, argc > 5 ? strtol(argv[5], NULL, 0) : 100);
    return 0;
}
