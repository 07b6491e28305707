"""Fuzz campaign: many hostile records through `evaltools score` and `evaltools judge`.

Each record (default 10,000 per command) is written to its own JSON Lines file
— or ``--per-file N`` records a file — and run through the command in this
process (``evaltools.cli.main``, output alternating .jsonl/.csv/.parquet, with
and without ``--skip-invalid``); every ``--subprocess-every``-th file also runs
as a real process. Records mix valid fields with random Unicode (lone surrogate
escapes, control characters, bidi marks, BOMs), numbers that overflow
(``1e400``, 400-digit integers, ``NaN``, ``Infinity``), deep nesting, wrong
types, invalid UTF-8, formula and markup payloads and long texts.

A run is correct when it exits 0 with a valid output (one record per
non-blank line; scores in [0, 1], judge totals in [0, 100]) or exits 2 with one
line on stderr and no output file. Anything else — a traceback, another exit
status, a bad output — is counted as a failure and its input kept in
``--keep`` for replay. Prints the counts; exit status 1 if anything failed.

Run: ``python benchmarks/fuzz_cli.py [--records 10000] [--seed 0] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ["What does the Yeti tumbler cost?", "The Yeti tumbler costs $35.00.",
         "It was released on August 14, 2024.", "Yes.", "", "The mug costs $12 and ships May 4."]
NASTY = ["\\ud800", "\\udfff", "\\ud83d", "\\udc80x", "\\u0000", "\\u001b[31m", "\\u2028",
         "\\u202e", "\\ufeff", "\\t", "\\r\\n", "=1+1", "+SUM(A1)", "-2", "@cmd", "<script>",
         '\\"><img src=x onerror=alert(1)>', "{{ 7*7 }}", "javascript:x", "$5", "1e400",
         "\\\\ud800", "\U0001f600", "e\u0301", "\u0627\u0644", "ß", "İ"]
NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1e-400", "-0", "0.1",
           "9" * 400, "-" + "9" * 300, "9" * 5000, "123456789012345678901234567890", "1.5e308"]
MODULES = ["M01", "M01a", "M02", "M04", "M05", "M09", "M12b", "M13", "M15", "M16", "M99", ""]


def _text(rng: random.Random) -> str:
    """JSON string literal content: random escapes, nasty pieces, random code points."""
    parts = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.35:
            parts.append(rng.choice(NASTY))
        elif r < 0.7:
            parts.append(json.dumps(rng.choice(TEXTS))[1:-1])
        else:
            cp = rng.choice([rng.randint(0x20, 0x7e), rng.randint(0xa0, 0xffff),
                             rng.randint(0x10000, 0x10ffff)])
            if 0xd800 <= cp <= 0xdfff:
                parts.append(f"\\u{cp:04x}")
            else:
                parts.append(json.dumps(chr(cp))[1:-1])
    if rng.random() < 0.02:
        parts.append("x" * rng.choice([10_000, 100_000]))
    return '"' + "".join(parts) + '"'


def _value(rng: random.Random, depth: int = 0) -> str:
    r = rng.random()
    if r < 0.4:
        return _text(rng)
    if r < 0.6:
        return rng.choice(NUMBERS)
    if r < 0.68:
        return rng.choice(["true", "false", "null"])
    if r < 0.74:
        n = rng.choice([10, 63, 64, 65, 500, 1000, 100_000])
        return "[" * n + "]" * n
    if depth >= 3:
        return "[]"
    items = [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if r < 0.87:
        return "[" + ", ".join(items) + "]"
    return "{" + ", ".join(f"{_text(rng)}: {v}" for v in items) + "}"


def _field(rng: random.Random, name: str, good: str) -> str | None:
    r = rng.random()
    if r < 0.08:
        return None
    if r < 0.55:
        return f'"{name}": {good}'
    return f'"{name}": {_value(rng)}'


def _line(rng: random.Random, command: str) -> bytes:
    r = rng.random()
    if r < 0.03:
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 40))).replace(b"\n", b"")
    if r < 0.05:
        return rng.choice([b"[1, 2]", b"null", b"{", b'"x"', b"\xef\xbb\xbf{}"])
    if command == "score":
        fields = [("id", _text(rng)), ("query", json.dumps(rng.choice(TEXTS))),
                  ("context", json.dumps(rng.choice(TEXTS))),
                  ("response", json.dumps(rng.choice(TEXTS)))]
    else:
        fields = [("id", _text(rng)), ("module", json.dumps(rng.choice(MODULES))),
                  ("output", rng.choice(['["Yeti"]', '"PASS"', "true", '"S"'])),
                  ("expected", rng.choice(['["Yeti", "YETI"]', '"PASS"', "false", '"C"'])),
                  ("judge", json.dumps(rng.choice([
                      '{"total_score": NaN}', '{"total_score": 1e400}', "[" * 5000 + "]" * 5000,
                      '{"evaluation": {"correctness": {"score": ' + "9" * 400 + "}}}",
                      '{"evaluation": {"reasoning_quality": {"chain_of_thought": 1e308, '
                      '"evidence_usage": 1e308}}, "total_score": 1e308}',
                      '```json\n{"verdict": "PASS"}\n```', "no json at all"])))]
    parts = [p for name, good in fields if (p := _field(rng, name, good)) is not None]
    for _ in range(rng.randint(0, 2)):
        parts.append(f"{_text(rng)}: {_value(rng)}")
    return ("{" + ", ".join(parts) + "}").encode("utf-8", "surrogatepass")


def _check(command: str, code, err: str, out: Path, n_lines: int) -> str | None:
    """None when the run kept the contract, else what went wrong."""
    if code not in (0, 2):
        return f"exit {code}: {err.strip().splitlines()[-1:] if err.strip() else ''}"
    if "Traceback" in err:
        return "traceback on stderr"
    if code == 2:
        if len(err.strip().splitlines()) != 1:
            return f"exit 2 with {len(err.strip().splitlines())} lines on stderr"
        if out.exists():
            return "exit 2 but an output was written"
        return None
    from evaltools.io import read_records

    try:
        rows = [r for _, r in read_records(out)]
    except Exception as exc:
        return f"output unreadable: {type(exc).__name__}: {exc}"
    if len(rows) != n_lines:
        return f"{len(rows)} output records for {n_lines} lines"
    keys = (("relevance", "completeness", "hallucination", "hallucination_probability")
            if command == "score" else ("total_score",))
    top = 1.0 if command == "score" else 100.0
    for r in rows:
        for k in keys:
            v = r.get(k)
            if v not in (None, ""):
                f = float(v)
                if not (math.isfinite(f) and 0 <= f <= top):
                    return f"{k} = {v} out of range"
    return None


def run_one(command: str, src: Path, out: Path, skip: bool, subprocess_run: bool):
    from evaltools.cli import main

    argv = [command, str(src), "-o", str(out), "--no-progress", "-q"] + \
        (["--skip-invalid"] if skip else [])
    if subprocess_run:
        r = subprocess.run([sys.executable, "-m", "evaltools", *argv], capture_output=True,
                           text=True, timeout=600)
        return r.returncode, r.stderr
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(argv)
    except BaseException as exc:
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return f"raised {tb[:200]}", err.getvalue()
    return code, err.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10_000, help="records per command")
    ap.add_argument("--per-file", type=int, default=1, help="records per file (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--commands", nargs="+", default=["score", "judge"])
    ap.add_argument("--subprocess-every", type=int, default=500,
                    help="every Nth file also runs as a real process (0: never)")
    ap.add_argument("--keep", type=Path, default=Path("fuzz_failures"),
                    help="folder for the inputs of failed runs")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="evaltools-fuzz-"))
    totals: Counter = Counter()
    failures: Counter = Counter()
    started = time.time()
    try:
        for command in args.commands:
            rng = random.Random(f"{args.seed}-{command}")
            files = math.ceil(args.records / args.per_file)
            for i in range(files):
                lines = [_line(rng, command) for _ in range(args.per_file)]
                src = work / "in.jsonl"
                src.write_bytes(b"\n".join(lines) + b"\n")
                n_lines = sum(1 for x in lines if x.strip())
                out = work / f"out.{('jsonl', 'csv', 'parquet')[i % 3]}"
                out.unlink(missing_ok=True)
                skip = i % 4 != 3
                sub = bool(args.subprocess_every) and i % args.subprocess_every == 0
                code, err = run_one(command, src, out, skip, sub)
                problem = (code if isinstance(code, str) else
                           _check(command, code, err, out, n_lines))
                kind = "failed" if problem else f"exit {code}"
                totals[(command, kind)] += 1
                totals[(command, "subprocess")] += sub
                if problem:
                    failures[(command, problem[:100])] += 1
                    args.keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(src, args.keep / f"{command}-{i:05d}.jsonl")
                if (i + 1) % 1000 == 0:
                    print(f"{command}: {i + 1}/{files} files, "
                          f"{totals[(command, 'failed')]} failed, "
                          f"{time.time() - started:.0f} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for command in args.commands:
        files = math.ceil(args.records / args.per_file)
        print(f"{command}: {files * args.per_file} records in {files} files "
              f"({totals[(command, 'subprocess')]} also as a process): "
              f"exit 0 {totals[(command, 'exit 0')]}, exit 2 {totals[(command, 'exit 2')]}, "
              f"failed {totals[(command, 'failed')]}")
    for (command, problem), n in failures.most_common(20):
        print(f"  {command} x{n}: {problem}")
    print(f"{time.time() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
