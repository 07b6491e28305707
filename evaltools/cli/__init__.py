"""The ``evaltools`` command.

Each subcommand is a module of this package with ``add_arguments(parser)``
and ``run(args) -> int``. Errors the user can fix (bad input, bad config, no
spaCy pipeline) print one line on stderr and exit with status 2; nothing is
written at the output path.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from evaltools import __version__
from evaltools.errors import EvaltoolsError

SUBCOMMANDS = {
    "score": "score responses: relevance, completeness, hallucination, verdict",
    "judge": "recompute judge results for pipeline modules M01..M16 and audit LLM judges",
    "calibrate": "fit a hallucination probability on labelled records",
    "report": "write a self-contained HTML report",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="evaltools", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"evaltools {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(f"evaltools.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"evaltools.cli.{name}":
                continue
            raise
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except EvaltoolsError as exc:
        print(f"evaltools {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"evaltools {args.command}: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # stdout closed early (| head): outputs are written; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush cannot fail
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
