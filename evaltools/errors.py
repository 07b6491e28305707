"""Errors that users see. Each message says where and what to do next."""

from __future__ import annotations


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
