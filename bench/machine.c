/* The machine behind the results: CPU, caches, libc, kernel, fastcopy's choice. */
#include <gnu/libc-version.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"
#if defined(__x86_64__)
#include "cpu/x86.h"
#endif
#include "fastcopy.h"

static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (v && (!strncmp(line, "model name", 10) || !strncmp(line, "uarch", 5) || !strncmp(line, "cpu model", 9))) {
            v += 2;
            v[strcspn(v, "\n")] = 0;
            snprintf(buf, size, "%s", v);
            break;
        }
    }
    fclose(f);
}

/* Flags that matter to copy routines, from /proc/cpuinfo. */
static void cpu_flags(char *buf, size_t size)
{
    static const char *interesting[] = {"sse2", "avx", "avx2", "avx512f", "avx512bw", "erms", "fsrm",
                                        "asimd", "sve", "sve2", "v", NULL};
    buf[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) && strncmp(line, "Features", 8) && strncmp(line, "isa", 3)) continue;
        for (int i = 0; interesting[i]; i++) {
            char pat[32];
            snprintf(pat, sizeof pat, " %s ", interesting[i]);
            line[strcspn(line, "\n")] = ' ';
            if (strstr(line, pat)) {
                strncat(buf, interesting[i], size - strlen(buf) - 2);
                strncat(buf, " ", size - strlen(buf) - 1);
            }
        }
        break;
    }
    fclose(f);
}

static long cache(int level) { return machine_cache_bytes(level); }

#if defined(__x86_64__)
/* The settings fastcopy's own contenders run with, as this process started
 * (machine_print runs before any measurement): with --tuned, each contender
 * sets the process-wide ones before its calls (contenders.c), so at the end of
 * a run they are those of whichever contender went last - tuned[...]'s after
 * `fcbench sizes --tuned P`. */
static struct fc_x86_tune settings_at_start;
static int have_settings;
#endif

void machine_print(FILE *out)
{
#if defined(__x86_64__)
    if (!have_settings) settings_at_start = fc__x86_tune, have_settings = 1;
#endif
    char model[256], flags[256];
    struct utsname u;
    uname(&u);
    cpu_model(model, sizeof model);
    cpu_flags(flags, sizeof flags);
    fprintf(out, "# machine: %s, %ld cpus; flags: %s\n", model, sysconf(_SC_NPROCESSORS_ONLN), flags);
    fprintf(out, "# caches: L1d %ld KiB, L2 %ld KiB, L3 %ld KiB; glibc %s; kernel %s %s\n",
            cache(1) / 1024, cache(2) / 1024,
            cache(3) / 1024, gnu_get_libc_version(), u.sysname, u.release);
    fprintf(out, "# fastcopy %s, fc_memcpy uses %s; timer resolution %.0f ns\n", fc_version(), fc_active(),
            timer_resolution_ns());
}

