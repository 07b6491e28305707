"""A run's score statistics: verdict mix, score means and ranges, anchors by kind, and
agreement with human labels if present, accumulated one record at a time.

:class:`ScoreStats` is mergeable (``a + b``, or ``a.merge(b)`` in place), so
partitions, files and notebook frames are counted the same way; the CLI
summary, the report's anchor table and the exploration notebook all read it.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltools.scoring.result import VERDICT_SCORES, VERDICTS
from evaltools.values import as_records, finite_float

#: The scores whose means ``evaltools score`` prints (of ``scoring.result.SCORE_FIELDS``).
SUMMARY_SCORES = (*VERDICT_SCORES, "claims_score", "ngram_overlap", "support")
#: How much of an anchor kind is kept (a kind is a short word: number, date, claim).
_KIND_CHARS = 20


#: How a summary names an anchor kind: the ``date`` kind holds times too (``9am``,
#: ``15:00``), so a table says "date/time".
KIND_LABELS = {"date": "date/time"}


def kind_label(kind: str) -> str:
    """The name a table shows for an anchor kind.

    >>> kind_label("date"), kind_label("number")
    ('date/time', 'number')
    """
    return KIND_LABELS.get(kind, kind)


@dataclass
class AnchorCounts:
    """Anchors per kind, mergeable (``a + b``): the one count of "anchors by kind".

    ``total`` counts the anchors in ``anchors_total`` (``counted`` is not False),
    ``unsupported`` those of them the context does not support, ``not_counted``
    the numbers and dates restated from the query (left out of the total).
    ``ScoreStats`` (the CLI summary, the notebooks) and the report both count
    with it.

    Examples
    --------
    >>> c = AnchorCounts()
    >>> c.add([{"kind": "number", "supported": False}, {"kind": "number", "supported": True},
    ...        {"kind": "date", "supported": True, "counted": False}])
    >>> dict(c.total), dict(c.unsupported), dict(c.not_counted)
    ({'number': 2}, {'number': 1}, {'date': 1})
    >>> (c + c).by_kind()
    {'number': (4, 2)}
    """

    total: Counter = field(default_factory=Counter)
    unsupported: Counter = field(default_factory=Counter)
    not_counted: Counter = field(default_factory=Counter)

    def add(self, anchors: Any) -> None:
        """Count one record's ``anchors`` (a list of anchor dicts; anything else counts none)."""
        if anchors is None or isinstance(anchors, (str, bytes, dict)) \
                or not hasattr(anchors, "__iter__"):
            return
        for a in anchors:
            if not isinstance(a, dict):
                continue
            kind = str(a.get("kind") or "anchor")
            kind = kind if len(kind) <= _KIND_CHARS else kind[: _KIND_CHARS - 1] + "…"
            if a.get("counted", True) is False:  # restated from the query: not in A_total
                self.not_counted[kind] += 1
                continue
            self.total[kind] += 1
            if not a.get("supported"):
                self.unsupported[kind] += 1

    def merge(self, other: AnchorCounts) -> None:
        """Add ``other``'s counts, in place."""
        self.total.update(other.total)
        self.unsupported.update(other.unsupported)
        self.not_counted.update(other.not_counted)

    def __add__(self, other: AnchorCounts) -> AnchorCounts:
        if not isinstance(other, AnchorCounts):
            return NotImplemented
        out = AnchorCounts()
        out.merge(self)
        out.merge(other)
        return out

    def kinds(self) -> list[str]:
        """Every kind met, counted or not, sorted."""
        return sorted(set(self.total) | set(self.not_counted))

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """Counted kinds: (total, unsupported), sorted by kind."""
        return {k: (self.total[k], self.unsupported[k]) for k in sorted(self.total)}


@dataclass(frozen=True)
class RunSummary:
    records: int
    errors: int
    verdicts: dict[str, int]
    means: dict[str, float]
    anchors_total: int
    anchors_unsupported: int
    labelled_verdicts: int = 0
    verdict_agreement: int = 0
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: counts of (human verdict, evaltools verdict) pairs, for
    #: :func:`evaltools.calibration.agreement.agreement_from_pairs`
    verdict_pairs: dict[tuple[str, str], int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"records": self.records, "errors": self.errors, "verdicts": dict(self.verdicts),
                "means": dict(self.means), "anchors_total": self.anchors_total,
                "anchors_unsupported": self.anchors_unsupported,
                "anchors_by_kind": {k: {"total": t, "unsupported": u}
                                    for k, (t, u) in self.by_kind.items()},
                "labelled_verdicts": self.labelled_verdicts,
                "verdict_agreement": self.verdict_agreement}


