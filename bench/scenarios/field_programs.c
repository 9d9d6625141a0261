/*
 * fcbench field, programs part (scenario field-programs): real, unmodified
 * Debian programs run under glibc and under libfastcopy-preload.so,
 * alternated run by run, their output checked identical, and the time ratio
 * reported with a bootstrap confidence interval (below).
 *
 * The programs are those whose copies `fcbench record` found to be a visible
 * part of their work (bench/distributions/recorded/README.md has their copy
 * rates): sqlite3 and python3 (many copy calls), zstd (many bytes copied),
 * sort (all memmoves of 32-96 B).  Their inputs are generated here with fixed
 * seeds: a text corpus (8 MiB; --quick 2 MiB), an SQL script (100,000 rows;
 * --quick 20,000), a Python script.  A program that is not installed is
 * skipped with a note (make bench installs them: scripts/setup-deps.sh).
 *
 * Each run: fork, exec with stdout into a pipe (hashed: FNV-1a 64) and stderr
 * to /dev/null, wait4 for its CPU time; the wall time from fork to exit.
 * 10 runs each way (--quick: 3), glibc first in odd pairs, the shim first in
 * even ones.  The ratio is median(shim) / median(glibc) of the CPU time (user
 * + system, less disturbed by the host than wall time; wall is reported
 * too); its interval runs from the 2.5th to the 97.5th percentile of the
 * same ratio over 2000 bootstrap resamples of the two sets of runs (fixed
 * seed).
 */
#define _GNU_SOURCE
#include "harness.h"
#include "scenarios.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char sql[] =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v BLOB, n INTEGER);\n"
    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < %u)\n"
    "  INSERT INTO t(k, v, n) SELECT printf('key-%%08d', (i * 7919) %% %u), zeroblob(16 + i %% 200), i %% 977 FROM c;\n"
    "CREATE INDEX tk ON t(k);\n"
    "SELECT n, count(*), sum(length(v)) FROM t GROUP BY n ORDER BY 2 DESC, 1 LIMIT 5;\n"
    "SELECT k FROM t WHERE k LIKE 'key-0001%%' ORDER BY k LIMIT 3;\n"
    "UPDATE t SET v = substr(v, 1, 8) || v WHERE n %% 3 = 0;\n"
    "SELECT count(*), sum(length(v)) FROM t;\n";

static const char py[] =
    "import json, sys\n"
    "data = open(sys.argv[1], 'rb').read()\n"
    "out = bytearray()\n"
    "for i, l in enumerate(data.split(b'\\n')):\n"
    "    out += l[:40] + b'|' + l[-20:]\n"
    "    if i % 4 == 0:\n"
    "        out += bytes(reversed(l[:16]))\n"
    "words = data[:2 << 20].decode().split()\n"
    "doc = [{'w': w, 'i': i, 'u': w.upper()} for i, w in enumerate(words[:100000])]\n"
    "s = json.dumps(doc)\n"
    "print(len(out), len(s), len(json.loads(s)))\n";

enum { MAXRUNS = 16 };

struct prog {
    const char *name, *bin;
    const char *argv[8]; /* "%C" corpus, "%D" database, "%P" python script; stdin_sql: the SQL script on stdin */
    int stdin_sql;
};

static const struct prog progs[] = {
    {"sqlite3", "sqlite3", {"sqlite3", "%D", NULL}, 1},
    {"python3", "/usr/bin/python3", {"/usr/bin/python3", "%P", "%C", NULL}, 0}, /* Debian's, not a PATH shim */
    {"zstd", "zstd", {"zstd", "-3", "-T1", "-q", "-c", "%C", NULL}, 0},
    {"sort", "sort", {"sort", "-S", "64M", "%C", NULL}, 0},
};
#define NPROGS (sizeof progs / sizeof progs[0])

static int write_file(const char *path, const void *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return 0;
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k <= 0) break;
        c += k, n -= (size_t)k;
    }
    close(fd);
    return n == 0;
}

