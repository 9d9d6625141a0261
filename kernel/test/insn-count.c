/*
 * insn-count.c - QEMU TCG plugin: count guest instructions executed inside
 * given virtual address ranges, with phase markers.
 *
 * Written against the plugin API of QEMU 7.2 (QEMU_PLUGIN_VERSION 1, as in
 * Debian 12's qemu-system-misc / qemu-user).
 *
 * Build (Debian ships no qemu-plugin.h; the script fetches the one matching
 * the installed qemu from the Debian source package):
 *   apt-get install libglib2.0-dev      # only for the cflags, glib is unused
 *   kernel/test/get-qemu-plugin-h.sh /tmp/qemu-inc
 *   gcc -shared -fPIC -O2 -Wall -Wextra -Werror $(pkg-config --cflags glib-2.0) \
 *       -I/tmp/qemu-inc -o libinsn.so kernel/test/insn-count.c
 *
 * Use (QEMU 7.2 syntax: plugin arguments follow the file name directly;
 * the older "arg=range=..." form still works in 7.2 but warns "deprecated"):
 *   qemu-system-riscv64 ... -plugin ./libinsn.so,range=memcpy:ffffffff80a1b2c0:ffffffff80a1b3f0,range=__memcpy:ffffffff80a1b2c0:ffffffff80a1b3f0,mark=ffffffff80003a10,out=counts.txt
 *   (also: -plugin file=./libinsn.so,range=...)
 *
 * Arguments (repeatable ones may be given many times):
 *   range=NAME:START:END  hex virtual addresses (0x optional), END exclusive.
 *                         Up to MAX_RANGES ranges; ranges may overlap or be
 *                         identical (aliases): each range counts on its own.
 *   mark=ADDR             hex address. Each time the instruction at ADDR
 *                         executes, print "mark <n> name=count ..." with every
 *                         range's count since the previous mark (or the
 *                         start) and reset the counts. n starts at 1.  The
 *                         mark instruction itself, if inside a range, is
 *                         counted in the interval that it starts.
 *   out=PATH              output file; "out=-" writes to stderr directly.
 *                         Default: qemu_plugin_outs(), i.e. QEMU's log, which
 *                         is only written with "-d plugin" (to stderr, or to
 *                         the "-D logfile" file).
 * At exit one more line is printed: "exit name=count ..." (counts since the
 * last mark).
 *
 * Counting is per executed instruction, decided per instruction with
 * qemu_plugin_insn_vaddr() (a TB may start inside a range or straddle its
 * bounds), with inline adds (no helper call) for instructions inside ranges;
 * instructions outside every range get no instrumentation at all.
 * Notes:
 *  - an instruction that raises an exception (e.g. a page fault) and is
 *    re-executed after the handler is counted each time it is started.
 *  - counters are plain (non-atomic) globals: exact for one vCPU, or for any
 *    -smp with "-accel tcg,thread=single" (counts are then summed over
 *    vCPUs); with multi-threaded TCG and -smp > 1 they may lose increments.
 *  - the counts are as deterministic as the guest execution: in system mode,
 *    timer interrupts follow host time unless run with e.g.
 *    "-icount shift=0,sleep=off,align=off" (and no asynchronous disk I/O).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_RANGES 64
#define MAX_MARKS 64
#define MAX_NAME 128

struct range {
    char name[MAX_NAME];
    uint64_t start, end;        /* [start, end) */
};

static struct range ranges[MAX_RANGES];
static int n_ranges;
/* One counter per range, each on its own cache line. */
static struct {
    uint64_t v;
    char pad[56];
} counts[MAX_RANGES];

static uint64_t marks[MAX_MARKS];
static int n_marks;
static uint64_t mark_no;

static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* Format "<prefix> name=count ..." and reset the counters; out_lock held. */
static void emit_line(const char *prefix)
{
    size_t cap = 64 + (size_t)n_ranges * (MAX_NAME + 24);
    char *buf = malloc(cap);
    size_t len;
    int i;

    if (!buf) {
        return;
    }
    len = (size_t)snprintf(buf, cap, "%s", prefix);
    for (i = 0; i < n_ranges && len < cap; i++) {
        len += (size_t)snprintf(buf + len, cap - len, " %s=%" PRIu64,
                                ranges[i].name, counts[i].v);
        counts[i].v = 0;
    }
    if (len < cap - 1) {
        buf[len++] = '\n';
        buf[len] = '\0';
    }
    if (out) {
        fputs(buf, out);
    } else {
        qemu_plugin_outs(buf);
    }
    free(buf);
}

