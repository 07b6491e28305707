"""Validating what is read: bounded JSON parsing and the checks on its values.

:func:`loads_bounded` is the one JSON parse of user data (nesting bounded,
NaN and Infinity refused, a lone surrogate named); :func:`parse_line` reads one
JSON Lines line into a record or says why it is none; :func:`require_text`
and :func:`columns_read` check a record's fields.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from evaltools.errors import InputError, shorten

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
            if not is_text(v):
                return where or "(the record)"
        elif isinstance(v, dict):
            for k, c in v.items():
                sub = f"{where}.{k}" if where else str(k)
                if isinstance(k, str) and not is_text(k):
                    return shorten(sub, quote=False)
                stack.append((c, sub))
        elif isinstance(v, (list, tuple)):
            stack.extend((c, f"{where}[{i}]") for i, c in enumerate(v))
    return None


def is_text(s: str) -> bool:
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


def parse_line(raw: bytes, max_depth: int = 64) -> dict[str, Any] | str | None:
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
    if not value.isascii() and not is_text(value):
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
