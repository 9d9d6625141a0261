/*
 * fcbench record [-o PREFIX] -- CMD [ARGS...]
 *
 * Runs CMD with libfastcopy-record.so preloaded (src/preload/record.c: every
 * memcpy, memmove, mempcpy, bcopy and _chk call of every thread counted, then
 * run by fastcopy), waits for it, sums what each of its processes wrote at
 * exit, and writes:
 *
 *   PREFIX.csv        the size distribution of the calls of 0..4096 bytes in
 *                     the llvm-libc format `fcbench dist` reads (one line,
 *                     P(size == i) for i = 0..4096)
 *   PREFIX.align.csv  two lines of 64 probabilities: src mod 64, dst mod 64
 *                     (`fcbench dist --file PREFIX.csv` replays the calls at
 *                     these alignments)
 *   PREFIX.txt        the summary below, with the raw counts
 *
 * and prints the summary: processes, calls and bytes (per second of CMD's
 * wall time), the share of calls and bytes above 4096 B by log2 bucket, the
 * most frequent sizes, the overlap share, the alignments and (dst - src) mod
 * 4096.  Its exit status is CMD's.  The object is found next to fcbench (the
 * build tree), else where it is installed; FCBENCH_RECORD_LIB overrides.
 * Each file of the directory (rec.<pid>.<n>: src/preload/record.c) is read
 * whole before it is added: one that is cut short (no end line), malformed,
 * of another version or whose counts disagree is skipped, named on stderr
 * with the reason, and none of its counts is used.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

enum { SMALL = 4096, NFN = 7 };

struct rec {
    unsigned procs;
    double seconds_max;
    uint64_t calls, bytes, big_bytes, overlap;
    uint64_t fn[NFN], size[SMALL + 1], big[64], salign[64], dalign[64], dist[64];
};

static const char *const fn_names[NFN] = {"memcpy",       "memmove",       "mempcpy",      "bcopy",
                                          "__memcpy_chk", "__memmove_chk", "__mempcpy_chk"};

static int read_counts(FILE *f, uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned long long x;
        if (fscanf(f, "%llu", &x) != 1) return 0;
        v[i] = x;
    }
    return 1;
}

static uint64_t total(const uint64_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

/* One process's file, parsed whole into one before any count is added to the
 * sum: NULL if it is a complete record, else why not. */
static const char *read_file(const char *path, struct rec *one, char *comm)
{
    FILE *f = fopen(path, "r");
    if (!f) return strerror(errno);
    memset(one, 0, sizeof *one);
    char key[32];
    unsigned version;
    const char *why = NULL;
    if (fscanf(f, "%31s", key) != 1 || strcmp(key, "fastcopy-record") || fscanf(f, "%u", &version) != 1)
        why = "not a record";
    else if (version != 2)
        why = "a record of another version of libfastcopy-record.so";
    int seen = 0, end = 0;
    while (!why && !end && fscanf(f, "%31s", key) == 1) {
        unsigned long long x;
        int ok;
        if (!strcmp(key, "end")) {
            end = 1;
            ok = 1;
        } else if (!strcmp(key, "comm")) {
            ok = fscanf(f, " %63[^\n]", comm) == 1;
        } else if (!strcmp(key, "seconds")) {
            ok = fscanf(f, "%lf", &one->seconds_max) == 1;
        } else if (!strcmp(key, "fn")) {
            ok = read_counts(f, one->fn, NFN), seen |= 1;
        } else if (!strcmp(key, "size")) {
            ok = read_counts(f, one->size, SMALL + 1), seen |= 2;
        } else if (!strcmp(key, "big")) {
            ok = read_counts(f, one->big, 64), seen |= 4;
        } else if (!strcmp(key, "salign")) {
            ok = read_counts(f, one->salign, 64), seen |= 8;
        } else if (!strcmp(key, "dalign")) {
            ok = read_counts(f, one->dalign, 64), seen |= 16;
        } else if (!strcmp(key, "dist")) {
            ok = read_counts(f, one->dist, 64), seen |= 32;
        } else if ((ok = fscanf(f, "%llu", &x) == 1)) {
            if (!strcmp(key, "calls")) one->calls = x, seen |= 64;
            else if (!strcmp(key, "bytes")) one->bytes = x, seen |= 128;
            else if (!strcmp(key, "big_bytes")) one->big_bytes = x, seen |= 256;
            else if (!strcmp(key, "overlap")) one->overlap = x, seen |= 512;
        }
        if (!ok) why = feof(f) ? "cut short (truncated)" : "malformed";
    }
    int err = ferror(f);
    fclose(f);
    if (why) return why;
    if (err) return "read error";
    if (!end) return "cut short (no end line)";
    if (seen != 1023) return "incomplete (a section is missing)";
    /* the counts must agree: every call is in fn, in size or big, in each
     * alignment and in dist */
    uint64_t c = one->calls, bytes = one->big_bytes;
    for (size_t i = 1; i <= SMALL; i++) bytes += one->size[i] * i;
    if (total(one->fn, NFN) != c || total(one->size, SMALL + 1) + total(one->big, 64) != c ||
        total(one->salign, 64) != c || total(one->dalign, 64) != c || total(one->dist, 64) != c ||
        one->overlap > c || bytes != one->bytes)
        return "inconsistent counts";
    one->procs = 1;
    return NULL;
}

