"""Durable human labels: an append-only JSON Lines file and its reader.

Every label is one line, written with a single ``os.write`` on a descriptor
opened with ``O_APPEND`` and followed by ``fsync`` before :meth:`LabelStore.append`
returns. A label that was acknowledged (the call returned) therefore survives
the kernel or the machine dying the next instant. The file is never rewritten:
a changed label is a new line, and the last line for an ``(id, field)`` pair
wins when the file is read back.

A process killed in the middle of a write can at worst leave one torn last
line. :func:`read_labels` skips lines that are not valid label events — not
JSON objects, nested too deep, longer than :data:`MAX_LINE_BYTES`, or with a
label or note that is not text (a hand-edited file) — and says which in
``DataFrame.attrs["skipped_lines"]``. A UTF-8 byte order mark at the start
(a file saved by Notepad) is read past. The next
:meth:`LabelStore.append` first ends such a torn line, so labels written after
it parse again.

Line format (one JSON object a line)::

    {"id": "r001", "field": "label_verdict", "label": "PASS", "value": "PASS",
     "note": "", "action": "label", "position": 0, "labeler": "",
     "time": "2026-11-22T03:00:00+00:00"}

``action`` is ``"label"`` or ``"skip"`` (a case looked at and deliberately
left unlabeled; the annotator does not offer it again on resume).

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.jsonl"
>>> store = LabelStore(path)
>>> _ = store.append("r001", "label_verdict", "PASS", note="clear answer")
>>> _ = store.append("r002", "label_verdict", "FAIL")
>>> _ = store.append("r001", "label_verdict", "WARN")   # changed mind: last wins
>>> read_labels(path)[["id", "label_verdict", "note"]]
     id label_verdict note
0  r001          WARN
1  r002          FAIL
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evaltools.arguments import check_one_of
from evaltools.io.records import bounded_lines
from evaltools.io.validation import loads_bounded, lone_surrogate_path

#: Longest line read from a labels file; a longer one is skipped as unreadable.
MAX_LINE_BYTES = 1024 * 1024

__all__ = ["LabelStore", "iter_label_events", "read_labels"]

ACTIONS = ("label", "skip")


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _fsync_dir(path: Path) -> None:
    # Makes a newly created file's directory entry durable too (POSIX only).
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class LabelStore:
    """Append-only, fsync'ed JSON Lines file of label events.

    Parameters
    ----------
    path : str or Path
        The JSONL file. Created (with its folder) on the first append.
    labeler : str, optional
        Who labels; stored on every line.
    clock : callable, optional
        Returns the timestamp string stored in ``time`` (UTC ISO 8601 by
        default); tests inject a fixed one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> store = LabelStore(pathlib.Path(tempfile.mkdtemp()) / "a" / "labels.jsonl",
    ...                    clock=lambda: "T0")
    >>> store.append("r1", "label_hallucinated", "hallucinated", value=1)["value"]
    1
    >>> store.path.read_text().count("\\n")
    1
    """

    def __init__(self, path: str | Path, *, labeler: str = "",
                 clock: Callable[[], str] | None = None):
        self.path = Path(path)
        self.labeler = labeler
        self._clock = clock or _utc_now

    def append(self, id: Any, field: str, label: str, *, value: Any = None, note: str = "",
               action: str = "label", position: int | None = None) -> dict[str, Any]:
        """Write one label event durably and return it.

        The line is on disk (written and fsync'ed) when this returns. An event
        that could not be read back (a NaN value, a note over
        :data:`MAX_LINE_BYTES` of UTF-8) is a ValueError and nothing is written.

        Parameters
        ----------
        id : str or int
            The case's id (stored as a string).
        field : str
            The label column it fills, e.g. ``"label_verdict"`` or
            ``"label_hallucinated"``.
        label : str
            The label as shown on its button.
        value : JSON value, optional
            The value stored in ``field`` (defaults to ``label``), e.g. ``1``
            for a button labelled ``"hallucinated"``.
        note : str
            Free-text note.
        action : {"label", "skip"}
        position : int, optional
            Row position of the case in the annotated table.
        """
        check_one_of(action, "action", "LabelStore.append", ACTIONS)
        event = {
            "id": str(id),
            "field": field,
            "label": label,
            "value": label if value is None and action == "label" else value,
            "note": note or "",
            "action": action,
            "position": position,
            "labeler": self.labeler,
            "time": self._clock(),
        }
        self._write(_readable_line(event))
        return event

    def _write(self, data: bytes) -> None:
        created = not self.path.exists()
        if created:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if not created and _ends_torn(fd):
                data = b"\n" + data
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.path.parent)

    def events(self) -> list[dict[str, Any]]:
        """Every valid event in the file, oldest first (torn lines skipped)."""
        return list(iter_label_events(self.path))


def _readable_line(event: dict[str, Any]) -> bytes:
    """The event as one JSON line, or a ValueError when :func:`iter_label_events` could
    not read it back (a NaN or infinite value, a lone surrogate, a line over
    :data:`MAX_LINE_BYTES`): a label is refused before it is acknowledged, never
    acknowledged and then lost."""
    try:
        data = (json.dumps(event, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError) as exc:
        why = ("NaN or infinite numbers are not JSON" if isinstance(exc, ValueError)
               else "a lone surrogate is not text" if isinstance(exc, UnicodeEncodeError)
               else str(exc))
        raise ValueError(f"label for case {event['id'][:80]!r} not saved: {why}") from None
    if len(data) - 1 > MAX_LINE_BYTES:  # the reader's limit, newline not counted
        raise ValueError(f"label for case {event['id'][:80]!r} not saved: the line would be "
                         f"{len(data) - 1:,} bytes; a labels file line holds at most "
                         f"{MAX_LINE_BYTES:,} (shorten the note)")
    if _event(data.rstrip(b"\n")) is None:
        raise ValueError(f"label for case {event['id'][:80]!r} not saved: the line could not "
                         f"be read back (nested too deep?)")
    return data


def _ends_torn(fd: int) -> bool:
    size = os.fstat(fd).st_size
    if size == 0:
        return False
    return os.pread(fd, 1, size - 1) != b"\n"


def iter_label_events(path: str | Path, *, bad_lines: list[int] | None = None
                      ) -> Iterator[dict[str, Any]]:
    """Yield the label events of a labels file, oldest first.

    Lines that are not JSON objects with ``id`` and ``field`` (a line torn by
    a crash) are skipped; their 1-based numbers are appended to ``bad_lines``
    when a list is given. A missing file yields nothing.
    """
    p = Path(path)
    if not p.exists():
        return
    with p.open("rb") as fh:
        for lineno, raw in bounded_lines(fh, MAX_LINE_BYTES, p.name, skip_invalid=True):
            if raw is not None and lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a UTF-8 byte order mark (the file was saved by Notepad)
            if raw is not None and not raw.strip():
                continue
            event = _event(raw)
            if event is None:
                if bad_lines is not None:
                    bad_lines.append(lineno)
                continue
            yield event


def _event(raw: bytes | None) -> dict[str, Any] | None:
    """A label event from one line, or None when the line is not a valid one.

    Valid: a JSON object (nested at most 16 levels, all text valid) with an
    ``id`` (string or integer), a string ``field``, an ``action`` of
    :data:`ACTIONS` (default ``label``), and ``label``, ``note``, ``labeler``,
    ``time`` each a string or absent/null.
    """
    if raw is None:
        return None
    try:
        event = loads_bounded(raw.decode("utf-8"), 16)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(event, dict) or lone_surrogate_path(event) is not None:
        return None
    cid = event.get("id")
    if isinstance(cid, bool) or not isinstance(cid, (str, int)):
        return None
    if not isinstance(event.get("field"), str):
        return None
    event.setdefault("action", "label")
    if event["action"] not in ACTIONS:
        return None
    for key in ("label", "note", "labeler", "time"):
        if event.get(key) is not None and not isinstance(event[key], str):
            return None
    return event


def read_labels(path: str | Path, *, include_skipped: bool = False) -> Any:
    """Read a labels file into a DataFrame ready for calibration.

    One row per case id, one column per labelled field (``label_verdict``,
    ``label_hallucinated``, ...) holding the stored value; for each
    ``(id, field)`` the last event wins. Merge it onto scores with
    ``scores.merge(labels, on="id")`` (ids are strings).

    Parameters
    ----------
    path : str or Path
        A file written by :class:`LabelStore` (or the Annotator). A missing
        file gives an empty frame.
    include_skipped : bool
        Also list cases whose last event is a skip (their field is empty).

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, the label fields in order of first use, then ``note``
        (the note of the case's last label), ``labeler``, ``labeled_at`` and
        ``n_events``. Rows in order of first labelling.
        ``attrs["skipped_lines"]`` lists the 1-based numbers of lines that
        could not be parsed (a torn last line after a crash); a warning is
        issued when there are any.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.jsonl"
    >>> s = LabelStore(path, clock=lambda: "T0")
    >>> _ = s.append(1, "label_hallucinated", "hallucinated", value=1)
    >>> _ = s.append(2, "label_hallucinated", "faithful", value=0, note="ok")
    >>> _ = s.append(3, "label_hallucinated", "", action="skip")
    >>> df = read_labels(path)
    >>> df[["id", "label_hallucinated", "note"]]
      id  label_hallucinated note
    0  1                   1
    1  2                   0   ok
    >>> read_labels(path, include_skipped=True)["id"].tolist()
    ['1', '2', '3']
    """
    import pandas as pd

    bad: list[int] = []
    fields: list[str] = []
    cases: dict[str, dict[str, Any]] = {}
    for ev in iter_label_events(path, bad_lines=bad):
        cid = str(ev["id"])
        field = str(ev["field"])
        case = cases.setdefault(cid, {"id": cid, "_values": {}, "note": "", "labeler": "",
                                      "labeled_at": None, "n_events": 0, "_skipped": False})
        case["n_events"] += 1
        if ev.get("action") == "skip":
            if field not in case["_values"]:
                case["_skipped"] = True
            continue
        if field not in fields:
            fields.append(field)
        case["_values"][field] = ev.get("value", ev.get("label"))
        case["_skipped"] = False
        case["note"] = ev.get("note") or ""
        case["labeler"] = ev.get("labeler") or ""
        case["labeled_at"] = ev.get("time")
    rows = []
    for case in cases.values():
        if not case["_values"] and not (include_skipped and case["_skipped"]):
            continue
        row = {"id": case["id"]}
        row.update({f: case["_values"].get(f) for f in fields})
        row.update({k: case[k] for k in ("note", "labeler", "labeled_at", "n_events")})
        rows.append(row)
    columns = ["id", *fields, "note", "labeler", "labeled_at", "n_events"]
    df = pd.DataFrame(rows, columns=columns)
    df.attrs["skipped_lines"] = bad
    if bad:
        warnings.warn(f"{Path(path).name}: skipped {len(bad)} unreadable line(s) "
                      f"{bad[:5]} (torn by a crash?); every other label was read",
                      RuntimeWarning, stacklevel=2)
    return df