class ScoreStats:
    """Accumulates scored records one at a time (constant memory); ``+`` merges two.

    Examples
    --------
    >>> b = ScoreStats()
    >>> b.add({"verdict": "PASS", "relevance": 0.5, "completeness": 1.0, "hallucination": 0.0,
    ...        "claims_score": 0.0, "ngram_overlap": 1.0, "support": 1.0, "anchors": [],
    ...        "label_verdict": "PASS"})
    >>> s = b.build()
    >>> s.verdicts["PASS"], s.means["relevance"], s.verdict_agreement
    (1, 0.5, 1)
    """

    def __init__(self) -> None:
        self._n = 0
        self._errors = 0
        self._verdicts: Counter[str] = Counter()
        self._sums: Counter[str] = Counter()
        self._seen: Counter[str] = Counter()
        self.anchors = AnchorCounts()
        self._labelled = 0
        self._agree = 0
        self._pairs: Counter[tuple[str, str]] = Counter()
        self._min: dict[str, float] = {}
        self._max: dict[str, float] = {}

    @classmethod
    def of(cls, records) -> ScoreStats:
        """The statistics of scored records: dicts, or a DataFrame from ``score_frame``.

        >>> s = ScoreStats.of([{"verdict": "FAIL", "relevance": 0.2, "completeness": 0.5,
        ...     "hallucination": 1.0, "claims_score": 1.0, "ngram_overlap": 0.1,
        ...     "anchors": [{"kind": "price", "supported": False}]}])
        >>> s.verdict_table().to_dict("index")["FAIL"]
        {'records': 1, 'share': 1.0}
        """
        stats = cls()
        for rec in as_records(records):
            stats.add(rec)
        return stats

    def add(self, out: Mapping[str, Any]) -> None:
        """Count one scored record; a score that is not a finite number is left out of
        its mean (a field older outputs lack, such as ``support``), a verdict that is
        not text is counted under None."""
        self._n += 1
        if out.get("error"):
            self._errors += 1
            return
        verdict = out.get("verdict")
        self._verdicts[verdict if isinstance(verdict, str) and verdict else None] += 1
        for f in SUMMARY_SCORES:
            v = finite_float(out.get(f))
            if v is None:
                continue
            self._seen[f] += 1
            self._sums[f] += v
            self._min[f] = min(self._min.get(f, v), v)
            self._max[f] = max(self._max.get(f, v), v)
        self.anchors.add(out.get("anchors"))
        label = out.get("label_verdict")
        if isinstance(label, str) and label.upper() in VERDICTS:
            self._labelled += 1
            self._agree += label.upper() == verdict
            self._pairs[(label.upper(), verdict)] += 1

    @property
    def records(self) -> int:
        """Records added, errors included."""
        return self._n

    @property
    def errors(self) -> int:
        """Records added with an ``error``."""
        return self._errors

    def verdict_counts(self) -> Counter:
        """Records per verdict as written (any text; None: no verdict), errors left out."""
        return Counter(self._verdicts)

    def merge(self, other: ScoreStats) -> None:
        """Add the records ``other`` accumulated (one builder a partition, merged at the end)."""
        self._n += other._n
        self._errors += other._errors
        self._verdicts.update(other._verdicts)
        self._sums.update(other._sums)
        self._seen.update(other._seen)
        self.anchors.merge(other.anchors)
        self._labelled += other._labelled
        self._agree += other._agree
        self._pairs.update(other._pairs)
        for f, v in other._min.items():
            self._min[f] = min(self._min.get(f, v), v)
        for f, v in other._max.items():
            self._max[f] = max(self._max.get(f, v), v)

    def __add__(self, other: ScoreStats) -> ScoreStats:
        """The statistics of both runs together (neither operand changes).

        >>> a, b = ScoreStats(), ScoreStats()
        >>> a.add({"verdict": "PASS", "relevance": 1.0, "completeness": 1.0,
        ...        "hallucination": 0.0, "claims_score": 0.0, "ngram_overlap": 1.0})
        >>> b.add({"error": "field 'query' is missing"})
        >>> (a + b).build().records, a.build().records
        (2, 1)
        """
        if not isinstance(other, ScoreStats):
            return NotImplemented
        out = copy.deepcopy(self)
        out.merge(other)
        return out

    # -- tables (pandas) -----------------------------------------------------------

    def verdict_table(self):
        """Records and share per verdict (PASS, WARN, FAIL), over the valid records."""
        import pandas as pd

        scored = self._n - self._errors
        rows = {v: {"records": self._verdicts[v],
                    "share": round(self._verdicts[v] / scored, 3) if scored else None}
                for v in VERDICTS}
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("verdict")

    def score_table(self):
        """Mean, minimum and maximum of each score over the valid records."""
        import pandas as pd

        seen = self._seen
        rows = {f: {"mean": round(self._sums[f] / seen[f], 3) if seen[f] else None,
                    "min": self._min.get(f), "max": self._max.get(f)} for f in SUMMARY_SCORES}
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("score")

    def anchor_table(self):
        """Counted anchors per kind: supported, unsupported and total, with a total row."""
        import pandas as pd

        rows = {kind_label(k): {"supported": t - u, "unsupported": u, "total": t}
                for k, (t, u) in self.anchors.by_kind().items()}
        rows["total"] = {c: sum(r[c] for r in rows.values())
                         for c in ("supported", "unsupported", "total")}
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("kind")

    def build(self) -> RunSummary:
        means = {f: self._sums[f] / self._seen[f] for f in SUMMARY_SCORES if self._seen[f]}
        return RunSummary(
            records=self._n, errors=self._errors,
            verdicts={v: self._verdicts[v] for v in VERDICTS}, means=means,
            anchors_total=sum(self.anchors.total.values()),
            anchors_unsupported=sum(self.anchors.unsupported.values()),
            labelled_verdicts=self._labelled, verdict_agreement=self._agree,
            by_kind=self.anchors.by_kind(),
            verdict_pairs=dict(self._pairs))


