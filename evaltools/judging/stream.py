"""Judging a stream of numbered records: the one skip-invalid loop.

:func:`judge_stream` is to judging what
:func:`evaltools.scoring.stream.score_stream` is to scoring: it takes
``(line, record)`` pairs (as :func:`evaltools.io.read_records` yields them,
unreadable lines included under ``skip_invalid``) and yields
``(line, record, result)``. The CLI, the report, :func:`judge_records` and
:func:`judge_frame` all judge through it.

Examples
--------
>>> pairs = [(1, {"module": "M15", "output": "yes", "expected": True}),
...          (2, {"module": "M15", "output": ["yes"], "expected": True})]
>>> [(line, r.verdict, r.error is not None)
...  for line, _, r in judge_stream(pairs, skip_invalid=True)]
[(1, 'FAIL', False), (2, None, True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from evaltools.errors import InputError
from evaltools.io.records import Unreadable
from evaltools.judging.api import error_result, judge
from evaltools.judging.registry import DEFAULT_REGISTRY, Registry
from evaltools.judging.result import JudgeResult


def judge_stream(numbered: Iterable[tuple[int, Any]], *, registry: Registry | None = None,
                 source: str = "<records>", unit: str = "line", skip_invalid: bool = False,
                 ) -> Iterator[tuple[int, Mapping[str, Any], JudgeResult]]:
    """Yield ``(line, record, result)`` for ``(line, record)`` pairs, in order.

    Parameters
    ----------
    numbered : iterable of (int, record)
        Records with the line (or row) each came from.
    registry : Registry, optional
        Modules and thresholds; the shipped registry when None.
    source, unit : str
        For error messages: the file name and ``"line"`` or ``"row"``.
    skip_invalid : bool
        False: a bad record raises :class:`~evaltools.errors.InputError`.
        True: it yields a result with ``error`` set (an unreadable line
        yields an empty record), and judging goes on.
    """
    reg = registry if registry is not None else DEFAULT_REGISTRY
    for line, rec in numbered:
        if isinstance(rec, Unreadable):  # read under skip_invalid: not a record at all
            yield line, {}, error_result(None, rec.message, line=line, registry=reg)
            continue
        try:
            result = judge(rec, source=source, line=line, unit=unit, registry=reg)
        except InputError as exc:
            if not skip_invalid:
                raise
            result = error_result(rec, exc.message, line=line, registry=reg)
        yield line, rec, result


def judge_records(records: Iterable[Any], *, source: str = "<records>", unit: str = "line",
                  skip_invalid: bool = False,
                  registry: Registry | None = None) -> Iterator[JudgeResult]:
    """Judge records one at a time (a generator: any number of records, bounded memory).

    Parameters
    ----------
    records : iterable
        Record mappings (numbered 1, 2, ...), or ``(line, record)`` pairs as
        :func:`evaltools.io.read_records` yields them.
    source, unit : str
        For error messages: the file name, and ``"line"`` or ``"row"``.
    skip_invalid : bool
        False: the first bad record raises :class:`~evaltools.errors.InputError`.
        True: a bad record yields a result with ``error`` set, and judging goes on.
    registry : Registry, optional

    Yields
    ------
    JudgeResult

    Examples
    --------
    >>> recs = [{"module": "M15", "output": "yes", "expected": True},
    ...         {"module": "M15", "output": ["yes"], "expected": True}]
    >>> [(r.id, r.verdict, r.error) for r in judge_records(recs, skip_invalid=True)]
    [(1, 'FAIL', None), (2, None, "field 'output' must be a boolean (true/false, yes/no, 1/0), \
got list (module M15 is boolean)")]
    """
    numbered = (item if (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], int)
                         and not isinstance(item[0], bool)) else (n, item)
                for n, item in enumerate(records, start=1))
    for _, _, result in judge_stream(numbered, registry=registry, source=source, unit=unit,
                                     skip_invalid=skip_invalid):
        yield result


def judge_frame(df, *, skip_invalid: bool = False, registry: Registry | None = None):
    """Judge every row of a DataFrame: its columns, then the result's flat columns.

    The result columns are those of :meth:`JudgeResult.to_row`; where a name
    is also an input column (``id``, ``module``), the result's value is kept.
    Missing values (NaN) count as absent fields.

    Parameters
    ----------
    df : pandas.DataFrame
        One record a row (columns as in ``data/README.md``; list/object cells
        may be Python objects or JSON text).
    skip_invalid : bool
        As in :func:`judge_records`; errors name the 1-based row.
    registry : Registry, optional

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"module": ["M12b", "M02"], "output": ["S", "COMPETITOR"],
    ...                    "expected": ["S", "OWN"]})
    >>> out = judge_frame(df)
    >>> out[["module", "correctness_score", "match_level", "verdict"]].to_dict("records")
    [{'module': 'M12b', 'correctness_score': 40, 'match_level': 'EXACT', 'verdict': 'FAIL'}, \
{'module': 'M02', 'correctness_score': 20, 'match_level': 'PARTIAL', 'verdict': 'FAIL'}]
    """
    import pandas as pd

    records = df.to_dict("records")
    rows = [r.to_row() for r in judge_records(records, source="<DataFrame>", unit="row",
                                              skip_invalid=skip_invalid, registry=registry)]
    result = pd.DataFrame(rows, index=df.index,
                          columns=list(rows[0]) if rows else list(_ROW_COLUMNS))
    keep = [c for c in df.columns if c not in result.columns]
    return pd.concat([df[keep], result], axis=1)


_ROW_COLUMNS = tuple(error_result({}, "").to_row())
