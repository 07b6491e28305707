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
import json
import math
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.errors import InputError, OutputError

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}

STDOUT = "-"  # the output path meaning "JSON Lines on standard output"

csv.field_size_limit(2**31 - 1)


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


def read_records(path: str | Path, *, skip_invalid: bool = False,
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
    """
    p = Path(path)
    fmt = file_format(p)
    if not p.is_file():
        raise InputError("file not found or not a regular file", source=str(p))
    name = p.name
    if fmt == "jsonl":
        yield from _read_jsonl(p, name, skip_invalid)
    elif fmt == "csv":
        yield from _read_csv(p, name, skip_invalid)
    else:
        yield from _read_parquet(p, name)


def read_json_lines(path: str | Path, *, skip_invalid: bool = False,
                    ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    """Yield ``(line, record)`` from a JSON Lines file whatever its extension.

    For formats that name their JSON Lines files ``.json`` (HaluEval's
    ``qa_data.json``); the rules are those of :func:`read_records`.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found or not a regular file", source=str(p))
    yield from _read_jsonl(p, p.name, skip_invalid)


def _one_line(exc: BaseException) -> str:
    """An exception's text on one line (pyarrow's messages span several)."""
    return " ".join(str(exc).split())


def _parse_line(raw: bytes) -> dict[str, Any] | str | None:
    """A record, None for a blank line, or the message saying why the line is not one."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 ({exc.reason} at byte {exc.start})"
    if not line.strip():
        return None
    try:
        rec = json.loads(line, parse_constant=_reject_constant)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return f"not valid JSON ({getattr(exc, 'msg', exc)})"
    if not isinstance(rec, dict):
        return f"a record must be a JSON object, got {type(rec).__name__}"
    return rec


def _read_jsonl(p: Path, name: str, skip_invalid: bool,
                ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    with p.open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a UTF-8 byte order mark, as some Windows tools write
            rec = _parse_line(raw)
            if rec is None:
                continue
            if isinstance(rec, str):
                if not skip_invalid:
                    raise InputError(rec, source=name, line=lineno)
                yield lineno, Unreadable(rec)
                continue
            yield lineno, rec


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed")


def _read_csv(p: Path, name: str, skip_invalid: bool = False,
              ) -> Iterator[tuple[int, dict[str, Any] | Unreadable]]:
    try:
        fh = p.open("r", encoding="utf-8-sig", newline="")
        with fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            dup = next((c for i, c in enumerate(header) if c in header[:i]), None)
            if dup is not None:
                raise InputError(f"the header names column '{dup}' twice", source=name,
                                 field=dup)
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
        raise InputError(f"not valid CSV ({exc})", source=name) from None


def _read_parquet(p: Path, name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(p)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({_one_line(exc)})", source=name) \
            from None
    rowno = 0
    for group in range(pf.num_row_groups):
        first, size = rowno + 1, pf.metadata.row_group(group).num_rows
        batches = pf.iter_batches(batch_size=4096, row_groups=[group])
        while True:
            try:
                batch = next(batches, None)
            except (pa.ArrowException, OSError) as exc:
                raise InputError(f"rows {first}-{first + size - 1} (row group {group + 1}) "
                                 f"cannot be read ({_one_line(exc)})", source=name) from None
            if batch is None:
                break
            for rec in batch.to_pylist():
                rowno += 1
                yield rowno, {k: _unnan(v) for k, v in rec.items()}


def _unnan(v: Any) -> Any:
    return None if isinstance(v, float) and math.isnan(v) else v


def require_text(record: Mapping[str, Any], field: str, *, source: str, line: int,
                 unit: str = "line", required: Iterable[str] = ()) -> str:
    """The string in ``record[field]``, or an InputError naming file, line and field."""
    if field not in record or record[field] is None:
        req = ", ".join(required) or field
        raise InputError(f"field '{field}' is missing (required: {req})",
                         source=source, line=line, field=field, unit=unit)
    value = record[field]
    if not isinstance(value, str):
        raise InputError(f"field '{field}' must be a string, got {type(value).__name__}",
                         source=source, line=line, field=field, unit=unit)
    return value


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
                return sum(1 for raw in fh if raw.strip())
        if fmt == "csv":
            with p.open("r", encoding="utf-8-sig", newline="") as fh:
                return max(sum(1 for _ in csv.reader(fh)) - 1, 0)
        import pyarrow.parquet as pq

        return int(pq.ParquetFile(p).metadata.num_rows)
    except Exception:  # a count is a courtesy: the reader names the problem
        return None


# ---------------------------------------------------------------------------- writing


class _Writer:
    def __init__(self, fh, fmt: str):
        self._fh = fh
        self._fmt = fmt
        self.count = 0

    def write(self, record: Mapping[str, Any]) -> None:
        self._fh.write(json.dumps(record, ensure_ascii=False, allow_nan=False, default=str))
        self._fh.write("\n")
        self.count += 1

    def write_all(self, records: Iterable[Mapping[str, Any]]) -> int:
        for rec in records:
            self.write(rec)
        return self.count


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temp_beside(target: Path, suffix: str) -> Path:
    """An empty temporary file in ``target``'s folder (created if missing)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix,
                                   dir=target.parent)
    except OSError as exc:
        blocker = next((a for a in target.parents if a.exists() and not a.is_dir()), None)
        why = f"{blocker} is a file, not a folder" if blocker else exc.strerror or str(exc)
        raise OutputError(f"{target}: cannot write there ({why})") from None
    os.close(fd)
    return Path(tmp)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed over it if the block ends without error.

    The file gets the permissions a new file would (the umask applies). A
    folder that cannot be written, or a parent that is a file, is an
    :class:`~evaltools.errors.OutputError` naming the path; on any error the
    temporary file is removed and ``path`` is untouched.

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
    tmp = _temp_beside(target, ".part")
    try:
        yield tmp
        try:
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(f"{target}: cannot write there ({exc.strerror or exc})") from None
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def open_writer(path: str | Path) -> Iterator[_Writer]:
    """Write records to ``path`` atomically, in the format its extension names.

    JSON Lines go to a temporary file beside ``path``. CSV and Parquet are
    staged as JSON Lines and converted at the end (so a column that first
    appears late is still a column). Nested values (lists, objects) become
    JSON text in CSV and Parquet cells.
    """
    target = Path(path)
    fmt = file_format(target)
    with atomic_path(target) as final:
        if fmt == "jsonl":
            with final.open("w", encoding="utf-8", newline="\n") as fh:
                yield _Writer(fh, fmt)
            return
        stage = _temp_beside(target, ".jsonl.part")
        try:
            with stage.open("w", encoding="utf-8", newline="\n") as fh:
                yield _Writer(fh, fmt)
            if fmt == "csv":
                _jsonl_to_csv(stage, final)
            else:
                _jsonl_to_parquet(stage, final)
        finally:
            stage.unlink(missing_ok=True)


