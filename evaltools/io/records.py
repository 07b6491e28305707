"""Reading record files: JSON Lines, CSV and Parquet.

Readers stream: a file of any size is read a record (or a Parquet batch) at
a time. Every problem is an :class:`~evaltools.errors.InputError` that names
the file, the line (JSONL; 1-based) or row (CSV and Parquet; 1-based data
row, the CSV header not counted), and the field. :func:`json_line_records` is
the one JSON Lines loop (:func:`read_records` and the parts of a scaled run
read through it). Writing is :mod:`evaltools.io.writing`.

Examples
--------
>>> import tempfile, pathlib
>>> from evaltools.io.writing import open_writer
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> with open_writer(d / "out.jsonl") as w:
...     w.write({"id": "a", "score": 0.5})
>>> [rec for _, rec in read_records(d / "out.jsonl")]
[{'id': 'a', 'score': 0.5}]
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.config import DEFAULT_CONFIG, InputConfig
from evaltools.errors import InputError, one_line, shorten
from evaltools.io.validation import parse_line

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}

STDOUT = "-"  # the output path meaning "JSON Lines on standard output"


def file_format(path: str | Path) -> str:
    """The format a path's extension names: ``jsonl``, ``csv`` or ``parquet``."""
    suffix = Path(path).suffix.lower()
    try:
        return FORMATS[suffix]
    except KeyError:
        raise InputError(
            f"unknown file type '{suffix or '(none)'}' (expected .jsonl, .csv or .parquet)",
            source=Path(path).name,
        ) from None


def row_unit(path: str | Path) -> str:
    """``"line"`` for JSON Lines, ``"row"`` for CSV and Parquet: how errors count records."""
    return "line" if file_format(path) == "jsonl" else "row"


@dataclass(frozen=True)
class Unreadable:
    """A JSON Lines line or CSV row that could not be read as a record (``skip_invalid``)."""

    message: str


def parse_column_map(text: str | Mapping[str, str] | None, *,
                     source: str = "--map") -> dict[str, str]:
    """``"question=query,answer=response"`` as ``{"question": "query", "answer": "response"}``.

    Each item names a column of the input, then the field it stands for. A
    mapping is returned as a plain dict after the same checks. An item
    without ``=``, an empty name, or two columns mapped to one field is an
    :class:`~evaltools.errors.InputError`.

    Examples
    --------
    >>> parse_column_map("question=query, answer=response")
    {'question': 'query', 'answer': 'response'}
    >>> parse_column_map("question")
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: --map: 'question' is not COLUMN=FIELD (e.g. ...)
    """
    if text is None:
        return {}
    items = list(text.items()) if isinstance(text, Mapping) else [
        tuple(part.split("=", 1)) if "=" in part else (part,)
        for part in (p.strip() for p in str(text).split(",")) if part]
    out: dict[str, str] = {}
    for item in items:
        if len(item) != 2 or not str(item[0]).strip() or not str(item[1]).strip():
            raise InputError(f"{shorten('='.join(map(str, item)))} is not COLUMN=FIELD "
                             f"(e.g. --map question=query,answer=response)", source=source)
        column, field = str(item[0]).strip(), str(item[1]).strip()
        if field in out.values():
            raise InputError(f"two columns are mapped to field {shorten(field)}", source=source)
        out[column] = field
    return out


def map_columns(numbered: Iterable[tuple[int, Any]], columns: Mapping[str, str] | None,
                ) -> Iterator[tuple[int, Any]]:
    """Rename the fields of each ``(line, record)``: ``columns`` maps a column to a field.

    A record that holds both a mapped column and the field it maps to keeps
    the mapped column's value (the mapping says which to read). Columns that
    are not mapped pass through; unreadable lines pass as they are.

    >>> list(map_columns([(1, {"question": "q", "query": "x", "id": 7})], {"question": "query"}))
    [(1, {'query': 'q', 'id': 7})]
    """
    if not columns:
        yield from numbered
        return
    for line, rec in numbered:
        if isinstance(rec, dict):
            targets = {columns[k] for k in rec if k in columns}
            out: dict[str, Any] = {}
            for k, v in rec.items():
                if k in columns:
                    out[columns[k]] = v
                elif k not in targets:
                    out[k] = v
            rec = out
        yield line, rec


@dataclass(frozen=True)
class ReadFailed:
    """What :func:`errors_in_order` yields in place of an error raised while reading."""

    error: InputError


