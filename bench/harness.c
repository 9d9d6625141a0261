/* Validating, measuring and recording cases for the scenarios; progress lines. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bench_record(struct bench_ctx *ctx, const char *scenario, const struct contender *c, const struct bench_case *bc,
                  const struct stats *st)
{
    ctx->sink.record(ctx->sink.self, scenario, ctx->label, c, bc, st);
}

/* Validates then measures all contenders on one case; invalid ones get gbps 0. */
void bench_run_case(struct bench_ctx *ctx, const char *scenario, const struct bench_case *bc, struct stats *st)
{
    struct contender ok[MAX_CONTENDERS];
    struct stats *where[MAX_CONTENDERS], tmp[MAX_CONTENDERS];
    size_t k = 0;
    for (size_t j = 0; j < ctx->ncontenders; j++) {
        memset(&st[j], 0, sizeof st[j]);
        if (bench_validate(&ctx->contenders[j], bc)) {
            where[k] = &st[j];
            ok[k++] = ctx->contenders[j];
        }
    }
    if (!k) return;
    bench_measure(&ctx->opts, ok, k, bc, tmp);
    for (size_t i = 0; i < k; i++) {
        *where[i] = tmp[i];
        if (scenario) bench_record(ctx, scenario, &ok[i], bc, &tmp[i]);
    }
}

void bench_run_cases(struct bench_ctx *ctx, const char *scenario, const struct bench_case *bc,
                     const char *const *labels, size_t ncases, struct stats *st)
{
    size_t k = ctx->ncontenders;
    unsigned char *valid = calloc(ncases * k + 1, 1);
    if (!valid) exit(1);
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < k; j++) valid[i * k + j] = (unsigned char)bench_validate(&ctx->contenders[j], &bc[i]);
    bench_measure_many(&ctx->opts, ctx->contenders, k, bc, ncases, valid, st, progress_as(scenario));
    const char *saved = ctx->label;
    for (size_t i = 0; i < ncases; i++) {
        if (labels) ctx->label = labels[i];
        for (size_t j = 0; j < k; j++)
            if (valid[i * k + j]) bench_record(ctx, scenario, &ctx->contenders[j], &bc[i], &st[i * k + j]);
    }
    ctx->label = saved;
    free(valid);
}

size_t pick_sizes(const struct bench_ctx *ctx, const size_t *dflt, size_t ndflt, const size_t **out)
{
    if (ctx->nsizes) {
        *out = ctx->sizes;
        return ctx->nsizes;
    }
    *out = dflt;
    return ndflt;
}

void bench_table_header(const struct bench_ctx *ctx, FILE *out, const char *first)
{
    fprintf(out, "%-10s", first);
    for (size_t j = 0; j < ctx->ncontenders; j++) fprintf(out, " %18.18s", ctx->contenders[j].name);
    fputc('\n', out);
}

/* A progress line on stderr: on a terminal, updated in place at most 5 times
 * a second; otherwise only the scenario lines (see fcbench.c's main). */
static char progress_prefix[64];

void progress_set_prefix(const char *prefix) { snprintf(progress_prefix, sizeof progress_prefix, "%s", prefix); }

void progress(const char *what, size_t i, size_t total)
{
    static int tty = -1;
    static double last;
    if (tty < 0) tty = isatty(2);
    if (!tty) return;
    double t = now_ns();
    if (i + 1 < total && t - last < 200e6) return;
    last = t;
    fprintf(stderr, "\r\033[K[fcbench]%s %s %zu/%zu", progress_prefix, what, i + 1, total);
    if (i + 1 == total) fputs("\r\033[K", stderr);
}

static const char *progress_what;
static void progress_many(size_t done, size_t total) { progress(progress_what, done, total); }

progress_fn progress_as(const char *what)
{
    progress_what = what;
    return progress_many;
}
