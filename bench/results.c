/* fcbench's results: the sink the scenarios record into (results, grids,
 * cliffs, kept in memory) and the JSON and CSV writers. */
#include "results.h"

#include <stdlib.h>
#include <string.h>

struct result {
    const char *scenario;
    char contender[48], label[32];
    int cold;
    size_t n, src_off, dst_off, dist;
    struct stats st;
};

static struct result *results;
static size_t nresults, capresults;
static struct bench_grid **grids; /* each allocated alone: a grid stays where it is while more are added */
static size_t ngrids, capgrids;
static struct bench_cliff *cliffs;
static size_t ncliffs, capcliffs;

static void *grow(void *p, size_t *cap, size_t used, size_t elem)
{
    if (used < *cap) return p;
    *cap = *cap ? 2 * *cap : 64;
    p = realloc(p, *cap * elem);
    if (!p) {
        perror("fcbench");
        exit(1);
    }
    return p;
}

static void record(void *self, const char *scenario, const char *label, const struct contender *c,
                   const struct bench_case *bc, const struct stats *st)
{
    (void)self;
    results = grow(results, &capresults, nresults, sizeof *results);
    struct result *r = &results[nresults++];
    r->scenario = scenario;
    snprintf(r->contender, sizeof r->contender, "%s", c->name);
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
    r->cold = bc->slots != 0;
    r->n = bc->n;
    r->src_off = (uintptr_t)bc->src & 63;
    r->dst_off = (uintptr_t)bc->dst & 63;
    r->dist = (size_t)(((uintptr_t)bc->dst - (uintptr_t)bc->src) & 4095);
    r->st = *st;
}

static struct bench_grid *new_grid(void *self)
{
    (void)self;
    grids = grow(grids, &capgrids, ngrids, sizeof *grids);
    struct bench_grid *g = calloc(1, sizeof *g);
    if (!g) {
        perror("fcbench");
        exit(1);
    }
    return grids[ngrids++] = g;
}

static void add_cliff(void *self, const struct bench_cliff *c)
{
    (void)self;
    cliffs = grow(cliffs, &capcliffs, ncliffs, sizeof *cliffs);
    cliffs[ncliffs++] = *c;
}

struct bench_sink results_sink(void) { return (struct bench_sink){NULL, record, new_grid, add_cliff}; }

