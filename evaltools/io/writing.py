"""Writing record files: JSON Lines, CSV and Parquet, never half-written.

Records go to a temporary JSON Lines file in the target's folder (through
:func:`evaltools.io.atomic.atomic_path`), converted to CSV or Parquet
(:mod:`evaltools.io.convert`) and renamed over the target only when the block
ends without an exception.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evaltools.errors import OutputError, shorten
from evaltools.io.atomic import atomic_path, is_device, temp_beside
from evaltools.io.convert import jsonl_to_csv, jsonl_to_parquet
from evaltools.io.records import STDOUT, file_format
from evaltools.io.validation import is_text


def _clean(v: Any, depth: int = 0) -> Any:
    """A value any writer can store: non-finite floats become None, lone
    surrogates U+FFFD, nesting past 64 levels its text (a last resort: readers
    already refuse such input; values built in Python may still hold them)."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, str):
        return v if is_text(v) else v.encode("utf-8", "replace").decode("utf-8")
    if isinstance(v, (dict, list, tuple)) and depth >= 64:
        return shorten(v, 200)
    if isinstance(v, dict):
        return {_clean(str(k), depth + 1): _clean(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x, depth + 1) for x in v]
    return v


def dump_record(record: Mapping[str, Any]) -> bytes:
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
        self._fh.write(dump_record(record))
        self.count += 1

    def write_all(self, records: Iterable[Mapping[str, Any]]) -> int:
        for rec in records:
            self.write(rec)
        return self.count


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
        # staged beside the target, or in the temporary folder when the target is a device
        stage = temp_beside(target if final != target else Path(tempfile.gettempdir())
                            / target.name, ".jsonl.part")
        try:
            with stage.open("wb") as fh:
                yield _Writer(fh, fmt)
            if fmt == "csv":
                jsonl_to_csv(stage, final, raw=csv_raw)
            else:
                jsonl_to_parquet(stage, final)
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
