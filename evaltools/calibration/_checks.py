"""Argument checks shared by the calibration functions (one message format)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from evaltools.arguments import parameter_message
from evaltools.errors import shorten
from evaltools.values import binary_label


def binary_labels(values: Any, *, name: str = "y_true", func: str = "calibration") -> np.ndarray:
    """``values`` as an int array of 0/1, read by :func:`evaltools.values.binary_label`
    (bools, 0.0/1.0 and the texts "0", "1", "true", "false" accepted; nothing missing)."""
    arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=object)
    out = np.empty(len(arr), dtype=int)
    for i, v in enumerate(arr):
        try:
            y = binary_label(v)
        except ValueError:
            y = None
        if y is None:
            raise ValueError(parameter_message(name, func, "hold binary labels 0/1",
                                               f"{shorten(v)} at position {i}"))
        out[i] = y
    return out


def scores(values: Any, *, name: str = "score", func: str = "calibration") -> np.ndarray:
    """``values`` as a float array with no NaN or infinity."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(parameter_message(name, func, "hold numbers", shorten(values))) from None
    if arr.ndim != 1:
        raise ValueError(parameter_message(name, func, "one-dimensional", f"shape {arr.shape}"))
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(parameter_message(name, func, "hold finite numbers",
                                           f"{arr[bad[0]]!r} at position {int(bad[0])}"))
    return arr


def same_length(func: str, **arrays: np.ndarray) -> None:
    lengths = {k: len(v) for k, v in arrays.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{k}={n}" for k, n in lengths.items())
        raise ValueError(f"{func}: inputs must have the same length. Got {detail} instead.")


def both_classes(y: np.ndarray, *, func: str) -> None:
    if len(set(y.tolist())) < 2:
        raise ValueError(f"{func}: needs both classes (0 and 1) among the labels. "
                         f"Got {sorted(set(y.tolist()))} instead.")


def json_number(x: Any) -> Any:
    """A float for JSON: NaN and infinities become None; numpy scalars become Python."""
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else None
    return x


def json_value(x: Any) -> Any:
    """Recursively JSON-safe: tuples to lists, non-finite floats to None."""
    if isinstance(x, Mapping):
        return {k: json_value(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [json_value(v) for v in x]
    if hasattr(x, "to_dict") and not isinstance(x, type):
        return x.to_dict()
    return json_number(x)
