"""Reading and writing record files: JSON Lines, CSV and Parquet.

Readers stream: a file of any size is read a record (or a Parquet batch) at
a time. Every problem is an :class:`~evaltools.errors.InputError` that names
the file, the line (JSONL; 1-based) or row (CSV and Parquet; 1-based data
row, the CSV header not counted), and the field.

Writers never leave a half-written file: records go to a temporary file in
the target's folder, renamed over the target only when the block ends
without an exception.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> with open_writer(d / "out.jsonl") as w:
...     w.write({"id": "a", "score": 0.5})
>>> [rec for _, rec in read_records(d / "out.jsonl")]
[{'id': 'a', 'score': 0.5}]
"""

from __future__ import annotations

import csv
import errno
import glob
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.config import DEFAULT_CONFIG, InputConfig
from evaltools.errors import EvaltoolsError, InputError, OutputError, one_line, shorten

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}

STDOUT = "-"  # the output path meaning "JSON Lines on standard output"

#: What the CSV writer prefixes a cell with when it would start a formula (OWASP).
FORMULA_PREFIX = "'"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


# ------------------------------------------------------------------ hostile JSON


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise ValueError(f"the number {shorten(token, quote=False)} is out of range")
    return value


def depth_exceeds(value: Any, max_depth: int) -> bool:
    """Whether lists/objects in ``value`` nest deeper than ``max_depth`` (iterative).

    >>> depth_exceeds({"a": [1, [2]]}, 3), depth_exceeds({"a": [1, [2]]}, 2)
    (False, True)
    """
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, (list, tuple)):
            children = v
        else:
            continue
        if d > max_depth:
            return True
        stack.extend((c, d + 1) for c in children if isinstance(c, (dict, list, tuple)))
    return False


def lone_surrogate_path(value: Any, path: str = "") -> str | None:
    """The field (dotted path) of the first string or key holding a lone surrogate, or None.

    Lone surrogates (``"\\ud800"`` in JSON) are not text: they cannot be
    tokenised or written as UTF-8.

    >>> lone_surrogate_path({"id": "a", "x": ["ok", "\\ud800"]})
    'x[1]'
    """
    stack = [(value, path)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, str):
            if not _is_text(v):
                return where or "(the record)"
        elif isinstance(v, dict):
            for k, c in v.items():
                sub = f"{where}.{k}" if where else str(k)
                if isinstance(k, str) and not _is_text(k):
                    return shorten(sub, quote=False)
                stack.append((c, sub))
        elif isinstance(v, (list, tuple)):
            stack.extend((c, f"{where}[{i}]") for i, c in enumerate(v))
    return None


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_SURROGATE_ESCAPE = re.compile(rb"\\[uU][dD][89a-fA-F]")


def loads_bounded(text: str | bytes, max_depth: int) -> Any:
    """``json.loads`` that raises ValueError, not RecursionError or OverflowError, on
    hostile JSON: nesting deeper than ``max_depth``, ``NaN``/``Infinity``, numbers
    that overflow a float (``1e400``).

    >>> loads_bounded('{"a": [1, 2.5]}', 8)
    {'a': [1, 2.5]}
    >>> loads_bounded("[" * 50 + "]" * 50, 8)
    Traceback (most recent call last):
    ...
    ValueError: nested deeper than 8 levels
    """
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise ValueError(f"nested deeper than {max_depth} levels") from None
    if depth_exceeds(value, max_depth):
        raise ValueError(f"nested deeper than {max_depth} levels")
    return value


def _parse_line(raw: bytes, max_depth: int = 64) -> dict[str, Any] | str | None:
    """A record, None for a blank line, or the message saying why the line is not one."""
    if not raw.strip():  # blank: ASCII white space only (a lone \x1c is not blank)
        return None
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 ({exc.reason} at byte {exc.start})"
    try:
        rec = loads_bounded(line, max_depth)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return f"not valid JSON ({shorten(getattr(exc, 'msg', str(exc)), 200, quote=False)})"
    if not isinstance(rec, dict):
        return f"a record must be a JSON object, got {type(rec).__name__}"
    if _SURROGATE_ESCAPE.search(raw):
        where = lone_surrogate_path(rec)
        if where is not None:
            return f"field '{where}' holds a lone surrogate escape (\\ud800-\\udfff), not text"
    return rec


