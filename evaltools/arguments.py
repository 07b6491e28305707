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
"""

from __future__ import annotations

from typing import Any


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
    """Raise ValueError naming ``value`` unless ``ok``."""
    if not ok:
        raise ValueError(parameter_message(name, func, want, repr(value)))
