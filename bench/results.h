/* fcbench's results (results.c): the sink the scenarios record into, and its
 * JSON (bench/fcbench.schema.json) and CSV writers.  Used by fcbench.c only. */
#ifndef FCBENCH_RESULTS_H
#define FCBENCH_RESULTS_H

#include "harness.h"

/* The sink that keeps every result, grid and cliff in memory until written. */
struct bench_sink results_sink(void);

/* What the JSON's method block says besides the ctx's options. */
struct run_facts {
    const char *scenario, *argv_line, *date, *pin_desc;
    double others_busy, steal;
};
void results_write_json(const char *path, const struct bench_ctx *ctx, const struct run_facts *run);
/* One row per result, then one per measured grid cell (scenario = its source). */
void results_write_csv(const char *path);

#endif
