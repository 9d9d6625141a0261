// SPDX-License-Identifier: GPL-2.0-only
/*
 * fastcopy's kernel test harness: not part of the patch series.
 * kernel/test/run.sh copies it to lib/fastcopy_harness.c of both the stock
 * and the patched tree.  Command-line parameters:
 *
 *   fastcopy_harness.misaligned=slow
 *	After the boot-time probe (arch_initcall_sync) and before the KUnit
 *	suites (which run after all initcalls), turn
 *	fast_unaligned_access_speed_key off: the copy routines then take the
 *	paths of a CPU whose misaligned accesses are slow.  QEMU 7.2 has no
 *	way to make misaligned accesses trap or slow, and its probe reports
 *	them fast.
 *
 *   fastcopy_harness.bench=1
 *	Seed 000's measurement from inside the kernel: memcpy of 400 MB
 *	(100 copies of 4 MiB) with both buffers aligned, then with the source
 *	one byte off (dst aligned).  Each phase is bracketed by calls to
 *	fastcopy_bench_mark(), where a QEMU TCG plugin (kernel/test/
 *	insn-count.c) reads and resets its instruction counters.
 */

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>

static char *misaligned = "probe";
module_param(misaligned, charp, 0444);
static bool bench;
module_param(bench, bool, 0444);

#define BENCH_BYTES	(4UL << 20)
#define BENCH_ROUNDS	100

noinline void fastcopy_bench_mark(void)
{
	/* The plugin counts between executions of this function. */
	barrier();
}

static void bench_phase(const char *name, u8 *dst, const u8 *src)
{
	int i;

	pr_info("fastcopy-harness: phase %s bytes=%lu copies=%d\n", name,
		BENCH_BYTES, BENCH_ROUNDS);
	fastcopy_bench_mark();
	for (i = 0; i < BENCH_ROUNDS; i++)
		memcpy(dst, src, BENCH_BYTES);
	fastcopy_bench_mark();
}

static int __init fastcopy_harness_init(void)
{
	bool fast = false;
	u8 *src, *dst;

#ifdef CONFIG_RISCV_PROBE_UNALIGNED_ACCESS
	if (!strcmp(misaligned, "slow"))
		static_branch_disable(&fast_unaligned_access_speed_key);
	fast = static_branch_unlikely(&fast_unaligned_access_speed_key);
#endif
	pr_info("fastcopy-harness: misaligned=%s fast_unaligned_access_speed_key=%s\n",
		misaligned, fast ? "on" : "off");

	if (!bench)
		return 0;
	src = vmalloc(BENCH_BYTES + 64);
	dst = vmalloc(BENCH_BYTES + 64);
	if (!src || !dst) {
		pr_err("fastcopy-harness: no memory for the benchmark\n");
		goto out;
	}
	memset(src, 0x5a, BENCH_BYTES + 64);
	memset(dst, 0, BENCH_BYTES + 64);
	bench_phase("memcpy-aligned", dst, src);
	bench_phase("memcpy-unaligned", dst, src + 1);
	pr_info("fastcopy-harness: bench done\n");
out:
	vfree(src);
	vfree(dst);
	return 0;
}
late_initcall(fastcopy_harness_init);
