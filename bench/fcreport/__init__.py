"""fcbench's report, compare, targets and machine commands, run through ../fcbench_report.py.  report.py
holds SECTIONS, the page's sections in order (one section_*.py module each, with render(ctx)); the modules they share:
run.py (the results file), fmt.py, stats.py, analysis.py, summary.py, plots.py, page.py."""