void machine_describe(FILE *j, const char *ind)
{
    char model[256], flags[256];
    struct utsname u;
    uname(&u);
    cpu_model(model, sizeof model);
    cpu_flags(flags, sizeof flags);
    fprintf(j, "%s\"cpu\": ", ind);
    json_str(j, model);
    fprintf(j, ",\n%s\"cpus\": %ld,\n%s\"flags\": ", ind, sysconf(_SC_NPROCESSORS_ONLN), ind);
    json_str(j, flags);
    fprintf(j, ",\n%s\"l1d_bytes\": %ld, \"l2_bytes\": %ld, \"l3_bytes\": %ld,\n", ind,
            cache(1), cache(2), cache(3));
    fprintf(j, "%s\"libc\": ", ind);
    json_str(j, gnu_get_libc_version());
    fprintf(j, ",\n%s\"kernel\": ", ind);
    json_str(j, u.release);
    fprintf(j, ",\n%s\"machine\": ", ind);
    json_str(j, u.machine);
    fprintf(j, ",\n%s\"fastcopy_version\": ", ind);
    json_str(j, fc_version());
    fprintf(j, ",\n%s\"fc_active\": ", ind);
    json_str(j, fc_active());
    fprintf(j, ",\n%s\"timer_resolution_ns\": %.1f", ind, timer_resolution_ns());
    /* transparent huge pages: "always" puts the arenas on 2 MiB pages, which a redraw replaces whole */
    char thp[128] = "", *open_b, *close_b;
    FILE *t = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (t) {
        if (!fgets(thp, sizeof thp, t)) thp[0] = 0;
        fclose(t);
    }
    if ((open_b = strchr(thp, '[')) && (close_b = strchr(open_b, ']'))) {
        *close_b = 0;
        memmove(thp, open_b + 1, strlen(open_b + 1) + 1);
    } else
        snprintf(thp, sizeof thp, "unknown");
    fprintf(j, ",\n%s\"thp\": ", ind);
    json_str(j, thp);
#if defined(__x86_64__)
    /* what the library decided here (with the environment fcbench ran in), as the run began */
    const struct fc_x86_status *st = fc__x86_status();
    const struct fc_x86_tune *set = have_settings ? &settings_at_start : &fc__x86_tune;
    fprintf(j, ",\n%s\"cpu_signature\": ", ind);
    json_str(j, st->signature);
    fprintf(j, ",\n%s\"fastcopy_settings\": {\"nt_threshold\": %zu, \"movsb_min\": %zu, \"movsb_max\": %zu, "
               "\"movsb_gap\": %zu, \"nt_pages\": %zu, \"inorder_min\": %zu, \"exception\": ",
            ind, set->nt_threshold, set->movsb_min, set->movsb_max, set->movsb_gap, set->nt_pages, set->inorder_min);
    json_str(j, st->exception ? st->exception : "");
    fprintf(j, ", \"profile\": ");
    json_str(j, st->profile);
    fprintf(j, "}");
#endif
}

void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* /proc/stat per-CPU jiffies: busy (neither idle nor iowait), total, steal. */
#define LOAD_MAX_CPUS 1024
static unsigned long long load_busy[LOAD_MAX_CPUS], load_total[LOAD_MAX_CPUS], load_steal[LOAD_MAX_CPUS];
static int load_cpus = -1;

static int load_read(unsigned long long *busy, unsigned long long *total, unsigned long long *steal)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned cpu;
        unsigned long long v[8] = {0};
        if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9') continue;
        if (sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7]) < 5 || cpu >= LOAD_MAX_CPUS)
            continue;
        unsigned long long t = 0;
        for (int i = 0; i < 8; i++) t += v[i];
        total[cpu] = t;
        busy[cpu] = t - v[3] - v[4] - v[7]; /* minus idle, iowait, steal */
        steal[cpu] = v[7];
        if ((int)cpu + 1 > n) n = (int)cpu + 1;
    }
    fclose(f);
    return n;
}

void load_monitor_start(void) { load_cpus = load_read(load_busy, load_total, load_steal); }

void load_monitor_end(int mycpu, double *others_busy, double *steal)
{
    static unsigned long long b[LOAD_MAX_CPUS], t[LOAD_MAX_CPUS], s[LOAD_MAX_CPUS];
    *others_busy = *steal = 0;
    if (load_cpus <= 0 || load_read(b, t, s) != load_cpus) return;
    unsigned long long ob = 0, ot = 0;
    for (int c = 0; c < load_cpus; c++) {
        if (c == mycpu) continue;
        ob += b[c] - load_busy[c];
        ot += t[c] - load_total[c];
    }
    *others_busy = ot ? (double)ob / (double)ot : 0;
    if (mycpu >= 0 && mycpu < load_cpus && t[mycpu] > load_total[mycpu])
        *steal = (double)(s[mycpu] - load_steal[mycpu]) / (double)(t[mycpu] - load_total[mycpu]);
}