static void add_rec(struct rec *r, const struct rec *one)
{
    r->procs += one->procs;
    if (one->seconds_max > r->seconds_max) r->seconds_max = one->seconds_max;
    r->calls += one->calls;
    r->bytes += one->bytes;
    r->big_bytes += one->big_bytes;
    r->overlap += one->overlap;
    for (size_t i = 0; i < NFN; i++) r->fn[i] += one->fn[i];
    for (size_t i = 0; i <= SMALL; i++) r->size[i] += one->size[i];
    for (size_t i = 0; i < 64; i++) {
        r->big[i] += one->big[i];
        r->salign[i] += one->salign[i];
        r->dalign[i] += one->dalign[i];
        r->dist[i] += one->dist[i];
    }
}

/* A library fcbench runs programs with: $ENV, else NAME next to fcbench
 * (the build tree), else the installed path. */
const char *fcbench_find_lib(const char *name, const char *env, const char *installed)
{
    static char path[2][4096];
    static int k;
    char *p = path[k++ & 1];
    const char *e = getenv(env);
    if (e && *e) return e;
    ssize_t len = readlink("/proc/self/exe", p, 4096 - 64);
    if (len > 0) {
        p[len] = 0;
        char *slash = strrchr(p, '/');
        if (slash && strlen(name) < 60) {
            strcpy(slash + 1, name);
            if (access(p, R_OK) == 0) return p;
        }
    }
    return installed;
}

