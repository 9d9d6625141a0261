/* Where a case's buffers are: the hot arenas, or slots of the cold regions (--cold). */
#include "harness.h"

size_t cold_region_bytes(void)
{
    size_t llc = (size_t)machine_cache_bytes(3);
    if (!llc) llc = (size_t)machine_cache_bytes(2);
    size_t r = llc ? 4 * llc : (size_t)256 << 20;
    return r < ARENA_MAX ? ARENA_MAX : r;
}

/* src = A + src_off, dst = B + dst_off: A and B page-aligned and 4096-congruent,
 * so (dst - src) mod 4096 = dst_off - src_off (mod 4096).  Cold: slots of a
 * page-multiple stride over cold regions of cold_region_bytes() per side,
 * placed like the hot arenas (bench_alloc_arenas), so a slot's src and dst
 * pages keep one address relation from run to run. */
struct bench_case bench_place(struct bench_ctx *ctx, size_t n, size_t src_off, size_t dst_off)
{
    struct bench_case bc = {.dst = ctx->arena_b + 4096 + dst_off, .src = ctx->arena_a + 4096 + src_off, .n = n};
    if (!ctx->opts.cold) return bc;
    size_t region = cold_region_bytes();
    if (!ctx->cold_a && !bench_alloc_arenas(&ctx->cold_a, &ctx->cold_b, region + 3 * 4096))
        printf("# note: the cold regions are two ordinary mappings (no fixed address relation; see measure.c)\n");
    bc.stride = (n + 4096 + 4095) & ~(size_t)4095;
    bc.slots = region / bc.stride;
    if (bc.slots < 2) return (struct bench_case){.dst = bc.dst, .src = bc.src, .n = n}; /* beyond the caches anyway */
    bc.dst = ctx->cold_b + 4096 + dst_off;
    bc.src = ctx->cold_a + 4096 + src_off;
    return bc;
}
