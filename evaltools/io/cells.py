"""The one restorer of CSV and Parquet cells: a record's text cells back to their types.

``evaltools score`` and ``judge`` write numbers as numbers but lists and objects
as JSON text when the output is CSV or Parquet, and a CSV file holds every cell
as text. :func:`restore_cells` turns them back, field by field, given which
fields hold numbers, JSON values and text (each caller derives them from the
record shape's :class:`~evaltools.schema.Schema`). A cell that cannot be read
back is a one-line :class:`~evaltools.errors.InputError` naming file, row and
field.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from evaltools.config import DEFAULT_CONFIG
from evaltools.errors import InputError, shorten
from evaltools.io.validation import loads_bounded

__all__ = ["restore_cells"]


def restore_cells(record: Mapping[str, Any], *, numbers: Iterable[str],
                  json_fields: Iterable[str], text: Iterable[str] = ("error",),
                  source: str = "<records>", line: int | None = None,
                  unit: str = "row", empty_json: Any = None) -> dict[str, Any]:
    """``record`` with its text cells read back: numbers, lists and objects, nulls.

    A text cell of a ``numbers`` field becomes a float (empty: None); a text
    cell of a ``json_fields`` field starting with ``[`` or ``{`` is parsed
    (empty: ``empty_json``, None unless ``[]`` is asked for); an empty ``text``
    cell becomes None. Other cells, and cells that are not text, are kept as
    they are.

    Raises
    ------
    InputError
        A number cell that is not a finite number, or a JSON cell that is not
        valid JSON text.

    Examples
    --------
    >>> restore_cells({"relevance": "0.5", "anchors": "[]", "error": "", "x": "7"},
    ...               numbers=("relevance",), json_fields=("anchors",), source="s.csv", line=1)
    {'relevance': 0.5, 'anchors': [], 'error': None, 'x': '7'}
    >>> restore_cells({"relevance": "high"}, numbers=("relevance",), json_fields=(),
    ...               source="s.csv", line=3)
    Traceback (most recent call last):
    ...
    evaltools.errors.InputError: s.csv row 3: field 'relevance' must be a finite number, got 'high'
    """
    out = dict(record)
    for name in numbers:
        v = out.get(name)
        if isinstance(v, str):
            try:
                out[name] = float(v) if v.strip() else None
            except ValueError:
                out[name] = math.nan
            if out[name] is not None and not math.isfinite(out[name]):
                raise InputError(f"field '{name}' must be a finite number, got {shorten(v)}",
                                 source=source, line=line, field=name, unit=unit) from None
    for name in json_fields:
        v = out.get(name)
        if isinstance(v, str) and v.strip()[:1] in ("[", "{"):
            try:
                out[name] = loads_bounded(v, DEFAULT_CONFIG.input.max_depth)
            except ValueError as exc:
                raise InputError(f"field '{name}' is not valid JSON text "
                                 f"({shorten(str(exc), 120, quote=False)})",
                                 source=source, line=line, field=name, unit=unit) from None
        elif isinstance(v, str) and not v.strip():
            out[name] = None if empty_json is None else type(empty_json)(empty_json)
    for name in text:
        if out.get(name) == "":
            out[name] = None
    return out
