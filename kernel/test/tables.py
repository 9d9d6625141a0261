#!/usr/bin/env python3
"""Turn the instruction-count boots of kernel/test/run.sh --bench into the
seed tables of docs/kernel.md.

  tables.py BENCHDIR      (holds KERNEL.log and KERNEL.counts for stock, patched-slow, patched-fast)

Each phase that the guest announces (harness: "fastcopy-harness: phase NAME",
/init: "fastcopy-init: phase NAME") is bracketed by two marks of the plugin
(kernel/test/insn-count.c); the counts on the second mark are the phase's.
The counts are QEMU TCG instructions executed inside the copy functions'
symbol ranges: instruction counts, not time.
"""
import re
import sys
from pathlib import Path

NOTE = ("QEMU TCG instruction counts inside the copy functions (qemu-system-riscv64 7.2, "
        "rv64 `-M virt`): not time on hardware.")


def phases(log):
    names = []
    for line in Path(log).read_text(errors="replace").splitlines():
        m = re.search(r"fastcopy-(?:harness|init): phase (\S+)", line)
        if m:
            names.append(m.group(1))
    return names


def marks(counts):
    out = []
    for line in Path(counts).read_text().splitlines():
        if line.startswith("mark "):
            out.append({k: int(v) for k, v in re.findall(r"(\S+)=(\d+)", line)})
    return out


def load(d, kernel):
    names = phases(d / f"{kernel}.log")
    ms = marks(d / f"{kernel}.counts")
    if len(ms) != 2 * len(names):
        sys.exit(f"tables: {kernel}: {len(names)} phases but {len(ms)} marks")
    return {n: ms[2 * i + 1] for i, n in enumerate(names)}


def config(d, kernel):
    text = (d / f"{kernel}.log").read_text(errors="replace")
    m = re.search(r"bench-config pipe-iterations=(\d+) file-iterations=(\d+)", text)
    b = re.search(r"phase memcpy-aligned bytes=(\d+) copies=(\d+)", text)
    if not m or not b:
        sys.exit(f"tables: {kernel}: no bench-config / harness phase line")
    return int(m.group(1)), int(m.group(2)), int(b.group(1)), int(b.group(2))


KERNELS = ("stock", "patched-slow", "patched-fast")
HEAD = "stock | patched, slow | patched, fast"


def main():
    d = Path(sys.argv[1])
    t = {k: load(d, k) for k in KERNELS}
    pipe_n, file_n, mbytes, mrounds = config(d, "patched-slow")
    out = []
    w = out.append
    w(f"*{NOTE}* \"patched, slow\": `fast_unaligned_access_speed_key` off (the seeds' shifted copy); "
      "\"patched, fast\": on, as QEMU's probe sets it (loads from the misaligned source).\n")
    w("**Seed 000** - `memcpy` of 400 MB inside the kernel "
      f"({mrounds} copies of {mbytes >> 20} MiB, `fastcopy_harness.bench=1`), instructions per byte in `__memcpy`:\n")
    w(f"| copy | {HEAD} | slow / stock | fast / stock |")
    w("|---|---:|---:|---:|---:|---:|")
    total = mbytes * mrounds
    for ph, label in (("memcpy-aligned", "aligned"), ("memcpy-unaligned", "unaligned (src + 1)")):
        v = [t[k][ph]["memcpy"] for k in KERNELS]
        w(f"| {label} | " + " | ".join(f"{x / total:.3f}" for x in v) +
          f" | {v[1] / v[0]:.2f} | {v[2] / v[0]:.2f} |")
    w("")
    w("**Seed 001** - pipe messages (`bw_pipe -m 32/64` shape: write then read through a pipe, "
      f"{pipe_n} messages), instructions in the user-copy routine per message "
      "(`copy_from_user` on write + `copy_to_user` on read: one symbol range, `__asm_copy_to_user`):\n")
    w(f"| message | {HEAD} | patched / stock |")
    w("|---|---:|---:|---:|---:|")
    for m in (32, 64):
        v = [t[k][f"pipe-{m}"]["uaccess"] / pipe_n for k in KERNELS]
        w(f"| {m} B | " + " | ".join(f"{x:.1f}" for x in v) + f" | {v[1] / v[0]:.2f} |")
    w("")
    w("**Seed 003** - the per-offset copy_to_user/copy_from_user benchmark the 2021 thread asked for, "
      f"in its format (`pread`/`pwrite` of a tmpfs file into a user buffer at offset 0-7, {file_n} calls each; "
      "instructions in `__asm_copy_to_user` per call, and per byte):\n")
    w("```")
    test = 0
    rows = []
    for kind, fn in (("read", "copy_to_user"), ("write", "copy_from_user")):
        for size in (8192, 16384):
            test += 1
            for off in range(8):
                ph = f"{kind}-{size}-{off}"
                vals = []
                for k in KERNELS:
                    n = t[k][ph]["uaccess"] / file_n
                    vals.append(n)
                    w(f"test {test}: copier {k}: offset {off}, size {size}: "
                      f"{n:,.0f} instructions, {n / size:.3f} instructions/byte ({fn})")
                rows.append((kind, size, off, vals))
    w("```\n")
    slash = HEAD.replace(" | ", " / ")
    w(f"| direction | size | offset 0: {slash} (insn/B) | offsets 1-7, worst: {slash} (insn/B) |")
    w("|---|---:|---|---|")
    for kind in ("read", "write"):
        for size in (8192, 16384):
            r = [x for x in rows if x[0] == kind and x[1] == size]
            first = " / ".join(f"{v / size:.3f}" for v in r[0][3])
            worst = " / ".join(f"{max(x[3][i] for x in r[1:]) / size:.3f}" for i in range(3))
            fn = "copy_to_user" if kind == "read" else "copy_from_user"
            w(f"| {kind} ({fn}) | {size} | {first} | {worst} |")
    text = "\n".join(out) + "\n"
    (d / "tables.md").write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
