"""Argument checks of the public functions, with one message format.

Every public function that rejects an argument says so the same way:
``The 'x' parameter of f must be ... Got ... instead.`` (the scikit-learn
wording), with ``TypeError`` for a wrong type and ``ValueError`` for a value
out of range.

Examples
--------
>>> check_type(3, "query", "score", str, "a str")
Traceback (most recent call last):
...
TypeError: The 'query' parameter of score must be a str. Got int instead.
>>> check_value(-1, "folds", "fit", -1 >= 2, "at least 2")
Traceback (most recent call last):
...
ValueError: The 'folds' parameter of fit must be at least 2. Got -1 instead.
>>> check_one_of("big", "strategy", "reliability", ("uniform", "quantile"))
Traceback (most recent call last):
...
ValueError: The 'strategy' parameter of reliability must be one of 'uniform', 'quantile'. \
Got 'big' instead.
>>> check_positive_int(True, "n_bins", "reliability")
Traceback (most recent call last):
...
ValueError: The 'n_bins' parameter of reliability must be a positive integer. Got True instead.

Where the value is not what went wrong (a bad item of a list, a shape),
:func:`parameter_message` words the message and the caller says what it got.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evaltools.errors import shorten


def parameter_message(name: str, func: str, want: str, got: str) -> str:
    """``The 'name' parameter of func must be want. Got got instead.``"""
    return f"The '{name}' parameter of {func} must be {want}. Got {got} instead."


def check_type(value: Any, name: str, func: str, types: type | tuple[type, ...], want: str,
               *, optional: bool = False) -> None:
    """Raise TypeError unless ``value`` is an instance of ``types`` (or None if ``optional``)."""
    if (optional and value is None) or isinstance(value, types):
        return
    raise TypeError(parameter_message(name, func, want, type(value).__name__))


def check_value(value: Any, name: str, func: str, ok: bool, want: str) -> None:
    """Raise ValueError naming ``value`` (cut to 80 characters) unless ``ok``."""
    if not ok:
        raise ValueError(parameter_message(name, func, want, shorten(value)))


def check_one_of(value: Any, name: str, func: str, allowed: Iterable[Any]) -> Any:
    """Raise ValueError unless ``value`` is one of ``allowed``; return it."""
    allowed = tuple(allowed)
    check_value(value, name, func, value in allowed,
                f"one of {', '.join(map(repr, allowed))}")
    return value


def check_positive_int(value: Any, name: str, func: str) -> int:
    """Raise ValueError unless ``value`` is an int (not a bool) of at least 1; return it."""
    check_value(value, name, func,
                isinstance(value, int) and not isinstance(value, bool) and value >= 1,
                "a positive integer")
    return value