def bounded_lines(fh, limit: int, name: str, skip_invalid: bool,
                   ) -> Iterator[tuple[int, bytes | None]]:
    """``(line number, bytes)`` of a binary file, each line at most ``limit`` bytes.

    A longer line raises at once (only ``limit`` bytes of it are read), or with
    ``skip_invalid`` is read through in pieces and given as ``None``.
    """
    lineno = 0
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


def _read_jsonl(p: Path, name: str, skip_invalid: bool, lim: InputConfig = DEFAULT_CONFIG.input,
                ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    too_long = (f"the line is longer than {lim.max_line_bytes:,} bytes "
                f"(the [input] max_line_bytes limit)")
    with p.open("rb") as fh:
        for lineno, raw in bounded_lines(fh, lim.max_line_bytes, name, skip_invalid):
            if raw is None:
                yield lineno, Unreadable(too_long)
                continue
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a UTF-8 byte order mark, as some Windows tools write
            rec = _parse_line(raw, lim.max_depth)
            if rec is None:
                continue
            if isinstance(rec, str):
                if not skip_invalid:
                    raise InputError(rec, source=name, line=lineno)
                yield lineno, Unreadable(rec)
                continue
            yield lineno, rec


def _csv_lines(fh, limit: int, name: str) -> Iterator[str]:
    for lineno, raw in bounded_lines(fh, limit, name, skip_invalid=False):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not valid UTF-8 ({exc.reason})", source=name, line=lineno) \
                from None


def _read_csv(p: Path, name: str, skip_invalid: bool = False,
              lim: InputConfig = DEFAULT_CONFIG.input,
              ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    csv.field_size_limit(lim.max_line_bytes)
    try:
        with p.open("rb") as fh:
            reader = csv.DictReader(_csv_lines(fh, lim.max_line_bytes, name))
            header = reader.fieldnames or []
            dup = next((c for i, c in enumerate(header) if c in header[:i]), None)
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
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(p)
        pf.schema_arrow  # noqa: B018 - decodes the column names (damaged ones raise here)
    except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({one_line(exc)})", source=name) \
            from None
    rowno = 0
    for group in range(pf.num_row_groups):
        first, size = rowno + 1, pf.metadata.row_group(group).num_rows
        batches = pf.iter_batches(batch_size=4096, row_groups=[group])
        while True:
            try:
                batch = next(batches, None)
                rows = batch.to_pylist() if batch is not None else None
            except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError,
                    OverflowError) as exc:
                raise InputError(f"rows {first}-{first + size - 1} (row group {group + 1}) "
                                 f"cannot be read ({one_line(exc)})", source=name) from None
            if rows is None:
                break
            for rec in rows:
                rowno += 1
                yield rowno, {k: _unnan(v) for k, v in rec.items()}


def _unnan(v: Any) -> Any:
    return None if isinstance(v, float) and not math.isfinite(v) else v


def require_text(record: Mapping[str, Any], field: str, *, source: str, line: int,
                 unit: str = "line", required: Iterable[str] = (),
                 max_chars: int | None = None, suggest_map: bool = False) -> str:
    """The string in ``record[field]``, or an InputError naming file, line and field.

    With ``suggest_map``, a missing field's message lists the columns read and
    says how to map them (:func:`columns_read`).

    The string must be text (no lone surrogates) and, with ``max_chars``, at
    most that many characters long (the ``[input] max_text_chars`` limit).
    """
    if field not in record or record[field] is None:
        req = ", ".join(required) or field
        raise InputError(f"field '{field}' is missing (required: {req})"
                         + (columns_read(record, field) if suggest_map else ""),
                         source=source, line=line, field=field, unit=unit)
    value = record[field]
    if not isinstance(value, str):
        raise InputError(f"field '{field}' must be a string, got {type(value).__name__}",
                         source=source, line=line, field=field, unit=unit)
    if max_chars is not None and len(value) > max_chars:
        raise InputError(f"field '{field}' is {len(value):,} characters long; the limit is "
                         f"{max_chars:,} (the [input] max_text_chars setting)",
                         source=source, line=line, field=field, unit=unit)
    if not value.isascii() and not _is_text(value):
        raise InputError(f"field '{field}' holds a lone surrogate (\\ud800-\\udfff), not text",
                         source=source, line=line, field=field, unit=unit)
    return value


def columns_read(record: Mapping[str, Any], missing: str = "query", shown: int = 12,
                 known: Iterable[str] = ("id", "query", "context", "response")) -> str:
    """What a "field is missing" message adds: the columns read and how to map them.

    ``--map`` is suggested when a column is not one the contract knows (the
    first such column is the example); a lone column whose name holds ``;``
    or a tab is a file separated by something other than commas, and the
    message says so.

    >>> print(columns_read({"question": "q", "context": "c", "answer": "a"}))
    ; columns read: question, context, answer; map them with --map COLUMN=FIELD
    (e.g. --map question=query)
    >>> columns_read({"query": "q"}, "context")
    '; columns read: query'
    >>> print(columns_read({"question;context;answer": "q;c;a"}))
    ; columns read: 'question;context;answer' (one column: is the file separated by ';'?
    CSV must be comma-separated)
    """
    names = [str(k) for k in record]
    if not names:
        return "; the record has no fields"
    if len(names) == 1:
        sep = next((c for c in (";", "\t", "|") if c in names[0]), None)
        if sep is not None:
            return (f"; columns read: {shorten(names[0])} (one column: is the file separated "
                    f"by {sep!r}? CSV must be comma-separated)")
    listed = ", ".join(shorten(n, 40, quote=False) for n in names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    other = next((n for n in names if n not in set(known)), None)
    if other is None:
        return f"; columns read: {listed}{more}"
    return (f"; columns read: {listed}{more}; map them with --map COLUMN=FIELD "
            f"(e.g. --map {shorten(other, 40, quote=False)}={missing})")


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


# ---------------------------------------------------------------------------- writing

#: errno values that mean "this output cannot be written" (a full disk, a quota,
#: a file-size limit, a read-only file system): one-line OutputErrors.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def _clean(v: Any, depth: int = 0) -> Any:
    """A value any writer can store: non-finite floats become None, lone
    surrogates U+FFFD, nesting past 64 levels its text (a last resort: readers
    already refuse such input; values built in Python may still hold them)."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, str):
        return v if _is_text(v) else v.encode("utf-8", "replace").decode("utf-8")
    if isinstance(v, (dict, list, tuple)) and depth >= 64:
        return shorten(v, 200)
    if isinstance(v, dict):
        return {_clean(str(k), depth + 1): _clean(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x, depth + 1) for x in v]
    return v


def _dumps(record: Mapping[str, Any]) -> bytes:
    """One JSON line as UTF-8; values JSON cannot hold are cleaned (see :func:`_clean`)."""
    try:
        return (json.dumps(record, ensure_ascii=False, allow_nan=False, default=str)
                + "\n").encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError, OverflowError):
        return (json.dumps(_clean(record), ensure_ascii=False, allow_nan=False, default=str)
                + "\n").encode("utf-8")


class _TextSink:
    """Bytes written to a text-only stream (a notebook's or a test's stdout)."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, data: bytes) -> None:
        self._fh.write(data.decode("utf-8"))

    def flush(self) -> None:
        self._fh.flush()


class _Writer:
    def __init__(self, fh, fmt: str):
        self._fh = fh
        self._fmt = fmt
        self.count = 0

    def write(self, record: Mapping[str, Any]) -> None:
        self._fh.write(_dumps(record))
        self.count += 1

    def write_all(self, records: Iterable[Mapping[str, Any]]) -> int:
        for rec in records:
            self.write(rec)
        return self.count


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove temporary files a killed earlier run left beside ``target``.

    Temporary files (and the staging folders of a folder output) are named
    ``.<name>.<pid>.<random>.part``; one whose process no longer runs is
    stale (a run killed with ``kill -9`` or by a power cut). Files of running
    processes are left alone. Returns what was removed.
    """
    removed = []
    pattern = os.path.join(glob.escape(str(target.parent)), f".{glob.escape(target.name)}.*.part")
    for name in glob.glob(pattern):
        rest = os.path.basename(name)[len(target.name) + 2:]
        pid = rest.split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _pid_alive(int(pid)):
            continue
        try:
            if os.path.isdir(name) and not os.path.islink(name):
                shutil.rmtree(name)  # a staging folder of parts (``-o folder/``)
            else:
                os.unlink(name)
            removed.append(Path(name))
        except OSError:
            pass
    return removed


def _temp_beside(target: Path, suffix: str) -> Path:
    """An empty temporary file in ``target``'s folder (created if missing)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=suffix,
                                   dir=target.parent)
    except OSError as exc:
        blocker = next((a for a in target.parents if a.exists() and not a.is_dir()), None)
        why = f"{blocker} is a file, not a folder" if blocker else exc.strerror or str(exc)
        raise OutputError(f"{target}: cannot write there ({why})") from None
    os.close(fd)
    return Path(tmp)


def is_device(path: str | Path) -> bool:
    """Whether ``path`` is an existing character device (``/dev/null``): written to, never
    replaced, and whatever its name it has no file type."""
    import stat

    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def check_output_folder(output: str | Path) -> None:
    """Raise an :class:`OutputError` when the folder ``output`` goes in does not exist.

    Commands do not create folders: a typo in ``-o /tmp/reprots/x.jsonl`` would
    make folders anywhere. A device (``/dev/null``) is accepted as it is.
    """
    out = Path(output)
    if is_device(out):
        return
    parent = out.parent
    if not parent.is_dir():
        blocker = next((a for a in out.parents if a.exists() and not a.is_dir()), None)
        why = (f"{blocker} is a file, not a folder" if blocker is not None else
               f"the folder {parent} does not exist; create it first, evaltools creates "
               f"no folders")
        raise OutputError(f"{out}: cannot write there ({why})")


def refuse_overwriting_input(output: str | Path | None, inputs: Iterable[str | Path]) -> None:
    """Raise an InputError if ``output`` is one of ``inputs``: the same path, or the
    same file through a symbolic or hard link. Writing it would destroy the input
    (lines that could not be read would come back as stubs). First, the folder the
    output goes in must exist (:func:`check_output_folder`).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); (d / "a.jsonl").write_text("")
    0
    >>> refuse_overwriting_input(d / "a.jsonl", [d / "a.jsonl"])
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: a.jsonl: the output is this input file; write elsewhere
    """
    if output is None or str(output) == STDOUT:
        return
    out = Path(output)
    check_output_folder(out)
    for path in inputs:
        p = Path(path)
        same = out.resolve() == p.resolve()
        if not same:
            try:
                same = os.path.samefile(out, p)
            except OSError:  # one of them does not exist: not the same file
                same = False
        if same:
            raise InputError("the output is this input file; write elsewhere", source=p.name)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed over it if the block ends without error.

    The file gets the permissions a new file would (the umask applies). A
    folder that cannot be written, or a parent that is a file, is an
    :class:`~evaltools.errors.OutputError` naming the path, and so is a full
    disk (ENOSPC), a quota or file-size limit or a read-only file system met
    while the block writes; on any error (and on SIGINT/SIGTERM under the
    command line) the temporary file is removed and ``path`` is untouched.
    Temporary files that a killed earlier run left beside ``path`` are
    removed first (:func:`remove_stale_temps`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> with atomic_path(p) as tmp:
    ...     _ = tmp.write_text("done")
    ...     p.exists()
    False
    >>> p.read_text()
    'done'
    """
    target = Path(path)
    remove_stale_temps(target)
    tmp = _temp_beside(target, ".part")
    try:
        try:
            yield tmp
        except OSError as exc:
            if isinstance(exc, EvaltoolsError) or exc.errno not in _WRITE_ERRNOS:
                raise
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc}); "
                              f"nothing was written") from None
        try:
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def open_writer(path: str | Path, *, csv_raw: bool = False) -> Iterator[_Writer]:
    """Write records to ``path`` atomically, in the format its extension names.

    JSON Lines go to a temporary file beside ``path``. CSV and Parquet are
    staged as JSON Lines and converted at the end (so a column that first
    appears late is still a column). Nested values (lists, objects) become
    JSON text in CSV and Parquet cells.

    Values no format can hold are written as best they can be, never a
    crash: NaN and infinite floats as null (an empty CSV cell); integers
    outside int64 make a Parquet column text; lone surrogates become U+FFFD.

    CSV cells (and header names) that a spreadsheet would run as a formula —
    text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return — are written with a leading ``'`` (the OWASP rule against CSV
    injection), unless ``csv_raw`` is true (for programs, not spreadsheets).
    """
    target = Path(path)
    fmt = file_format(target)
    with atomic_path(target) as final:
        if fmt == "jsonl":
            fh = final.open("wb")
            try:
                yield _Writer(fh, fmt)
            finally:
                fh.close()
            return
        stage = _temp_beside(target, ".jsonl.part")
        try:
            with stage.open("wb") as fh:
                yield _Writer(fh, fmt)
            if fmt == "csv":
                _jsonl_to_csv(stage, final, raw=csv_raw)
            else:
                _jsonl_to_parquet(stage, final)
        finally:
            stage.unlink(missing_ok=True)


def write_or_drain(records: Iterable[Mapping[str, Any]], path: str | Path | None, *,
                   csv_raw: bool = False) -> int:
    """Write ``records`` atomically at ``path``; with no path, just consume them.

    ``path`` ``"-"`` (:data:`STDOUT`) writes JSON Lines to standard output
    as the records come.

    Returns the number of records. Commands use it so that a summary can be
    printed whether or not an output file was asked for.

    Examples
    --------
    >>> write_or_drain(iter([{"a": 1}, {"a": 2}]), None)
    2
    """
    if path is None or is_device(path):  # no output, or /dev/null: nothing to keep
        return sum(1 for _ in records)
    if str(path) == STDOUT:
        import sys

        try:
            sys.stdout.flush()
            sink = getattr(sys.stdout, "buffer", None) or _TextSink(sys.stdout)
            count = _Writer(sink, "jsonl").write_all(records)
            sink.flush()
        except BrokenPipeError:  # the reader stopped early (| head): the caller stops quietly
            raise
        except OSError as exc:  # stdout redirected to a full disk, a quota, a closed device
            try:  # what is still buffered goes nowhere, so exiting cannot fail a second time
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
            except (OSError, ValueError, AttributeError):
                pass
            raise OutputError(f"standard output: cannot write there "
                              f"({exc.strerror or exc}); what was written is incomplete") \
                from None
        return count
    with open_writer(path, csv_raw=csv_raw) as writer:
        return writer.write_all(records)


def _flat(v: Any) -> Any:
    if isinstance(v, (list, dict, tuple)):
        return json.dumps(v, ensure_ascii=False)
    return v


def neutralise_formula(cell: Any) -> Any:
    """A CSV cell a spreadsheet will show as text, not run as a formula.

    Text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return gets a leading ``'`` (OWASP); numbers and other text are unchanged.

    >>> neutralise_formula("=HYPERLINK(1)"), neutralise_formula("-1"), neutralise_formula(-1)
    ("'=HYPERLINK(1)", "'-1", -1)
    """
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return FORMULA_PREFIX + cell
    return cell


def _columns(stage: Path) -> list[str]:
    cols: dict[str, None] = {}
    with stage.open(encoding="utf-8") as fh:
        for line in fh:
            for k in json.loads(line):
                cols.setdefault(k, None)
    return list(cols)


def _jsonl_to_csv(stage: Path, out: Path, *, raw: bool = False) -> None:
    cols = _columns(stage)
    cell = (lambda v: v) if raw else neutralise_formula
    with stage.open(encoding="utf-8") as src, out.open("w", encoding="utf-8", newline="") as dst:
        w = csv.writer(dst)
        w.writerow([cell(c) for c in cols])
        for line in src:
            rec = json.loads(line)
            w.writerow([cell("" if rec.get(k) is None else _flat(rec.get(k))) for k in cols])


_INT64 = (-(2**63), 2**63 - 1)


def _jsonl_to_parquet(stage: Path, out: Path, batch_size: int = 4096) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = _columns(stage)
    kinds: dict[str, set[str]] = {c: set() for c in cols}
    with stage.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            for c in cols:
                v = rec.get(c)
                if v is None:
                    continue
                kinds[c].add("bool" if isinstance(v, bool) else
                             ("int" if _INT64[0] <= v <= _INT64[1] else "bigint")
                             if isinstance(v, int) else
                             "float" if isinstance(v, float) else "str")
    types = {}
    for c, ks in kinds.items():
        if ks == {"bool"}:
            types[c] = pa.bool_()
        elif ks == {"int"}:
            types[c] = pa.int64()
        elif ks and ks <= {"int", "float"}:
            types[c] = pa.float64()
        else:
            types[c] = pa.string()
    schema = pa.schema([(c, types[c]) for c in cols])

    def convert(c: str, v: Any) -> Any:
        if v is None:
            return None
        if types[c] == pa.string():
            return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
        if types[c] == pa.float64():
            return float(v)
        return v

    with stage.open(encoding="utf-8") as fh, pq.ParquetWriter(out, schema) as pw:
        batch: list[dict[str, Any]] = []
        for line in fh:
            rec = json.loads(line)
            batch.append({c: convert(c, rec.get(c)) for c in cols})
            if len(batch) >= batch_size:
                pw.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or pw is not None:
            pw.write_table(pa.Table.from_pylist(batch, schema=schema))

