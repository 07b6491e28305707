"""``evaltools judge INPUT [-o OUTPUT]``: judge every record and print a per-module summary.

Each output record is the input record with the judge result's keys added
(``evaltools.judge`` ``to_dict()``: ``evaluation``, ``total_score``,
``verdict``, ``issues``, ``audit``, ...). A record that breaks the contract
stops the run (exit status 2, nothing written) unless ``--skip-invalid``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

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
    refuse_overwriting_input,
    row_unit,
    write_or_drain,
)
from evaltools.judging.registry import load_registry
from evaltools.judging.stream import judge_stream
from evaltools.judging.summary import JudgeSummary

EXAMPLES = """\
examples:
  evaltools judge data/judgments.jsonl -o judged.jsonl     # or .csv, .parquet
  evaltools judge data/judgments.jsonl                      # the per-module summary only
  evaltools judge judgments.csv -o - | jq .verdict          # JSON Lines on stdout
  evaltools judge --registry my_modules.toml runs.jsonl -o judged.jsonl
  evaltools judge 'runs/*.parquet' -o judged/ --workers 4   # 4 processes, Parquet parts
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", nargs="+",
                   help="records: .jsonl, .csv or .parquet; several files, a glob or a folder"
                        " of parts are read in order")
    p.add_argument("-o", "--output", help=output_help("judged"))
    p.add_argument("--registry", type=Path,
                   help="a TOML file replacing the shipped module registry (modules.toml)")
    p.add_argument("--skip-invalid", action="store_true",
                   help="record invalid records with 'error' set instead of stopping")
    p.add_argument("--config", type=Path,
                   help="a TOML file overriding default settings (here: the [input] limits)")
    p.add_argument("--csv-raw", action="store_true",
                   help="CSV output: write cells starting with = + - @ as they are "
                        "(by default they get a leading ' so spreadsheets do not run them)")
    add_map_argument(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    scale.add_arguments(p)


def format_summary(summary: JudgeSummary, order: tuple[str, ...] = ()) -> str:
    """The per-module table: records, PASS, FAIL, invalid, mean total, judges audited,
    judges with findings, inconsistent judges (arithmetic or verdict findings), findings.

    >>> s = JudgeSummary()
    >>> s.add({"module": "M04", "verdict": "PASS", "total_score": 80, "audit": []})
    >>> s.add({"module": "M04", "verdict": "FAIL", "total_score": 65,
    ...        "audit": [{"code": "total_mismatch"}]})
    >>> print(format_summary(s))
    module  records  PASS  FAIL  invalid  mean total  judges  with findings  inconsistent  findings
    M04           2     1     1        0        72.5       2              1             1         1
    all           2     1     1        0        72.5       2              1             1         1
    """
    head = ("module", "records", "PASS", "FAIL", "invalid", "mean total", "judges",
            "with findings", "inconsistent", "findings")
    rank = {m: i for i, m in enumerate(order)}
    keys = sorted(summary.modules, key=lambda m: (rank.get(m, len(rank)), m))
    rows = []
    for m in [*keys, "all"]:
        st = summary.modules[m] if m != "all" else summary.overall()
        mean = f"{st.mean_total:.1f}" if st.mean_total is not None else "-"
        rows.append((m, st.records, st.passed, st.failed, st.errors, mean, st.judged,
                     st.with_findings, st.inconsistent, st.findings))
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        cells = [str(r[0]).ljust(widths[0])] + [str(c).rjust(w) for c, w in
                                                zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    refuse_overwriting_input(args.output, args.input)
    config = load_config(args.config)
    registry = load_registry(args.registry)
    summary = JudgeSummary()
    columns = columns_of(args)
    if scale.scaled(args):
        scale.refuse_map(columns)
        from evaltools.dask import JUDGE_KINDS, judge_part

        scale.run(args, task=judge_part, contract=JUDGE_KINDS, summary=summary,
                  desc="judging", registry=registry, skip_invalid=args.skip_invalid,
                  limits=config.input)
        return _print(args, summary, registry)
    path = Path(args.input[0])
    source, unit = path.name, row_unit(path)

    def outputs():
        records = read_records(path, skip_invalid=args.skip_invalid, limits=config.input,
                               columns=columns)
        stream = judge_stream(records, registry=registry, source=source, unit=unit,
                              skip_invalid=args.skip_invalid)
        for _, rec, result in progress(stream, "judging", total=count_records(path),
                                       disabled=args.no_progress):
            out = {**rec, **result.to_dict()}
            summary.add(out)
            yield out

    write_or_drain(outputs(), args.output, csv_raw=args.csv_raw)
    return _print(args, summary, registry)


def _print(args: argparse.Namespace, summary: JudgeSummary, registry) -> int:
    if not args.quiet:
        out = summary_stream(args.output)
        print(f"evaltools judge: {' '.join(args.input)}" +
              (f" -> {args.output}" if args.output else ""), file=out)
        print(format_summary(summary, registry.ids), file=out)
    tell_no_output("judge", args)
    return 0