/* The corpus: lines of 3-12 words from a 5000-word vocabulary (xorshift). */
static int make_corpus(const char *path, size_t bytes)
{
    uint64_t s = 88172645463325252ull;
#define XS() (s ^= s << 13, s ^= s >> 7, s ^= s << 17, s)
    static char vocab[5000][12];
    for (int i = 0; i < 5000; i++) {
        int len = 2 + (int)(XS() % 10);
        for (int j = 0; j < len; j++) vocab[i][j] = (char)('a' + XS() % 26);
        vocab[i][len] = 0;
    }
    char *buf = malloc(bytes + 256);
    if (!buf) return 0;
    size_t n = 0;
    while (n < bytes) {
        int words = 3 + (int)(XS() % 10);
        for (int w = 0; w < words; w++) {
            const char *v = vocab[XS() % 5000];
            while (*v) buf[n++] = *v++;
            buf[n++] = w + 1 < words ? ' ' : '\n';
        }
    }
#undef XS
    int ok = write_file(path, buf, n);
    free(buf);
    return ok;
}

static int on_path(const char *bin)
{
    if (strchr(bin, '/')) return access(bin, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, bin);
        if (access(buf, X_OK) == 0) return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}

/* One run; returns 0 on success, with its wall and CPU seconds and the hash of
 * its stdout. */
