"""Errors that users see. Each message says where and what to do next."""

from __future__ import annotations

import reprlib
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxstring, _REPR.maxother = 3, 8, 8, 60, 60

#: Characters of an offending value that a message echoes (then "…").
ECHO_CHARS = 80


def shorten(value: Any, limit: int = ECHO_CHARS, *, quote: bool = True) -> str:
    r"""``value`` as a message may echo it: one line, at most ``limit`` characters.

    Strings are quoted (``repr``, so newlines, control characters and lone
    surrogates show as escapes); anything else is its ``repr``. Longer results
    are cut and end in "…". Never raises, whatever the value.

    Examples
    --------
    >>> print(shorten("M99"), shorten("a\nb"), shorten("a\nb", quote=False))
    'M99' 'a\nb' a\nb
    >>> len(shorten("x" * 10_000)), shorten("x" * 10_000)[-1]
    (80, '…')
    >>> shorten(10 ** 100)
    'a 101-digit integer'
    """
    try:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 80:
            text = f"a {len(str(abs(value))) if abs(value) < 10 ** 4000 else 'huge'}-digit integer"
        elif isinstance(value, str):
            head = value[: limit * 4]
            text = repr(head) if quote else repr(head)[1:-1]
            if len(head) < len(value):
                text = text + "…"
        else:
            text = _REPR.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(value: Any, limit: int = 400) -> str:
    r"""An exception's (or any) text on one line, cut at ``limit`` characters.

    >>> one_line(ValueError("a\n  b"))
    'a b'
    """
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class EvaltoolsError(Exception):
    """Base class of every error evaltools raises on purpose."""


class ConfigError(EvaltoolsError, ValueError):
    """A configuration value is unknown or out of range."""


class PipelineNotFoundError(EvaltoolsError, OSError):
    """No English spaCy pipeline is installed."""


class OutputError(EvaltoolsError, OSError):
    """An output file cannot be written where it was asked for (nothing was written)."""


class InputError(EvaltoolsError, ValueError):
    """A record breaks the data contract.

    ``str(err)`` reads like ``runs.jsonl line 17: field 'response' is missing
    (required: query, context, response)``.
    """

    def __init__(self, message: str, *, source: str = "<records>", line: int | None = None,
                 field: str | None = None, unit: str = "line"):
        self.source = source
        self.line = line
        self.field = field
        self.unit = unit
        self.message = message
        where = source if line is None else f"{source} {unit} {line}"
        super().__init__(f"{where}: {message}")


class ClusterError(EvaltoolsError, OSError):
    """A Dask cluster cannot be started or reached (nothing was written)."""


class LLMError(EvaltoolsError, RuntimeError):
    """An LLM judge could not be asked (a refused key, an unknown model, a server that fails).

    ``fatal`` errors (HTTP 401, 403, 404: every request would fail the same way)
    stop a run; the others are kept on the record that met them.
    """

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.fatal = fatal
