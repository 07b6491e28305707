"""Reading report inputs: detect each record's kind, score or judge raw ones.

A report reads any mix of files. Each record is one of:

``scored``
    has ``verdict`` and ``relevance`` (output of ``evaltools score``): used as is.
``judged``
    has ``total_score`` (output of ``evaltools judge``): used as is.
``judging``
    has ``module``: judged here with :func:`evaltools.judge`.
``scoring``
    has ``query``, ``context`` or ``response``: scored here with
    :func:`evaltools.score_records`.

Anything else breaks the contract: an :class:`~evaltools.errors.InputError`
naming file, line and what was expected, exactly as ``score`` and ``judge``
report bad records. With ``skip_invalid`` such records are kept as results
whose ``error`` says what was wrong.

Examples
--------
>>> record_kind({"id": "a", "relevance": 0.4, "verdict": "WARN"})
'scored'
>>> record_kind({"module": "M04", "output": True, "expected": True})
'judging'
>>> record_kind({"module": "M04", "total_score": 80, "verdict": "PASS"})
'judged'
>>> record_kind({"query": "q", "context": "c", "response": "r"})
'scoring'
>>> record_kind({"name": "x"}) is None
True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.errors import InputError, shorten
from evaltools.io import Unreadable, file_format, read_records, row_unit
from evaltools.io.cells import restore_cells as _restore
from evaltools.io.records import ReadFailed, errors_in_order
from evaltools.judging.registry import DEFAULT_REGISTRY
from evaltools.judging.result import JUDGE_SCHEMA, is_judge_output
from evaltools.judging.stream import judge_stream
from evaltools.schema import NUMBER_KINDS
from evaltools.scoring.result import (
    COUNT_FIELDS,
    SCORED_OUTPUT_SCHEMA,
    VERDICTS,
    is_score_output,
)
from evaltools.scoring.result import SCORE_FIELDS as _SCORE_FIELDS
from evaltools.values import is_finite_number

SCORING_FIELDS = ("query", "context", "response")


def _unique(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f for g in groups for f in g))


@dataclass(frozen=True)
class Item:
    """One result ready for the report: its kind, where it came from, and its dict."""

    kind: str  # "scored" or "judged"
    source: str
    line: int
    record: dict[str, Any]
    recomputed: bool


def record_kind(record: dict[str, Any]) -> str | None:
    """``scored``, ``judged``, ``judging``, ``scoring`` or None (see module doc)."""
    if is_judge_output(record):
        return "judged"
    if is_score_output(record):
        return "scored"
    if "module" in record:
        return "judging"
    if any(f in record for f in SCORING_FIELDS):
        return "scoring"
    return None


def file_sha256(path: str | Path, *, chunk: int = 1 << 20) -> tuple[str, int]:
    """``(hex sha256, size in bytes)`` of a file, read in chunks."""
    h = hashlib.sha256()
    size = 0
    with Path(path).open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size


#: Result fields that CSV and Parquet files hold as text (numbers) or JSON text (lists,
#: objects): ``evaltools score`` / ``judge`` write them so, the report reads them back.
#: Derived from the two result schemas; ``judge_total_score`` (what the judge claimed: any
#: JSON value in the schema) is read back as a number, the judging record's ``judge`` as
#: JSON, the human labels as text; an empty ``module`` stays as written (check_judged
#: names it).
NUMBER_FIELDS = _unique(SCORED_OUTPUT_SCHEMA.of_kind(*NUMBER_KINDS),
                        JUDGE_SCHEMA.of_kind(*NUMBER_KINDS), ("judge_total_score",))
JSON_FIELDS = _unique(SCORED_OUTPUT_SCHEMA.of_kind("json"),
                      tuple(f for f in JUDGE_SCHEMA.of_kind("json") if f not in NUMBER_FIELDS),
                      ("judge",))
#: Result fields whose empty cell means null.
TEXT_FIELDS = _unique(SCORED_OUTPUT_SCHEMA.of_kind("text"),
                      tuple(f for f in JUDGE_SCHEMA.of_kind("text") if f != "module"),
                      ("label_verdict", "label_hallucinated", "label_relevant"))


def restore_cells(record: dict[str, Any], *, source: str, line: int,
                  unit: str = "row") -> dict[str, Any]:
    """A scored or judged record read from CSV or Parquet, with its cells' types back.

    :func:`evaltools.io.cells.restore_cells` over :data:`NUMBER_FIELDS`,
    :data:`JSON_FIELDS` and :data:`TEXT_FIELDS`.

    Examples
    --------
    >>> restore_cells({"relevance": "0.5", "anchors": "[]", "error": "", "x": "7"},
    ...               source="s.csv", line=1)
    {'relevance': 0.5, 'anchors': [], 'error': None, 'x': '7'}
    """
    return _restore(record, numbers=NUMBER_FIELDS, json_fields=JSON_FIELDS,
                    text=TEXT_FIELDS, source=source, line=line, unit=unit)


def _check_number(record: dict[str, Any], name: str, low: float, high: float, *,
                  source: str, line: int, unit: str) -> None:
    v = record.get(name)
    if v is None:
        return
    if not is_finite_number(v):
        numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
        what = f"a finite number, got {shorten(v)}" if numeric \
            else f"a number or null, got {type(v).__name__}"
        raise InputError(f"field '{name}' must be {what}",
                         source=source, line=line, field=name, unit=unit)
    if not low <= v <= high:
        span = f"[{low:g}, {high:g}]" if math.isfinite(high) else f"at least {low:g}"
        raise InputError(f"field '{name}' must be {span}, got {shorten(v)}",
                         source=source, line=line, field=name, unit=unit)


def check_scored(record: dict[str, Any], *, source: str, line: int, unit: str = "line") -> None:
    """Raise InputError when an already-scored record has a field of the wrong type.

    Scores (and ``hallucination_probability``) must lie in [0, 1] and anchor
    counts be non-negative, as ``evaltools score`` writes them: a value out of
    range (``1e308``) is a damaged or hand-edited file, not a score to average.
    """
    for name in (*_SCORE_FIELDS, "hallucination_probability"):
        _check_number(record, name, 0.0, 1.0, source=source, line=line, unit=unit)
    for name in COUNT_FIELDS:
        _check_number(record, name, 0.0, math.inf, source=source, line=line, unit=unit)
    v = record.get("verdict")
    if v is not None and v not in VERDICTS:
        raise InputError(f"field 'verdict' must be PASS, WARN, FAIL or null, got {shorten(v)}",
                         source=source, line=line, field="verdict", unit=unit)
    reasons = record.get("reasons")
    if reasons is not None and not isinstance(reasons, list):
        raise InputError(f"field 'reasons' must be a list of texts, got {type(reasons).__name__}",
                         source=source, line=line, field="reasons", unit=unit)
    anchors = record.get("anchors")
    if anchors is not None and (not isinstance(anchors, list)
                                or not all(isinstance(a, dict) for a in anchors)):
        raise InputError("field 'anchors' must be a list of objects",
                         source=source, line=line, field="anchors", unit=unit)


def check_judged(record: dict[str, Any], *, source: str, line: int, unit: str = "line",
                 registry=None) -> None:
    """Raise InputError when an already-judged record has a field of the wrong type.

    ``module`` must name a module of the judge registry (the shipped one when
    ``registry`` is None).
    """
    module = record.get("module")
    known = (registry if registry is not None else DEFAULT_REGISTRY).ids
    if module is not None and known and module not in known:
        raise InputError(f"field 'module' must be one of {', '.join(known)}, got {shorten(module)}",
                         source=source, line=line, field="module", unit=unit)
    _check_number(record, "total_score", 0.0, 100.0, source=source, line=line, unit=unit)
    ev = record.get("evaluation")
    if ev is not None and not isinstance(ev, dict):
        raise InputError("field 'evaluation' must be an object",
                         source=source, line=line, field="evaluation", unit=unit)


def _error_record(record: dict[str, Any], ordinal: int, message: str, kind: str) -> dict:
    out = {"id": record.get("id", ordinal), "error": message}
    if kind == "scored":
        out.update({"verdict": None, "relevance": None})
    else:
        out.update({"module": record.get("module"), "total_score": None, "verdict": None})
    return out


def iter_items(path: str | Path, *, scorer=None, registry=None,
               skip_invalid: bool = False,
               columns: Mapping[str, str] | None = None) -> Iterator[Item]:
    """Stream the report items of one file, scoring and judging raw records.

    Raw scoring records go through ``scorer.stream`` (the same validation,
    chunking and messages as ``evaltools score``); raw judging records through
    :func:`evaltools.judging.stream.judge_stream` (as ``evaltools judge``).

    Parameters
    ----------
    path : str or Path
        A .jsonl, .csv or .parquet file.
    scorer : evaltools.scoring.scorer.ResponseScorer, optional
        Scores raw scoring records; the default scorer when None.
    registry : evaltools.judging.registry.Registry, optional
        Judges raw judging records and names the known modules; the shipped
        registry when None.
    skip_invalid : bool
        Keep invalid records (unreadable lines too) as error results instead
        of stopping.
    columns : mapping, optional
        Input columns renamed to fields as they are read (``--map``).

    Raises
    ------
    InputError
        The file or a record breaks the contract (unless ``skip_invalid``).
    """
    from evaltools.scoring.scorer import default_scorer

    p = Path(path)
    name = p.name
    unit = row_unit(p)
    as_text = file_format(p) != "jsonl"  # CSV and Parquet: nested values are JSON text
    scorer = scorer if scorer is not None else default_scorer()
    registry = registry if registry is not None else DEFAULT_REGISTRY
    pending: list[tuple[int, dict[str, Any]]] = []

    def flush() -> Iterator[Item]:
        if not pending:
            return
        batch = list(pending)
        pending.clear()
        for line, rec, res in scorer.stream(batch, source=name, unit=unit,
                                            skip_invalid=skip_invalid):
            yield Item("scored", name, line, {**rec, **res.to_dict()}, True)

    ordinal = 0
    for line, rec in errors_in_order(read_records(p, skip_invalid=skip_invalid,
                                                  limits=scorer.config.input,
                                                  columns=columns)):
        if isinstance(rec, ReadFailed):  # earlier records first: errors in file order
            yield from flush()
            raise rec.error
        ordinal += 1
        if isinstance(rec, Unreadable):  # only under skip_invalid
            yield from flush()
            yield Item("scored", name, line, _error_record({}, ordinal, rec.message, "scored"),
                       False)
            continue
        kind = record_kind(rec)
        try:
            if kind is None:
                raise InputError(
                    "record is neither a scoring record (fields query, context, response), "
                    "a judging record (field module), nor a scored or judged result",
                    source=name, line=line, unit=unit)
            if kind == "scoring":
                pending.append((line, rec if "id" in rec else {"id": ordinal, **rec}))
                if len(pending) >= scorer.config.batch.chunk_size:
                    yield from flush()
                continue
            if as_text and kind in ("scored", "judged"):
                rec = restore_cells(rec, source=name, line=line, unit=unit)
            if kind == "scored":
                check_scored(rec, source=name, line=line, unit=unit)
                yield Item("scored", name, line, rec, False)
            elif kind == "judged":
                check_judged(rec, source=name, line=line, unit=unit, registry=registry)
                yield Item("judged", name, line, rec, False)
            else:
                yield from flush()
                ((_, _, res),) = judge_stream([(line, rec)], registry=registry, source=name,
                                              unit=unit, skip_invalid=skip_invalid)
                yield Item("judged", name, line, {**rec, **res.to_dict()}, True)
        except InputError as err:
            if not skip_invalid:
                raise
            yield from flush()
            out_kind = "judged" if kind in ("judging", "judged") else "scored"
            yield Item(out_kind, name, line, _error_record(rec, ordinal, err.message, out_kind),
                       False)
    yield from flush()
