"""The evaltools command: score responses, judge modules, calibrate, report.

Each subcommand is a module of this package with ``add_arguments(parser)``
and ``run(args) -> int``. Errors the user can fix (bad input, bad config, no
spaCy pipeline) print one line on stderr and exit with status 2; nothing is
written at the output path.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import signal
import sys
import threading
from pathlib import Path

from evaltools import __version__
from evaltools.errors import EvaltoolsError, one_line
from evaltools.io import refuse_overwriting_input

#: The longest error message printed (the one line stays readable).
MESSAGE_CHARS = 500


class Terminated(BaseException):
    """SIGTERM arrived (``timeout``, systemd, Docker): unwind so temporary files go."""


def _on_sigterm(signum, frame):
    raise Terminated

SUBCOMMANDS = {
    "score": "score responses: relevance, completeness, hallucination, verdict",
    "judge": "recompute judge results for pipeline modules M01..M16 and audit LLM judges",
    "calibrate": "fit a hallucination probability on labelled records",
    "report": "write a self-contained HTML report",
    "check": "exit non-zero when a run is below the bar (for CI)",
}


EXAMPLES = """\
examples:
  evaltools score data/responses.jsonl -o scored.jsonl    # .jsonl, .csv or .parquet
  evaltools score mine.csv -o - | head -1                  # JSON Lines on stdout
  evaltools judge data/judgments.jsonl -o judged.jsonl
  evaltools report scored.jsonl judged.jsonl -o report.html
  evaltools report --reference old.jsonl new.jsonl -o diff.html   # compare two runs
  evaltools calibrate labelled.jsonl -o calibration.json
  evaltools check scored.jsonl --max-fail 0.1 --reference old.jsonl   # a CI gate
  evaltools COMMAND --help                                 # options and examples
"""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose unknown options get a "did you mean" and the subcommand's usage."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and getattr(namespace, "_parser", None) is not None and namespace._parser \
                is not self:
            namespace._parser.reject(extras)
        return namespace, extras

    def reject(self, extras: list[str]) -> None:
        """Exit with status 2 naming the first unknown option (and its likely spelling)."""
        known = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        for word in extras:
            if word.startswith("-"):
                name = word.split("=", 1)[0]
                close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]}?)" if close else ""
                self.error(f"unknown option {name}{hint}")
        self.error(f"unexpected argument(s): {' '.join(extras)}")


def command_inputs(args: argparse.Namespace) -> list[Path]:
    """Every file a command reads: its inputs and every path option (``--reference``,
    ``--config``, ``--registry``, ``--calibration``, ``--source``...), so the one
    output check (:func:`evaltools.io.refuse_overwriting_input`) sees them all."""
    found: list[Path] = []
    for name, value in vars(args).items():
        if name == "output" or name.startswith("_"):
            continue
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, Path) or (name in ("input", "inputs") and isinstance(v, str)):
                found.append(Path(v))
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="evaltools", description=__doc__.splitlines()[0], epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"evaltools {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, help_text in SUBCOMMANDS.items():
        module = importlib.import_module(f"evaltools.cli.{name}")  # each is part of evaltools
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog=getattr(module, "EXAMPLES", None))
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _parser=p)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; the exit status: 0 done, 2 an error the user can fix,
    130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Interrupted or terminated,
    the output is not written and its temporary file is removed."""
    parser = build_parser()
    words = sys.argv[1:] if argv is None else list(argv)
    if not words:  # a bare `evaltools`: what it can do, not an error
        parser.print_help()
        return 0
    first = words[0]
    if not first.startswith("-") and first not in SUBCOMMANDS:
        close = difflib.get_close_matches(first, list(SUBCOMMANDS), n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]}?)" if close else ""
        parser.error(f"unknown command {first!r}{hint}; the commands are "
                     f"{', '.join(SUBCOMMANDS)}")
    args = parser.parse_args(words)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        refuse_overwriting_input(getattr(args, "output", None), command_inputs(args))
        return int(args._run(args) or 0)
    except EvaltoolsError as exc:
        print(f"evaltools {args.command}: error: {one_line(exc, MESSAGE_CHARS)}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"evaltools {args.command}: interrupted; nothing was written", file=sys.stderr)
        return 130
    except Terminated:
        print(f"evaltools {args.command}: terminated; nothing was written", file=sys.stderr)
        return 143
    except BrokenPipeError:  # stdout closed early (| head): outputs are written; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush cannot fail
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
