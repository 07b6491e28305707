"""``evaltools score INPUT [-o OUTPUT]``: score every record and print a summary."""

from __future__ import annotations

import argparse
from pathlib import Path

from evaltools.calibration.learned import load_calibration
from evaltools.cli import scale
from evaltools.cli.output import (
    add_map_argument,
    columns_of,
    output_help,
    summary_stream,
    tell_no_output,
)
from evaltools.cli.progress import progress
from evaltools.config import load_config
from evaltools.io import (
    count_records,
    read_records,
    row_unit,
    write_or_drain,
)
from evaltools.scoring.scorer import ResponseScorer
from evaltools.scoring.stream import output_record
from evaltools.scoring.summary import RunSummary, ScoreStats, kind_label
from evaltools.text import load_pipeline

EXAMPLES = """\
examples:
  evaltools score data/responses.jsonl -o scored.jsonl     # or .csv, .parquet
  evaltools score mine.csv                                  # the summary only
  evaltools score mine.csv -o - > scored.jsonl              # JSON Lines on stdout
  evaltools score --config strict.toml --skip-invalid runs.jsonl -o scored.csv
  evaltools score --calibration calibration.json runs.jsonl -o scored.jsonl
  evaltools score 'runs/*.jsonl' -o scored/ --workers 4     # 4 processes, Parquet parts
  evaltools score runs/ -o scored/ --scheduler tcp://10.0.0.5:8786   # a Dask cluster
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", nargs="+",
                   help="records: .jsonl, .csv or .parquet; several files, a glob or a folder"
                        " of parts are read in order")
    p.add_argument("-o", "--output", help=output_help("scored"))
    p.add_argument("--config", type=Path, help="a TOML file overriding default thresholds")
    p.add_argument("--calibration", type=Path,
                   help="a calibration JSON (evaltools calibrate) for hallucination_probability;"
                        " the shipped default is used otherwise")
    p.add_argument("--skip-invalid", action="store_true",
                   help="record invalid records with 'error' set instead of stopping")
    p.add_argument("--csv-raw", action="store_true",
                   help="CSV output: write cells starting with = + - @ as they are "
                        "(by default they get a leading ' so spreadsheets do not run them)")
    add_map_argument(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    scale.add_arguments(p)


#: Where a reader goes when the verdicts disagree with their labels.
CALIBRATION_POINTER = ("thresholds fitted to labels: notebooks/02_calibration.ipynb "
                       "(evaltools.calibration.threshold_table); "
                       "a hallucination probability: evaltools calibrate")


def format_summary(s: RunSummary) -> str:
    """The summary table the command prints."""
    lines = [f"records  {s.records}" + (f"  (invalid: {s.errors})" if s.errors else "")]
    scored = s.records - s.errors
    for v, n in s.verdicts.items():
        share = f"{100 * n / scored:5.1f}%" if scored else "    -"
        lines.append(f"{v:<8} {n:>6}  {share}")
    if s.verdict_pairs:  # only a file with human labels loads scikit-learn (its metrics)
        from evaltools.calibration.agreement import agreement_from_pairs

        agreement = agreement_from_pairs(s.verdict_pairs)
        if agreement is not None:
            lines.append(f"human labels: {agreement.sentence()}")
            lines.append("  " + CALIBRATION_POINTER)
    lines.append("")
    lines.append("mean scores")
    for name, value in s.means.items():
        lines.append(f"  {name:<15} {value:.3f}")
    lines.append("")
    lines.append(f"anchors  {s.anchors_total} checked, {s.anchors_unsupported} unsupported")
    for kind, (t, u) in s.by_kind.items():
        lines.append(f"  {kind_label(kind):<9} {t:>6} checked, {u:>5} unsupported")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    calibration = load_calibration(args.calibration)
    columns = columns_of(args)
    summary = ScoreStats()
    if scale.scaled(args):
        scale.refuse_map(columns)
        from evaltools.dask import SCORE_KINDS, PreloadPipeline, score_part

        if not (args.workers or args.scheduler):
            load_pipeline(config)  # a missing pipeline is one error before any work
        scale.run(args, task=score_part, contract=SCORE_KINDS, summary=summary,
                  desc="scoring", plugin=PreloadPipeline(config), runs=True, config=config,
                  calibration=calibration, skip_invalid=args.skip_invalid,
                  limits=config.input, stall_seconds=config.scale.stall_seconds,
                  min_records_per_worker=config.scale.score_min_records_per_worker)
        return _print(args, summary)
    path = Path(args.input[0])
    records = read_records(path, skip_invalid=args.skip_invalid, limits=config.input,
                           columns=columns)
    stream = ResponseScorer(config).stream(records, source=path.name, unit=row_unit(path),
                                           skip_invalid=args.skip_invalid)

    def outputs():
        for _, rec, result in progress(stream, "scoring", total=count_records(path),
                                       disabled=args.no_progress):
            out = output_record(rec, result, calibration)
            summary.add(out)
            yield out

    write_or_drain(outputs(), args.output, csv_raw=args.csv_raw)
    return _print(args, summary)


def _print(args: argparse.Namespace, summary: ScoreStats) -> int:
    if not args.quiet:
        out = summary_stream(args.output)
        print(f"evaltools score: {' '.join(args.input)}" +
              (f" -> {args.output}" if args.output else ""), file=out)
        print(format_summary(summary.build()), file=out)
    tell_no_output("score", args)
    return 0