static int run_once(const struct prog *pg, const char *dir, const char *preload, double *wall, double *cpu,
                    uint64_t *hash)
{
    char corpus[512], db[512], pys[512], sqlp[512], *argv[8];
    snprintf(corpus, sizeof corpus, "%s/corpus.txt", dir);
    snprintf(db, sizeof db, "%s/db.sqlite", dir);
    snprintf(pys, sizeof pys, "%s/bytes.py", dir);
    snprintf(sqlp, sizeof sqlp, "%s/workload.sql", dir);
    unlink(db);
    size_t a = 0;
    for (; pg->argv[a]; a++) {
        const char *v = pg->argv[a];
        argv[a] = (char *)(!strcmp(v, "%C") ? corpus : !strcmp(v, "%D") ? db : !strcmp(v, "%P") ? pys : v);
    }
    argv[a] = NULL;
    int out[2];
    if (pipe(out)) return -1;
    double t0 = now_ns();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0) dup2(nul, 2);
        if (pg->stdin_sql) {
            int in = open(sqlp, O_RDONLY);
            if (in >= 0) dup2(in, 0);
        }
        if (preload)
            setenv("LD_PRELOAD", preload, 1);
        else
            unsetenv("LD_PRELOAD");
        execvp(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    ssize_t k;
    while ((k = read(out[0], buf, sizeof buf)) > 0 || (k < 0 && errno == EINTR))
        for (ssize_t i = 0; i < k; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
    close(out[0]);
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
    }
    *wall = (now_ns() - t0) / 1e9;
    *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
    *hash = h;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(const double *v, unsigned n)
{
    double t[MAXRUNS];
    memcpy(t, v, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_d);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* Bootstrap interval (2.5th-97.5th percentile) of median(b) / median(a). */
static void ratio_ci(const double *a, const double *b, unsigned n, double *lo, double *hi)
{
    enum { R = 2000 };
    static double r[R];
    uint64_t s = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < R; i++) {
        double ra[MAXRUNS], rb[MAXRUNS];
        for (unsigned j = 0; j < n; j++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            ra[j] = a[s % n];
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            rb[j] = b[s % n];
        }
        r[i] = median(rb, n) / median(ra, n);
    }
    qsort(r, R, sizeof *r, cmp_d);
    *lo = r[R * 25 / 1000];
    *hi = r[R * 975 / 1000 - 1];
}

static void record_runs(struct bench_ctx *ctx, const char *name, const char *who, const double *cpu, unsigned n)
{
    struct contender k = {0};
    snprintf(k.name, sizeof k.name, "%s", who);
    struct stats st = {.iters = 1};
    double ns[MAXRUNS];
    for (unsigned i = 0; i < n; i++) ns[i] = cpu[i] * 1e9;
    stats_from_samples(&st, ns, n, 0);
    struct bench_case bc = {.n = 0};
    const char *saved = ctx->label;
    ctx->label = name;
    bench_record(ctx, "field-programs", &k, &bc, &st);
    ctx->label = saved;
}

void field_programs(struct bench_ctx *ctx, const char *preload)
{
    unsigned runs = ctx->opts.quick ? 3 : 10;
    printf("\n== field-programs: Debian programs under glibc and under %s, %u runs each, alternated;\n"
           "   output checked identical; CPU seconds (user + system), medians; ratio = preload / glibc with its\n"
           "   95%% bootstrap interval\n",
           preload ? preload : "(libfastcopy-preload.so not found)", runs);
    if (!preload || access(preload, R_OK)) {
        printf("   skipped: no libfastcopy-preload.so (FCBENCH_PRELOAD_LIB)\n");
        return;
    }
    char dir[256];
    if (fcbench_mkdtemp(dir, sizeof dir, "programs")) {
        printf("   skipped: no directory for the inputs (%s)\n", strerror(errno));
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/corpus.txt", dir);
    int ok = make_corpus(path, (ctx->opts.quick ? (size_t)2 : (size_t)8) << 20);
    snprintf(path, sizeof path, "%s/workload.sql", dir);
    char script[2048];
    unsigned rows = ctx->opts.quick ? 20000 : 100000;
    int len = snprintf(script, sizeof script, sql, rows, rows);
    ok = ok && len > 0 && (size_t)len < sizeof script && write_file(path, script, (size_t)len);
    snprintf(path, sizeof path, "%s/bytes.py", dir);
    ok = ok && write_file(path, py, sizeof py - 1);
    if (!ok) {
        printf("   skipped: cannot write the inputs in %s\n", dir);
        return;
    }
    printf("%-9s %12s %12s %24s %12s %12s  %s\n", "program", "glibc cpu s", "preload", "ratio [95% interval]",
           "glibc wall", "preload", "output");
    for (size_t p = 0; p < NPROGS; p++) {
        const struct prog *pg = &progs[p];
        if (!on_path(pg->bin)) {
            printf("%-9s not installed: skipped\n", pg->name);
            continue;
        }
        progress("field-programs", p, NPROGS);
        double wa[MAXRUNS], wb[MAXRUNS], ca[MAXRUNS], cb[MAXRUNS];
        uint64_t h0 = 0, h;
        int same = 1, failed = 0;
        for (unsigned r = 0; r < runs && !failed; r++)
            for (int side = 0; side < 2; side++) {
                int pre = (r % 2) ? !side : side; /* glibc first in even pairs */
                double w, c;
                if (run_once(pg, dir, pre ? preload : NULL, &w, &c, &h)) {
                    failed = 1;
                    break;
                }
                if (r == 0 && side == 0) h0 = h;
                same &= h == h0;
                (pre ? wb : wa)[r] = w;
                (pre ? cb : ca)[r] = c;
            }
        if (failed) {
            printf("%-9s failed (exit status), skipped\n", pg->name);
            continue;
        }
        double lo, hi;
        ratio_ci(ca, cb, runs, &lo, &hi);
        double ma = median(ca, runs), mb = median(cb, runs);
        printf("%-9s %12.3f %12.3f %8.3fx [%.3f, %.3f] %12.3f %12.3f  %s\n", pg->name, ma, mb, mb / ma, lo, hi,
               median(wa, runs), median(wb, runs), same ? "identical" : "DIFFERS");
        if (!same) fprintf(stderr, "fcbench field-programs: %s: output differs between runs\n", pg->name);
        record_runs(ctx, pg->name, "libc", ca, runs);
        record_runs(ctx, pg->name, "preload", cb, runs);
    }
    snprintf(path, sizeof path, "%s/corpus.txt", dir), unlink(path);
    snprintf(path, sizeof path, "%s/workload.sql", dir), unlink(path);
    snprintf(path, sizeof path, "%s/bytes.py", dir), unlink(path);
    snprintf(path, sizeof path, "%s/db.sqlite", dir), unlink(path);
    rmdir(dir);
}
