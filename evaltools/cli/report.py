"""``evaltools report INPUT... -o report.html``: one self-contained HTML report.

Inputs may be raw scoring records (scored now), raw judging records (judged
now), or outputs of ``evaltools score`` / ``evaltools judge`` (used as they
are), in any mix of .jsonl, .csv and .parquet files. Bad input stops the run
exactly as it stops ``score`` and ``judge``: exit status 2, one line naming
file, line and field, and no report written. The page is rendered in memory,
written to a temporary file beside the target and renamed over it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evaltools.cli.output import add_map_argument, columns_of
from evaltools.cli.progress import progress
from evaltools.config import load_config
from evaltools.errors import InputError
from evaltools.io import count_records
from evaltools.judging.registry import load_registry
from evaltools.report.build import build_report
from evaltools.report.compare import compare_files
from evaltools.report.model import Limits

EXAMPLES = """\
examples:
  evaltools report data/responses.jsonl data/judgments.jsonl -o report.html
  evaltools report scored.jsonl judged.csv -o report.html --title "Run 42"
  evaltools report --reference old.jsonl new.jsonl -o diff.html   # compare two runs
  evaltools report --max-rows 500 --worst 50 scored.parquet -o report.html
  evaltools report --registry my_modules.toml --config strict.toml runs.jsonl -o report.html
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                   help="records: .jsonl, .csv or .parquet (raw, scored or judged)")
    p.add_argument("-o", "--output", type=Path, default=Path("report.html"),
                   help="the HTML file to write (default: report.html)")
    p.add_argument("--reference", type=Path, action="append", metavar="OLD",
                   help="compare: the reference run's file (repeatable); the INPUTs are the "
                        "current run. The page shows score shifts with bootstrap intervals, "
                        "verdict flips with their evidence and per-module judge deltas")
    p.add_argument("--config", type=Path, help="a TOML file overriding default thresholds")
    p.add_argument("--registry", type=Path,
                   help="a TOML file replacing the shipped module registry (as for judge)")
    p.add_argument("--title", default="evaltools report", help="the report's title")
    p.add_argument("--skip-invalid", action="store_true",
                   help="report invalid records as errors instead of stopping")
    p.add_argument("--max-rows", type=int, default=None, metavar="N",
                   help="rows kept in any long table (default: 100)")
    p.add_argument("--worst", type=int, default=None, metavar="N",
                   help="responses shown in full among the worst cases (default: 20)")
    add_map_argument(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _reading(args: argparse.Namespace, files):
    """A progress bar per input file, sized by its record count (what the builders call)."""
    paths = {p.name: p for p in files}
    return lambda items, name: progress(
        items, f"reading {name}", total=count_records(paths[name]) if name in paths else None,
        disabled=args.no_progress)


def _compare(args: argparse.Namespace, config, limits: Limits) -> int:
    title = args.title if args.title != "evaltools report" else "evaltools comparison"
    report = compare_files(args.reference, args.inputs, config=config, title=title,
                           skip_invalid=args.skip_invalid, limits=limits,
                           columns=columns_of(args),
                           progress=_reading(args, [*args.inputs, *args.reference]))
    report.to_file(args.output)
    if not args.quiet:
        headline = report.section("summary").blocks[0].text
        print(f"evaltools report: {' '.join(map(str, args.reference))} -> "
              f"{' '.join(map(str, args.inputs))} -> {args.output}\n  {headline}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.output.suffix.lower() not in (".html", ".htm"):
        raise InputError("the report is HTML: give an output path ending in .html",
                         source=str(args.output))

    limits = {}
    if args.max_rows is not None:
        limits["table_rows"] = args.max_rows
    if args.worst is not None:
        limits["worst_cases"] = args.worst
    try:
        lim = Limits(**limits)
    except ValueError as exc:
        raise InputError(str(exc), source="command line") from None
    config = load_config(args.config)
    registry = load_registry(args.registry)

    if args.reference:
        return _compare(args, config, lim)

    report = build_report(args.inputs, config=config, registry=registry, limits=lim,
                          title=args.title, skip_invalid=args.skip_invalid,
                          progress=_reading(args, args.inputs), columns=columns_of(args))
    report.to_file(args.output)
    if not args.quiet:
        summary = report.section("summary").blocks[0]
        counts = ", ".join(f"{s.label.lower()}: {s.value}" for s in summary.items[:3])
        size = args.output.stat().st_size
        print(f"evaltools report: {' '.join(map(str, args.inputs))} -> {args.output} "
              f"({counts}; {size / 1024:.0f} KiB)", file=sys.stdout)
    return 0
