"""``evaltools check INPUT... [limits]``: exit non-zero when a run is below the bar (CI).

Inputs are read as for ``evaltools report`` (raw records are scored or
judged, outputs of ``score``/``judge`` used as they are). Each failed
condition prints one line; the exit status is 0 when every condition holds,
1 when one fails, 2 for bad input (as every command).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evaltools.cli.output import add_map_argument, columns_of
from evaltools.config import load_config
from evaltools.errors import InputError
from evaltools.gate import check_files
from evaltools.judging.registry import load_registry

EXAMPLES = """\
examples:
  evaltools check scored.jsonl --max-fail 0.1                   # at most 10% FAIL
  evaltools check runs.jsonl --min-mean relevance=0.5 --max-mean hallucination=0.2
  evaltools check new.jsonl --reference old.jsonl               # no verdict got worse
  evaltools check scored.jsonl --max-probability 0.8            # no likely hallucination
  evaltools check qa.csv --map question=query,answer=response --max-fail 0
exit status: 0 every condition holds, 1 a condition failed (one line each), 2 bad input
"""


def _pairs(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    try:
        if not sep or not name.strip():
            raise ValueError
        return name.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not SCORE=VALUE "
                                         f"(e.g. relevance=0.5)") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                   help="records: .jsonl, .csv or .parquet (raw, scored or judged)")
    p.add_argument("--max-fail", type=float, metavar="SHARE",
                   help="fail when the share of FAIL verdicts is above SHARE (0..1)")
    p.add_argument("--min-mean", type=_pairs, action="append", metavar="SCORE=VALUE",
                   help="fail when the mean of SCORE is below VALUE (repeatable)")
    p.add_argument("--max-mean", type=_pairs, action="append", metavar="SCORE=VALUE",
                   help="fail when the mean of SCORE is above VALUE (repeatable)")
    p.add_argument("--reference", type=Path, action="append", metavar="OLD",
                   help="fail when any record's verdict is worse than in this run (by id)")
    p.add_argument("--max-probability", type=float, metavar="P",
                   help="fail when any record's hallucination probability is above P")
    p.add_argument("--config", type=Path, help="a TOML file overriding default thresholds")
    p.add_argument("--registry", type=Path, help="a TOML file replacing the module registry")
    p.add_argument("--skip-invalid", action="store_true",
                   help="count invalid records instead of stopping (they are left out)")
    add_map_argument(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print only failed conditions")


def run(args: argparse.Namespace) -> int:
    limits = {"max_fail": args.max_fail, "max_probability": args.max_probability,
              "min_mean": dict(args.min_mean or ()), "max_mean": dict(args.max_mean or ())}
    if not (args.reference or any(v not in (None, {}) for v in limits.values())):
        raise InputError("give at least one limit: --max-fail, --min-mean, --max-mean, "
                         "--reference or --max-probability", source="command line")
    result = check_files(args.inputs, reference=args.reference or (),
                         config=load_config(args.config), registry=load_registry(args.registry),
                         skip_invalid=args.skip_invalid, columns=columns_of(args), **limits)
    names = " ".join(map(str, args.inputs))
    for line in result.lines():
        print(f"evaltools check: {line}", file=sys.stderr)
    if not args.quiet or not result.passed:
        invalid = f", {result.invalid} invalid left out" if result.invalid else ""
        status = ("passed" if result.passed
                  else f"failed {len(result.failures)} of {result.conditions} condition"
                       f"{'s' if result.conditions != 1 else ''}")
        print(f"evaltools check: {names}: {status} ({result.records} records{invalid})")
    return 0 if result.passed else 1