def write_or_drain(records: Iterable[Mapping[str, Any]], path: str | Path | None) -> int:
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
    if path is None:
        return sum(1 for _ in records)
    if str(path) == STDOUT:
        import sys

        writer = _Writer(sys.stdout, "jsonl")
        count = writer.write_all(records)
        sys.stdout.flush()
        return count
    with open_writer(path) as writer:
        return writer.write_all(records)


def _flat(v: Any) -> Any:
    if isinstance(v, (list, dict, tuple)):
        return json.dumps(v, ensure_ascii=False)
    return v


def _columns(stage: Path) -> list[str]:
    cols: dict[str, None] = {}
    with stage.open(encoding="utf-8") as fh:
        for line in fh:
            for k in json.loads(line):
                cols.setdefault(k, None)
    return list(cols)


def _jsonl_to_csv(stage: Path, out: Path) -> None:
    cols = _columns(stage)
    with stage.open(encoding="utf-8") as src, out.open("w", encoding="utf-8", newline="") as dst:
        w = csv.DictWriter(dst, fieldnames=cols)
        w.writeheader()
        for line in src:
            rec = json.loads(line)
            w.writerow({k: ("" if rec.get(k) is None else _flat(rec.get(k))) for k in cols})


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
                             "int" if isinstance(v, int) else
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

