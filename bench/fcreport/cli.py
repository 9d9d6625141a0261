"""The command line of fcbench_report.py: the argument parser, main() (one subcommand, UsageError as a one-line
message with exit status 2) and entry() for the script itself."""

import argparse
import sys

from .run import UsageError
from .compare import COMPARE_HELP, cmd_compare
from .machine import cmd_machine
from .report import cmd_report
from .targets import cmd_targets


MORE_FILES = ("one run's results (.json or .json.gz); several files: one run taken phase by phase on one machine "
              "(fcbench peak --json a.json, fcbench sizes --json b.json, ...), read as one")


def parser():
    top = argparse.ArgumentParser(
        prog="fcbench_report.py", description="fcbench reports and comparisons (run as `fcbench report|compare`).")
    sub = top.add_subparsers(dest="cmd", required=True, metavar="report|compare|targets|machine")
    rp = sub.add_parser("report", help="HTML report with plots",
                        description="Writes OUTDIR/report.html and its PNG plots for one fcbench JSON file; prints "
                                    "the page's path and the summary that tops it.")
    rp.add_argument("results", metavar="RESULTS.json", nargs="+", help=MORE_FILES)
    rp.add_argument("-o", dest="outdir", metavar="OUTDIR", help="output directory (default: the JSON's directory)")
    cp = sub.add_parser(
        "compare", help="per-case ratios and significance",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=COMPARE_HELP,
        epilog="examples:\n  fcbench compare run1.json run2.json --scenario sizes --min-n 1024 --max-diff 0.05\n"
               "  fcbench compare run.json --base libc --scenario sizes,dist")
    cp.add_argument("a", metavar="A.json")
    cp.add_argument("b", metavar="B.json", nargs="?", help="a second run (else: --base NAME within A)")
    cp.add_argument("--base", metavar="NAME", help="one run: compare every contender with NAME (fc = fc[...])")
    cp.add_argument("--alpha", type=float, default=0.01, help="significance level (default 0.01)")
    cp.add_argument("--scenario", metavar="S,...", help="only these scenarios (offsets = offsets-read,-write)")
    cp.add_argument("--min-n", type=int, default=0, metavar="N", help="only cases with n >= N bytes")
    cp.add_argument("--max-diff", type=float, metavar="F",
                    help="exit 1 if a case's ratio is outside [1-F, 1+F], listing those cases")
    cp.add_argument("--all", action="store_true", help="print every case, not only the significant ones")
    tp = sub.add_parser("targets", help="the x86-64 issue's targets, fc[...] vs libc, read off one run",
                        description="Prints each target of the x86-64 issue (aligned sizes, glibc's rep movsb window, "
                                    "worst placements, size distributions, large copies, memmove) with the figures "
                                    "one `fcbench all` run measured and whether it holds.")
    tp.add_argument("results", metavar="RESULTS.json", nargs="+", help=MORE_FILES)
    tp.add_argument("--check", action="store_true", help="exit 1 if a target is not met")
    mp = sub.add_parser("machine", help="docs/machines/<cpu>.md from one make bench run",
                        description="Writes the machine's page: the machine, what fastcopy chose (defaults and the "
                                    "tuned profile), the six targets side by side.")
    mp.add_argument("results", metavar="RESULTS.json", nargs="+", help=MORE_FILES)
    mp.add_argument("-o", dest="output", metavar="OUT.md")
    mp.add_argument("--title", help="the page's title (default: the CPU name)")
    mp.add_argument("--profile", metavar="FILE", help="the profile fastcopy-tune wrote (bench-results/profile)")
    mp.add_argument("--tune-log", metavar="FILE", help="fastcopy-tune's output (bench-results/tune.txt)")
    mp.add_argument("--new-default", metavar="ENTRY:MOVSB_MIN:MOVSB_MAX",
                    help="for a run older than the current policy: what the default now runs there, by size")
    mp.add_argument("--note", metavar="FILE", help="markdown appended at the end")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return {"report": cmd_report, "compare": cmd_compare, "targets": cmd_targets,
                "machine": cmd_machine}[args.cmd](args)
    except UsageError as e:
        print(f"fcbench {args.cmd}: {e}", file=sys.stderr)
        return 2


def entry():
    """The script's exit status; a closed pipe (`... | head`) and ^C end it quietly."""
    try:
        return main()
    except BrokenPipeError:  # `... | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
