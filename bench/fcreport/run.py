"""The fcbench-2 results file: the constants the report reads it with, load_run() (validation, UsageError on bad
input) and Run (one results file, indexed by scenario, with the machine's cache levels, peaks and copy ceilings)."""

import gzip
import json
import os
from collections import defaultdict


SCHEMA = "fcbench-2"
CLIFF_RATIO = 0.8        # fcbench flags a placement below this fraction of aligned speed
BUSY_NOISY, STEAL_NOISY = 0.1, 0.02  # fcbench's "absolute figures are noisy" thresholds
EXACT_MAX = 20           # exact Mann-Whitney distribution up to this many samples per side
# The A/A tolerance: identical code reads apart by the host's noise, which the run's own A/A pair measures (D37)
TARGETS_NOISE = 0.05     # "above glibc": a time ratio above 1 + this, or above the A/A limit (noise_limit)
TARGETS_NOISE_MAX = 0.10  # ... and never more than 1 + this, whatever the A/A pair read
DPI = 90
MIB = 1048576.0
RESULT_KEYS = ("scenario", "contender", "label", "cache", "n", "src_off", "dst_off", "dist", "med_ns", "q1_ns",
               "q3_ns", "gbps", "samples", "iters", "samples_ns")
MACHINE_KEYS = ("cpu", "cpus", "flags", "l1d_bytes", "l2_bytes", "l3_bytes", "libc", "kernel", "machine",
                "fastcopy_version", "fc_active", "timer_resolution_ns")
METHOD_KEYS = ("samples", "min_sample_ns", "cache", "cold_region_bytes", "pinned")
CASE_KEY = ("scenario", "contender", "label", "cache", "n", "src_off", "dst_off", "dist")
LEVELS = ("L1", "L2", "L3", "DRAM")
# (scenario, the result field holding the offset under test, what is tested)
OFFSET_TESTS = (("offsets-read", "src_off", "read (src at the offset)"),
                ("offsets-write", "dst_off", "write (dst at the offset)"),
                ("uaccess-read", "dst_off", "copy_to_user (pread into the user buffer)"),
                ("uaccess-write", "src_off", "copy_from_user (pwrite from the user buffer)"))


# The directory of fcbench_report.py (bench/, or share/fastcopy/ when installed): the schema and the recorded
# distributions are found beside it.
SCRIPT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class UsageError(Exception):
    """A problem with the command line or the input: reported in one line, exit status 2."""


def load_run(path):
    """Reads an fcbench-2 results file; UsageError (not a traceback) when it is not one."""
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
    except (gzip.BadGzipFile, EOFError):
        raise UsageError(f"{path}: not a gzip file, or one cut short") from None
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a results file") from None
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}; a run cut short?)") from None
    if not isinstance(data, dict) or "schema" not in data:
        raise UsageError(f"{path}: not an fcbench results file (no \"schema\" field)")
    if data["schema"] != SCHEMA:
        hint = " - written by an older fcbench; run it again with this one" if data["schema"] == "fcbench-1" else ""
        raise UsageError(f"{path}: schema {data['schema']!r}, this script reads {SCHEMA!r}{hint}")
    for key in ("machine", "method", "contenders", "results", "grids", "cliffs", "peaks"):
        if key not in data:
            raise UsageError(f"{path}: schema {SCHEMA} file without {key!r}")
    for where, obj, keys in (("machine", data["machine"], MACHINE_KEYS), ("method", data["method"], METHOD_KEYS)):
        missing = [k for k in keys if not isinstance(obj, dict) or k not in obj]
        if missing:
            raise UsageError(f"{path}: {where} lacks {', '.join(missing)}")
    for i, r in enumerate(data["results"]):
        missing = [k for k in RESULT_KEYS if not isinstance(r, dict) or k not in r]
        if missing:
            raise UsageError(f"{path}: results[{i}] lacks {', '.join(missing)}")
        if not r["med_ns"] > 0 or not r["samples_ns"]:
            raise UsageError(f"{path}: results[{i}] has no time (med_ns {r['med_ns']}, {len(r['samples_ns'])} samples)")
    return data


# What must agree between the files of one run taken phase by phase (fcbench peak, sizes, ... each with --json).
SAME_MACHINE = ("cpu", "cpus", "flags", "l1d_bytes", "l2_bytes", "l3_bytes", "libc", "kernel", "fastcopy_version",
                "fc_active", "cpu_signature", "fastcopy_settings")
SAME_METHOD = ("samples", "min_sample_ns", "cache", "cold_region_bytes")


