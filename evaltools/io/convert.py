"""Format conversion: staged JSON Lines to CSV or Parquet, and values to Arrow types.

One value-kind to Arrow-type rule (:func:`value_kind`, :func:`arrow_type`)
serves a single Parquet output and the parts of a scaled run alike; CSV cells
that a spreadsheet would run as formulas are neutralised
(:func:`neutralise_formula`).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: What the CSV writer prefixes a cell with when it would start a formula (OWASP).
FORMULA_PREFIX = "'"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _flat(v: Any) -> Any:
    if isinstance(v, (list, dict, tuple)):
        return json.dumps(v, ensure_ascii=False)
    return v


def neutralise_formula(cell: Any) -> Any:
    """A CSV cell a spreadsheet will show as text, not run as a formula.

    Text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return gets a leading ``'`` (OWASP); numbers and other text are unchanged.

    >>> neutralise_formula("=HYPERLINK(1)"), neutralise_formula("-1"), neutralise_formula(-1)
    ("'=HYPERLINK(1)", "'-1", -1)
    """
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return FORMULA_PREFIX + cell
    return cell


def _columns(stage: Path) -> list[str]:
    cols: dict[str, None] = {}
    with stage.open(encoding="utf-8") as fh:
        for line in fh:
            for k in json.loads(line):
                cols.setdefault(k, None)
    return list(cols)


def jsonl_to_csv(stage: Path, out: Path, *, raw: bool = False) -> None:
    cols = _columns(stage)
    cell = (lambda v: v) if raw else neutralise_formula
    with stage.open(encoding="utf-8") as src, out.open("w", encoding="utf-8", newline="") as dst:
        w = csv.writer(dst)
        w.writerow([cell(c) for c in cols])
        for line in src:
            rec = json.loads(line)
            w.writerow([cell("" if rec.get(k) is None else _flat(rec.get(k))) for k in cols])


def value_kind(v: Any) -> str | None:
    """The Parquet kind of one value: ``bool``, ``int``, ``float``, ``str`` (lists, objects
    and integers beyond int64 are text), or None for a null (None or NaN).

    >>> value_kind(True), value_kind(2**70), value_kind(float("nan")), value_kind([1])
    ('bool', 'str', None, 'str')
    """
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int" if -(2**63) <= v < 2**63 else "str"  # beyond int64: a text column
    if isinstance(v, float):
        return "float"
    return "str"


def note_kinds(kinds: dict[str, set[str]], rec: Mapping[str, Any]) -> None:
    """Add the kind of each of ``rec``'s values to ``kinds`` (column -> kinds seen)."""
    for k, v in rec.items():
        ks = kinds.setdefault(k, set())
        kind = value_kind(v)
        if kind:
            ks.add(kind)


def arrow_type(kinds: set[str]):
    """The Parquet column type for values of these kinds.

    >>> str(arrow_type({"int"})), str(arrow_type({"int", "float"})), str(arrow_type(set()))
    ('int64', 'double', 'string')
    """
    import pyarrow as pa

    if kinds == {"bool"}:
        return pa.bool_()
    if kinds == {"int"}:
        return pa.int64()
    if kinds and kinds <= {"int", "float"}:
        return pa.float64()
    return pa.string()


def arrow_value(t, v: Any) -> Any:
    """``v`` as a column of Arrow type ``t`` holds it: lists and objects as JSON text,
    numbers as floats in a float column, NaN as null outside one."""
    import pyarrow as pa

    if v is None or (isinstance(v, float) and math.isnan(v) and t != pa.float64()):
        return None
    if t == pa.string():
        return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    if t == pa.float64():
        return float(v)
    return v


def jsonl_to_parquet(stage: Path, out: Path, batch_size: int = 4096) -> None:
    """Convert a staged JSON Lines file to Parquet, each column typed by the kinds it holds."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = _columns(stage)
    kinds: dict[str, set[str]] = {c: set() for c in cols}
    with stage.open(encoding="utf-8") as fh:
        for line in fh:
            note_kinds(kinds, json.loads(line))
    types = {c: arrow_type(kinds[c]) for c in cols}
    schema = pa.schema([(c, types[c]) for c in cols])
    with stage.open(encoding="utf-8") as fh, pq.ParquetWriter(out, schema) as pw:
        batch: list[dict[str, Any]] = []
        for line in fh:
            rec = json.loads(line)
            batch.append({c: arrow_value(types[c], rec.get(c)) for c in cols})
            if len(batch) >= batch_size:
                pw.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or pw is not None:
            pw.write_table(pa.Table.from_pylist(batch, schema=schema))
