"""Record files cut into partitions that separate processes can read on their own.

A distributed run (:mod:`evaltools.dask`) reads its inputs as *parts*: a
slice of one file, small enough for one task, that a worker reads without
the client sending it the records. :func:`plan_parts` makes one pass over the
inputs to cut them and to learn, for every part, the line (or row) number and
the record number of its first record, so a worker's error messages and
default ``id`` values are exactly those of a single-process run.

- JSON Lines: byte ranges that end at line ends (read with one seek);
- Parquet: runs of whole row groups;
- CSV: row ranges (a CSV cell may hold a newline, so a worker reads the
  file from its start and skips the rows before its range: use JSON Lines
  or Parquet for large inputs).

The pass also records the kind of value in every column (``bool``, ``int``,
``float``, ``str``; lists and objects count as ``str``, as JSON text), so all
parts of a partitioned Parquet output share one schema.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.jsonl").write_text('{"x": 1}\\n\\n{"x": 2}\\n{"x": 3}\\n')
>>> plan = plan_parts([d / "a.jsonl"], records_per_part=2)
>>> [(p.first_line, p.first_record, p.records) for p in plan.parts]
[(1, 1, 2), (4, 3, 1)]
>>> [rec for _, rec in read_part(plan.parts[1])]
[{'x': 3}]
>>> plan.kinds
{'x': {'int'}}
"""

from __future__ import annotations

import glob
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from evaltools.arguments import check_positive_int
from evaltools.config import DEFAULT_CONFIG, InputConfig
from evaltools.errors import InputError
from evaltools.io.atomic import atomic_path
from evaltools.io.convert import arrow_type, arrow_value, note_kinds
from evaltools.io.records import (
    BOM,
    FORMATS,
    Unreadable,
    bounded_lines,
    file_format,
    json_line_records,
    parquet_rows,
    read_records,
)
from evaltools.io.validation import parse_line
from evaltools.io.writing import dump_record


@dataclass(frozen=True)
class Part:
    """One slice of one input file.

    ``start``/``stop`` are byte offsets (JSON Lines), row-group indices
    (Parquet) or 0-based data-row indices (CSV), ``stop`` exclusive.
    ``first_line`` is the line or row number of the first record in its file
    and ``first_record`` its 1-based number across all inputs.
    """

    index: int
    path: str
    fmt: str
    start: int
    stop: int
    first_line: int
    first_record: int
    records: int

    @property
    def source(self) -> str:
        """The file name errors name (as a single-process run names it)."""
        return Path(self.path).name

    @property
    def unit(self) -> str:
        return "line" if self.fmt == "jsonl" else "row"


@dataclass(frozen=True)
class Plan:
    """The parts of a run's inputs, in input order, and the kinds of values per column."""

    parts: tuple[Part, ...]
    kinds: dict[str, set[str]] = field(default_factory=dict)

    @property
    def records(self) -> int:
        return sum(p.records for p in self.parts)


def expand_inputs(inputs: Sequence[str | Path]) -> list[Path]:
    """Files named, matched by a glob, or inside a folder (its record files, sorted).

    Names starting with ``.`` or ``_`` inside a folder are skipped (temporary
    files, ``_SUCCESS`` markers). A name that matches nothing is an
    :class:`~evaltools.errors.InputError`.
    """
    out: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in FORMATS
                           and not f.name.startswith((".", "_")))
            if not found:
                raise InputError("the folder holds no .jsonl, .csv or .parquet files",
                                 source=str(p))
            out.extend(found)
        elif p.exists() or not glob.has_magic(str(item)):
            out.append(p)
        else:
            found = sorted(Path(f) for f in glob.glob(str(item), recursive=True)
                           if Path(f).is_file())
            if not found:
                raise InputError("no file matches this pattern", source=str(item))
            out.extend(found)
    return out


def plan_parts(paths: Iterable[str | Path], *, records_per_part: int = 2048,
               skip_invalid: bool = False, limits: InputConfig | None = None) -> Plan:
    """Cut the input files into parts of at most ``records_per_part`` records.

    Reads every file once (JSON Lines are parsed, to count records and learn
    column kinds; Parquet files only have their footers read). Unparsable
    lines are counted as records and left for the worker to report, so the
    error a run stops with is the one a single-process run would stop with.
    A line longer than ``limits.max_line_bytes`` (default: the ``[input]``
    settings) stops the plan at its number, or with ``skip_invalid`` is
    counted as a record (read through in pieces, never held in memory) that
    the worker reports as unreadable.
    """
    check_positive_int(records_per_part, "records_per_part", "plan_parts")
    lim = limits or DEFAULT_CONFIG.input
    parts: list[Part] = []
    kinds: dict[str, set[str]] = {}
    ordinal = 1
    for path in paths:
        p = Path(path)
        fmt = file_format(p)
        if not p.is_file():
            raise InputError("file not found or not a regular file", source=str(p))
        planner = {"jsonl": _plan_jsonl, "csv": _plan_csv, "parquet": _plan_parquet}[fmt]
        for start, stop, first_line, n in planner(p, records_per_part, kinds, lim,
                                                  skip_invalid):
            parts.append(Part(len(parts), str(p.resolve()), fmt, start, stop, first_line,
                              ordinal, n))
            ordinal += n
    return Plan(tuple(parts), kinds)


