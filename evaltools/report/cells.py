"""One record's values as the report shows them: text cut to a limit, a number or
None, a verdict, a list.

Every value shown comes from a record the report did not write, so each reader
here accepts anything and returns the shown form or None; none raises.
"""

from __future__ import annotations

import json
from typing import Any

from evaltools.values import finite_float


def clip(value: Any, limit: int) -> str:
    """``value`` as text, cut to ``limit`` characters with an ellipsis.

    Examples
    --------
    >>> clip("abcdef", 4)
    'abc…'
    >>> clip(["a", "b"], 20)
    '["a", "b"]'
    >>> clip(None, 5)
    ''
    """
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                           default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _num(v: Any) -> float | None:
    return finite_float(v)


def _verdict(v: Any) -> str | None:
    """A verdict as text (cut short), or None when the field holds no text."""
    return clip(v, 20) if isinstance(v, str) and v else None


def _as_list(v: Any) -> list[Any]:
    """A list field: lists and tuples as they are, one text as a list of it, else empty."""
    if isinstance(v, (list, tuple)):
        return list(v)
    if isinstance(v, str) and v:
        return [v]
    return []


def _offset(v: Any) -> int | None:
    """A character offset, or None for anything that is not a non-negative int."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
