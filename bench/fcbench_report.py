#!/usr/bin/env python3
"""fcbench_report.py - HTML reports and run comparisons for fcbench results.

fcbench writes its measurements as JSON (schema "fcbench-2": see
fcbench.schema.json next to this file).  `fcbench report` and `fcbench
compare` exec this script with their remaining arguments:

  fcbench_report.py report RESULTS.json [-o OUTDIR]
      Writes OUTDIR/report.html and its PNG plots (relative links, so the
      directory is self-contained; OUTDIR defaults to the JSON's directory).
      Prints the page's path and the plain-text summary that tops the page.

  fcbench_report.py compare A.json [B.json] [--base NAME] [--alpha 0.01]
                    [--scenario S,...] [--min-n N] [--max-diff F] [--all]
      Two runs: cases are matched on (scenario, contender, label, cache, n,
      src_off, dst_off, dist); per case the ratio of the median times B/A and
      the two-sided Mann-Whitney U p-value of the two sample sets.  One run
      with --base NAME: every other contender against NAME on the same case.
      Prints the significant cases (--all: every case) and a summary per
      scenario and contender (geometric mean, min, max, faster/slower counts).
      --max-diff F makes the exit status 1 when a case's ratio is outside
      [1-F, 1+F] (those cases are listed).

  Its self test (statistics against hand-computed values, every command on
  synthetic runs) is tests/fcreport_selftest.py in the source tree; it is not
  installed.

Design notes
  * compare needs only the standard library.  report imports matplotlib (Agg
    backend) and numpy lazily; without them it writes the tables only.
  * Mann-Whitney U: the exact null distribution (Gaussian binomial
    coefficients) when there are no ties and both samples have at most 20
    values; otherwise the normal approximation with tie and continuity
    corrections.
  * Units follow fcbench: GB/s = n / ns per call (bytes copied counted once,
    1 GB = 1e9 B).  large, offsets, uaccess and pipe are also shown in MiB/s,
    the unit of the mailing-list tables those scenarios reproduce.
  * The code is the package fcreport/ beside this file, which only puts it
    on sys.path.  fcreport/report.py lists the page's SECTIONS in order, one
    module each (section_*.py, render(ctx)), sharing the plot and table
    helpers of plots.py and page.py; run.py reads the results file;
    compare.py, targets.py, machine.py and cli.py hold the other commands
    and the command line.

Exit status: 0 success; 1 compare --max-diff exceeded;
2 usage or input error (missing file, wrong schema, no matching cases).
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources, nor in the installed share/fastcopy/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fcreport.cli import entry, main  # noqa: E402,F401 (main: for importers)

if __name__ == "__main__":
    sys.exit(entry())
