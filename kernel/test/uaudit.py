#!/usr/bin/env python3
"""The patched kernel memcpy under scripts/rv-audit's TCG plugin in user space.

  uaudit.py UMEMCPY PLUGIN.so

Runs `qemu-riscv64 -plugin PLUGIN.so UMEMCPY audit` (kernel/test/umemcpy.c),
pairs each "case" line with the plugin's region line, and:
  - fails if the key-off variant ("slow", the one for CPUs whose misaligned
    accesses trap or are slow) makes a single misaligned load or store, in any
    of n = 0..300, 511-513, 1024, 4096 at every src/dst offset pair 0..7;
  - prints instructions per byte beside fastcopy's own rv64 routines' figures
    (docs/riscv.md), for the record.
Instruction counts under QEMU are deterministic; they are not speed.
"""
import subprocess
import sys
import tempfile

FIELDS = ("insns", "loads", "stores", "mis", "vmis", "vwide", "ldbytes", "stbytes")


def main():
    umemcpy, plugin = sys.argv[1], sys.argv[2]
    with tempfile.NamedTemporaryFile("r", suffix=".log") as log:
        p = subprocess.run(["qemu-riscv64", "-plugin", plugin, "-d", "plugin", "-D", log.name, umemcpy, "audit"],
                           capture_output=True, text=True)
        regions = [dict(zip(FIELDS, map(int, l.split()[1:]))) for l in log if l.startswith("R ")]
    if p.returncode != 0:
        sys.exit("uaudit: umemcpy audit failed (%d): %s" % (p.returncode, (p.stdout + p.stderr).strip()[-500:]))
    cases = [l.split()[1:] for l in p.stdout.splitlines() if l.startswith("case ")]
    if len(cases) != len(regions) or not cases:
        sys.exit("uaudit: %d cases but %d plugin regions" % (len(cases), len(regions)))
    res = {}
    for (v, n, so, do), r in zip(cases, regions):
        res[(v, int(n), int(so), int(do))] = r
    bad = 0
    for v in ("slow", "fast"):
        mis = sum(r["mis"] for k, r in res.items() if k[0] == v)
        calls = sum(1 for k in res if k[0] == v)
        print("uaudit: %s: %d calls, %d misaligned scalar accesses" % (v, calls, mis))
        if v == "slow" and mis:
            bad = 1
            worst = [k for k, r in res.items() if k[0] == v and r["mis"]][:5]
            print("uaudit: FAIL: the key-off memcpy made misaligned accesses, e.g. %s" % worst)

    def ipb(v, n, pairs):
        return max(res[(v, n, so, do)]["insns"] for so, do in pairs) / n

    co = [(k, k) for k in range(8)]
    mut = [(so, do) for so in range(8) for do in range(8) if so != do]
    print("uaudit: instructions/byte (worst over the offset pairs)   key off   key on")
    for n in (512, 1024, 4096):
        print("uaudit:   n=%-5d co-aligned %.3f  %.3f   mutually misaligned %.3f  %.3f" % (
            n, ipb("slow", n, co), ipb("fast", n, co), ipb("slow", n, mut), ipb("fast", n, mut)))
    for n in (32, 64):
        print("uaudit:   n=%-5d both aligned: %d / %d instructions" % (
            n, res[("slow", n, 0, 0)]["insns"], res[("fast", n, 0, 0)]["insns"]))
    return bad


if __name__ == "__main__":
    sys.exit(main())
