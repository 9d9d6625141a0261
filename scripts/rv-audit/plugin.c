/*
 * rv-audit QEMU TCG plugin (host code; built by scripts/rv-audit.py with the
 * host C compiler, loaded with `qemu-riscv64 -plugin rv-audit-plugin.so
 * -d plugin -D LOG`).  Counts, for each region of guest execution between a
 * call to fc_audit_begin() and the next call to fc_audit_end() (see
 * driver.c), excluding the instructions of those two functions and of the
 * driver's fc_audit_call():
 *
 *   insns      dynamic instructions executed
 *   loads      load instructions executed (scalar and vector)
 *   stores     store instructions executed (scalar and vector)
 *   smis       misaligned scalar accesses (address % size != 0)
 *   vmis       element-misaligned vector element accesses at EEW > 8
 *   vwide      vector element accesses at EEW > 8
 *   ldbytes    bytes loaded, stbytes bytes stored
 *
 * and prints one line per region: "R insns loads stores smis vmis vwide
 * ldbytes stbytes".  Addresses come from QEMU's memory callbacks, which see
 * every guest access, including each element of a vector load/store (QEMU
 * never traps a misaligned access in user mode, so they must be counted).
 *
 * The QEMU plugin API (QEMU_PLUGIN_VERSION 1, QEMU 7.2) is declared below:
 * Debian ships the plugin-enabled qemu-user but not its qemu-plugin.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- the QEMU plugin ABI this file uses (QEMU 7.2) ---- */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
typedef struct {
    const char *target_name;
    struct {
        int min, cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus, max_vcpus;
        } system;
    };
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int, void *);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, qemu_plugin_vcpu_udata_cb_t,
                                          enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, qemu_plugin_vcpu_mem_cb_t, enum qemu_plugin_cb_flags,
                                      enum qemu_plugin_mem_rw, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t);
void qemu_plugin_outs(const char *);
#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);

/* ---- state (qemu-user runs the driver on one vCPU) ---- */
static int active;
static uint64_t insns, loads, stores, smis, vmis, vwide, ldbytes, stbytes;

enum { TB_PLAIN, TB_BEGIN, TB_END };
struct tb_info {
    int kind;
    uint32_t insns, loads, stores; /* counted instructions of this TB */
};
#define MAX_TB_INFO (1 << 20)
static struct tb_info tb_infos[MAX_TB_INFO];
static size_t n_tb_infos;

enum { ACC_SCALAR = 1, ACC_VECTOR = 2 };

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)vcpu;
    if (!active) return;
    unsigned size = 1u << qemu_plugin_mem_size_shift(info);
    if (qemu_plugin_mem_is_store(info))
        stbytes += size;
    else
        ldbytes += size;
    if ((uintptr_t)udata == ACC_VECTOR) {
        if (size > 1) {
            vwide++;
            if (vaddr & (size - 1)) vmis++;
        }
    } else if (vaddr & (size - 1)) {
        smis++;
    }
}

static void on_tb(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    const struct tb_info *t = udata;
    if (t->kind == TB_BEGIN) {
        active = 1;
        insns = loads = stores = smis = vmis = vwide = ldbytes = stbytes = 0;
        return;
    }
    if (t->kind == TB_END) {
        if (active) {
            char line[256];
            snprintf(line, sizeof line, "R %llu %llu %llu %llu %llu %llu %llu %llu\n", (unsigned long long)insns,
                     (unsigned long long)loads, (unsigned long long)stores, (unsigned long long)smis,
                     (unsigned long long)vmis, (unsigned long long)vwide, (unsigned long long)ldbytes,
                     (unsigned long long)stbytes);
            qemu_plugin_outs(line);
        }
        active = 0;
        return;
    }
    if (active) {
        insns += t->insns;
        loads += t->loads;
        stores += t->stores;
    }
}

static int target_aarch64; /* else riscv64 */

/* AArch64: 0 not memory, 1 load, 2 store; *vec set for SVE loads/stores.
 * SVE memory encodings have bits 28:25 = 0010 (stores: bits 31:29 = 111);
 * the base load/store group has bit 27 = 1, bit 25 = 0, and for the forms
 * copy code uses (ldr/str of b, h, w, x, q; ldp/stp; ld1/st1) bit 22 tells a
 * load from a store (the sign-extending loads and prefetches it would call
 * stores do not occur in the routines audited). */
static int classify_a64(uint32_t w, int *vec)
{
    if (((w >> 25) & 0xf) == 0x2 && (w >> 29) >= 4) {
        *vec = 1;
        return (w >> 29) == 7 ? 2 : 1;
    }
    if (((w >> 25) & 0x5) == 0x4) return (w >> 22) & 1 ? 1 : 2;
    return 0;
}

/* 0 not memory, 1 load, 2 store; *vec set for RVV loads/stores. */
static int classify(const uint8_t *b, size_t size, int *vec)
{
    *vec = 0;
    if (target_aarch64) {
        if (size != 4) return 0;
        return classify_a64((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24, vec);
    }
    if (size == 2) {
        unsigned h = (unsigned)b[0] | (unsigned)b[1] << 8, q = h & 3, f3 = h >> 13;
        if (q == 0) return (f3 >= 1 && f3 <= 3) ? 1 : (f3 >= 5) ? 2 : 0; /* c.fld c.lw c.ld | c.fsd c.sw c.sd */
        if (q == 2) return (f3 >= 1 && f3 <= 3) ? 1 : (f3 >= 5) ? 2 : 0; /* ...sp forms */
        return 0;
    }
    uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    unsigned op = w & 0x7f, width = (w >> 12) & 7;
    switch (op) {
    case 0x03: return 1;                 /* LOAD */
    case 0x23: return 2;                 /* STORE */
    case 0x2f: return 1;                 /* AMO: counted as a load */
    case 0x07:                           /* LOAD-FP: vector when width is 0, 5, 6, 7 */
        *vec = width == 0 || width >= 5;
        return 1;
    case 0x27:
        *vec = width == 0 || width >= 5;
        return 2;
    default: return 0;
    }
}

static int sym_is(const char *s, const char *name) { return s && strcmp(s, name) == 0; }

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (n_tb_infos == MAX_TB_INFO) return; /* never in practice: the driver is small */
    struct tb_info *t = &tb_infos[n_tb_infos++];
    memset(t, 0, sizeof *t);
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const char *sym = qemu_plugin_insn_symbol(insn);
        if (i == 0 && sym_is(sym, "fc_audit_begin")) t->kind = TB_BEGIN;
        if (i == 0 && sym_is(sym, "fc_audit_end")) t->kind = TB_END;
        if (sym_is(sym, "fc_audit_begin") || sym_is(sym, "fc_audit_end") || sym_is(sym, "fc_audit_call")) continue;
        int vec, kind = classify(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn), &vec);
        t->insns++;
        if (kind == 1) t->loads++;
        if (kind == 2) t->stores++;
        if (kind)
            qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                             (void *)(uintptr_t)(vec ? ACC_VECTOR : ACC_SCALAR));
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, t);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!info || !info->target_name) return -1;
    if (strcmp(info->target_name, "aarch64") == 0) target_aarch64 = 1;
    else if (strcmp(info->target_name, "riscv64") != 0) return -1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
    return 0;
}
