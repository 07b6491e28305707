"""A record shape: its fields in order, each with a kind, and what derives from it.

One :class:`Schema` per record shape sits beside its result type
(``evaltools.scoring.result.SCORE_SCHEMA``, ``evaltools.judging.result.JUDGE_SCHEMA``
and ``JUDGE_ROW_SCHEMA``); output order, DataFrame dtypes (Dask's ``meta``),
Parquet kinds and which cells a CSV holds as text are read from it, never
listed again.

Kinds:

========  ==================================  ===========  ============
kind      what the field holds                dtype        Parquet kind
========  ==================================  ===========  ============
id        the record's id (any JSON scalar)   object       str
score     a float (a score in [0, 1], a       float64      float
          total, a probability)
count     a whole number                      Int64        int
number    an int or a float as given          float64      int or float
flag      true, false or null                 object       str
json      a list or an object (JSON text in   object       str
          CSV and Parquet)
text      a string or null                    object       str
========  ==================================  ===========  ============

Examples
--------
>>> s = Schema((("id", "id"), ("relevance", "score"), ("anchors_total", "count"),
...             ("anchors", "json")))
>>> s.names, s.of_kind("score", "count")
(('id', 'relevance', 'anchors_total', 'anchors'), ('relevance', 'anchors_total'))
>>> s.dtypes()
{'id': 'object', 'relevance': 'float64', 'anchors_total': 'Int64', 'anchors': 'object'}
>>> s.parquet_kinds()
{'relevance': {'float'}, 'anchors_total': {'int'}, 'anchors': {'str'}}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: kind -> (pandas dtype, Parquet kinds of :func:`evaltools.io.convert.arrow_type`).
KINDS: dict[str, tuple[str, frozenset[str]]] = {
    "id": ("object", frozenset({"str"})),
    "score": ("float64", frozenset({"float"})),
    "count": ("Int64", frozenset({"int"})),
    "number": ("float64", frozenset({"int", "float"})),
    "flag": ("object", frozenset({"str"})),
    "json": ("object", frozenset({"str"})),
    "text": ("object", frozenset({"str"})),
}

#: The kinds that hold numbers (a CSV cell of one is read back with ``float``).
NUMBER_KINDS = ("score", "count", "number")


@dataclass(frozen=True)
class Schema:
    """The fields of one record shape, in order: ``((name, kind), ...)``."""

    fields: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        names = [n for n, _ in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"a schema names a field twice: {names}")
        unknown = sorted({k for _, k in self.fields} - set(KINDS))
        if unknown:
            raise ValueError(f"unknown field kinds {unknown}; known: {sorted(KINDS)}")

    @property
    def names(self) -> tuple[str, ...]:
        """Every field, in output order."""
        return tuple(n for n, _ in self.fields)

    def of_kind(self, *kinds: str) -> tuple[str, ...]:
        """The fields of these kinds, in output order."""
        return tuple(n for n, k in self.fields if k in kinds)

    def plus(self, *fields: tuple[str, str]) -> Schema:
        """This schema with ``fields`` added after its own."""
        return Schema((*self.fields, *fields))

    def kind(self, name: str) -> str | None:
        return dict(self.fields).get(name)

    def dtypes(self) -> dict[str, str]:
        """Field -> pandas dtype (what a DataFrame of these records holds)."""
        return {n: KINDS[k][0] for n, k in self.fields}

    def parquet_kinds(self, *, skip: Iterable[str] = ("id",)) -> dict[str, set[str]]:
        """Field -> the Parquet kinds its column may have (lists and objects as JSON text)."""
        leave = set(skip)
        return {n: set(KINDS[k][1]) for n, k in self.fields if n not in leave}
