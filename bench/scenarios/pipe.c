/*
 * fcbench pipe: lmbench bw_pipe-style pipe bandwidth, messages 32 B .. 64 KiB.
 */
#include "harness.h"
#include "scenarios.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * pipe: lmbench bw_pipe-style bandwidth.  A child process writes messages of
 * m bytes into a pipe, the parent reads them m bytes at a time; both sides'
 * copies are the kernel's copy_from_user / copy_to_user (plus the pipe's own
 * bookkeeping and, on one CPU, the context switches).  A sample: the parent
 * asks for `count` messages over a control pipe and times until it has read
 * them all; count is scaled so a sample lasts two milliseconds or more.  The
 * child runs on another CPU when there is one (the parent stays pinned), as
 * lmbench's processes would.
 */
static int read_full(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r <= 0) return 0;
        got += (size_t)r;
    }
    return 1;
}

static void pipe_child(int ctl, int data, size_t m)
{
    unsigned char *buf = bench_alloc(m + 4096);
    for (size_t i = 0; i < m; i++) buf[i] = (unsigned char)(i * 7 + 1);
    uint64_t count;
    while (read_full(ctl, &count, sizeof count) && count)
        for (uint64_t i = 0; i < count; i++)
            for (size_t put = 0; put < m;) {
                ssize_t w = write(data, buf + put, m - put);
                if (w <= 0) _exit(1);
                put += (size_t)w;
            }
    _exit(0);
}

/* Time to move `count` messages, or < 0 on failure (and the data checked once). */
static double pipe_sample(int ctl, int data, unsigned char *buf, size_t m, uint64_t count, int check)
{
    double t0 = now_ns();
    if (write(ctl, &count, sizeof count) != (ssize_t)sizeof count) return -1;
    for (uint64_t i = 0; i < count; i++) {
        if (!read_full(data, buf, m)) return -1;
        if (check && i == 0)
            for (size_t k = 0; k < m; k++)
                if (buf[k] != (unsigned char)(k * 7 + 1)) return -1;
    }
    return now_ns() - t0;
}

void scenario_pipe(struct bench_ctx *ctx)
{
    printf("\n== pipe: lmbench bw_pipe style, writer process -> pipe -> reader (this process); MiB/sec\n"
           "   (the child on another CPU when there is one; a sample moves >= 2 ms of messages; median)\n");
    struct contender pc = {.name = "pipe"};
    size_t nmsg = 0;
    for (size_t m = 32; m <= 65536; m *= 2) nmsg++;
    unsigned char *buf = bench_alloc(65536 + 4096);
    size_t i = 0;
    for (size_t m = 32; m <= 65536; m *= 2, i++) {
        progress("pipe", i, nmsg);
        int ctl[2], data[2];
        if (pipe(ctl) || pipe(data)) {
            perror("fcbench pipe");
            return;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fcbench pipe: fork");
            return;
        }
        if (pid == 0) {
            cpu_set_t all;
            CPU_ZERO(&all);
            for (int c = 0; c < CPU_SETSIZE; c++) CPU_SET(c, &all);
            int mine = sched_getcpu();
            if (sysconf(_SC_NPROCESSORS_ONLN) > 1 && mine >= 0) CPU_CLR(mine, &all);
            sched_setaffinity(0, sizeof all, &all);
            close(ctl[1]);
            close(data[0]);
            pipe_child(ctl[0], data[1], m);
        }
        close(ctl[0]);
        close(data[1]);
        uint64_t count = 16;
        double t = pipe_sample(ctl[1], data[0], buf, m, count, 1);
        while (t >= 0 && t < 2e6) {
            count = (uint64_t)((double)count * (t > 0 ? 2.4e6 / t : 16)) + 1;
            t = pipe_sample(ctl[1], data[0], buf, m, count, 0);
        }
        double ns[MAX_SAMPLES];
        unsigned k = ctx->opts.samples < MAX_SAMPLES ? ctx->opts.samples : MAX_SAMPLES;
        for (unsigned s = 0; s < k && t >= 0; s++) {
            t = pipe_sample(ctl[1], data[0], buf, m, count, 0);
            ns[s] = t / (double)count;
        }
        uint64_t stop = 0;
        if (write(ctl[1], &stop, sizeof stop) < 0) t = -1;
        close(ctl[1]);
        close(data[0]);
        int status;
        waitpid(pid, &status, 0);
        if (t < 0) {
            fprintf(stderr, "fcbench pipe: message size %zu: transfer failed or data wrong\n", m);
            continue;
        }
        struct stats st = {.iters = count};
        stats_from_samples(&st, ns, k, (double)m);
        struct bench_case bc = {.dst = buf, .src = buf, .n = m};
        bench_record(ctx, "pipe", &pc, &bc, &st);
        printf("pipe: message size %6zu: %10.2f MiB/sec  (%8.1f ns per message, IQR %.1f..%.1f)\n", m,
               (double)m / 1048576.0 / (st.med_ns / 1e9), st.med_ns, st.q1_ns, st.q3_ns);
    }
    munmap(buf, 65536 + 4096);
}
