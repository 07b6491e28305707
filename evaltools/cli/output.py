"""Where ``score`` and ``judge`` put records and summary: a file, stdout (``-o -``) or nowhere.

With ``-o -`` the records go to standard output as JSON Lines, so the
summary goes to standard error; without ``-o`` only the summary is printed,
and a note on standard error says how to keep the records.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from evaltools.io import STDOUT


def output_help(what: str) -> str:
    """The ``-o`` option's help text for records that are ``what`` (scored, judged)."""
    return (f"where to write the {what} records (.jsonl, .csv or .parquet; "
            f"'-' for JSON Lines on stdout). Without it only the summary is printed")


def add_map_argument(p: argparse.ArgumentParser) -> None:
    """The ``--map`` option: input columns named otherwise, renamed to fields as they are read."""
    p.add_argument("--map", metavar="COLUMN=FIELD,...", dest="columns",
                   help="read columns named otherwise: e.g. --map question=query,answer=response "
                        "(CSV, JSON Lines and Parquet)")


def columns_of(args: argparse.Namespace) -> dict[str, str]:
    """The parsed ``--map`` (an empty dict without it)."""
    from evaltools.io import parse_column_map

    return parse_column_map(getattr(args, "columns", None))


def summary_stream(output: Path | None) -> TextIO:
    """stderr when the records go to stdout, else stdout."""
    return sys.stderr if output is not None and str(output) == STDOUT else sys.stdout


def tell_no_output(command: str, args: argparse.Namespace) -> None:
    """Say on stderr that no records were written when no ``-o`` was given."""
    if args.output is None:
        print(f"evaltools {command}: no -o given, so only the summary was printed; "
              f"write the records with -o {command}d.jsonl (or .csv, .parquet), "
              f"or -o - for JSON Lines on stdout", file=sys.stderr)