def errors_in_order(numbered: Iterable[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    """Yield ``numbered``; an :class:`InputError` raised while reading comes as a last
    ``(0, ReadFailed(error))`` item instead, so that a caller holding earlier records
    back (to parse them in a batch) checks them first and raises the reader's error
    after: errors are reported in the order of the file.

    >>> def bad():
    ...     yield 1, {"a": 1}
    ...     raise InputError("not valid JSON", source="a.jsonl", line=2)
    >>> [type(r).__name__ for _, r in errors_in_order(bad())]
    ['dict', 'ReadFailed']
    """
    try:
        yield from numbered
    except InputError as exc:
        yield 0, ReadFailed(exc)


def read_records(path: str | Path, *, skip_invalid: bool = False,
                 limits: InputConfig | None = None, columns: Mapping[str, str] | None = None,
                 ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    """Yield ``(line_or_row, record)`` from a .jsonl, .csv or .parquet file.

    With ``skip_invalid``, a JSON Lines line that is not valid UTF-8, not JSON
    or not an object, or a CSV row with more cells than the header, yields an
    :class:`Unreadable` with the message instead of raising, and reading goes
    on. A file that is not valid CSV or Parquet as a whole stops reading
    either way, as does a CSV header that names a column twice. A UTF-8 byte
    order mark at the start of a file is ignored.

    Blank lines in JSON Lines are skipped (they keep their numbers). CSV cells
    are strings, an empty cell the empty string; a field that is JSON in JSON
    Lines (a list, an object) is JSON text in a CSV cell.

    Hostile input is bad input, never a crash (``limits``, default the
    ``[input]`` section of the configuration): a line longer than
    ``max_line_bytes`` stops reading at that line before it is held in memory
    (skipped with ``skip_invalid``); a JSON line nested deeper than
    ``max_depth``, holding a number that overflows (``1e400``), ``NaN`` or
    ``Infinity``, or a lone surrogate escape (``"\\ud800"``, not text) is
    unreadable. Parquet floats that are NaN or infinite are read as None.

    ``columns`` renames fields as they are read (:func:`map_columns`):
    ``{"question": "query", "answer": "response"}`` reads a file whose
    columns are named otherwise (``--map question=query,answer=response``).
    """
    if columns:
        yield from map_columns(read_records(path, skip_invalid=skip_invalid, limits=limits),
                               columns)
        return
    p = Path(path)
    fmt = file_format(p)
    if not p.is_file():
        raise InputError("file not found or not a regular file", source=str(p))
    name = p.name
    lim = limits or DEFAULT_CONFIG.input
    if fmt == "jsonl":
        yield from _read_jsonl(p, name, skip_invalid, lim)
    elif fmt == "csv":
        yield from _read_csv(p, name, skip_invalid, lim)
    else:
        yield from _read_parquet(p, name)


def read_json_lines(path: str | Path, *, skip_invalid: bool = False,
                    limits: InputConfig | None = None,
                    ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    """Yield ``(line, record)`` from a JSON Lines file whatever its extension.

    For formats that name their JSON Lines files ``.json`` (HaluEval's
    ``qa_data.json``); the rules are those of :func:`read_records`.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found or not a regular file", source=str(p))
    yield from _read_jsonl(p, p.name, skip_invalid, limits or DEFAULT_CONFIG.input)


#: A UTF-8 byte order mark, as some Windows tools write at the start of a file.
BOM = b"\xef\xbb\xbf"


def bounded_lines(fh, limit: int, name: str, skip_invalid: bool, *, first_line: int = 1,
                  ) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)`` of a binary file, each line at most ``limit`` bytes.

    A longer line raises at once (only ``limit`` bytes of it are read), or with
    ``skip_invalid`` is read through in pieces and given as ``None``. Lines are
    numbered from ``first_line`` (a part of a file starts further on).
    """
    lineno = first_line - 1
    while True:
        raw = fh.readline(limit + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > limit and not (len(raw) == limit + 1 and raw.endswith(b"\n")):
            msg = (f"the line is longer than {limit:,} bytes (the [input] max_line_bytes "
                   f"limit); nothing past it was read")
            if not skip_invalid:
                raise InputError(msg, source=name, line=lineno)
            while raw and not raw.endswith(b"\n"):
                raw = fh.readline(1 << 20)
            yield lineno, None
            continue
        yield lineno, raw


def json_line_records(fh, *, name: str, limits: InputConfig = DEFAULT_CONFIG.input,
                      skip_invalid: bool = False, first_line: int = 1,
                      ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    """The one JSON Lines loop: ``(line, record)`` for each record line of a binary file.

    Blank lines keep their numbers and are no record; a byte order mark on line
    1 is skipped. A line that is no record (too long, not UTF-8, not JSON, not an
    object) raises :class:`InputError`, or with ``skip_invalid`` is yielded as
    :class:`Unreadable`. ``first_line`` numbers a part of a file
    (:func:`evaltools.io.parts.read_part`).
    """
    too_long = (f"the line is longer than {limits.max_line_bytes:,} bytes "
                f"(the [input] max_line_bytes limit)")
    for lineno, raw in bounded_lines(fh, limits.max_line_bytes, name, skip_invalid,
                                     first_line=first_line):
        if raw is None:
            yield lineno, Unreadable(too_long)
            continue
        if lineno == 1 and raw.startswith(BOM):
            raw = raw[3:]
        rec = parse_line(raw, limits.max_depth)
        if rec is None:
            continue
        if isinstance(rec, str):
            if not skip_invalid:
                raise InputError(rec, source=name, line=lineno)
            yield lineno, Unreadable(rec)
            continue
        yield lineno, rec


def _read_jsonl(p: Path, name: str, skip_invalid: bool, lim: InputConfig = DEFAULT_CONFIG.input,
                ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    with p.open("rb") as fh:
        yield from json_line_records(fh, name=name, limits=lim, skip_invalid=skip_invalid)


def _csv_lines(fh, limit: int, name: str) -> Iterator[str]:
    for lineno, raw in bounded_lines(fh, limit, name, skip_invalid=False):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not valid UTF-8 ({exc.reason})", source=name, line=lineno) \
                from None


def _first_repeat(names: Iterable[str]) -> str | None:
    """The first name seen twice (a set: linear in the header, which may be 64 MiB).

    >>> _first_repeat(["a", "b", "a"]), _first_repeat(["a"])
    ('a', None)
    """
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def _read_csv(p: Path, name: str, skip_invalid: bool = False,
              lim: InputConfig = DEFAULT_CONFIG.input,
              ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    csv.field_size_limit(lim.max_line_bytes)
    try:
        with p.open("rb") as fh:
            reader = csv.DictReader(_csv_lines(fh, lim.max_line_bytes, name))
            header = reader.fieldnames or []
            dup = _first_repeat(header)
            if dup is not None:
                raise InputError(f"the header names column {shorten(dup)} twice", source=name,
                                 field=shorten(dup, quote=False))
            for rowno, row in enumerate(reader, start=1):
                if None in row:
                    msg = (f"has {len(header) + len(row[None])} cells "
                           f"but the header has {len(header)}")
                    if not skip_invalid:
                        raise InputError(msg, source=name, line=rowno, unit="row")
                    yield rowno, Unreadable(msg)
                    continue
                yield rowno, dict(row)
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 ({exc.reason})", source=name) from None
    except csv.Error as exc:
        raise InputError(f"not valid CSV ({one_line(exc)})", source=name) from None


def _read_parquet(p: Path, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    yield from parquet_rows(p, source=name)


def parquet_rows(p: Path, *, source: str, row_groups: range | None = None,
                 first_row: int = 1) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(row, record)`` of a Parquet file's row groups (all, or ``row_groups``, whose
    first row is ``first_row``); a non-finite float is None. A damaged file or row
    group raises :class:`InputError` naming the rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(p)
        pf.schema_arrow  # noqa: B018 - decodes the column names (damaged ones raise here)
    except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({one_line(exc)})", source=source) \
            from None
    rowno = first_row - 1
    for group in row_groups if row_groups is not None else range(pf.num_row_groups):
        first, size = rowno + 1, pf.metadata.row_group(group).num_rows
        batches = pf.iter_batches(batch_size=4096, row_groups=[group])
        while True:
            try:
                batch = next(batches, None)
                rows = batch.to_pylist() if batch is not None else None
            except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError,
                    OverflowError) as exc:
                raise InputError(f"rows {first}-{first + size - 1} (row group {group + 1}) "
                                 f"cannot be read ({one_line(exc)})", source=source) from None
            if rows is None:
                break
            for rec in rows:
                rowno += 1
                yield rowno, {k: _unnan(v) for k, v in rec.items()}


def _unnan(v: Any) -> Any:
    return None if isinstance(v, float) and not math.isfinite(v) else v


def count_records(path: str | Path) -> int | None:
    """How many records :func:`read_records` will yield, counted cheaply, or None.

    JSON Lines: the non-blank lines (read as bytes, nothing parsed). CSV: the
    data rows (a quoted cell may span lines, so rows are split by the csv
    module, not by line). Parquet: the row count in the file's metadata. A
    file that cannot be counted (missing, unreadable) gives None: the reader
    reports the problem when the run starts. Progress bars use the count for
    their total and time left.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.jsonl"
    >>> _ = p.write_text('{"a": 1}' + chr(10) * 2 + '{"a": 2}' + chr(10))
    >>> count_records(p)
    2
    """
    p = Path(path)
    try:
        fmt = file_format(p)
        if fmt == "jsonl":
            with p.open("rb") as fh:
                return _count_nonblank_lines(fh)
        if fmt == "csv":
            limit = DEFAULT_CONFIG.input.max_line_bytes
            csv.field_size_limit(limit)
            with p.open("rb") as fh:
                return max(sum(1 for _ in csv.reader(_csv_lines(fh, limit, p.name))) - 1, 0)
        import pyarrow.parquet as pq

        return int(pq.ParquetFile(p).metadata.num_rows)
    except Exception:  # a count is a courtesy: the reader names the problem
        return None


def _count_nonblank_lines(fh, block: int = 1 << 20) -> int:
    """Non-blank lines of a binary file, read in blocks (a line of any length is fine)."""
    n, seen = 0, False
    for chunk in iter(lambda: fh.read(block), b""):
        pieces = chunk.split(b"\n")
        for piece in pieces[:-1]:
            n += seen or bool(piece.strip())
            seen = False
        seen = seen or bool(pieces[-1].strip())
    return n + seen
