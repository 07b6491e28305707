"""What a cell means: missing values and binary labels, one definition each.

Records arrive from JSON Lines, CSV cells, Parquet columns and DataFrames, so
"not given" and "a 0/1 label" take several spellings. Every reader, scorer and
section asks these functions instead of keeping its own list.

Examples
--------
>>> [is_missing(v) for v in (None, float("nan"), "", "  ", 0, "x")]
[True, True, True, True, False, False]
>>> [binary_label(v) for v in (True, 0, 1.0, "1", "0.0", "true", "False", None, "")]
[1, 0, 1, 1, 0, 1, 0, None, None]
>>> binary_label("maybe")
Traceback (most recent call last):
...
ValueError: must be 0 or 1 (or true/false). Got 'maybe' instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from evaltools.errors import shorten

_TEXT_LABELS = {"0": 0, "1": 1, "0.0": 0, "1.0": 1, "false": 0, "true": 1}


def is_missing(v: Any) -> bool:
    """None, NaN, pandas' NA/NaT and empty or blank text (an empty CSV cell): not given."""
    if v is None:
        return True
    if isinstance(v, float):
        return math.isnan(v)
    if isinstance(v, str):
        return not v.strip()
    if type(v).__name__ in ("NAType", "NaTType"):
        return True
    try:  # numpy floating scalars
        return bool(v != v) if type(v).__module__ == "numpy" else False
    except (TypeError, ValueError):
        return False


def is_finite_number(v: Any, within: float = math.inf) -> bool:
    """An int or float (not a bool) that a float holds finitely, at most ``within`` in size.

    JSON integers have no size limit; one too large for a float is not a number
    evaltools can compute with (``math.isfinite`` would raise on it). The one
    test of "a number evaltools computes with": the judge's JSON reader, the
    judge and report accumulators and the calibration file all call it.

    >>> [is_finite_number(v) for v in (0, 2.5, True, float("inf"), "1", 10**400, -10**300)]
    [True, True, False, False, False, False, True]
    >>> is_finite_number(1e9, within=1e9), is_finite_number(-1e10, within=1e9)
    (True, False)
    """
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(v) and abs(v) <= within
    except OverflowError:  # an int beyond the float range
        return False


def finite_float(v: Any) -> float | None:
    """``v`` as a finite float when it is a number (not a bool, not text), else None.

    The one numeric reader: ints of any size, floats, numpy and Decimal numbers
    alike; an int beyond the float range, NaN and infinities are None, never an
    OverflowError.

    >>> [finite_float(v) for v in (3, 2.5, True, "1", float("nan"), 10**400, None)]
    [3.0, 2.5, None, None, None, None, None]
    """
    if isinstance(v, (str, bytes, bytearray)) or type(v).__name__ in ("bool", "bool_"):
        return None
    try:
        number = float(v)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def is_record_id(v: Any) -> bool:
    """An ``id`` a JSON line can hold: None (not given), text, an int, a finite float
    (numpy scalars read as their Python value). NaN, infinities and bytes are not.

    >>> [is_record_id(v) for v in (None, "a", 7, 2.5, float("nan"), float("inf"), b"x")]
    [True, True, True, True, False, False, False]
    """
    v = plain_value(v)
    if v is None or isinstance(v, (str, int)):
        return True
    return isinstance(v, float) and math.isfinite(v)


def binary_label(v: Any) -> int | None:
    """A 0/1 label as an int, None when missing; ValueError for anything else.

    Accepted: booleans (Python and numpy), the numbers 0 and 1 (ints or floats,
    numpy too), and the texts ``0``, ``1``, ``0.0``, ``1.0``, ``true`` and
    ``false`` in any case (CSV cells).
    """
    if is_missing(v):
        return None
    if isinstance(v, str):
        key = v.strip().lower()
        if key in _TEXT_LABELS:
            return _TEXT_LABELS[key]
    elif type(v).__name__ in ("bool", "bool_"):
        return int(bool(v))
    else:
        number = finite_float(v)
        if number in (0.0, 1.0):
            return int(number)
    raise ValueError(f"must be 0 or 1 (or true/false). Got {shorten(v)} instead.")


def plain_value(v: Any) -> Any:
    """numpy arrays and scalars (from DataFrames and Parquet) as plain Python values;
    tuples become lists, mappings dicts.

    >>> import numpy as np
    >>> plain_value({"a": np.array([1, 2]), "b": (np.float64(0.5),)})
    {'a': [1, 2], 'b': [0.5]}
    """
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return plain_value(v.tolist())
    if isinstance(v, Mapping):
        return {k: plain_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain_value(x) for x in v]
    return v


def as_records(data: Any) -> list[dict[str, Any]]:
    """Records as a list of dicts, from a DataFrame (missing cells as None) or an iterable.

    The one records-or-DataFrame coercion: functions that take either call it.

    >>> import pandas as pd
    >>> as_records(pd.DataFrame({"a": [1.0, None]}))
    [{'a': 1.0}, {'a': None}]
    >>> as_records(({"a": 1},))
    [{'a': 1}]
    """
    if hasattr(data, "to_dict") and hasattr(data, "columns"):
        return [{k: (None if _scalar_missing(v) else v) for k, v in row.items()}
                for row in data.to_dict("records")]
    return [dict(r) for r in data]


def _scalar_missing(v: Any) -> bool:
    return not isinstance(v, str) and is_missing(v)