# ----------------------------------------------------------------------------- rankings


def worst_key(record: Mapping[str, Any]) -> tuple[int, float, float, float]:
    """How bad a scored record is, as a sort key (larger is worse).

    The verdict first (FAIL over WARN over PASS over none), then the
    hallucination score, then the lower relevance, then the lower
    completeness; a missing or non-numeric score counts as the best value.
    The report's worst cases and :func:`worst_cases` rank by it.

    >>> worst_key({"verdict": "WARN", "hallucination": 0.5, "relevance": 0.25})
    (2, 0.5, -0.25, -1.0)
    """
    verdict = record.get("verdict")
    rank = VERDICTS.index(verdict) + 1 if verdict in VERDICTS else 0  # best first
    hall, rel, comp = (finite_float(record.get(n))
                       for n in ("hallucination", "relevance", "completeness"))
    return (rank, hall or 0.0,
            -(rel if rel is not None else 1.0), -(comp if comp is not None else 1.0))


def _ranked(records, keep, key, k: int):
    """The first ``k`` records ``keep`` accepts, worst ``key`` first, ties in input order;
    a DataFrame gives a DataFrame (its rows), records a list."""
    rows = as_records(records)
    order = sorted((i for i, r in enumerate(rows) if keep(r)),
                   key=lambda i: key(rows[i]), reverse=True)
    # sorted(reverse=True) keeps ties in input order (it is stable)
    order = order[:k]
    if hasattr(records, "iloc"):
        return records.iloc[order]
    return [rows[i] for i in order]


def worst_cases(records, k: int = 5):
    """The ``k`` worst scored records by :func:`worst_key` (errors left out), worst first.

    >>> recs = [{"id": 1, "verdict": "PASS", "hallucination": 0.0},
    ...         {"id": 2, "verdict": "FAIL", "hallucination": 0.2},
    ...         {"id": 3, "verdict": "FAIL", "hallucination": 0.9},
    ...         {"id": 4, "error": "field 'query' is missing"}]
    >>> [r["id"] for r in worst_cases(recs, 2)]
    [3, 2]
    """
    return _ranked(records, lambda r: not r.get("error"), worst_key, k)


def partly_supported(records, k: int = 5):
    """The ``k`` records with some anchors supported and some not, highest hallucination first.

    >>> recs = [{"id": 1, "anchors_total": 2, "anchors_unsupported": 1, "hallucination": 0.5},
    ...         {"id": 2, "anchors_total": 2, "anchors_unsupported": 2, "hallucination": 1.0},
    ...         {"id": 3, "anchors_total": 3, "anchors_unsupported": 1, "hallucination": 0.7}]
    >>> [r["id"] for r in partly_supported(recs)]
    [3, 1]
    """
    def mixed(r: Mapping[str, Any]) -> bool:
        bad, total = finite_float(r.get("anchors_unsupported")), finite_float(
            r.get("anchors_total"))
        return bad is not None and total is not None and 0 < bad < total

    return _ranked(records, mixed, lambda r: finite_float(r.get("hallucination")) or 0.0, k)