/*
 * Executed (before the instruction) for each mark instruction. The mark
 * instruction gets no inline adds; it is counted here after the reset, so
 * the result does not depend on the order in which QEMU emits inline ops and
 * callbacks.
 */
static void mark_cb(unsigned int vcpu_index, void *udata)
{
    uint64_t addr = *(const uint64_t *)udata;
    char prefix[48];
    int i;

    (void)vcpu_index;
    pthread_mutex_lock(&out_lock);
    snprintf(prefix, sizeof(prefix), "mark %" PRIu64, ++mark_no);
    emit_line(prefix);
    for (i = 0; i < n_ranges; i++) {
        if (addr >= ranges[i].start && addr < ranges[i].end) {
            counts[i].v++;
        }
    }
    pthread_mutex_unlock(&out_lock);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    size_t i;
    int r, m;

    (void)id;
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t va = qemu_plugin_insn_vaddr(insn);

        for (m = 0; m < n_marks; m++) {
            if (marks[m] == va) {
                break;
            }
        }
        if (m < n_marks) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_cb,
                                                   QEMU_PLUGIN_CB_NO_REGS,
                                                   &marks[m]);
            continue;
        }
        for (r = 0; r < n_ranges; r++) {
            if (va >= ranges[r].start && va < ranges[r].end) {
                qemu_plugin_register_vcpu_insn_exec_inline(
                    insn, QEMU_PLUGIN_INLINE_ADD_U64, &counts[r].v, 1);
            }
        }
    }
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
    (void)id;
    (void)p;
    pthread_mutex_lock(&out_lock);
    emit_line("exit");
    if (out) {
        if (out != stderr) {
            fclose(out);
        } else {
            fflush(out);
        }
        out = NULL;
    }
    pthread_mutex_unlock(&out_lock);
}

static int parse_hex(const char *s, uint64_t *v)
{
    char *end;

    if (!*s) {
        return -1;
    }
    errno = 0;
    *v = strtoull(s, &end, 16);
    return (errno || *end) ? -1 : 0;
}

static int err(const char *what, const char *arg)
{
    fprintf(stderr, "insn-count: %s: '%s'\n", what, arg);
    return -1;
}

static int parse_range(const char *arg)
{
    char buf[512];
    char *c2, *c1;
    struct range *rg;
    int i;

    if (n_ranges >= MAX_RANGES) {
        return err("too many ranges (max 64)", arg);
    }
    if (strlen(arg) >= sizeof(buf)) {
        return err("range argument too long", arg);
    }
    strcpy(buf, arg);
    c2 = strrchr(buf, ':');
    if (!c2) {
        return err("expected range=NAME:START:END", arg);
    }
    *c2 = '\0';
    c1 = strrchr(buf, ':');
    if (!c1) {
        return err("expected range=NAME:START:END", arg);
    }
    *c1 = '\0';
    rg = &ranges[n_ranges];
    if (!buf[0] || strlen(buf) >= MAX_NAME || strpbrk(buf, " \t\n=")) {
        return err("bad range name (empty, too long, or has blank/'=')", arg);
    }
    if (parse_hex(c1 + 1, &rg->start) || parse_hex(c2 + 1, &rg->end) ||
        rg->start >= rg->end) {
        return err("bad range addresses (hex START < END expected)", arg);
    }
    for (i = 0; i < n_ranges; i++) {
        if (!strcmp(ranges[i].name, buf)) {
            return err("duplicate range name", arg);
        }
    }
    strcpy(rg->name, buf);
    n_ranges++;
    return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *out_path = NULL;
    int i;

    (void)info;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];

        if (!strncmp(a, "range=", 6)) {
            if (parse_range(a + 6)) {
                return -1;
            }
        } else if (!strncmp(a, "mark=", 5)) {
            if (n_marks >= MAX_MARKS) {
                return err("too many marks (max 64)", a);
            }
            if (parse_hex(a + 5, &marks[n_marks])) {
                return err("bad mark address (hex expected)", a);
            }
            n_marks++;
        } else if (!strncmp(a, "out=", 4) && a[4]) {
            out_path = a + 4;
        } else {
            return err("unknown argument (range=, mark=, out=)", a);
        }
    }
    if (n_ranges == 0) {
        fprintf(stderr, "insn-count: no range=NAME:START:END given\n");
        return -1;
    }
    if (out_path && !strcmp(out_path, "-")) {
        out = stderr;
    } else if (out_path) {
        out = fopen(out_path, "w");
        if (!out) {
            fprintf(stderr, "insn-count: cannot open '%s': %s\n", out_path,
                    strerror(errno));
            return -1;
        }
        setvbuf(out, NULL, _IOLBF, 0);
    }

    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
