"""Tables made readable for a notebook: counts as integers, rates as percentages, 2–3 digits.

Presentation only. The core returns tables of plain numbers (a share is a
float in [0, 1], a count may come out of pandas as ``6.0``); :func:`readable`
turns one into text for display, so a notebook shows ``13.5%`` rather than
``0.135135``, ``6`` rather than ``6.00`` and ``0.074`` rather than
``0.074388``. Keep the numeric table for arithmetic and asserts; show
``readable(table)``.

Rules, column by column (for a Series, value by value when its values are of
mixed kinds):

- a rate — a column named ``share``, ``rate`` or ending in ``_share`` /
  ``_rate``, or listed in ``percent`` — as a percentage with one decimal;
- an integer column (or an ``object`` one of whole numbers) as integers with
  thousands separators;
- other numbers with as many decimals as give the column's largest value
  ``digits`` significant digits, ``digits`` decimals when it is at most 1, so
  a column lines up: ``0.074, 0.500, 1.000``; ``76.8, 30.6``;
- a missing number as ``—``; text, booleans and lists unchanged;
- a column (or Series) of both whole and fractional numbers whose dtype is
  ``object`` (a ``describe``-like column; any Series) value by value.

Examples
--------
>>> import pandas as pd
>>> t = pd.DataFrame({"records": [10, 24], "share": [0.135135, 0.324324],
...                   "mean": [0.074388, 0.5]}, index=["PASS", "WARN"])
>>> readable(t)
     records  share   mean
PASS      10  13.5%  0.074
WARN      24  32.4%  0.500
>>> readable(pd.Series({"judged": 6.0, "total_gap_mean": 4.1666}, name="M01"))
judged               6
total_gap_mean    4.17
Name: M01, dtype: object
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

from evaltools.values import is_missing as _missing

MISSING = "—"


def is_rate(name) -> bool:
    """True for a column name that holds a share or rate in [0, 1].

    Examples
    --------
    >>> [is_rate(n) for n in ("share", "violation_rate", "flagged_share", "rater", "records")]
    [True, True, True, False, False]
    """
    n = str(name).lower().replace(" ", "_")
    return n in ("share", "rate") or n.endswith(("_share", "_rate"))


def _number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _whole(values: list) -> bool:
    return all(math.isfinite(float(v)) and float(v) == int(float(v)) for v in values)


def _decimals(values: list, digits: int) -> int:
    top = max((abs(float(v)) for v in values if math.isfinite(float(v))), default=0.0)
    if top <= 1:  # a score, share or probability: ``digits`` decimals, 0.761 beside 1.000
        return digits
    return max(0, min(digits, digits - 1 - math.floor(math.log10(top))))


def format_numbers(values: Iterable, *, percent: bool = False, digits: int = 3,
                   whole: bool = True) -> list:
    """Display text for one column's values (see the module's rules).

    Examples
    --------
    >>> format_numbers([6.0, 1200, None])
    ['6', '1,200', '—']
    >>> format_numbers([0.4166, 0.0]), format_numbers([1.0, 0.0], whole=False)
    (['0.417', '0.000'], ['1.000', '0.000'])
    >>> format_numbers([30.632, 36.0, 5.5])
    ['30.6', '36.0', '5.5']
    >>> format_numbers([0.76, 1.0, 0.5])
    ['0.760', '1.000', '0.500']
    >>> format_numbers([0.5, None], percent=True)
    ['50.0%', '—']
    >>> format_numbers(["a", 2])
    ['a', 2]
    """
    values = list(values)
    nums = [v for v in values if not _missing(v)]
    if not nums:
        return [MISSING if _missing(v) and not isinstance(v, str) else v for v in values]
    if not all(_number(v) for v in nums):
        return values
    if percent:
        return [MISSING if _missing(v) else f"{100 * float(v):.1f}%" for v in values]
    if whole and _whole(nums):
        return [MISSING if _missing(v) else f"{int(float(v)):,}" for v in values]
    d = _decimals(nums, digits)
    return [MISSING if _missing(v) else
            f"{float(v):,.{d}f}" if math.isfinite(float(v)) else str(float(v)) for v in values]


def readable(table, *, percent: Iterable[str] = (), digits: int = 3):
    """A copy of a DataFrame or Series with its numbers as display text.

    Parameters
    ----------
    table : pandas.DataFrame or pandas.Series
    percent : iterable of str
        More columns to show as percentages (besides the names :func:`is_rate` knows).
    digits : int, default 3
        Significant digits of a column's largest value.

    Returns
    -------
    pandas.DataFrame or pandas.Series
        Same index and columns, values as text (``object`` dtype).
    """
    import pandas as pd

    percent = set(percent)
    if isinstance(table, pd.Series):
        as_rate = is_rate(table.name) or table.name in percent
        values = table.tolist()
        if not as_rate and _mixed(values):  # counts and measures (an overview): one by one
            texts = [format_numbers([v], digits=digits)[0] for v in values]
        else:
            texts = format_numbers(values, percent=as_rate, digits=digits)
        return pd.Series(texts, index=table.index, name=table.name, dtype=object)
    out = table.copy()
    for col in out.columns:
        values = out[col].tolist()
        as_rate = is_rate(col) or col in percent
        if out[col].dtype == object and not as_rate and _mixed(values):
            # A describe-like column of counts and measures: value by value.
            texts = [format_numbers([v], digits=digits)[0] for v in values]
        else:  # a float column stays decimal even when its values happen to be whole
            texts = format_numbers(values, percent=as_rate, digits=digits,
                                   whole=not pd.api.types.is_float_dtype(out[col]))
        out[col] = pd.Series(texts, index=out.index, dtype=object)
    return out


def _mixed(values: list) -> bool:
    """Numbers only, some whole and some not."""
    nums = [v for v in values if not _missing(v)]
    if not nums or not all(_number(v) for v in nums):
        return False
    whole = [float(v) == int(float(v)) for v in nums if math.isfinite(float(v))]
    return any(whole) and not all(whole)