def load_runs(paths):
    """One run from one results file, or from several that one machine wrote phase by phase (`fcbench sizes --json
    a.json`, `fcbench cliffs --json b.json`, ...: a lent machine whose time may run out keeps each phase as it ends).
    The files must agree on the machine, the settings, the method and the contenders, and no scenario may come from
    two of them; the merged run keeps the first file's date and the highest background load any file recorded."""
    runs = [load_run(p) for p in paths]
    if len(runs) == 1:
        return runs[0]
    first, seen = runs[0], {}
    merged = dict(first, results=[], grids=[], cliffs=[], peaks=[], machine=dict(first["machine"]),
                  method=dict(first["method"]), scenario="phases", argv=" + ".join(r["argv"] for r in runs))
    for path, data in zip(paths, runs):
        for where, keys in (("machine", SAME_MACHINE), ("method", SAME_METHOD)):
            for k in keys:
                if data[where].get(k) != first[where].get(k):
                    raise UsageError(f"{path}: {where} {k} {data[where].get(k)!r} differs from {paths[0]}'s "
                                     f"{first[where].get(k)!r}: not one machine's run")
        if data["contenders"] != first["contenders"]:
            raise UsageError(f"{path}: other contenders than {paths[0]}'s: not one run")
        for sc in sorted({r["scenario"] for r in data["results"]}):
            if sc in seen:
                raise UsageError(f"{path}: scenario {sc} is also in {seen[sc]}: which one counts?")
            seen[sc] = path
        for key in ("results", "grids", "cliffs", "peaks"):
            merged[key] += data[key]
        for k in ("other_cpus_busy", "steal"):
            if k in data["method"]:
                merged["method"][k] = max(merged["method"].get(k, 0), data["method"][k])
    return merged


class Run:
    """One results file, indexed for the report."""

    def __init__(self, data, path):
        self.data, self.path = data, path
        self.machine, self.method = data["machine"], data["method"]
        self.contenders = list(data["contenders"])
        self.by_scenario = defaultdict(list)
        self.seen = {c: i for i, c in enumerate(self.contenders)}  # contenders, then others by first appearance
        for r in data["results"]:
            self.by_scenario[r["scenario"]].append(r)
            self.seen.setdefault(r["contender"], len(self.seen))

    def results(self, scenario, **match):
        return [r for r in self.by_scenario.get(scenario, ()) if all(r[k] == v for k, v in match.items())]

    def ordered(self, names):
        """names in the run's contender order; others (kernels, pipe) after, in the order the results name them;
        derived names ('kernel-memfd memfd') after their contender."""
        def key(name):
            base = name.split(" ")[0]
            return self.seen.get(name, self.seen.get(base, len(self.seen))), name
        return sorted(set(names), key=key)

    def cache_levels(self):
        """[(level, bytes)] of the known cache levels, smallest first."""
        m = self.machine
        out = [(lv, m.get(key) or 0) for lv, key in (("L1", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))]
        return [(lv, b) for lv, b in out if b > 0]

    def level_of(self, n):
        """The level a hot copy of n bytes lives in: the smallest cache holding src + dst = 2n, else DRAM."""
        for lv, size in self.cache_levels():
            if size >= 2 * n:
                return lv
        return "DRAM"

    def peaks(self):
        return {p["level"]: p for p in self.data["peaks"]}

    def ceilings(self):
        """{n: the best sizes-ceiling kernel's result} - peak's kernels on a hot aligned copy of n, timed in the same
        rounds as `sizes` (runs since 2026-11-25 afternoon; empty before)."""
        out = {}
        for r in self.results("sizes-ceiling", label="aligned", cache="hot"):
            if r["gbps"] > 0 and (r["n"] not in out or r["gbps"] > out[r["n"]]["gbps"]):
                out[r["n"]] = r
        return out

    def ceiling_at(self, n):
        """The copy ceiling for a hot aligned copy of n bytes: the best kernel on n rounded up to a multiple of 256
        B (as fcbench's sizes does); None if the run has none there."""
        return self.ceilings().get((n + 255) & ~255)


def noise_limit(aa):
    """The time ratio beyond which two contenders differ, given aa, the ratio of the A/A pair (the same code under
    two names, same rounds; None or 0 when the run has none): 1 + TARGETS_NOISE, or the pair's spread either way
    round where wider, up to 1 + TARGETS_NOISE_MAX."""
    spread = max(aa, 1 / aa) - 1 if aa and aa > 0 else 0
    return 1 + min(TARGETS_NOISE_MAX, max(TARGETS_NOISE, spread))