int fcbench_mkdtemp(char *buf, size_t size, const char *stem)
{
    const char *t = getenv("TMPDIR");
    if (!t || t[0] != '/') t = "/tmp";
    int len = snprintf(buf, size, "%s/fcbench-%s.XXXXXX", t, stem);
    if (len < 0 || (size_t)len >= size) len = snprintf(buf, size, "/tmp/fcbench-%s.XXXXXX", stem);
    if (len < 0 || (size_t)len >= size) return errno = ENAMETOOLONG, -1;
    return mkdtemp(buf) ? 0 : -1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The summary, to stdout and to PREFIX.txt. */
static void summary(FILE *o, const struct rec *r, double wall, const char *cmd, const char *comms)
{
    uint64_t calls = r->calls ? r->calls : 1, small_calls = 0, big_calls = 0;
    for (size_t i = 0; i <= SMALL; i++) small_calls += r->size[i];
    for (size_t i = 0; i < 64; i++) big_calls += r->big[i];
    fprintf(o, "# fcbench record: %s\n", cmd);
    fprintf(o, "processes %u (%s)\nwall_seconds %.3f\ncalls %llu\nbytes %llu\ncalls_per_second %.0f\n"
               "bytes_per_second %.0f\n",
            r->procs, comms, wall, (unsigned long long)r->calls, (unsigned long long)r->bytes,
            wall > 0 ? (double)r->calls / wall : 0, wall > 0 ? (double)r->bytes / wall : 0);
    fprintf(o, "mean_bytes %.1f\n", (double)r->bytes / (double)calls);
    fprintf(o, "by_function");
    for (size_t i = 0; i < NFN; i++)
        if (r->fn[i]) fprintf(o, " %s=%.2f%%", fn_names[i], 100.0 * (double)r->fn[i] / (double)calls);
    fprintf(o, "\noverlap_share %.4f%%\n", 100.0 * (double)r->overlap / (double)calls);
    fprintf(o, "above_4096 calls %.4f%% bytes %.2f%%\n", 100.0 * (double)big_calls / (double)calls,
            r->bytes ? 100.0 * (double)r->big_bytes / (double)r->bytes : 0.0);
    for (size_t i = 12; i < 64; i++)
        if (r->big[i])
            fprintf(o, "  log2 %zu (%llu..%llu B): %llu calls\n", i, 1ull << i, (i < 63 ? (1ull << (i + 1)) : 0) - 1,
                    (unsigned long long)r->big[i]);
    /* the ten most frequent sizes */
    fprintf(o, "top_sizes");
    static unsigned char taken[SMALL + 1];
    memset(taken, 0, sizeof taken);
    for (int t = 0; t < 10; t++) {
        size_t best = SMALL + 1;
        for (size_t i = 0; i <= SMALL; i++)
            if (!taken[i] && r->size[i] && (best > SMALL || r->size[i] > r->size[best])) best = i;
        if (best > SMALL) break;
        taken[best] = 1;
        fprintf(o, " %zu:%.1f%%", best, 100.0 * (double)r->size[best] / (double)calls);
    }
    uint64_t le[5] = {0}; /* <= 16, 64, 256, 1024, 4096 */
    const size_t lim[5] = {16, 64, 256, 1024, 4096};
    for (size_t i = 0; i <= SMALL; i++)
        for (int j = 0; j < 5; j++)
            if (i <= lim[j]) le[j] += r->size[i];
    fprintf(o, "\ncumulative <=16 %.1f%% <=64 %.1f%% <=256 %.1f%% <=1024 %.1f%% <=4096 %.1f%%\n",
            100.0 * (double)le[0] / (double)calls, 100.0 * (double)le[1] / (double)calls,
            100.0 * (double)le[2] / (double)calls, 100.0 * (double)le[3] / (double)calls,
            100.0 * (double)le[4] / (double)calls);
    /* alignment: share 0 mod 8, 16, 64 */
    const uint64_t *al[2] = {r->salign, r->dalign};
    for (int s = 0; s < 2; s++) {
        uint64_t m8 = 0, m16 = 0, m64 = al[s][0];
        for (size_t i = 0; i < 64; i += 8) m8 += al[s][i];
        for (size_t i = 0; i < 64; i += 16) m16 += al[s][i];
        fprintf(o, "%s_aligned 8:%.1f%% 16:%.1f%% 64:%.1f%%\n", s ? "dst" : "src", 100.0 * (double)m8 / (double)calls,
                100.0 * (double)m16 / (double)calls, 100.0 * (double)m64 / (double)calls);
    }
    uint64_t near = r->dist[0] + r->dist[63];
    fprintf(o, "dst_minus_src_mod_4096 within 64 B of a multiple of 4096: %.1f%%; 0..255: %.1f%%\n",
            100.0 * (double)near / (double)calls,
            100.0 * (double)(r->dist[0] + r->dist[1] + r->dist[2] + r->dist[3]) / (double)calls);
    (void)small_calls;
}

static void put(FILE *f, const char *key, const uint64_t *v, size_t n)
{
    fputs(key, f);
    for (size_t i = 0; i < n; i++) fprintf(f, " %llu", (unsigned long long)v[i]);
    fputc('\n', f);
}

static void put_probs(FILE *f, const uint64_t *v, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%.6g", i ? "," : "", sum ? (double)v[i] / (double)sum : 0.0);
    fputc('\n', f);
}

int fcbench_record(int argc, char **argv)
{
    const char *prefix = "fcbench-record";
    int i = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-o") && i + 1 < argc) prefix = argv[++i];
    if (i >= argc - 1) {
        fputs("usage: fcbench record [-o PREFIX] -- CMD [ARGS...]\n", stderr);
        return 2;
    }
    char **cmd = argv + i + 1;
    const char *lib = fcbench_find_lib("libfastcopy-record.so", "FCBENCH_RECORD_LIB", FCBENCH_RECORD_INSTALLED);
    if (access(lib, R_OK)) {
        fprintf(stderr, "fcbench record: %s: %s (set FCBENCH_RECORD_LIB)\n", lib, strerror(errno));
        return 2;
    }
    char dir[1024];
    if (fcbench_mkdtemp(dir, sizeof dir, "record")) return perror("fcbench record: a directory for the records"), 2;
    const char *old = getenv("LD_PRELOAD");
    char *pre = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
    if (!pre) return 2;
    sprintf(pre, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) return perror("fcbench record: fork"), 2;
    if (pid == 0) {
        setenv("LD_PRELOAD", pre, 1);
        setenv("FASTCOPY_RECORD_DIR", dir, 1);
        execvp(cmd[0], cmd);
        fprintf(stderr, "fcbench record: %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    double wall = now() - t0;
    free(pre);

    /* every rec.* file: a process's record, added only if it is complete;
     * .rec-tmp.* files: records whose writer did not finish (killed while
     * writing) */
    static struct rec r, one;
    char comms[512] = "", comm[64], path[4200];
    DIR *d = opendir(dir);
    unsigned bad = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        int rec = !strncmp(e->d_name, "rec.", 4), tmp = !strncmp(e->d_name, ".rec-tmp.", 9);
        if (!rec && !tmp) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        strcpy(comm, "?");
        const char *why = tmp ? "unfinished (its process was killed while writing it?)" : read_file(path, &one, comm);
        if (!why) {
            add_rec(&r, &one);
            if (strlen(comms) + strlen(comm) + 2 < sizeof comms) {
                if (!strstr(comms, comm)) sprintf(comms + strlen(comms), "%s%s", *comms ? " " : "", comm);
            }
        } else if (++bad <= 10) {
            fprintf(stderr, "fcbench record: %s: %s: skipped, none of its counts is used\n", e->d_name, why);
        }
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
    if (bad)
        fprintf(stderr, "fcbench record: %u per-process record(s) skipped, %u counted (a process that cannot write its "
                        "record says why on stderr)\n", bad, r.procs);
    if (!r.procs) {
        fprintf(stderr, "fcbench record: no process of `%s` wrote a record (static binary, or none exited normally?)\n",
                cmd[0]);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }

    char cmdline[1024] = "";
    for (char **a = cmd; *a && strlen(cmdline) + strlen(*a) + 2 < sizeof cmdline; a++)
        sprintf(cmdline + strlen(cmdline), "%s%s", *cmdline ? " " : "", *a);
    snprintf(path, sizeof path, "%s.csv", prefix);
    FILE *f = fopen(path, "w");
    if (!f) return perror(path), 2;
    put_probs(f, r.size, SMALL + 1);
    fclose(f);
    snprintf(path, sizeof path, "%s.align.csv", prefix);
    if (!(f = fopen(path, "w"))) return perror(path), 2;
    put_probs(f, r.salign, 64);
    put_probs(f, r.dalign, 64);
    fclose(f);
    snprintf(path, sizeof path, "%s.txt", prefix);
    if (!(f = fopen(path, "w"))) return perror(path), 2;
    summary(f, &r, wall, cmdline, comms);
    fprintf(f, "# raw counts\n");
    put(f, "fn", r.fn, NFN);
    put(f, "size", r.size, SMALL + 1);
    put(f, "big", r.big, 64);
    put(f, "salign", r.salign, 64);
    put(f, "dalign", r.dalign, 64);
    put(f, "dist", r.dist, 64);
    fclose(f);
    summary(stdout, &r, wall, cmdline, comms);
    printf("wrote %s.csv (sizes, llvm-libc format), %s.align.csv, %s.txt\n", prefix, prefix, prefix);
    if (WIFSIGNALED(st)) fprintf(stderr, "fcbench record: %s died of signal %d\n", cmd[0], WTERMSIG(st));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
