/* fcbench's scenarios, one per file in bench/scenarios/ (field's programs part
 * in field_programs.c): each runs on the ctx it is handed (harness.h), prints
 * its tables and records its results through the ctx's sink.  fcbench.c's
 * scenario table is their only caller. */
#ifndef FCBENCH_SCENARIOS_H
#define FCBENCH_SCENARIOS_H

struct bench_ctx;

void scenario_peak(struct bench_ctx *ctx);
void scenario_cliffs(struct bench_ctx *ctx);
void scenario_sizes(struct bench_ctx *ctx);
void scenario_grid(struct bench_ctx *ctx);
void scenario_distance(struct bench_ctx *ctx);
void scenario_large(struct bench_ctx *ctx);
void scenario_offsets(struct bench_ctx *ctx);
void scenario_uaccess(struct bench_ctx *ctx);
void scenario_pipe(struct bench_ctx *ctx);
void scenario_dist(struct bench_ctx *ctx);
void scenario_readback(struct bench_ctx *ctx);
void scenario_memmove(struct bench_ctx *ctx);
void scenario_checked(struct bench_ctx *ctx);
void scenario_field(struct bench_ctx *ctx);
void scenario_packet(struct bench_ctx *ctx);
/* field's programs part (field_programs.c): real programs under glibc and under
 * the preload library at `preload` (NULL: not found, said and skipped) */
void field_programs(struct bench_ctx *ctx, const char *preload);

#endif