void results_write_json(const char *path, const struct bench_ctx *ctx, const struct run_facts *run)
{
    const struct bench_opts *o = &ctx->opts;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "{\n  \"schema\": \"fcbench-2\",\n  \"scenario\": ");
    json_str(f, run->scenario);
    fprintf(f, ",\n  \"argv\": ");
    json_str(f, run->argv_line);
    fprintf(f, ",\n  \"date\": ");
    json_str(f, run->date);
    fprintf(f, ",\n  \"machine\": {\n");
    machine_describe(f, "    ");
    fprintf(f, "\n  },\n  \"method\": {\"samples\": %u, \"min_sample_ns\": %.0f, \"statistic\": \"median\", "
               "\"spread\": \"iqr\", \"bytes\": \"copied, counted once\", \"cache\": \"%s\", "
               "\"cold_region_bytes\": %zu, \"page_redraw_bytes\": %zu, \"pages_redrawn\": %zu, "
               "\"other_cpus_busy\": %.4f, \"steal\": %.4f, \"order_seed\": %llu, \"pinned\": ",
            o->samples, o->min_sample_ns, o->cold ? "cold" : "hot", cold_region_bytes(), bench_redraw_bytes(),
            bench_redrawn_pages(), run->others_busy, run->steal, (unsigned long long)bench_order_seed());
    json_str(f, run->pin_desc);
    fprintf(f, "},\n  \"contenders\": [");
    for (size_t j = 0; j < ctx->ncontenders; j++) {
        json_str(f, ctx->contenders[j].name);
        if (j + 1 < ctx->ncontenders) fputs(", ", f);
    }
    fprintf(f, "],\n  \"results\": [\n");
    for (size_t i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        fprintf(f, "    {\"scenario\": \"%s\", \"contender\": ", r->scenario);
        json_str(f, r->contender);
        fprintf(f, ", \"label\": ");
        json_str(f, r->label);
        fprintf(f, ", \"cache\": \"%s\", \"n\": %zu, \"src_off\": %zu, \"dst_off\": %zu, \"dist\": %zu, "
                   "\"med_ns\": %.3f, \"q1_ns\": %.3f, \"q3_ns\": %.3f, \"gbps\": %.4f, \"samples\": %u, "
                   "\"iters\": %llu, \"samples_ns\": [",
                r->cold ? "cold" : "hot", r->n, r->src_off, r->dst_off, r->dist, r->st.med_ns, r->st.q1_ns,
                r->st.q3_ns, r->st.gbps, r->st.samples, (unsigned long long)r->st.iters);
        for (unsigned k = 0; k < r->st.samples; k++) fprintf(f, "%s%.3f", k ? ", " : "", r->st.sample_ns[k]);
        fprintf(f, "]}%s\n", i + 1 < nresults ? "," : "");
    }
    fprintf(f, "  ],\n  \"grids\": [\n");
    for (size_t i = 0; i < ngrids; i++) {
        const struct bench_grid *g = grids[i];
        fprintf(f, "    {\"source\": \"%s\", \"contender\": ", g->source);
        json_str(f, g->contender);
        fprintf(f, ", \"n\": %zu, \"cache\": \"%s\", \"samples\": %u, \"aligned_gbps\": %.4f,\n     \"src_offs\": [",
                g->n, g->cold ? "cold" : "hot", g->samples, g->aligned);
        for (size_t r = 0; r < g->nso; r++) fprintf(f, "%s%u", r ? ", " : "", g->so[r]);
        fprintf(f, "], \"dst_offs\": [");
        for (size_t c = 0; c < g->ndo; c++) fprintf(f, "%s%u", c ? ", " : "", g->dof[c]);
        fprintf(f, "],\n     \"gbps\": [");
        for (size_t r = 0; r < g->nso; r++) {
            fprintf(f, "%s[", r ? ",\n              " : "");
            for (size_t c = 0; c < g->ndo; c++) fprintf(f, "%s%.3f", c ? "," : "", g->gbps[r][c]);
            fputc(']', f);
        }
        fprintf(f, "]}%s\n", i + 1 < ngrids ? "," : "");
    }
    fprintf(f, "  ],\n  \"cliffs\": [\n");
    for (size_t i = 0; i < ncliffs; i++) {
        const struct bench_cliff *c = &cliffs[i];
        fprintf(f, "    {\"contender\": ");
        json_str(f, c->contender);
        fprintf(f, ", \"n\": %zu, \"aligned_gbps\": %.4f, \"worst_gbps\": %.4f, \"ratio\": %.4f, \"selected_ratio\": %.4f, "
                   "\"src_off\": %zu, \"dst_off\": %zu, \"dist\": %zu, \"flagged\": %s}%s\n",
                c->n, c->base, c->gbps, c->ratio, c->selected, c->so & 63, c->dof & 63, c->dist,
                c->ratio < 0.8 ? "true" : "false", i + 1 < ncliffs ? "," : "");
    }
    fprintf(f, "  ],\n  \"peaks\": [");
    int first = 1;
    for (size_t i = 0; i < 4; i++) {
        const struct peak *p = &ctx->peaks[i];
        if (!(p->gbps > 0)) continue;
        fprintf(f, "%s\n    {\"level\": \"%s\", \"n\": %zu, \"gbps\": %.4f, \"kernel\": ", first ? "" : ",", p->level,
                p->n, p->gbps);
        json_str(f, p->kernel);
        fputc('}', f);
        first = 0;
    }
    fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
    if (fclose(f)) {
        perror(path);
        exit(1);
    }
}

void results_write_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs("scenario,contender,label,cache,n,src_off,dst_off,dist,med_ns,q1_ns,q3_ns,gbps,samples,iters\n", f);
    for (size_t i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        fprintf(f, "%s,%s,%s,%s,%zu,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.4f,%u,%llu\n", r->scenario, r->contender, r->label,
                r->cold ? "cold" : "hot", r->n, r->src_off, r->dst_off, r->dist, r->st.med_ns, r->st.q1_ns,
                r->st.q3_ns, r->st.gbps, r->st.samples, (unsigned long long)r->st.iters);
    }
    for (size_t i = 0; i < ngrids; i++) {
        const struct bench_grid *g = grids[i];
        for (size_t r = 0; r < g->nso; r++)
            for (size_t c = 0; c < g->ndo; c++)
                if (g->gbps[r][c] > 0)
                    fprintf(f, "%s,%s,,%s,%zu,%u,%u,%u,%.3f,,,%.4f,%u,\n", g->source, g->contender,
                            g->cold ? "cold" : "hot", g->n, g->so[r], g->dof[c], (unsigned)((g->dof[c] - g->so[r]) & 4095),
                            (double)g->n / g->gbps[r][c], g->gbps[r][c], g->samples);
    }
    if (fclose(f)) {
        perror(path);
        exit(1);
    }
}