def _plan_jsonl(p: Path, size: int, kinds: dict[str, set[str]], lim: InputConfig,
                skip_invalid: bool):
    offset = start = 0
    first_line = None
    n = 0
    with p.open("rb") as fh:
        # a line over [input] max_line_bytes stops the plan at once, or under skip_invalid
        # is read through in pieces (raw None) and counted; it is never held in memory
        for lineno, raw in bounded_lines(fh, lim.max_line_bytes, p.name, skip_invalid):
            if raw is None:
                rec = "too long"
            else:
                line = raw[3:] if lineno == 1 and raw.startswith(BOM) else raw
                rec = parse_line(line, lim.max_depth)
            offset = fh.tell()
            if rec is None:  # blank: keeps its number, is no record
                if n == 0:
                    start = offset
                continue
            if n == 0:
                first_line = lineno
            n += 1
            if isinstance(rec, dict):
                note_kinds(kinds, rec)
            if n == size:
                yield start, offset, first_line, n
                start, n = offset, 0
    if n:
        yield start, offset, first_line, n


def _plan_csv(p: Path, size: int, kinds: dict[str, set[str]], lim: InputConfig,
              skip_invalid: bool):
    rows = 0
    for _, rec in read_records(p, skip_invalid=True, limits=lim):
        rows += 1
        if not isinstance(rec, Unreadable):
            for k in rec:
                kinds.setdefault(k, set()).add("str")
    for start in range(0, rows, size):
        yield start, min(rows, start + size), start + 1, min(size, rows - start)


def _plan_parquet(p: Path, size: int, kinds: dict[str, set[str]], lim: InputConfig,
                  skip_invalid: bool):
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(p).metadata
        schema = meta.schema.to_arrow_schema()
    except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({' '.join(str(exc).split())})",
                         source=p.name) from None
    for f in schema:
        t = f.type
        kind = ("bool" if pa.types.is_boolean(t) else "int" if pa.types.is_integer(t)
                else "float" if pa.types.is_floating(t) else None if pa.types.is_null(t)
                else "str")
        kinds.setdefault(f.name, set()).update({kind} if kind else set())
    start, row, first, n = 0, 0, 1, 0
    for g in range(meta.num_row_groups):
        rows = meta.row_group(g).num_rows
        if n and n + rows > size:
            yield start, g, first, n
            start, first, n = g, row + 1, 0
        n += rows
        row += rows
    if n:
        yield start, meta.num_row_groups, first, n


class _Slice:
    """The bytes ``[start, stop)`` of a binary file, read line by line."""

    def __init__(self, fh, start: int, stop: int):
        fh.seek(start)
        self.fh, self.left = fh, stop - start

    def readline(self, limit: int) -> bytes:
        raw = self.fh.readline(min(limit, self.left)) if self.left > 0 else b""
        self.left -= len(raw)
        return raw


def read_part(part: Part, *, skip_invalid: bool = False, limits: InputConfig | None = None,
              ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    """Yield ``(line_or_row, record)`` for one part, as :func:`read_records` would.

    ``limits`` (default: the ``[input]`` settings) bound each line's length and
    nesting as in :func:`read_records`: no line is held in memory whole when
    it is longer than ``max_line_bytes``.
    """
    p = Path(part.path)
    lim = limits or DEFAULT_CONFIG.input
    if part.fmt == "jsonl":
        with p.open("rb") as fh:
            # the part starts at its first record: blank lines before it belong to the previous
            yield from json_line_records(_Slice(fh, part.start, part.stop), name=part.source,
                                         limits=lim, skip_invalid=skip_invalid,
                                         first_line=part.first_line)
    elif part.fmt == "csv":
        yield from islice(read_records(p, skip_invalid=skip_invalid, limits=lim),
                          part.start, part.stop)
    else:
        yield from parquet_rows(p, source=part.source, row_groups=range(part.start, part.stop),
                                first_row=part.first_line)


# ---------------------------------------------------------------------------- writing


def write_parquet_part(rows: list[dict[str, Any]], path: str | Path,
                       kinds: dict[str, set[str]]) -> None:
    """Write ``rows`` as one Parquet file whose columns and types ``kinds`` fixes.

    Written to a temporary name and renamed, so a file at ``path`` is always
    complete and a task run twice (after a worker died) writes it once.
    Lists and objects become JSON text, as in a single-file Parquet output.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {c: arrow_type(ks) for c, ks in kinds.items()}
    schema = pa.schema(list(types.items()))
    # the single-file writer's own conversion (dates, decimals, bytes as text; NaN as
    # null; lone surrogates replaced), so a folder output holds what a file would
    plain = (json.loads(dump_record(r)) for r in rows)
    table = pa.Table.from_pylist(
        [{c: arrow_value(t, r.get(c)) for c, t in types.items()} for r in plain], schema=schema)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)
